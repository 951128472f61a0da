"""What labenv's test files share: level paths, small configs, actions,
and a local Dask cluster (import `client` and `two_workers` to use it)."""

import os
import signal
import time

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))

# tests/python/levels/test_level.lua: see its header for the settings.
TEST_LEVEL = os.path.join(HERE, "levels", "test_level.lua")

# Small frames keep the tests fast; the engine's cost is per pixel.
SMALL = {"width": "32", "height": "24"}

FORWARD = np.array([0, 0, 0, 1, 0, 0, 0], dtype=np.intc)
TURN_RIGHT = np.array([40, 0, 0, 0, 0, 0, 0], dtype=np.intc)


def config(**settings):
    """SMALL plus `settings`, every value as a str (as DeepMind Lab wants)."""
    merged = dict(SMALL)
    merged.update({key: str(value) for key, value in settings.items()})
    return merged


def send_next(envs, actions, taken, steps, env_ids):
    """Sends each env of `env_ids` that has steps left (taken[i] <= steps)
    its next row of `actions` ((steps, n, 7)); returns how many were sent."""
    sendable = [i for i in np.asarray(env_ids).tolist() if taken[i] <= steps]
    if sendable:
        envs.send(np.stack([actions[taken[i] - 1][i] for i in sendable]), sendable)
    return len(sendable)


def random_actions(rng, count, envs=None):
    """`count` random actions (or `count` x `envs` rows) that move around."""
    shape = (count, 7) if envs is None else (count, envs, 7)
    actions = np.zeros(shape, dtype=np.intc)
    actions[..., 0] = rng.integers(-30, 31, size=shape[:-1])
    actions[..., 2] = rng.integers(-1, 2, size=shape[:-1])
    actions[..., 3] = rng.integers(-1, 2, size=shape[:-1])
    return actions


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """A Dask client of two worker processes, one thread each, on the
    loopback address only; one cluster for a test file."""
    import distributed

    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, local_directory=str(tmp_path_factory.mktemp("dask")))
    client = distributed.Client(cluster, direct_to_workers=True)
    yield client
    client.close()
    cluster.close()


@pytest.fixture
def two_workers(client):  # noqa: F811 (the fixture above, by name)
    """The client, once both workers are up and answer (a killed one
    restarts, and the scheduler may list it until it fails to answer)."""
    deadline = time.monotonic() + 60
    while True:
        client.wait_for_workers(2, timeout=60)
        try:
            client.run(os.getpid)
            return client
        except OSError:  # Dask's CommClosedError: a worker already dead
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def kill_worker(client, worker):
    """SIGKILLs Dask worker `worker` (its address); asks that worker alone
    for its pid, as another may be one killed before and not yet removed."""
    os.kill(client.run(os.getpid, workers=[worker])[worker], signal.SIGKILL)
