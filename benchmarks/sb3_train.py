"""Stable-Baselines3 PPO on two labenv tasks: returns that rise.

    ./lab python benchmarks/sb3_train.py --task=maze_goal --steps=200000 --out=curve.csv

Tasks (TASKS below; tests/python/sb3_test.py runs each for 64 steps):
- maze_goal: demo_maze (apples +1, the goal +10, which ends the map and
  reloads it) with DeepMind Lab's default action set, frame_skip 4,
  episodes of 20 seconds, observing GOAL_DIRECTION (the unit vector to the
  goal in the player's frame) through an MLP.
- cartpole_balance: the MuJoCo host's cartpole, QPOS and QVEL flattened,
  one continuous action, frame_skip 1 (its control step), episodes of
  1000 steps.

Writes a CSV of (timesteps, mean episode return over the last 20
episodes) as training goes, and prints it.
"""

import argparse
import collections
import csv
import sys
import time

import gymnasium
import numpy as np

import labenv


class Task(collections.namedtuple("Task", "level observations config action_set frame_skip "
                                          "policy ppo_kwargs")):
    """One training task: how to make its vector env and its PPO."""

    def make(self):
        """One labenv.gym.Lab of the task, its observations flattened."""
        env = labenv.gym.Lab(self.level, self.observations, self.config,
                             action_set=self.action_set, frame_skip=self.frame_skip)
        return gymnasium.wrappers.FlattenObservation(env)

    def make_vec(self, num_envs):
        """num_envs of them in Stable-Baselines3's DummyVecEnv, as its
        make_vec_env makes them (episode statistics by its Monitor)."""
        from stable_baselines3.common.env_util import make_vec_env

        return make_vec_env(self.make, n_envs=num_envs)


TASKS = {
    "maze_goal": Task("demo_maze", ["GOAL_DIRECTION"],
                      {"width": "32", "height": "24", "episodeLengthSeconds": "20"},
                      "dmlab_default", 4, "MlpPolicy", {}),
    "cartpole_balance": Task("cartpole_balance", ["QPOS", "QVEL"],
                             {"width": "32", "height": "24", "episodeLengthSeconds": "10"},
                             None, 1, "MlpPolicy", {}),
}


def main():
    from stable_baselines3 import PPO
    from stable_baselines3.common.callbacks import BaseCallback

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", choices=sorted(TASKS), required=True)
    parser.add_argument("--steps", type=int, default=100000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="CSV of the curve")
    args = parser.parse_args()
    task = TASKS[args.task]
    envs = task.make_vec(args.envs)
    rows = []

    class Curve(BaseCallback):
        def __init__(self):
            super().__init__()
            self.returns = collections.deque(maxlen=20)

        def _on_step(self):
            for info in self.locals["infos"]:
                if "episode" in info:
                    self.returns.append(info["episode"]["r"])
            return True

        def _on_rollout_end(self):
            if self.returns:
                rows.append((self.num_timesteps, float(np.mean(self.returns))))
                print("{:>8} {:10.2f}".format(*rows[-1]))
                sys.stdout.flush()

    model = PPO(task.policy, envs, seed=args.seed, verbose=0, device="cpu", **task.ppo_kwargs)
    start = time.time()
    model.learn(total_timesteps=args.steps, callback=Curve())
    print("{} steps in {:.0f} s".format(args.steps, time.time() - start))
    if args.out:
        with open(args.out, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["timesteps", "mean_return_last_20"])
            writer.writerows(rows)


if __name__ == "__main__":
    main()
