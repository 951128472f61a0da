"""Steps per second of DistributedVectorLab against a local VectorLab.

    ./lab python benchmarks/distributed_bench.py [--envs_per_worker=16] [--steps=300]

At 84x84 RGB_INTERLEAVED on demo_maze (customObservations=false), with
random actions, it measures in one run, in interleaved rounds:

  - local: one labenv.VectorLab of all the environments, at 1 and at 2
    threads (the better is the baseline);
  - distributed: DistributedVectorLab over a LocalCluster of 2 worker
    processes (1 Dask thread each, loopback, a direct client), one shard of
    --envs_per_worker environments in each, stepping on 1 thread;

and breaks the distributed step down: stepping (the slower shard's
VectorLab.step, timed in its worker) and the rest: the data plane's
messages (actions out, results back, each shard's frames written into the
learner's shared memory batch in place) and the learner's own work.
Figures are medians of --rounds, and the ratio is taken within each round.
"""

import argparse
import statistics
import time

import numpy as np

import local_cluster

import labenv
from labenv import distributed as labenv_distributed

CONFIG = {"width": "84", "height": "84", "customObservations": "false"}
OBSERVATIONS = ["RGB_INTERLEAVED"]


def random_actions(rng, steps, n):
    actions = np.zeros((steps, n, 7), np.intc)
    actions[..., 0] = rng.integers(-20, 21, size=(steps, n))
    actions[..., 3] = rng.integers(0, 2, size=(steps, n))
    return actions


def local_rate(n, threads, actions):
    envs = labenv.VectorLab(n, "demo_maze", OBSERVATIONS, CONFIG, num_threads=threads)
    envs.reset(seed=0)
    started = time.perf_counter()
    for step_actions in actions:
        envs.step(step_actions)
    rate = len(actions) * n / (time.perf_counter() - started)
    envs.close()
    return rate


def distributed_rate(client, n, actions):
    """(steps per second, seconds a step: total, stepping)."""
    # Two workers on two cores: one stepping thread each.
    envs = labenv_distributed.DistributedVectorLab(client, n, "demo_maze", OBSERVATIONS, CONFIG,
                                                   num_threads=1)
    envs.reset(seed=0)
    stepping = []
    started = time.perf_counter()
    for step_actions in actions:
        info = envs.step(step_actions)[4]
        stepping.append(info["step_seconds"].max())
    seconds = time.perf_counter() - started
    envs.close()
    return len(actions) * n / seconds, seconds / len(actions), statistics.median(stepping)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs_per_worker", type=int, default=16)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    n = 2 * args.envs_per_worker
    with local_cluster.two_workers() as client:
        actions = random_actions(np.random.default_rng(0), args.steps, n)
        rows = []
        for round_index in range(args.rounds):
            local = {threads: local_rate(n, threads, actions) for threads in (1, 2)}
            rate, step, stepping = distributed_rate(client, n, actions)
            best = max(local.values())
            rows.append((local[1], local[2], rate, rate / best, step, stepping))
            print("round %d: local 1 thread %.0f, 2 threads %.0f; distributed %.0f steps/s (%.2fx)"
                  % (round_index, local[1], local[2], rate, rate / best), flush=True)
    median = [statistics.median(column) for column in zip(*rows)]
    print()
    print("%d environments, 84x84 RGB, %d per worker, medians of %d rounds:"
          % (n, args.envs_per_worker, args.rounds))
    print("  local VectorLab, 1 thread:   %8.0f steps/s" % median[0])
    print("  local VectorLab, 2 threads:  %8.0f steps/s" % median[1])
    print("  DistributedVectorLab, 2 workers: %4.0f steps/s, %.2fx the better local"
          % (median[2], median[3]))
    step_ms, stepping_ms = 1000 * median[4], 1000 * median[5]
    print("  a distributed step: %.2f ms = stepping %.2f ms (slower shard)"
          " + messages and the learner's work %.2f ms"
          % (step_ms, stepping_ms, step_ms - stepping_ms))


if __name__ == "__main__":
    main()
