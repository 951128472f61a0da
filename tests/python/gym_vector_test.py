"""labenv.gym.VectorLab and the registry: Gymnasium's VectorEnv contract."""

import numpy as np
import pytest

import labenv
from labenv import gym
from labenv_testing import TEST_LEVEL, config, random_actions

_gym = gym._gym


def _pointer(array):
    return array.__array_interface__["data"][0]


def test_import_registers_every_level_this_build_runs():
    names = [name for name, _ in labenv.levels()]
    assert "demo_maze" in names and "random_maze" in names
    assert names == sorted(names)
    for name, host in labenv.levels():
        assert host in ("maze", "mujoco")
        assert "labenv/{}-v0".format(name) in _gym.registry
    gym.register_levels()  # again: nothing changes, nothing fails
    env = _gym.make("labenv/demo_maze-v0", render_mode="rgb_array", config=config())
    assert env.spec.id == "labenv/demo_maze-v0"
    observation, _ = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    assert env.render().shape == (24, 32, 3)
    env.close()


def test_make_vec_gives_a_vector_env_over_vector_lab():
    envs = _gym.make_vec("labenv/demo_maze-v0", num_envs=3, config=config())
    assert isinstance(envs.unwrapped, gym.VectorLab)
    assert isinstance(envs.unwrapped, _gym.vector.VectorEnv)
    assert envs.unwrapped.spec.id == "labenv/demo_maze-v0"
    assert envs.num_envs == 3
    assert envs.metadata["autoreset_mode"] == _gym.vector.AutoresetMode.NEXT_STEP
    envs.close()


def test_spaces_batch_the_single_spaces():
    envs = gym.VectorLab("demo_maze", 4, ["RGB_INTERLEAVED", "GOAL_DIRECTION"], config())
    assert envs.single_observation_space["RGB_INTERLEAVED"].shape == (24, 32, 3)
    assert envs.observation_space["RGB_INTERLEAVED"].shape == (4, 24, 32, 3)
    assert envs.observation_space["GOAL_DIRECTION"].shape == (4, 2)
    assert envs.single_action_space.shape == (7,)
    assert envs.action_space.shape == (4, 7)
    assert envs.action_space.dtype == np.int32
    observations, infos = envs.reset(seed=0)
    assert envs.observation_space.contains(observations)
    assert infos == {}
    observations, rewards, terminated, truncated, infos = envs.step(envs.action_space.sample())
    assert envs.observation_space.contains(observations)
    assert rewards.shape == (4,) and rewards.dtype == np.float64
    assert terminated.shape == (4,) and terminated.dtype == np.bool_
    assert truncated.shape == (4,) and truncated.dtype == np.bool_
    envs.close()


def test_batches_are_the_engines_arrays_written_in_place():
    envs = gym.VectorLab("demo_maze", 2, ["RGB_INTERLEAVED"], config())
    observations, _ = envs.reset(seed=0)
    pointers = {_pointer(observations["RGB_INTERLEAVED"])}
    del observations
    for _ in range(30):
        observations, *_ = envs.step(np.zeros((2, 7), np.int32))
        batch = observations["RGB_INTERLEAVED"]
        assert isinstance(batch, labenv.ObservationArray)
        assert not batch.flags.writeable
        pointers.add(_pointer(batch))
        del observations, batch
    # A few recycled buffers, not one copy a step.
    assert len(pointers) <= 4


def test_it_steps_exactly_as_vector_lab_with_the_same_seed():
    settings = config(episodeLengthSeconds=0.1)
    actions = random_actions(np.random.default_rng(2), 20, envs=3)
    envs = gym.VectorLab("demo_maze", 3, ["RGB_INTERLEAVED"], settings)
    reference = labenv.VectorLab(3, "demo_maze", ["RGB_INTERLEAVED"], settings)
    observations, _ = envs.reset(seed=11)
    expected = reference.reset(seed=11)
    assert np.array_equal(observations["RGB_INTERLEAVED"], expected["RGB_INTERLEAVED"])
    ends = 0
    for step_actions in actions:
        observations, rewards, terminated, truncated, _ = envs.step(step_actions)
        expected, expected_rewards, expected_terminated, expected_truncated = reference.step(
            step_actions
        )
        assert np.array_equal(observations["RGB_INTERLEAVED"], expected["RGB_INTERLEAVED"])
        assert np.array_equal(rewards, expected_rewards)
        assert np.array_equal(terminated, expected_terminated)
        assert np.array_equal(truncated, expected_truncated)
        ends += int(truncated.sum())
    assert ends >= 3  # episodes of 6 frames: the autoreset ran


def test_autoreset_is_next_step_for_both_ways_of_ending():
    for setting, flag in (("endAfterFrames", 2), ("timeLimitFrames", 3)):
        envs = gym.VectorLab(TEST_LEVEL, 2, ["TEST.COUNTER"], config(**{setting: 3}))
        envs.reset(seed=0)
        flags = []
        for _ in range(5):
            observations, rewards, terminated, truncated, _ = envs.step(
                np.zeros((2, 7), np.int32)
            )
            flags.append((bool(terminated[0]), bool(truncated[0]), observations["TEST.COUNTER"][0, 0]))
        ended = (True, False) if flag == 2 else (False, True)
        # Frames 1, 2, 3 (the end), then the next episode's first frame
        # (counter 0, both flags False), then its frame 1.
        assert flags == [(False, False, 1.0), (False, False, 2.0), ended + (3.0,),
                         (False, False, 0.0), (False, False, 1.0)], setting
        envs.close()


def test_reset_seeds_are_vector_labs_and_drawn_when_absent():
    envs = gym.VectorLab("demo_maze", 2, ["RGB_INTERLEAVED"], config())
    first, _ = envs.reset(seed=3)
    first = np.array(first["RGB_INTERLEAVED"])
    again, _ = envs.reset(seed=3)
    assert np.array_equal(first, again["RGB_INTERLEAVED"])
    with pytest.raises(ValueError, match="one integer"):
        envs.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="no options"):
        envs.reset(seed=0, options={"episode": 1})
    envs.close()


def test_action_sets_batch_as_multi_discrete():
    envs = gym.VectorLab("demo_maze", 3, ["DEBUG.POS.TRANS"], config(),
                         action_set="dmlab_default")
    assert envs.single_action_space.n == 9
    assert envs.action_space.shape == (3,)
    envs.reset(seed=0)
    start = np.array(envs.step(np.array([0, 0, 0]))[0]["DEBUG.POS.TRANS"])
    for _ in range(10):
        moved = envs.step(np.array([0, 1, 4]))[0]["DEBUG.POS.TRANS"]
    # forward and backward move; looking left turns in place.
    assert not np.allclose(moved[0], start[0])
    assert not np.allclose(moved[1], start[1])
    assert np.allclose(moved[2], start[2])
    with pytest.raises(ValueError, match=r"\[0, 9\)"):
        envs.step(np.array([0, 9, 0]))
    with pytest.raises(ValueError, match="3 integer indices"):
        envs.step(np.array([0, 1]))
    envs.close()


def test_errors_say_what_is_wrong():
    envs = gym.VectorLab("demo_maze", 2, ["RGB_INTERLEAVED"], config(), render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="before the first reset"):
        envs.step(np.zeros((2, 7), np.int32))
    with pytest.raises(RuntimeError, match="before the first reset"):
        envs.render()
    envs.reset(seed=0)
    frames = envs.render()
    assert len(frames) == 2 and frames[0].shape == (24, 32, 3)
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.zeros((3, 7), np.int32))
    envs.close()
    envs.close()  # twice is fine
    with pytest.raises(RuntimeError, match="closed"):
        envs.step(np.zeros((2, 7), np.int32))
    with pytest.raises(RuntimeError, match="closed"):
        envs.reset(seed=0)
    with pytest.raises(ValueError, match="render_mode"):
        gym.VectorLab("demo_maze", 2, render_mode="human")
