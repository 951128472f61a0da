"""Rollouts (labenv.rollouts) on 2 Dask workers against one local VectorLab.

    ./lab python benchmarks/rollouts_bench.py [--envs_per_worker=16] [--unroll=32]

At 84x84 RGB_INTERLEAVED on demo_maze (customObservations=false), a policy
of random moves (numpy, beside the envs), it measures total env steps per
second, in interleaved rounds:

  - local: LocalRollouts of all the environments in one VectorLab, at 1
    and at 2 threads (the better is the baseline): the same fragments, no
    Dask;
  - distributed: envs.rollouts(policy, unroll) over a DistributedVectorLab
    on a LocalCluster of 2 worker processes (1 Dask thread each, loopback,
    a direct client), one shard of --envs_per_worker envs in each,
    stepping on 1 thread, collecting ahead (prefetch);

and breaks a fragment down: the shard's time in the policy and in
VectorLab.step (timed in its worker), serialisation (Dask's serialize and
deserialize of one fragment, here), and the rest (transport, waiting).
Medians of --rounds; the ratio is taken within each round.
"""

import argparse
import statistics
import time

import numpy as np

import local_cluster

from labenv import distributed as labenv_distributed
from labenv import rollouts

CONFIG = {"width": "84", "height": "84", "customObservations": "false"}
OBSERVATIONS = ["RGB_INTERLEAVED"]


class RandomMoves:
    """Random look and move, from a generator of its own."""

    def __init__(self, seed):
        self._rng = np.random.default_rng(seed)

    def __call__(self, observations):
        rows = observations[OBSERVATIONS[0]].shape[0]
        actions = np.zeros((rows, 7), np.intc)
        actions[:, 0] = self._rng.integers(-20, 21, size=rows)
        actions[:, 3] = self._rng.integers(0, 2, size=rows)
        return actions


def local_rate(n, threads, unroll, fragments):
    with rollouts.LocalRollouts(n, "demo_maze", OBSERVATIONS, CONFIG, policy=RandomMoves(0),
                                unroll_length=unroll, num_threads=threads) as local:
        local.reset(seed=0)
        started = time.perf_counter()
        for _ in range(fragments):
            local.next()
        return fragments * unroll * n / (time.perf_counter() - started)


def distributed_rate(client, n, unroll, fragments):
    """(steps per second, [fragment seconds: policy, step], one fragment)."""
    envs = labenv_distributed.DistributedVectorLab(client, n, "demo_maze", OBSERVATIONS, CONFIG,
                                                   num_threads=1)
    with envs.rollouts(RandomMoves(0), unroll) as remote:
        remote.reset(seed=0)
        remote.gather()  # both shards under way
        seconds, steps = [], 0
        started = time.perf_counter()
        for _ in range(fragments):
            fragment = remote.next()
            steps += fragment["reward"].size
            seconds.append((fragment["seconds"]["policy"], fragment["seconds"]["step"],
                            fragment["seconds"]["waiting"]))
        rate = steps / (time.perf_counter() - started)
    envs.close()
    return rate, seconds, fragment


def serialisation_seconds(fragment, repeats=20):
    from distributed.protocol import deserialize, serialize

    started = time.perf_counter()
    for _ in range(repeats):
        header, frames = serialize(fragment)
        deserialize(header, frames)
    return (time.perf_counter() - started) / repeats


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs_per_worker", type=int, default=16)
    parser.add_argument("--unroll", type=int, default=32)
    parser.add_argument("--fragments", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    n = 2 * args.envs_per_worker
    with local_cluster.two_workers() as client:
        rows = []
        for round_index in range(args.rounds):
            # Local fragments hold all n envs: as many env steps as the distributed run's.
            local = {threads: local_rate(n, threads, args.unroll, args.fragments // 2)
                     for threads in (1, 2)}
            rate, seconds, fragment = distributed_rate(client, n, args.unroll, args.fragments)
            best = max(local.values())
            policy = statistics.median(s[0] for s in seconds)
            stepping = statistics.median(s[1] for s in seconds)
            waiting = statistics.median(s[2] for s in seconds)
            rows.append((local[1], local[2], rate, rate / best, policy, stepping, waiting))
            print("round %d: local 1 thread %.0f, 2 threads %.0f; rollouts %.0f steps/s (%.2fx)"
                  % (round_index, local[1], local[2], rate, rate / best), flush=True)
        serial = serialisation_seconds(fragment)
    median = [statistics.median(column) for column in zip(*rows)]
    per_fragment = args.envs_per_worker * args.unroll
    print()
    print("%d environments, 84x84 RGB, %d per worker, fragments of %d steps, medians of %d rounds:"
          % (n, args.envs_per_worker, args.unroll, args.rounds))
    print("  local, 1 thread:   %8.0f steps/s" % median[0])
    print("  local, 2 threads:  %8.0f steps/s" % median[1])
    print("  rollouts, 2 workers: %6.0f steps/s, %.2fx the better local" % (median[2], median[3]))
    fragment_ms = 1000 * 2 * per_fragment / median[2]  # two shards work at once
    print("  a fragment of %d env steps: %.1f ms a shard = policy %.1f ms + stepping %.1f ms "
          "+ waiting for the learner to ask %.1f ms + the rest %.1f ms (the worker's loop, "
          "thread hand-offs); serialisation of one, here: %.1f ms"
          % (per_fragment, fragment_ms, 1000 * median[4], 1000 * median[5], 1000 * median[6],
             fragment_ms - 1000 * (median[4] + median[5] + median[6]), 1000 * serial))


if __name__ == "__main__":
    main()
