"""labenv.VectorLab's asynchronous calls: send, recv, async_reset."""

import gc
import time

import numpy as np
import pytest

import labenv
from labenv_testing import TEST_LEVEL, config, random_actions, send_next

OBSERVATIONS = ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"]


def _lock_step(level, settings, n, seed, actions):
    """Env i's results, step by step, from the lock-step form:
    [first observations, (observations, reward, terminated, truncated), ...]."""
    envs = labenv.VectorLab(n, level, OBSERVATIONS, settings)
    first = envs.reset(seed=seed)
    per_env = [[{k: v[i].copy() for k, v in first.items()}] for i in range(n)]
    for step_actions in actions:
        observed, reward, terminated, truncated = envs.step(step_actions)
        for i in range(n):
            per_env[i].append(({k: v[i].copy() for k, v in observed.items()},
                               reward[i], terminated[i], truncated[i]))
    envs.close()
    return per_env


@pytest.mark.parametrize("batch_size,threads", [(5, 1), (2, 2), (1, 2), (3, 3)])
def test_each_env_steps_as_in_the_lock_step_form(batch_size, threads):
    """Seeds, autoresets and episodes do not depend on when an env steps."""
    n, steps = 5, 40
    cases = [
        ("demo_maze", config(episodeLengthSeconds=0.25)),  # truncated every 15 frames
        (TEST_LEVEL, config(endAfterFrames=12)),              # terminated every 12
    ]
    rng = np.random.default_rng(batch_size)
    for level, settings in cases:
        actions = random_actions(rng, steps, envs=n)
        expected = _lock_step(level, settings, n, 7, actions)
        envs = labenv.VectorLab(n, level, OBSERVATIONS, settings, num_threads=threads,
                                batch_size=batch_size)
        assert envs.batch_size == batch_size
        envs.async_reset(seed=7)
        taken = [0] * n  # results of env i seen so far
        in_flight, ended = n, 0
        while in_flight >= batch_size:
            observed, reward, terminated, truncated, env_ids = envs.recv()
            in_flight -= batch_size
            assert env_ids.dtype == np.int32 and len(set(env_ids.tolist())) == batch_size
            assert observed["RGB_INTERLEAVED"].shape == (batch_size, 24, 32, 3)
            for j, i in enumerate(env_ids.tolist()):
                want = expected[i][taken[i]]
                if taken[i] == 0:
                    want_observed = want
                    assert reward[j] == 0 and not terminated[j] and not truncated[j]
                else:
                    want_observed, want_reward, want_terminated, want_truncated = want
                    assert reward[j] == want_reward, (level, i, taken[i])
                    assert terminated[j] == want_terminated and truncated[j] == want_truncated
                    ended += int(terminated[j] or truncated[j])
                for name in OBSERVATIONS:
                    assert np.array_equal(observed[name][j], want_observed[name]), \
                        (level, i, taken[i], name)
                taken[i] += 1
            in_flight += send_next(envs, actions, taken, steps, env_ids)
        # All but the last few envs (fewer than a batch, left in flight) ran
        # every step.
        assert sum(t == steps + 1 for t in taken) >= n - batch_size + 1, taken
        assert ended >= n
        envs.close()


def test_recv_returns_the_envs_that_finish_first():
    # Env 0 (seed 0) turns an empty loop 3 million times a frame, about
    # 20 ms; the others take well under a millisecond.
    settings = config(busySeed=0, busyLoops=3000000)
    envs = labenv.VectorLab(4, TEST_LEVEL, ["TEST.COUNTER"], settings, num_threads=2,
                            batch_size=1)
    envs.async_reset(seed=0)
    received = []
    forward = np.zeros((1, 7), np.intc)
    for _ in range(40):
        _, _, _, _, env_ids = envs.recv()
        received.append(int(env_ids[0]))
        envs.send(forward, env_ids)
    # The lock-step form would return env 0 in every batch; here the fast
    # envs come back again and again while it works.
    assert received.count(0) <= 3, received
    assert all(received.count(i) >= 10 for i in (1, 2, 3)), received
    envs.close()


def test_num_steps_and_held_batches():
    envs = labenv.VectorLab(2, TEST_LEVEL, ["TEST.COUNTER"], config(), batch_size=2)
    envs.async_reset(seed=1)
    first = envs.recv()[0]["TEST.COUNTER"]
    copy = np.array(first)
    envs.send(np.zeros((2, 7), np.intc), [1, 0], num_steps=4)
    observed, _, _, _, env_ids = envs.recv()
    assert sorted(env_ids.tolist()) == [0, 1]
    assert observed["TEST.COUNTER"][:, 0].tolist() == [4.0, 4.0]
    assert observed["TEST.COUNTER"] is not first
    assert np.array_equal(first, copy)  # a held batch is never written again
    # Only the envs sent: one env, one frame.
    small = labenv.VectorLab(2, TEST_LEVEL, ["TEST.COUNTER"], config(), batch_size=1)
    small.async_reset(seed=1)
    got = sorted(int(small.recv()[4][0]) for _ in range(2))
    assert got == [0, 1]
    small.send(np.zeros((1, 7), np.intc), [1])
    observed, _, _, _, env_ids = small.recv()
    assert env_ids.tolist() == [1] and observed["TEST.COUNTER"][0, 0] == 1.0


def test_a_lua_error_names_the_env_and_loses_no_other():
    # Env i's first episode has seed 10 + i: env 1 fails to start.
    envs = labenv.VectorLab(3, TEST_LEVEL, ["TEST.COUNTER"], config(failSeed=11), batch_size=1)
    envs.async_reset(seed=10)
    returned, failed = [], 0
    for _ in range(3):
        try:
            returned.append(int(envs.recv()[4][0]))
        except RuntimeError as error:
            assert "VectorLab env 1: " in str(error)
            assert "start failed on purpose, seed 11" in str(error)
            failed += 1
    assert sorted(returned) == [0, 2] and failed == 1
    # Env 1 is back with the caller. As in the lock-step form, its next step
    # starts the same episode again, which fails again; nothing else moved.
    envs.send(np.zeros((1, 7), np.intc), [1])
    with pytest.raises(RuntimeError, match="VectorLab env 1: .*seed 11"):
        envs.recv()
    envs.async_reset(seed=20)  # every env back: a reset with other seeds
    assert sorted(int(envs.recv()[4][0]) for _ in range(3)) == [0, 1, 2]
    # A whole batch of which one failed: the others wait for the next recv.
    envs = labenv.VectorLab(3, TEST_LEVEL, ["TEST.COUNTER"], config(failSeed=11), batch_size=2)
    envs.async_reset(seed=10)
    with pytest.raises(RuntimeError, match="env 1"):
        while True:
            envs.recv()[4]  # env 1 may finish in the first pair or the second
            envs.send(np.zeros((2, 7), np.intc), [0, 2])


def test_closing_or_dropping_with_envs_in_flight():
    settings = config(busySeed=0, busyLoops=300000)
    envs = labenv.VectorLab(3, TEST_LEVEL, ["TEST.COUNTER"], settings, batch_size=1)
    envs.async_reset(seed=0)
    started = time.monotonic()
    assert envs.close() is True  # waits for the steps under way only
    assert time.monotonic() - started < 10
    with pytest.raises(RuntimeError, match="closed"):
        envs.recv()
    envs = labenv.VectorLab(3, TEST_LEVEL, ["TEST.COUNTER"], settings, batch_size=1)
    envs.async_reset(seed=0)
    del envs
    gc.collect()


def test_errors():
    make = lambda **kwargs: labenv.VectorLab(3, "demo_maze", ["RGB_INTERLEAVED"], config(),
                                             **kwargs)
    for bad in (0, 4, -1):
        with pytest.raises(ValueError, match=r"batch_size must be in \[1, n = 3\], got "):
            make(batch_size=bad)
    envs = make(batch_size=2)
    assert make().batch_size == 3
    actions = np.zeros((2, 7), np.intc)
    with pytest.raises(RuntimeError, match="reset.* before send"):
        envs.send(actions, [0, 1])
    with pytest.raises(RuntimeError, match="0 envs are in flight, fewer than batch_size 2"):
        envs.recv()
    envs.reset(seed=0)
    for env_ids, why in [([0, 3], r"env_ids\[1\] = 3 is not an env"),
                         ([-1, 0], r"env_ids\[0\] = -1 is not an env"),
                         ([1, 1], r"env_ids\[1\] = 1 is given twice"),
                         (["a", 1], r"env_ids\[0\] is not an int"),
                         ([], "env_ids is empty")]:
        with pytest.raises(ValueError, match=why):
            envs.send(actions[:max(len(env_ids), 1)], env_ids)
    with pytest.raises(TypeError, match="must be a sequence of ints"):
        envs.send(actions, 5)
    with pytest.raises(ValueError, match=r"must have shape \(2, 7\)"):
        envs.send(np.zeros((3, 7), np.intc), [0, 1])
    with pytest.raises(ValueError, match="num_steps must be >= 1"):
        envs.send(actions, [0, 1], num_steps=0)
    envs.send(actions, [0, 1])
    with pytest.raises(ValueError, match=r"env_ids\[0\] = 1 is in flight"):
        envs.send(actions[:1], [1])
    for call in (lambda: envs.step(np.zeros((3, 7), np.intc)), envs.reset, envs.async_reset):
        with pytest.raises(RuntimeError, match="2 envs are in flight .*recv\\(\\) them first"):
            call()
    observed, _, _, _, env_ids = envs.recv()
    assert sorted(env_ids.tolist()) == [0, 1]
    with pytest.raises(RuntimeError, match="0 envs are in flight"):
        envs.recv()
    # Every env back: the lock-step form works again.
    assert envs.step(np.zeros((3, 7), np.intc))[1].shape == (3,)
    envs.close()
