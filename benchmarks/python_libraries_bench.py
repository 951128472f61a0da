"""labenv beside the libraries a user would pick instead, in one run.

    MUJOCO_GL=egl ./lab python benchmarks/python_libraries_bench.py [--seconds=2]

1. EnvPool: its DeepMind Control Suite CartpoleBalance-v1 against labenv's
   cartpole_balance at the same control step (one 0.01 s RK4 step), 1 and
   2 threads x 8 and 32 environments, random actions in [-1, 1]:
   EnvPool's gymnasium form, labenv.VectorLab (QPOS, QVEL) and
   labenv.gym.VectorLab over it. Steps per second of all environments.
2. dm_control: suite.load('cartpole', 'balance') against labenv.Lab, one
   environment, steps per second; then one action sequence from one
   initial state (ours, copied into dm_control's physics) through both,
   with the largest differences of observations and rewards.

Each cell is the best of --rounds timings of --seconds, cells in turn, so
that the machine's noise falls on all alike. Figures and the machine are in
docs/python.md.
"""

import argparse
import os
import platform
import time

import numpy as np

import labenv

LEVEL = "cartpole_balance"
OBSERVATIONS = ["QPOS", "QVEL"]


def _rate(step, num_envs, seconds):
    """Environment steps per second of `step()` (one batch) over `seconds`."""
    step()  # warm
    batches = 0
    started = time.perf_counter()
    while True:
        for _ in range(20):
            step()
        batches += 20
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return batches * num_envs / elapsed


def _stepper(envs, num_envs, rng):
    """(step, close): `envs`, reset, stepped with one of 64 batches of
    random actions in [-1, 1] per call."""
    envs.reset()
    actions = rng.uniform(-1, 1, (64, num_envs, 1))
    counter = [0]

    def step():
        counter[0] += 1
        envs.step(actions[counter[0] % 64])

    return step, envs.close


def envpool_stepper(num_envs, threads, rng):
    import envpool

    return _stepper(envpool.make_gymnasium("CartpoleBalance-v1", num_envs=num_envs,
                                           num_threads=threads, seed=0), num_envs, rng)


def labenv_stepper(num_envs, threads, rng):
    return _stepper(labenv.VectorLab(num_envs, LEVEL, OBSERVATIONS, num_threads=threads),
                    num_envs, rng)


def labenv_gym_stepper(num_envs, threads, rng):
    return _stepper(labenv.gym.VectorLab(LEVEL, num_envs, OBSERVATIONS, num_threads=threads),
                    num_envs, rng)


def table_envpool(args):
    makers = {"EnvPool": envpool_stepper, "labenv.VectorLab": labenv_stepper,
              "labenv.gym.VectorLab": labenv_gym_stepper}
    cells = [(threads, num_envs) for threads in (1, 2) for num_envs in (8, 32)]
    best = {}
    rng = np.random.default_rng(0)
    for _ in range(args.rounds):
        for cell in cells:
            for name, maker in makers.items():
                step, close = maker(cell[1], cell[0], rng)
                rate = _rate(step, cell[1], args.seconds)
                close()
                best[name, cell] = max(best.get((name, cell), 0.0), rate)
    print("\n## EnvPool's CartpoleBalance-v1 against labenv's cartpole_balance "
          "(steps/s, best of {})\n".format(args.rounds))
    print("| threads | envs | EnvPool | labenv.VectorLab | ratio | labenv.gym.VectorLab | ratio |")
    print("|---|---|---|---|---|---|---|")
    for cell in cells:
        pool = best["EnvPool", cell]
        ours, gym = best["labenv.VectorLab", cell], best["labenv.gym.VectorLab", cell]
        print("| {} | {} | {:,.0f} | {:,.0f} | {:.2f} | {:,.0f} | {:.2f} |".format(
            cell[0], cell[1], pool, ours, ours / pool, gym, gym / pool))


def table_dm_control(args):
    from dm_control import suite

    rng = np.random.default_rng(0)
    suite_env = suite.load("cartpole", "balance", task_kwargs={"random": 0})
    lab = labenv.Lab(LEVEL, OBSERVATIONS)
    actions = rng.uniform(-1, 1, (1000, 1))
    best = {"dm_control": 0.0, "labenv.Lab": 0.0}

    def suite_step():
        suite_step.count += 1
        if suite_env.step(actions[suite_step.count % 1000]).last():
            suite_env.reset()
    suite_step.count = 0

    def lab_step():
        lab_step.count += 1
        lab.step(actions[lab_step.count % 1000])
        lab.observations()
        if not lab.is_running():
            lab.reset()
    lab_step.count = 0

    physics = suite_env.physics
    suite_env.reset()
    lab.reset(seed=0)
    for _ in range(args.rounds):
        best["dm_control"] = max(best["dm_control"], _rate(suite_step, 1, args.seconds))
        best["labenv.Lab"] = max(best["labenv.Lab"], _rate(lab_step, 1, args.seconds))
    # The floor under both: MuJoCo's own step of the same model, 1000 at a
    # time in C (the mujoco package's nstep), no Python per step.
    import mujoco

    model, data = physics.model.ptr, mujoco.MjData(physics.model.ptr)
    raw = 0.0
    for _ in range(args.rounds):
        started = time.perf_counter()
        for _ in range(50):
            mujoco.mj_step(model, data, nstep=1000)
            mujoco.mj_resetData(model, data)
        raw = max(raw, 50000 / (time.perf_counter() - started))
    print("\n## dm_control's cartpole balance against labenv.Lab (one env, steps/s, "
          "best of {})\n".format(args.rounds))
    print("| dm_control | labenv.Lab | ratio | raw mj_step (MuJoCo {}, in C) | "
          "its ratio to dm_control |".format(mujoco.__version__))
    print("|---|---|---|---|---|")
    print("| {:,.0f} | {:,.0f} | {:.1f} | {:,.0f} | {:.1f} |".format(
        best["dm_control"], best["labenv.Lab"], best["labenv.Lab"] / best["dm_control"],
        raw, raw / best["dm_control"]))

    # One action sequence from one initial state: ours, copied into theirs.
    lab.reset(seed=3)
    observed = lab.observations()
    suite_env.reset()
    with physics.reset_context():
        physics.data.qpos[:] = observed["QPOS"]
        physics.data.qvel[:] = observed["QVEL"]
    worst = {"position": 0.0, "velocity": 0.0, "reward": 0.0}
    for step, action in enumerate(actions[:500]):
        ours = lab.step(action)
        qpos, qvel = lab.observations()["QPOS"], lab.observations()["QVEL"]
        theirs = suite_env.step(action)
        position = np.array([qpos[0], np.cos(qpos[1]), np.sin(qpos[1])])
        worst["position"] = max(worst["position"],
                                np.abs(position - theirs.observation["position"]).max())
        worst["velocity"] = max(worst["velocity"],
                                np.abs(qvel - theirs.observation["velocity"]).max())
        worst["reward"] = max(worst["reward"], abs(ours - theirs.reward))

    print("\nOne sequence of 500 random actions from labenv's seed-3 initial state "
          "(MuJoCo 2.2.2 under labenv, {} under dm_control): largest differences "
          "position {:.2e}, velocity {:.2e}, reward {:.2e}".format(
              mujoco.__version__, worst["position"], worst["velocity"], worst["reward"]))
    lab.close()
    suite_env.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print("{}, {} CPUs, Python {}".format(platform.processor() or platform.machine(),
                                         os.cpu_count(), platform.python_version()))
    table_dm_control(args)
    table_envpool(args)


if __name__ == "__main__":
    main()
