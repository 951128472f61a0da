"""VectorLab's asynchronous calls against its lock-step step, same run.

    ./lab python benchmarks/async_bench.py [--envs=16] [--seconds=3] [--rounds=3]

On benchmarks/levels/uneven_steps.lua (most frames light, one in ten
about a hundred times heavier) at 84x84 RGB, it measures total env steps
per second of:
  - step():            the lock-step form, n envs a call;
  - send/recv, n:      the asynchronous calls with batch_size = n (the
                       same work, the control);
  - send/recv, n/2:    batch_size = n / 2, EnvPool's usual setting: recv
                       returns the first half to finish, and the slow
                       envs go on stepping meanwhile;
with 1 and 2 threads, and with an agent that takes no time and one that
takes --policy_us for each env of a batch (busy, as a network's forward
pass on the CPU would be): while it works, the envs of the other half
step. Two threads cannot step more than twice what one does: the last
column is that bound over step(). Each figure is the best
of --rounds, the forms taken in turns; ratios are to step() in the same
round set.
"""

import argparse
import os
import time

import numpy as np

import labenv

LEVEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "levels", "uneven_steps.lua")
CONFIG = {"width": "84", "height": "84"}
OBSERVATIONS = ["RGB_INTERLEAVED"]


def policy(rows, policy_us, rng):
    """Random forward-and-turn actions, after policy_us of busy work a row."""
    until = time.perf_counter() + rows * policy_us * 1e-6
    while time.perf_counter() < until:
        pass
    actions = np.zeros((rows, 7), dtype=np.intc)
    actions[:, 0] = rng.integers(-20, 21, size=rows)
    actions[:, 3] = 1
    return actions


def lock_step(envs, seconds, policy_us, rng):
    envs.reset(seed=1)
    steps = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        envs.step(policy(envs.num_envs, policy_us, rng))
        steps += envs.num_envs
    return steps / (time.perf_counter() - begin)


def send_recv(envs, seconds, policy_us, rng):
    envs.async_reset(seed=1)
    steps = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        _, _, _, _, env_ids = envs.recv()
        envs.send(policy(len(env_ids), policy_us, rng), env_ids)
        steps += len(env_ids)
    rate = steps / (time.perf_counter() - begin)
    # Back to every env received, so that the VectorLab can close cleanly.
    in_flight = envs.num_envs
    while in_flight >= envs.batch_size:
        envs.recv()
        in_flight -= envs.batch_size
    return rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--policy_us", type=float, default=30)
    args = parser.parse_args()
    n = args.envs
    rng = np.random.default_rng(0)
    print("%d envs of uneven_steps at 84x84, steps per second (best of %d), ratio to step()"
          % (n, args.rounds))
    print("| threads | agent | step() | send/recv, batch %d | ratio | send/recv, batch %d | ratio "
          "| bound |" % (n, n // 2))
    print("|---|---|---|---|---|---|---|---|")
    one_thread = {}
    for threads in (1, 2):
        forms = {
            "step": (labenv.VectorLab(n, LEVEL, OBSERVATIONS, CONFIG, num_threads=threads),
                     lock_step),
            "whole": (labenv.VectorLab(n, LEVEL, OBSERVATIONS, CONFIG, num_threads=threads),
                      send_recv),
            "half": (labenv.VectorLab(n, LEVEL, OBSERVATIONS, CONFIG, num_threads=threads,
                                      batch_size=n // 2), send_recv),
        }
        for policy_us in (0, args.policy_us):
            best = {name: 0.0 for name in forms}
            for _ in range(args.rounds):
                for name, (envs, run) in forms.items():
                    best[name] = max(best[name], run(envs, args.seconds, policy_us, rng))
            agent = "instant" if policy_us == 0 else "%g µs an env" % policy_us
            if threads == 1:
                one_thread[policy_us] = best["step"]
            print("| %d | %s | %.0f | %.0f | %.2f | %.0f | %.2f | %.2f |" % (
                threads, agent, best["step"], best["whole"], best["whole"] / best["step"],
                best["half"], best["half"] / best["step"],
                threads * one_thread[policy_us] / best["step"]))
        for envs, _ in forms.values():
            envs.close()


if __name__ == "__main__":
    main()
