"""labenv against the real Gymnasium and dm_env, when they are installed.

Debian packages neither, so CI runs the local equivalents (the other
suites) and these cases skip, saying why. To run them, put the real
packages' sources on the path (both are pure Python; dm_env's test_utils
also needs absl-py, Debian's python3-absl, and dm-tree):

    PYTHONPATH=/path/to/gymnasium-and-dm_env ./lab python -m pytest tests/python/ecosystem_test.py
"""

import unittest

import numpy as np
import pytest

import labenv

try:
    import gymnasium
    from gymnasium.utils.env_checker import check_env
    from gymnasium.wrappers import vector as vector_wrappers
except ImportError:
    gymnasium = None

try:
    from dm_env import test_utils as dm_env_test_utils
except ImportError:
    dm_env_test_utils = None

needs_gymnasium = pytest.mark.skipif(
    gymnasium is None, reason="gymnasium is not installed (Debian does not package it)"
)
SMALL = {"width": "32", "height": "24"}
IDS = ["labenv/{}-v0".format(name) for name, _ in labenv.levels()]


@needs_gymnasium
@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes_on_every_registered_level(env_id):
    assert labenv.gym._gym is gymnasium
    env = gymnasium.make(env_id, render_mode="rgb_array", config=SMALL)
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


@needs_gymnasium
@pytest.mark.parametrize("env_id", IDS)
def test_make_vec_steps_every_registered_level(env_id):
    envs = gymnasium.make_vec(env_id, num_envs=3, config=dict(SMALL, episodeLengthSeconds="0.1"))
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    observations, _ = envs.reset(seed=3)
    assert envs.observation_space.contains(observations)
    envs.action_space.seed(0)
    for _ in range(12):
        observations, rewards, terminated, truncated, _ = envs.step(envs.action_space.sample())
        assert envs.observation_space.contains(observations)
        assert rewards.shape == terminated.shape == truncated.shape == (3,)
    envs.close()


@needs_gymnasium
def test_gymnasiums_vector_wrappers_run_on_vector_lab():
    envs = gymnasium.make_vec(
        "labenv/demo_maze-v0", num_envs=4, action_set="dmlab_default",
        observations=["RGB_INTERLEAVED", "GOAL_DIRECTION"],
        config=dict(SMALL, episodeLengthSeconds="0.25"),
    )
    envs = vector_wrappers.RecordEpisodeStatistics(envs)
    envs = vector_wrappers.ClipReward(envs, min_reward=0, max_reward=1)
    envs = vector_wrappers.NormalizeReward(envs)
    envs = vector_wrappers.FilterObservation(envs, filter_keys=["GOAL_DIRECTION"])
    envs = vector_wrappers.FlattenObservation(envs)
    envs = vector_wrappers.DictInfoToList(envs)
    envs.reset(seed=0)
    envs.action_space.seed(0)
    recorded = 0
    for _ in range(40):
        observations, _, _, _, infos = envs.step(envs.action_space.sample())
        assert observations.shape == (4, 2)
        recorded += sum("episode" in info for info in infos)
    assert recorded >= 8  # episodes of 15 frames, 4 envs, 40 steps
    envs.close()


@needs_gymnasium
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasiums_own_vector_envs_run_labenv(mode):
    envs = gymnasium.make_vec("labenv/demo_maze-v0", num_envs=2, vectorization_mode=mode,
                              action_set="dmlab_default", config=SMALL)
    observations, _ = envs.reset(seed=0)
    observations, *_ = envs.step(envs.action_space.sample())
    assert observations["RGB_INTERLEAVED"].shape == (2, 24, 32, 3)
    envs.close()


if dm_env_test_utils is not None:

    class MazeConformance(dm_env_test_utils.EnvironmentTestMixin, unittest.TestCase):
        def make_object_under_test(self):
            return labenv.dm_env.Lab("demo_maze", ["RGB_INTERLEAVED", "GOAL_DIRECTION"],
                                     dict(SMALL, episodeLengthSeconds="0.2"), seed=0)

    class ActionSetConformance(dm_env_test_utils.EnvironmentTestMixin, unittest.TestCase):
        def make_object_under_test(self):
            return labenv.dm_env.Lab("demo_maze", ["RGB_INTERLEAVED"],
                                     dict(SMALL, episodeLengthSeconds="0.2"), seed=0,
                                     action_set="dmlab_default")

    class CartpoleConformance(dm_env_test_utils.EnvironmentTestMixin, unittest.TestCase):
        def make_object_under_test(self):
            return labenv.dm_env.Lab("cartpole_swingup", ["RGB_INTERLEAVED"],
                                     dict(SMALL, episodeLengthSeconds="0.5"), seed=0)

else:

    def test_dm_envs_environment_test_mixin():
        pytest.skip("dm_env (with absl-py and dm-tree) is not installed; Debian does not package it")


def test_the_adapters_use_the_real_packages_when_installed():
    assert (labenv.gym._gym.__name__ == "gymnasium") == (gymnasium is not None)
    uses_real_dm_env = labenv.dm_env._dm_env.__name__ == "dm_env"
    assert uses_real_dm_env or labenv.dm_env._dm_env.__name__ == "labenv._local_dm_env"
    assert np.dtype(labenv.gym.spaces.Box(0, 1, (1,), np.float32).dtype) == np.float32
