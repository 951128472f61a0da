"""Stable-Baselines3 on labenv: its env checker, and PPO that runs, logs,
saves and reloads (a short run here; the long runs whose returns rise are
benchmarks/sb3_train.py, with their curves in docs/python.md)."""

import os

import numpy as np
import pytest
from stable_baselines3 import PPO
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.logger import configure

import labenv
import sb3_train

SMALL = {"width": "32", "height": "24"}


@pytest.mark.parametrize("make", [
    lambda: labenv.gym.Lab("demo_maze", ["RGB_INTERLEAVED"], SMALL, action_set="dmlab_default"),
    lambda: labenv.gym.Lab("demo_maze", ["RGB_INTERLEAVED", "GOAL_DIRECTION"], SMALL,
                           action_set="dmlab_default"),
    lambda: labenv.gym.Lab("cartpole_balance", ["QPOS", "QVEL"], SMALL),
])
def test_stable_baselines3s_checker_passes(make):
    env = make()
    check_env(env, warn=True)
    env.close()


@pytest.mark.parametrize("task", sorted(sb3_train.TASKS))
def test_ppo_runs_logs_saves_and_reloads(task, tmp_path):
    spec = sb3_train.TASKS[task]
    envs = spec.make_vec(num_envs=2)
    model = PPO(spec.policy, envs, n_steps=32, batch_size=32, n_epochs=1, seed=0, verbose=0,
                **spec.ppo_kwargs)
    model.set_logger(configure(str(tmp_path), ["csv"]))
    model.learn(total_timesteps=64)
    progress = (tmp_path / "progress.csv").read_text().splitlines()
    assert "time/total_timesteps" in progress[0] and len(progress) >= 2
    model.save(tmp_path / "model")
    loaded = PPO.load(tmp_path / "model", device="cpu")
    observations = envs.reset()
    actions, _ = model.predict(observations, deterministic=True)
    reloaded, _ = loaded.predict(observations, deterministic=True)
    np.testing.assert_array_equal(actions, reloaded)
    assert os.path.getsize(str(tmp_path / "model.zip")) > 0
    envs.close()
