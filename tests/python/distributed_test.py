"""labenv.distributed: shards of a batch on a local Dask cluster.

Two worker processes, one thread each, on the loopback address only. Kept
short for CI: one cluster for the module, a few steps per case.
"""

import os
import time

import numpy as np
import pytest

import distributed

import labenv  # noqa: E402
from labenv import distributed as labenv_distributed  # noqa: E402
from labenv_testing import (  # noqa: E402, F401 (client, two_workers: fixtures)
    TEST_LEVEL, client, config, kill_worker, random_actions, two_workers)

SETTINGS = config(episodeLengthSeconds=0.05)  # 3-frame episodes: autoresets
RGB = "RGB_INTERLEAVED"


def _actor_count(client, timeout=10.0):
    """The actors left on the workers, once Dask has released what close()
    cancelled (it releases asynchronously), or after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        count = sum(client.run(lambda dask_worker: len(dask_worker.state.actors)).values())
        if count == 0 or time.monotonic() > deadline:
            return count
        time.sleep(0.05)


@pytest.mark.parametrize("shared_memory", [True, False])
def test_an_uneven_split_steps_exactly_as_one_local_vector_lab(two_workers, shared_memory):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 5, "demo_maze",
                                                   [RGB, "DEBUG.POS.TRANS"], SETTINGS,
                                                   shared_memory=shared_memory)
    # On one machine every shard writes into the learner's batches, unless told not to.
    assert [shard.shared for shard in envs._shards] == [shared_memory] * 2
    assert [(first, count) for _, first, count in envs.shards] == [(0, 3), (3, 2)]
    assert len({worker for worker, _, _ in envs.shards}) == 2  # one shard a worker
    local = labenv.VectorLab(5, "demo_maze", [RGB, "DEBUG.POS.TRANS"], SETTINGS)
    observations = envs.reset(seed=7)
    assert observations[RGB].shape == (5, 24, 32, 3) and observations[RGB].dtype == np.uint8
    assert observations["DEBUG.POS.TRANS"].dtype == np.float64
    assert np.array_equal(observations[RGB], local.reset(seed=7)[RGB])
    for actions in random_actions(np.random.default_rng(1), 8, envs=5):
        observations, reward, terminated, truncated, info = envs.step(actions)
        expected = local.step(actions)
        assert np.array_equal(observations[RGB], expected[0][RGB])
        assert np.array_equal(reward, expected[1]) and reward.dtype == np.float64
        assert np.array_equal(terminated, expected[2]) and np.array_equal(truncated, expected[3])
        assert not info["restarted"].any()
    # Episodes of 3 frames: 8 steps end two and start a third.
    assert info["episodes"].tolist() == [2] * 5
    assert envs.action_spec() == local.action_spec() and envs.fps() == 60
    envs.close()
    assert _actor_count(two_workers) == 0


def test_the_asynchronous_form_and_per_shard_observations(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 4, "demo_maze", [RGB], SETTINGS,
                                                   concatenate=False)
    observations = envs.reset(seed=1)
    assert [batch[RGB].shape[0] for batch in observations] == [2, 2]
    envs.step_async(np.zeros((4, 7), np.intc))
    with pytest.raises(RuntimeError, match="a step is in flight"):
        envs.step_async(np.zeros((4, 7), np.intc))
    observations, reward, *_ = envs.step_wait()  # the learner's work goes before this
    assert len(observations) == 2 and reward.shape == (4,)
    with pytest.raises(RuntimeError, match="no step in flight"):
        envs.step_wait()
    with pytest.raises(ValueError, match=r"actions must have shape \(4, 7\), got \(3, 7\)"):
        envs.step(np.zeros((3, 7), np.intc))
    envs.close()
    envs.close()  # twice is fine
    with pytest.raises(RuntimeError, match="closed"):
        envs.step(np.zeros((4, 7), np.intc))


def test_the_gymnasium_form(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 3, "demo_maze", [RGB], SETTINGS)
    gym_envs = envs.gym(action_set="dmlab_default")
    assert gym_envs.single_action_space.n == 9
    observations, _ = gym_envs.reset(seed=0)
    assert gym_envs.observation_space.contains(observations)
    observations, rewards, terminated, truncated, infos = gym_envs.step(np.array([0, 1, 2]))
    assert observations[RGB].shape == (3, 24, 32, 3)
    assert infos["restarted"].tolist() == [False] * 3
    gym_envs.close()
    assert _actor_count(two_workers) == 0


def _client_count(client):
    """Clients the scheduler knows, less its own fire-and-forget one."""
    return client.run_on_scheduler(
        lambda dask_scheduler: len(set(dask_scheduler.clients) - {"fire-and-forget"}))


def _kill_worker_of_shard(client, envs, shard):
    worker = envs.shards[shard][0]
    kill_worker(client, worker)
    return worker


def test_a_killed_worker_loses_its_shard_with_a_clear_error(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 5, "demo_maze", [RGB], SETTINGS,
                                                   timeout=30)
    envs.reset(seed=0)
    envs.step(np.zeros((5, 7), np.intc))
    _kill_worker_of_shard(two_workers, envs, 1)
    started = time.monotonic()
    with pytest.raises(labenv_distributed.ShardLostError, match=r"envs 3-4 \(shard 1 on tcp://"):
        envs.step(np.zeros((5, 7), np.intc))
    assert time.monotonic() - started < 30
    with pytest.raises(labenv_distributed.ShardLostError, match="restart=True"):
        envs.step(np.zeros((5, 7), np.intc))
    envs.close()


def test_restart_recreates_the_shard_and_the_untouched_envs_stay_equal(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 5, "demo_maze", [RGB], SETTINGS,
                                                   restart=True, timeout=30)
    local = labenv.VectorLab(5, "demo_maze", [RGB], SETTINGS)
    envs.reset(seed=5)
    local.reset(seed=5)
    actions = random_actions(np.random.default_rng(2), 10, envs=5)
    for step_actions in actions[:4]:
        envs.step(step_actions)
        local.step(step_actions)
    lost = _kill_worker_of_shard(two_workers, envs, 1)
    observations, reward, terminated, truncated, info = envs.step(actions[4])
    expected = local.step(actions[4])
    assert info["restarted"].tolist() == [False, False, False, True, True]
    assert envs.shards[1][0] != lost
    # Envs 3 and 4 were in episode 1: they start episode 2, fresh.
    assert info["episodes"].tolist()[3:] == [2, 2]
    assert reward[3:].tolist() == [0, 0] and not terminated[3:].any() and not truncated[3:].any()
    assert np.array_equal(observations[RGB][:3], expected[0][RGB][:3])
    for step_actions in actions[5:]:
        observations, *_ = envs.step(step_actions)
        assert np.array_equal(observations[RGB][:3], local.step(step_actions)[0][RGB][:3])
    # A shard lost before a reset is recreated by it, at episode 0: the
    # whole batch equals the local one again.
    two_workers.wait_for_workers(2, timeout=60)
    _kill_worker_of_shard(two_workers, envs, 0)
    assert np.array_equal(envs.reset(seed=6)[RGB], local.reset(seed=6)[RGB])
    envs.close()


def test_a_level_error_in_a_worker_carries_the_levels_message(two_workers):
    envs = labenv_distributed.DistributedVectorLab(
        two_workers, 2, TEST_LEVEL, ["TEST.COUNTER"], config(failAtFrame=2))
    envs.reset(seed=0)
    envs.step(np.zeros((2, 7), np.intc))
    with pytest.raises(RuntimeError, match=r"env 0 \(shard 0 on .*step failed on purpose"):
        envs.step(np.zeros((2, 7), np.intc))
    # Every shard answered: the next step works, the failed envs restarting.
    observations, *_ = envs.step(np.zeros((2, 7), np.intc))
    assert observations["TEST.COUNTER"].shape == (2, 2)
    envs.close()


def test_bad_arguments_are_clear_errors(two_workers):
    with pytest.raises(ValueError, match="num_envs >= 1"):
        labenv_distributed.DistributedVectorLab(two_workers, 0, "demo_maze", [RGB])
    with pytest.raises(RuntimeError, match="no built-in level 'no_such_level'"):
        labenv_distributed.DistributedVectorLab(two_workers, 2, "no_such_level", [RGB])
    assert _actor_count(two_workers) == 0
    started = time.monotonic()
    with pytest.raises(ConnectionError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        labenv_distributed.DistributedVectorLab("tcp://127.0.0.1:9", 2, "demo_maze", [RGB],
                                                timeout=2)
    assert time.monotonic() - started < 15


def test_a_bad_action_array_is_refused_before_it_is_sent_and_the_envs_carry_on(two_workers):
    """Checked in the learner with VectorLab's rules and errors: a float64
    or wrong-width batch used to reach the shards, which refused it, and
    the DistributedVectorLab was lost for good (ShardLostError ever after)."""
    envs = labenv_distributed.DistributedVectorLab(two_workers, 3, "demo_maze", [RGB], SETTINGS)
    local = labenv.VectorLab(3, "demo_maze", [RGB], SETTINGS, num_threads=1)
    envs.reset(seed=0)
    local.reset(seed=0)
    bad = [
        np.zeros((3, 7), np.float64),      # the wrong dtype
        np.zeros((3, 6), np.intc),         # the wrong width
        np.zeros((2, 7), np.intc),         # a row short
        np.zeros((3, 7), np.intc).tolist(),  # not an array
        np.zeros((3, 7), np.dtype(np.intc).newbyteorder()),  # not native
    ]
    for actions in bad:
        with pytest.raises((TypeError, ValueError)) as expected:
            local.step(actions)
        with pytest.raises(type(expected.value), match="^actions must") as raised:
            envs.step(actions)
        assert str(raised.value) == str(expected.value)
        with pytest.raises(TypeError, match="no continuous actions"):
            envs.step(np.zeros((3, 7), np.intc), continuous=np.zeros((3, 1)))
        with pytest.raises(ValueError, match="num_steps must be >= 1"):
            envs.step(np.zeros((3, 7), np.intc), num_steps=0)
    # Nothing was sent: the envs step on, as the local ones do.
    observations, reward, *_ = envs.step(np.zeros((3, 7), np.intc))
    assert observations[RGB].shape[0] == 3
    envs.close()
    local.close()


def test_a_client_that_routes_through_the_scheduler_is_warned_about(two_workers):
    routed = distributed.Client(two_workers.scheduler.address, set_as_default=False)
    try:
        with pytest.warns(UserWarning, match="direct_to_workers=True"):
            envs = labenv_distributed.DistributedVectorLab(routed, 2, "demo_maze", [RGB],
                                                           SETTINGS)
        envs.close()
    finally:
        routed.close()


def test_closing_leaves_no_actor_client_or_worker_process_behind(tmp_path):
    import psutil

    before = {child.pid for child in psutil.Process().children(recursive=True)}
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None,
                                       local_directory=str(tmp_path))
    watcher = distributed.Client(cluster, set_as_default=False)
    # From an address: it makes (and must close) its own client.
    with labenv_distributed.DistributedVectorLab(cluster.scheduler_address, 2, "demo_maze",
                                                 [RGB], SETTINGS) as envs:
        envs.reset(seed=0)
        assert _actor_count(watcher) == 1
        assert _client_count(watcher) == 2
    assert _actor_count(watcher) == 0
    deadline = time.monotonic() + 10
    while _client_count(watcher) > 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _client_count(watcher) == 1  # only the watcher
    watcher.close()
    cluster.close()
    left = {child.pid for child in psutil.Process().children(recursive=True)} - before
    assert not [pid for pid in left if psutil.pid_exists(pid)
                and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]


def test_the_cluster_training_example_runs_a_few_updates(capsys):
    import re

    from labenv_testing import HERE

    with open(os.path.join(HERE, "..", "..", "docs", "distributed.md")) as doc:
        blocks = re.findall(r"```python\n(.*?)```", doc.read(), re.S)
    example, = [block for block in blocks if "class Sampler" in block]
    # Two updates: the full run takes minutes (see the doc).
    for line, short in (("UPDATES = 80 ", "UPDATES = 2 "),
                        ("threads_per_worker=1)", "threads_per_worker=1, host='127.0.0.1', "
                                                  "dashboard_address=None)")):
        assert line in example
        example = example.replace(line, short)
    scope = {"__name__": "__main__"}
    exec(compile(example, "distributed.md", "exec"), scope)
    printed = capsys.readouterr().out
    assert "the same returns, episode for episode: True" in printed


def test_split_is_even_and_larger_first():
    assert labenv_distributed.split(5, 2) == [(0, 3), (3, 2)]
    assert labenv_distributed.split(4, 4) == [(0, 1), (1, 1), (2, 1), (3, 1)]
    assert labenv_distributed.split(7, 3) == [(0, 3), (3, 2), (5, 2)]


def test_the_docs_examples_run():
    import re

    from labenv_testing import HERE

    with open(os.path.join(HERE, "..", "..", "docs", "distributed.md")) as doc:
        blocks = re.findall(r"```python\n(.*?)```", doc.read(), re.S)
    scope = {"np": np}
    # The three lines, on the loopback address only, then the steps.
    exec(blocks[0].replace("threads_per_worker=1)",
                           "threads_per_worker=1, host='127.0.0.1', dashboard_address=None)"),
         scope)
    try:
        exec(blocks[1], scope)
        assert scope["observations"]["RGB_INTERLEAVED"].shape == (8, 84, 84, 3)
        assert scope["info"]["restarted"].tolist() == [False] * 8
        assert _actor_count(scope["client"]) == 0
        rollouts_example, = [block for block in blocks if "envs.rollouts(Forward()" in block]
        exec(rollouts_example, scope)
        assert scope["frames"].shape == (33, 4, 84, 84, 3)
        assert _actor_count(scope["client"]) == 0
    finally:
        cluster = scope["client"].cluster
        scope["client"].close()
        cluster.close()
