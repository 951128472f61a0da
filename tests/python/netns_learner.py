"""The learner of netns_test.py, run inside host 0's namespace: a scheduler
and a worker there, another worker in host 1's, every frame from it over
the virtual link. Prints one line of JSON: what it checked."""

import json
import os
import signal
import sys
import time

import numpy as np

import distributed

import labenv
from labenv import distributed as labenv_distributed
from labenv import rollouts

SETTINGS = {"width": "32", "height": "24", "episodeLengthSeconds": "0.1"}
RGB = "RGB_INTERLEAVED"


class Forward:
    def __init__(self, turn=15):
        self.turn = turn

    def set_weights(self, turn):
        self.turn = turn

    def __call__(self, observations):
        actions = np.zeros((len(observations[RGB]), 7), np.intc)
        actions[:, 0] = self.turn
        actions[:, 3] = 1
        return actions


def main():
    scheduler, far_host = sys.argv[1], sys.argv[2]
    client = distributed.Client(scheduler, timeout=60, direct_to_workers=True)
    client.wait_for_workers(2, timeout=60)
    report = {}
    # Shared memory off, here and for the rollouts below: the namespaces
    # share this machine's /dev/shm, which two hosts would not.
    envs = labenv_distributed.DistributedVectorLab(client, 4, "demo_maze", [RGB], SETTINGS,
                                                   timeout=30, shared_memory=False)
    report["far_shard"] = [worker for worker, _, _ in envs.shards
                           if worker.startswith("tcp://" + far_host + ":")] != []
    local = labenv.VectorLab(4, "demo_maze", [RGB], SETTINGS)
    same = np.array_equal(envs.reset(seed=2)[RGB], local.reset(seed=2)[RGB])
    rng = np.random.default_rng(0)
    for _ in range(6):
        actions = np.zeros((4, 7), np.intc)
        actions[:, 0] = rng.integers(-20, 21, 4)
        actions[:, 3] = 1
        same = same and np.array_equal(envs.step(actions)[0][RGB], local.step(actions)[0][RGB])
    report["steps_equal_local"] = bool(same)
    report["shards_sharing_batches"] = [shard.shared for shard in envs._shards]
    # Rollouts, every fragment over TCP.
    with envs.rollouts(Forward(), 5, prefetch=False, shared_memory=False) as remote, \
            rollouts.LocalRollouts(4, "demo_maze", [RGB], SETTINGS, policy=Forward(),
                                   unroll_length=5, shards=2) as here:
        remote.reset(seed=3)
        here.reset(seed=3)
        equal = True
        for turn in (15, -10):
            for got, want in zip(remote.gather(), here.gather()):
                equal = equal and np.array_equal(got["observations"][RGB],
                                                 want["observations"][RGB])
            remote.set_weights(turn)
            here.set_weights(turn)
        report["fragments_equal_local"] = bool(equal)
        report["shared"] = remote.shared
    # The far host's worker dies mid-fragment.
    with envs.rollouts(Forward(), 400, shared_memory=False) as remote:
        remote.reset(seed=0)
        far = [worker for worker, _, _ in envs.shards if far_host in worker][0]
        os.kill(client.run(os.getpid, workers=[far])[far], signal.SIGKILL)
        started = time.monotonic()
        try:
            remote.gather()
            report["lost"] = "no error"
        except labenv_distributed.ShardLostError as error:
            report["lost"] = str(error)
        report["lost_seconds"] = time.monotonic() - started
    envs.close()
    client.close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
