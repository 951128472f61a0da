"""What RL users routinely do with a Gymnasium env, on labenv's: action
repeat, one observation as a plain Box, float32, make's time limit,
RecordVideo, unwrapped, the same episodes from the same seed in another
process, and AsyncVectorEnv with the spawn context."""

import os
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import labenv
from labenv_testing import TEST_LEVEL, config

SMALL = {"width": "32", "height": "24"}
POSITION = "DEBUG.POS.TRANS"


def _forward(env):
    action = np.zeros(env.action_space.shape, np.int32)
    action[3] = 1  # MOVE_BACK_FORWARD
    return action


def test_frame_skip_repeats_the_action_and_sums_the_rewards():
    # The test level: apples straight ahead, +1 each.
    skipped = labenv.gym.Lab(TEST_LEVEL, [POSITION], config(), frame_skip=4)
    single = labenv.gym.Lab(TEST_LEVEL, [POSITION], config())
    skipped.reset(seed=5)
    single.reset(seed=5)
    assert skipped.metadata["render_fps"] == single.metadata["render_fps"] / 4
    total_skipped = total_single = 0.0
    for _ in range(10):
        observation, reward, *_ = skipped.step(_forward(skipped))
        total_skipped += reward
        summed = sum(single.step(_forward(single))[1] for _ in range(4))
        assert reward == summed
        total_single += summed
        np.testing.assert_array_equal(observation[POSITION], single.lab.observations()[POSITION])
    assert total_skipped > 0


def test_frame_skip_in_the_vector_form_matches_the_single_envs():
    envs = labenv.gym.VectorLab(TEST_LEVEL, 2, [POSITION], config(), frame_skip=3)
    single = labenv.gym.Lab(TEST_LEVEL, [POSITION], config(), frame_skip=3)
    envs.reset(seed=7)
    single.lab.reset(seed=7)  # env 0's first engine seed is the base seed
    actions = np.stack([_forward(single)] * 2)
    for _ in range(5):
        observations, rewards, *_ = envs.step(actions)
        _, reward, *_ = single.step(_forward(single))
        assert rewards[0] == reward
        np.testing.assert_array_equal(observations[POSITION][0],
                                      single.lab.observations()[POSITION])
    envs.close()


@pytest.mark.parametrize("frame_skip", [0, -1, 1.5, True, "4"])
def test_a_bad_frame_skip_is_refused(frame_skip):
    with pytest.raises(ValueError, match="frame_skip must be an int >= 1"):
        labenv.gym.Lab("demo_maze", config=SMALL, frame_skip=frame_skip)


def test_one_observation_is_a_plain_box():
    env = labenv.gym.Lab("demo_maze", "GOAL_DIRECTION", SMALL)
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    observation, _ = env.reset(seed=0)
    assert observation.shape == (2,) and env.observation_space.contains(observation)
    envs = labenv.gym.VectorLab("demo_maze", 2, "RGB_INTERLEAVED", SMALL)
    observations, _ = envs.reset(seed=0)
    assert observations.shape == (2, 24, 32, 3)
    assert envs.observation_space.contains(observations)
    envs.close()


def test_float32_turns_doubles_into_float32_and_leaves_bytes():
    env = labenv.gym.Lab("demo_maze", ["GOAL_DIRECTION", "RGB_INTERLEAVED"], SMALL,
                         float32=True)
    assert env.observation_space["GOAL_DIRECTION"].dtype == np.float32
    assert env.observation_space["RGB_INTERLEAVED"].dtype == np.uint8
    observation, _ = env.reset(seed=0)
    assert observation["GOAL_DIRECTION"].dtype == np.float32
    assert env.observation_space.contains(observation)
    exact = env.lab.observations()["GOAL_DIRECTION"]
    np.testing.assert_array_equal(observation["GOAL_DIRECTION"], exact.astype(np.float32))
    from gymnasium.utils.env_checker import check_env

    check_env(env)


def test_make_with_max_episode_steps_and_unwrapped():
    env = gymnasium.make("labenv/demo_maze-v0", config=SMALL, max_episode_steps=7)
    assert isinstance(env.unwrapped, labenv.gym.Lab)
    env.reset(seed=0)
    steps = 0
    while True:
        steps += 1
        *_, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            break
    assert steps == 7 and truncated


def test_record_video_writes_an_episode(tmp_path):
    from gymnasium.wrappers import RecordVideo

    env = gymnasium.make("labenv/demo_maze-v0", config=SMALL, render_mode="rgb_array",
                         max_episode_steps=20)
    env = RecordVideo(env, str(tmp_path), episode_trigger=lambda episode: True,
                      disable_logger=True)
    env.reset(seed=0)
    for _ in range(20):
        *_, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            break
    env.close()
    videos = [name for name in os.listdir(tmp_path) if name.endswith(".mp4")]
    assert videos and os.path.getsize(tmp_path / videos[0]) > 0


_EPISODE = """
import sys
import numpy as np
import labenv
env = labenv.gym.Lab("demo_maze", ["DEBUG.POS.TRANS"], {"width": "32", "height": "24"},
                     action_set="dmlab_default")
env.reset(seed=int(sys.argv[1]))
env.action_space.seed(int(sys.argv[1]))
trace = []
for _ in range(40):
    observation, reward, *_ = env.step(env.action_space.sample())
    trace.append(np.append(observation["DEBUG.POS.TRANS"], reward))
env.reset()
trace.append(env.lab.observations()["DEBUG.POS.TRANS"])
np.save(sys.argv[2], np.concatenate(trace))
"""


def test_the_same_seed_gives_the_same_episodes_in_another_process(tmp_path):
    runs = []
    for run in range(2):
        out = str(tmp_path / "run{}.npy".format(run))
        subprocess.run([sys.executable, "-c", _EPISODE, "11", out], check=True)
        runs.append(np.load(out))
    np.testing.assert_array_equal(runs[0], runs[1])


def _make_small():
    return labenv.gym.Lab("demo_maze", ["RGB_INTERLEAVED"], SMALL, action_set="dmlab_default")


def test_async_vector_env_with_the_spawn_context():
    envs = gymnasium.vector.AsyncVectorEnv([_make_small] * 2, context="spawn")
    observations, _ = envs.reset(seed=0)
    assert observations["RGB_INTERLEAVED"].shape == (2, 24, 32, 3)
    observations, rewards, *_ = envs.step(np.array([0, 1]))
    assert rewards.shape == (2,)
    envs.close()


def test_spaces_carry_the_bounds_the_level_declares():
    # demo_maze declares GRAY_HALF in [0, 1] and GOAL_DIRECTION in [-1, 1].
    names = ["GRAY_HALF", "GOAL_DIRECTION", "RGB_INTERLEAVED", POSITION]
    specs = {spec["name"]: spec for spec in labenv.Lab("demo_maze", names, SMALL)
             .observation_spec()}
    assert (specs["GRAY_HALF"]["min"], specs["GRAY_HALF"]["max"]) == (0.0, 1.0)
    assert "min" not in specs[POSITION] and "min" not in specs["RGB_INTERLEAVED"]
    for float32 in (False, True):
        env = labenv.gym.Lab("demo_maze", names, SMALL, float32=float32)
        space = env.observation_space
        assert (space["GRAY_HALF"].low.min(), space["GRAY_HALF"].high.max()) == (0, 1)
        assert (space["GOAL_DIRECTION"].low.min(), space["GOAL_DIRECTION"].high.max()) == (-1, 1)
        assert space["RGB_INTERLEAVED"].low.min() == 0 and space["RGB_INTERLEAVED"].high.max() == 255
        assert np.isinf(space[POSITION].high).all()
        env.reset(seed=0)
        env.action_space.seed(0)
        for _ in range(50):
            observation, *_ = env.step(env.action_space.sample())
            assert space.contains(observation)
    spec = labenv.dm_env.Lab("demo_maze", names, SMALL).observation_spec()
    assert (spec["GOAL_DIRECTION"].minimum, spec["GOAL_DIRECTION"].maximum) == (-1, 1)
    assert not hasattr(spec[POSITION], "minimum")


def test_gymnasiums_max_and_skip_takes_one_observation_as_a_box():
    env = gymnasium.wrappers.MaxAndSkipObservation(
        labenv.gym.Lab("demo_maze", "RGB_INTERLEAVED", SMALL, action_set="dmlab_default"), skip=4)
    observation, _ = env.reset(seed=0)
    observation, reward, *_ = env.step(1)
    assert observation.shape == (24, 32, 3) and env.observation_space.contains(observation)


_MODULE_ID = """
import sys
import gymnasium
assert "labenv" not in sys.modules
env = gymnasium.make("labenv:labenv/demo_maze-v0", config={"width": "32", "height": "24"})
assert type(env.unwrapped).__module__ == "labenv.gym"
print(env.reset(seed=0)[0]["RGB_INTERLEAVED"].shape)
"""


def test_an_id_that_names_its_module_needs_no_import():
    # What a command line passes on (CleanRL's --env-id): Gymnasium imports
    # labenv, which registers the levels.
    result = subprocess.run([sys.executable, "-c", _MODULE_ID], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "(24, 32, 3)" in result.stdout
