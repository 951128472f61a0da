"""Rollouts over a real TCP link: one worker against two, each on a core of
its own, in network namespaces joined by a virtual ethernet pair.

    sudo ./lab python benchmarks/netns_rollouts_bench.py [--envs_per_worker=16]

Host 0 holds the scheduler, the learner and worker 0 (pinned to core 0);
host 1 holds worker 1 (pinned to core 1). Fragments travel whole over TCP
(shared memory off: two hosts would share none). It measures env steps
per second of rollouts (84x84 RGB, fragments of --unroll steps, random
moves beside the envs) with worker 0 alone, then with both, in turns,
and prints the ratio: how much the second host adds. Needs root for the
namespaces (tests/python/netns.py).
"""

import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import netns  # noqa: E402

LEARNER = r'''
import sys, time, numpy as np, distributed
from labenv import distributed as labenv_distributed
sys.path.insert(0, %(benchmarks)r)
from rollouts_bench import RandomMoves, CONFIG, OBSERVATIONS
client = distributed.Client(%(scheduler)r, timeout=60, direct_to_workers=True)
client.wait_for_workers(2, timeout=60)
workers = sorted(client.scheduler_info()["workers"])
near = [w for w in workers if w.startswith("tcp://%(near)s:")]
for shards, use in ((1, near), (2, workers)):
    rates = []
    for _ in range(%(rounds)d):
        envs = labenv_distributed.DistributedVectorLab(
            client, %(per_worker)d * shards, "demo_maze", OBSERVATIONS, CONFIG, shards=shards,
            num_threads=1)
        assert sorted(w for w, _, _ in envs.shards) == sorted(use[:shards]), envs.shards
        with envs.rollouts(RandomMoves(0), %(unroll)d, shared_memory=False) as remote:
            remote.reset(seed=0)
            remote.gather()
            steps, started = 0, time.perf_counter()
            for _ in range(%(fragments)d * shards):
                steps += remote.next()["reward"].size
            rates.append(steps / (time.perf_counter() - started))
        envs.close()
    print("shards", shards, " ".join("%%.0f" %% r for r in rates), flush=True)
client.close()
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs_per_worker", type=int, default=16)
    parser.add_argument("--unroll", type=int, default=32)
    parser.add_argument("--fragments", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with netns.Hosts() as hosts:
        scheduler = hosts.start_dask(pin=True)
        script = LEARNER % {"benchmarks": HERE, "scheduler": scheduler, "near": hosts.address(0),
                            "per_worker": args.envs_per_worker, "unroll": args.unroll,
                            "fragments": args.fragments, "rounds": args.rounds}
        learner = hosts.run(0, [sys.executable, "-c", script], env=hosts.environment(),
                            capture_output=True, text=True, timeout=900)
    if learner.returncode != 0:
        sys.exit(learner.stderr[-3000:])
    rates = {}
    for line in learner.stdout.splitlines():
        if line.startswith("shards"):
            words = line.split()
            rates[int(words[1])] = [float(word) for word in words[2:]]
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    print("rollouts over TCP between two namespaces, %d envs a worker, fragments of %d, "
          "84x84 RGB, medians of %d:" % (args.envs_per_worker, args.unroll, args.rounds))
    print("  one worker (host 0, core 0):          %8.0f steps/s" % one)
    print("  two workers (hosts 0 and 1, a core each): %8.0f steps/s, %.2fx one"
          % (two, two / one))


if __name__ == "__main__":
    main()
