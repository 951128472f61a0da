"""DistributedVectorLab's send/recv: EnvPool's contract over shards.

Two worker processes, one thread each, on the loopback address only.
"""

import numpy as np
import pytest


import labenv  # noqa: E402
from labenv import distributed as labenv_distributed  # noqa: E402
from labenv_testing import (  # noqa: E402, F401 (client, two_workers: fixtures)
    TEST_LEVEL, client, config, kill_worker, random_actions, send_next, two_workers)

SETTINGS = config(episodeLengthSeconds=0.05)  # 3-frame episodes: autoresets
RGB = "RGB_INTERLEAVED"


def _lock_step(n, seed, actions):
    """Env i's observations and rewards, step by step, from a local VectorLab."""
    envs = labenv.VectorLab(n, "demo_maze", [RGB], SETTINGS)
    first = envs.reset(seed=seed)[RGB]
    per_env = [[(first[i].copy(), 0.0)] for i in range(n)]
    for step_actions in actions:
        observed, reward, _, _ = envs.step(step_actions)
        for i in range(n):
            per_env[i].append((observed[RGB][i].copy(), reward[i]))
    envs.close()
    return per_env


@pytest.mark.parametrize("batch_size", [5, 2])
def test_each_env_steps_as_in_one_local_vector_lab(two_workers, batch_size):
    n, steps = 5, 8
    actions = random_actions(np.random.default_rng(batch_size), steps, envs=n)
    expected = _lock_step(n, 7, actions)
    envs = labenv_distributed.DistributedVectorLab(two_workers, n, "demo_maze", [RGB], SETTINGS,
                                                   batch_size=batch_size)
    assert envs.batch_size == batch_size
    envs.async_reset(seed=7)
    taken = [0] * n
    in_flight = n
    while in_flight >= batch_size:
        observed, reward, terminated, truncated, env_ids, info = envs.recv()
        in_flight -= batch_size
        assert observed[RGB].shape == (batch_size, 24, 32, 3) and env_ids.dtype == np.int32
        assert not info["restarted"].any()
        for j, i in enumerate(env_ids.tolist()):
            want_frame, want_reward = expected[i][taken[i]]
            assert np.array_equal(observed[RGB][j], want_frame), (i, taken[i])
            assert reward[j] == want_reward
            taken[i] += 1
        in_flight += send_next(envs, actions, taken, steps, env_ids)
    assert sum(t == steps + 1 for t in taken) >= n - batch_size + 1, taken
    envs.close()


def test_errors_and_the_lock_step_form_between(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 3, "demo_maze", [RGB], SETTINGS,
                                                   batch_size=2)
    for bad in (0, 4):
        with pytest.raises(ValueError, match=r"batch_size must be in \[1, num_envs = 3\]"):
            labenv_distributed.DistributedVectorLab(two_workers, 3, "demo_maze", [RGB],
                                                    SETTINGS, batch_size=bad)
    with pytest.raises(RuntimeError, match="0 envs are in flight, fewer than batch_size 2"):
        envs.recv()
    envs.reset(seed=0)
    actions = np.zeros((2, 7), np.intc)
    for env_ids, why in [([0, 3], r"env_ids\[1\] = 3 is not an env"),
                         ([1, 1], r"env_ids\[1\] = 1 is given twice")]:
        with pytest.raises(ValueError, match=why):
            envs.send(actions, env_ids)
    with pytest.raises(ValueError, match=r"actions must have shape \(2, 7\), got \(3, 7\)"):
        envs.send(np.zeros((3, 7), np.intc), [0, 2])
    envs.send(actions, [0, 2])
    with pytest.raises(ValueError, match=r"env_ids\[0\] = 2 is in flight"):
        envs.send(actions[:1], [2])
    for call in (lambda: envs.step(np.zeros((3, 7), np.intc)), envs.reset, envs.async_reset):
        with pytest.raises(RuntimeError, match="2 envs are in flight"):
            call()
    *_, env_ids, _ = envs.recv()
    assert sorted(env_ids.tolist()) == [0, 2]
    assert envs.step(np.zeros((3, 7), np.intc))[1].shape == (3,)  # every env back
    envs.close()


def test_a_level_error_names_the_env_and_keeps_the_others(two_workers):
    # Every env's level raises at its second frame.
    envs = labenv_distributed.DistributedVectorLab(
        two_workers, 3, TEST_LEVEL, ["TEST.COUNTER"], config(failAtFrame=2), batch_size=1)
    envs.async_reset(seed=10)
    back = sorted(int(envs.recv()[4][0]) for _ in range(3))
    assert back == [0, 1, 2]
    envs.send(np.zeros((3, 7), np.intc), [0, 1, 2])  # frame 1: fine
    assert sorted(int(envs.recv()[4][0]) for _ in range(3)) == [0, 1, 2]
    envs.send(np.zeros((3, 7), np.intc), [0, 1, 2])  # frame 2: every env fails
    for _ in range(3):
        with pytest.raises(RuntimeError, match=r"env \d \(shard \d on .*step failed on purpose"):
            envs.recv()
    envs.send(np.zeros((1, 7), np.intc), [1])  # back with the caller: starts again
    observed, *_ = envs.recv()
    assert observed["TEST.COUNTER"][0, 0] == 0.0
    envs.close()


def test_a_lost_shard_is_recreated_and_its_envs_come_back_restarted(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 4, "demo_maze", [RGB], SETTINGS,
                                                   restart=True, timeout=30, batch_size=4)
    envs.async_reset(seed=3)
    envs.recv()
    worker = envs.shards[1][0]
    kill_worker(two_workers, worker)
    envs.send(np.zeros((4, 7), np.intc))
    observed, reward, terminated, truncated, env_ids, info = envs.recv()
    restarted = dict(zip(env_ids.tolist(), info["restarted"].tolist()))
    assert restarted == {0: False, 1: False, 2: True, 3: True}
    assert envs.shards[1][0] != worker
    envs.close()
