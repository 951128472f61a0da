"""labenv against the real Gymnasium, dm_env and Shimmy (tools/python/requirements.txt).

Gymnasium's check_env with its render checks on every registered id,
make_vec and Gymnasium's vector wrappers and vector envs; dm_env's
EnvironmentTestMixin on the maze's and MuJoCo's adapters; Shimmy's
DeepMind Lab wrapper over labenv.Lab; and an adapter's error when its
package is missing. Stable-Baselines3 is in sb3_test.py.
"""

import subprocess
import sys
import unittest

import gymnasium
import numpy as np
import pytest
from dm_env import test_utils as dm_env_test_utils
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import vector as vector_wrappers

import labenv

SMALL = {"width": "32", "height": "24"}
IDS = ["labenv/{}-v0".format(name) for name, _ in labenv.levels()]


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes_on_every_registered_level(env_id):
    assert labenv.gym._gym is gymnasium
    env = gymnasium.make(env_id, render_mode="rgb_array", config=SMALL)
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


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


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasiums_own_vector_envs_run_labenv(mode):
    envs = gymnasium.make_vec("labenv/demo_maze-v0", num_envs=2, vectorization_mode=mode,
                              action_set="dmlab_default", config=SMALL)
    observations, _ = envs.reset(seed=0)
    observations, *_ = envs.step(envs.action_space.sample())
    assert observations["RGB_INTERLEAVED"].shape == (2, 24, 32, 3)
    envs.close()


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


def test_the_adapters_use_the_real_packages():
    assert labenv.gym._gym is gymnasium and labenv.gym.spaces is gymnasium.spaces
    import dm_env

    assert labenv.dm_env._dm_env is dm_env


# A fresh interpreter in which the package cannot be imported: Lab still
# works, and the adapter's import names the package to install.
_WITHOUT = """
import sys
sys.modules[{module!r}] = None  # makes `import {module}` raise ImportError
import labenv
assert labenv.Lab is not None
try:
    import labenv.{adapter}
except ImportError as error:
    print(error)
else:
    raise SystemExit("labenv.{adapter} imported without {module}")
"""


@pytest.mark.parametrize("adapter, module, pip_name", [
    ("gym", "gymnasium", "gymnasium"), ("dm_env", "dm_env", "dm-env"),
    ("pettingzoo", "pettingzoo", "pettingzoo")])
def test_an_adapter_without_its_package_says_which_to_install(adapter, module, pip_name):
    result = subprocess.run(
        [sys.executable, "-c", _WITHOUT.format(module=module, adapter=adapter)],
        capture_output=True, text=True, check=True)
    assert "labenv.{} needs the {!r} package".format(adapter, module) in result.stdout
    assert "pip install " + pip_name in result.stdout


def _shimmy_vector(action):
    """The action vector Shimmy's DmLabCompatibilityV0.step hands the Lab."""
    return np.array([value[0] for value in action.values()], dtype=np.intc)


def test_shimmys_dmlab_wrapper_drives_labenv_lab_as_it_drives_deepmind_lab():
    from shimmy import DmLabCompatibilityV0

    names = ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"]
    env = DmLabCompatibilityV0(env=labenv.Lab("demo_maze", names, SMALL))
    twin = labenv.Lab("demo_maze", names, SMALL)
    observations, _ = env.reset()
    twin.reset()
    assert env.observation_space.contains(observations)
    assert sorted(env.action_space) == sorted(spec["name"] for spec in twin.action_spec())
    env.action_space.seed(0)
    for _ in range(30):
        action = env.action_space.sample()
        observations, reward, terminated, truncated, _ = env.step(action)
        assert reward == twin.step(_shimmy_vector(action))
        assert env.observation_space.contains(observations)
        np.testing.assert_array_equal(observations["DEBUG.POS.TRANS"],
                                      twin.observations()["DEBUG.POS.TRANS"])
        assert terminated == (not twin.is_running()) and not truncated
    env.close()


def test_shimmys_dmlab_loader_makes_a_deepmind_lab_lab_here():
    from shimmy import DmLabCompatibilityV0
    from shimmy.utils.dm_lab import load_dm_lab

    import deepmind_lab

    # Shimmy's loader: `import deepmind_lab`, then deepmind_lab.Lab with
    # DeepMind Lab's engine settings (mixerSeed, levelDirectory, ...). It
    # turns an argument left out into the setting 'None', which DeepMind
    # Lab refuses for fps as labenv does, so all are given. (Shimmy 2.0.1's
    # DmLabCompatibilityV0(level_name=...) reads the action spec of its
    # `env` argument, None there, for any DeepMind Lab: load, then wrap.)
    lab = load_dm_lab("demo_maze", "RGB_INTERLEAVED", "software", 32, 24, 60, 0, "", "")
    assert isinstance(lab, deepmind_lab.Lab)
    env = DmLabCompatibilityV0(env=lab)
    observations, _ = env.reset()
    assert observations["RGB_INTERLEAVED"].shape == (24, 32, 3)
    assert env.observation_space.contains(observations)
    env.step(env.action_space.sample())
    env.close()
