"""What labenv offers on Gymnasium 0.29.1 (gymnasium_oldest_test runs these
with gym_test.py and dm_env_test.py there)."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import labenv

SMALL = {"width": "32", "height": "24"}


def test_this_is_the_oldest_gymnasium_and_numpy():
    assert gymnasium.__version__ == "0.29.1"
    assert np.__version__.startswith("1.")


def test_check_env_and_make_on_a_registered_level():
    env = gymnasium.make("labenv/demo_maze-v0", config=SMALL, render_mode="rgb_array",
                         max_episode_steps=3)
    check_env(env.unwrapped, skip_render_check=False)
    env.reset(seed=0)
    for _ in range(3):
        *_, truncated, _ = env.step(env.action_space.sample())
    assert truncated
    env.close()


@pytest.mark.parametrize("vector", [gymnasium.vector.SyncVectorEnv,
                                    gymnasium.vector.AsyncVectorEnv])
def test_gymnasiums_own_vector_envs_reset_in_the_same_step(vector):
    envs = vector([lambda: labenv.gym.Lab("demo_maze", config=dict(
        SMALL, episodeLengthSeconds="0.05"), action_set="dmlab_default")] * 2)
    envs.reset(seed=0)
    ended = False
    for _ in range(4):  # episodes of 3 frames
        _, _, terminated, truncated, infos = envs.step(np.array([0, 1]))
        if truncated.any():
            ended = True
            assert "final_observation" in infos
    assert ended
    envs.close()


def test_vector_lab_says_it_needs_gymnasium_1():
    with pytest.raises(RuntimeError, match="needs Gymnasium 1.0 or later"):
        labenv.gym.VectorLab("demo_maze", 2, config=SMALL)


def test_an_id_that_names_its_module_needs_no_import():
    import subprocess
    import sys

    program = ("import gymnasium; env = gymnasium.make('labenv:labenv/demo_maze-v0', "
               "config={'width': '32', 'height': '24'}); print(type(env.unwrapped).__name__)")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Lab"
