"""labenv.gym: Gymnasium's Env contract."""

import numpy as np
import pytest

import labenv
from labenv import gym
from labenv_testing import TEST_LEVEL, config

FORWARD = np.array([0, 0, 0, 1, 0, 0, 0], dtype=np.int32)


def test_reset_returns_an_observation_in_the_space_and_info():
    env = gym.Lab("demo_maze", ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"], config())
    observation, info = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    assert observation in env.observation_space
    assert isinstance(info, dict) and "events" in info
    assert isinstance(observation["RGB_INTERLEAVED"], labenv.ObservationArray)


def test_spaces_describe_observations_and_actions():
    env = gym.Lab("demo_maze", ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"], config())
    rgb = env.observation_space["RGB_INTERLEAVED"]
    assert rgb.shape == (24, 32, 3) and rgb.dtype == np.uint8
    assert rgb.low.min() == 0 and rgb.high.max() == 255
    assert env.observation_space["DEBUG.POS.TRANS"].dtype == np.float64
    assert env.action_space.shape == (7,)
    half = gym.Lab(TEST_LEVEL, ["TEST.HALF"], config()).observation_space["TEST.HALF"]
    assert half.dtype == np.float32 and half.shape == (2,)
    assert env.action_space.dtype == np.int32
    assert env.action_space.low.tolist() == [-512, -512, -1, -1, 0, 0, 0]
    assert env.action_space.high.tolist() == [512, 512, 1, 1, 1, 1, 1]
    env.action_space.seed(0)
    for _ in range(20):
        assert env.action_space.contains(env.action_space.sample())
    assert not env.action_space.contains(np.array([0, 0, 0, 2, 0, 0, 0], np.int32))
    sample = env.observation_space.sample()
    assert env.observation_space.contains(sample)


def test_step_returns_five_values():
    env = gym.Lab("demo_maze", ["RGB_INTERLEAVED"], config())
    env.reset(seed=1)
    env.action_space.seed(1)
    for _ in range(10):
        observation, reward, terminated, truncated, info = env.step(env.action_space.sample())
        assert env.observation_space.contains(observation)
        assert isinstance(reward, float)
        assert terminated is False and truncated is False
        assert isinstance(info["events"], list)


def test_the_level_ending_is_terminated():
    env = gym.Lab(TEST_LEVEL, ["TEST.COUNTER"], config(endAfterFrames=4))
    env.reset(seed=0)
    flags = [env.step(FORWARD)[2:4] for _ in range(4)]
    assert flags == [(False, False)] * 3 + [(True, False)]


def test_episode_length_is_truncated():
    env = gym.Lab("demo_maze", ["RGB_INTERLEAVED"], config(episodeLengthSeconds=0.05))
    env.reset(seed=0)
    flags = [env.step(FORWARD)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]


def test_stepping_an_ended_episode_needs_a_reset():
    env = gym.Lab(TEST_LEVEL, ["TEST.COUNTER"], config(endAfterFrames=1))
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(FORWARD)
    env.reset(seed=0)
    assert env.step(FORWARD)[2] is True
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(FORWARD)
    env.reset()
    env.step(FORWARD)


def _episode_frames(env, seed):
    frames = [np.array(env.reset(seed=seed)[0]["RGB_INTERLEAVED"])]
    frames += [np.array(env.reset()[0]["RGB_INTERLEAVED"])]
    return np.stack(frames)


def test_reset_seed_makes_the_following_episodes_reproducible():
    env = gym.Lab("random_maze", ["RGB_INTERLEAVED"], config())
    assert np.array_equal(_episode_frames(env, 7), _episode_frames(env, 7))
    assert not np.array_equal(_episode_frames(env, 7), _episode_frames(env, 8))


def test_reset_options_pick_the_episode():
    env = gym.Lab(TEST_LEVEL, ["TEST.COUNTER"], config())
    _, info = env.reset(seed=0, options={"episode": 9})
    assert info["events"][0][1][0] == "episode 9"
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"level": "x"})


def test_rgb_array_rendering():
    env = gym.Lab("demo_maze", ["DEBUG.POS.TRANS"], config(), render_mode="rgb_array")
    observation, _ = env.reset(seed=0)
    assert list(observation) == ["DEBUG.POS.TRANS"]
    frame = env.render()
    assert frame.shape == (24, 32, 3) and frame.dtype == np.uint8
    assert env.metadata["render_fps"] == 60
    with pytest.raises(ValueError, match="render_mode"):
        gym.Lab("demo_maze", ["RGB_INTERLEAVED"], config(), render_mode="human")


def test_wrong_actions_are_refused():
    env = gym.Lab("demo_maze", ["RGB_INTERLEAVED"], config())
    env.reset(seed=0)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, np.int32))
    with pytest.raises(ValueError, match="integer"):
        env.step(np.full(7, 0.5))


def test_close_and_context_manager():
    with gym.Lab("demo_maze", ["RGB_INTERLEAVED"], config()) as env:
        env.reset(seed=0)
    assert env.lab.status() == "closed"
    assert env.unwrapped is env


def test_the_levels_own_time_limit_is_truncated():
    env = gym.Lab(TEST_LEVEL, ["TEST.COUNTER"], config(timeLimitFrames=3))
    env.reset(seed=0)
    flags = [env.step(FORWARD)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]


def test_demo_mazes_thirty_seconds_are_truncated():
    env = gym.Lab("demo_maze", ["GOAL_DIRECTION"], config(fps=2))
    env.reset(seed=0)
    flags = [env.step(np.zeros(7, np.int32))[2:4] for _ in range(60)]
    assert flags == [(False, False)] * 59 + [(False, True)]


def test_an_action_set_gives_a_discrete_space():
    env = gym.Lab("demo_maze", ["DEBUG.POS.TRANS"], config(), action_set="dmlab_default")
    assert isinstance(env.action_space, gym.spaces.Discrete) and env.action_space.n == 9
    start = np.array(env.reset(seed=0)[0]["DEBUG.POS.TRANS"])
    for _ in range(10):
        observation = env.step(4)[0]  # look left: turns, stays put
    assert np.allclose(observation["DEBUG.POS.TRANS"], start)
    for _ in range(10):
        observation = env.step(np.int64(0))[0]  # forward
    assert np.linalg.norm(observation["DEBUG.POS.TRANS"] - start) > 0.2
    env.action_space.seed(0)
    for _ in range(5):
        env.step(env.action_space.sample())
    for bad in (9, -1, 1.5, True, np.zeros(7, np.int32)):
        with pytest.raises(ValueError, match="action"):
            env.step(bad)
    assert gym.Lab("demo_maze", config=config(), action_set=[[20, 0, 0, 1, 0, 0, 0]]).action_space.n == 1


@pytest.mark.parametrize(
    "action_set, message",
    [
        ("dmlab_tiny", "unknown action_set 'dmlab_tiny'"),
        ([], "non-empty list of 7-vectors"),
        ([[0, 0, 0, 1]], "non-empty list of 7-vectors"),
        ([[0, 0, 0, 2, 0, 0, 0]], r"action_set\[0\] sets MOVE_BACK_FORWARD to 2"),
        ([[0.5, 0, 0, 0, 0, 0, 0]], "integers"),
    ],
)
def test_bad_action_sets_are_refused(action_set, message):
    with pytest.raises(ValueError, match=message):
        gym.Lab("demo_maze", config=config(), action_set=action_set)


def test_action_sets_need_a_level_with_only_discrete_actions():
    with pytest.raises(ValueError, match="all discrete"):
        gym.Lab("cartpole_swingup", config={"width": "32", "height": "24"},
                action_set="dmlab_default")


def test_a_closed_environment_and_an_unreset_render_say_why():
    env = gym.Lab("demo_maze", ["RGB_INTERLEAVED"], config(), render_mode="rgb_array")
    with pytest.raises(RuntimeError, match=r"before the first reset\(\)"):
        env.render()
    assert gym.Lab("demo_maze", config=config()).render() is None  # no render_mode
    env.reset(seed=0)
    env.close()
    for call in (lambda: env.step(FORWARD), lambda: env.reset(seed=0), env.render):
        with pytest.raises(RuntimeError, match="the environment is closed"):
            call()
