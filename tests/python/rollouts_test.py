"""labenv.rollouts: fragments of T steps with the policy beside the envs,
in this process (LocalRollouts) and on a local Dask cluster."""

import os
import threading
import time

import numpy as np
import pytest

from distributed.protocol import pickle as dask_pickle

import labenv  # noqa: E402
from labenv import distributed as labenv_distributed  # noqa: E402
from labenv import rollouts  # noqa: E402
from labenv_testing import (  # noqa: E402, F401 (client, two_workers: fixtures)
    client, config, kill_worker, two_workers)

SETTINGS = config(episodeLengthSeconds=0.1)  # 6-frame episodes: autoresets in a fragment
RGB = "RGB_INTERLEAVED"


class BrightnessPolicy:
    """Turns one way or the other by the frame's mean brightness: it reads
    the observations, so a wrong frame shows in the actions."""

    def __init__(self, turn=20):
        self.turn = turn

    def set_weights(self, turn):
        self.turn = turn

    def __call__(self, observations):
        rgb = observations[RGB]
        mean = rgb.reshape(rgb.shape[0], -1).mean(axis=1)
        actions = np.zeros((rgb.shape[0], 7), np.intc)
        actions[:, 0] = np.where(mean > 100, self.turn, -self.turn)
        actions[:, 3] = 1
        return actions, {"mean": mean}


class FailingPolicy(BrightnessPolicy):
    def __call__(self, observations):
        raise ValueError("the policy failed on purpose")


def _assert_same(got, want):
    assert got["shard"] == want["shard"] and got["version"] == want["version"]
    assert np.array_equal(got["env_ids"], want["env_ids"])
    for key in ("actions", "reward", "terminated", "truncated"):
        assert np.array_equal(got[key], want[key]), key
    assert np.array_equal(got["observations"][RGB], want["observations"][RGB])
    assert np.array_equal(got["extras"]["mean"], want["extras"]["mean"])


def test_a_fragment_is_time_major_and_bootstraps_from_its_last_observation():
    with rollouts.LocalRollouts(3, "demo_maze", [RGB], SETTINGS, policy=BrightnessPolicy(),
                                unroll_length=8) as local:
        local.reset(seed=1)
        first = local.next()
        assert first["observations"][RGB].shape == (9, 3, 24, 32, 3)
        assert first["actions"].shape == (8, 3, 7) and first["reward"].shape == (8, 3)
        assert first["extras"]["mean"].shape == (8, 3)
        assert first["terminated"].dtype == bool and first["truncated"].any()  # 6-frame episodes
        assert first["version"] == 0 and first["env_ids"].tolist() == [0, 1, 2]
        second = local.next()
        # The next fragment starts where this one ended.
        assert np.array_equal(second["observations"][RGB][0], first["observations"][RGB][-1])
    # The same envs stepped by hand with the same policy give the same fragment.
    envs = labenv.VectorLab(3, "demo_maze", [RGB], SETTINGS)
    observed = envs.reset(seed=1)
    policy = BrightnessPolicy()
    for t in range(8):
        actions, _ = policy(observed)
        assert np.array_equal(actions, first["actions"][t])
        observed, reward, _, truncated = envs.step(actions)
        assert np.array_equal(observed[RGB], first["observations"][RGB][t + 1])
        assert np.array_equal(truncated, first["truncated"][t])


@pytest.mark.parametrize("shared_memory", [True, False])
def test_distributed_fragments_equal_local_ones_with_new_weights(two_workers, shared_memory):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 5, "demo_maze", [RGB], SETTINGS)
    local = rollouts.LocalRollouts(5, "demo_maze", [RGB], SETTINGS, policy=BrightnessPolicy(),
                                   unroll_length=6, shards=2)
    with envs.rollouts(BrightnessPolicy(), 6, prefetch=False,
                       shared_memory=shared_memory) as remote:
        with pytest.raises(RuntimeError, match="call reset"):
            remote.next()
        remote.reset(seed=4)
        local.reset(seed=4)
        assert remote.shared == ([0, 1] if shared_memory else [])
        with pytest.raises(RuntimeError, match="serve rollouts; close them first"):
            envs.step(np.zeros((5, 7), np.intc))
        for turn in (30, 10):
            for got, want in zip(remote.gather(), local.gather()):
                _assert_same(got, want)
            assert remote.set_weights(turn) == local.set_weights(turn) or True
        got = remote.gather()
        assert [fragment["version"] for fragment in got] == [2, 2]
        assert [fragment["env_ids"].tolist() for fragment in got] == [[0, 1, 2], [3, 4]]
    # Closed: the envs are theirs again.
    assert envs.reset(seed=0)[RGB].shape == (5, 24, 32, 3)
    envs.close()
    local.close()


def test_prefetch_collects_ahead_and_labels_the_weights(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 4, "demo_maze", [RGB], SETTINGS)
    with envs.rollouts(BrightnessPolicy(), 4) as remote:
        remote.reset(seed=0)
        seen = [remote.next() for _ in range(4)]
        assert {fragment["shard"] for fragment in seen} == {0, 1}
        version = remote.set_weights(40)
        versions = {0: [], 1: []}
        for _ in range(4):  # a fragment from each shard a round
            for fragment in remote.gather():
                versions[fragment["shard"]].append(fragment["version"])
        for shard, seen in versions.items():
            # At most two a shard were under way or fetched with the old weights.
            assert seen.count(0) <= 2 and seen[-1] == version, versions
            assert seen == sorted(seen), versions
    envs.close()


def _segments():
    return sorted(name for name in os.listdir("/dev/shm") if name.startswith("labenv-"))


def test_a_kept_fragment_never_changes_and_no_segment_outlives_close(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 4, "demo_maze", [RGB], SETTINGS)
    remote = envs.rollouts(BrightnessPolicy(), 4)
    remote.reset(seed=2)
    # The envs' batches and the two shards' fragments (other tests may run
    # beside this one, with segments of their own: only these are counted).
    mine = {envs._plane._slots.name} | {slots.name for slots in remote._slots.values()}
    assert remote.shared == [0, 1] and len(mine) == 3 and mine <= set(_segments())
    kept = remote.next()
    first_env = kept["observations"][RGB][:, 0]  # a view keeps its slot too
    copy = np.array(kept["observations"][RGB])
    del kept
    # More fragments than a shard has slots, some kept a while, some not:
    # every slot but the kept one is written again, and when the learner
    # holds them all a fragment travels whole.
    held = [remote.next() for _ in range(6)]
    for _ in range(6):
        remote.next()
    assert np.array_equal(first_env, copy[:, 0])
    del held
    envs.close()
    assert not mine & set(_segments())


def test_a_policy_that_raises_names_it_and_the_shard_survives(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 2, "demo_maze", [RGB], SETTINGS)
    remote = envs.rollouts(FailingPolicy(), 4)
    remote.reset(seed=0)
    with pytest.raises(RuntimeError, match=r"env 0 \(shard 0 on .*ValueError: the policy "
                                           r"failed on purpose"):
        remote.gather()
    with pytest.raises(RuntimeError, match="the policy failed on purpose"):
        remote.gather()  # it stays failed, and says why
    remote.close()
    observed, reward, *_ = envs.step(np.zeros((2, 7), np.intc))  # the shards are fine
    assert reward.shape == (2,)
    envs.close()


def test_bad_arguments(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 2, "demo_maze", [RGB], SETTINGS)
    with pytest.raises(ValueError, match="unroll_length must be >= 1, got 0"):
        envs.rollouts(BrightnessPolicy(), 0)
    lock = threading.Lock()
    with pytest.raises(TypeError, match="the policy cannot be pickled.*lock"):
        envs.rollouts(lambda observations, lock=lock: None, 4)
    envs.rollouts(lambda observations: None, 4).close()  # Dask's pickle sends a lambda
    with pytest.raises(ValueError, match="unroll_length must be >= 1"):
        rollouts.LocalRollouts(2, "demo_maze", [RGB], SETTINGS, policy=BrightnessPolicy(),
                               unroll_length=-1)
    with rollouts.LocalRollouts(2, "demo_maze", [RGB], SETTINGS, policy=lambda o: np.zeros(
            (2, 7), np.intc), unroll_length=2) as local:
        local.reset()
        with pytest.raises(TypeError, match="the policy .* has no set_weights"):
            local.set_weights(1)
    envs.close()


def test_a_lost_worker_mid_fragment_is_a_clear_error(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 2, "demo_maze", [RGB], SETTINGS,
                                                   timeout=30)
    remote = envs.rollouts(BrightnessPolicy(), 200)  # long fragments: killed mid-way
    remote.reset(seed=0)
    worker = envs.shards[1][0]
    kill_worker(two_workers, worker)
    started = time.monotonic()
    with pytest.raises(labenv_distributed.ShardLostError, match=r"env 1 \(shard 1"):
        remote.gather()
    assert time.monotonic() - started < 30
    envs.close()


@pytest.mark.parametrize("shared_memory", [True, False])
def test_restart_brings_a_lost_shard_back_under_the_latest_weights(two_workers, shared_memory):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 2, "demo_maze", [RGB], SETTINGS,
                                                   restart=True, timeout=30)
    remote = envs.rollouts(BrightnessPolicy(), 20, shared_memory=shared_memory)
    remote.reset(seed=0)
    first = remote.gather()
    assert [fragment["restarted"] for fragment in first] == [False, False]
    kept = first[1]["observations"][RGB].copy()
    version = remote.set_weights(7)
    worker = envs.shards[1][0]
    kill_worker(two_workers, worker)
    fragments = [remote.gather() for _ in range(2)]
    # Shard 1 came back on another worker: its first fragment since says
    # so and carries the latest weights; the next is an ordinary one.
    assert envs.shards[1][0] != worker
    assert [fragments[0][1]["restarted"], fragments[1][1]["restarted"]] == [True, False]
    assert fragments[0][1]["version"] == version and fragments[0][1]["env_ids"].tolist() == [1]
    assert not fragments[0][0]["restarted"] and not fragments[1][0]["restarted"]
    # What the learner kept of the lost shard's fragments never changed.
    assert np.array_equal(first[1]["observations"][RGB], kept)
    remote.close()
    envs.close()


def test_arrays_over_a_closed_segment_stay_mapped():
    from labenv import _shared_slots

    layout = _shared_slots.layout([{"name": RGB, "shape": (24, 32, 3), "dtype": np.uint8}],
                                  [RGB], (5, 2))
    maker = _shared_slots.Slots(layout)
    shard = _shared_slots.Slots(layout, name=maker.name)
    written = shard.views(1)[RGB]
    written[...] = 7
    kept = maker.views(1)[RGB][2:]  # a view of a view keeps it too
    shard.close()
    maker.close()  # unlinked; the arrays keep their mappings until they go
    again = _shared_slots.Slots(layout)  # must not land under them
    again.views(1)[RGB][...] = 9
    assert (kept == 7).all() and (written == 7).all()
    del kept, written
    again.close()


def test_close_leaves_no_actor_or_thread_behind(two_workers):
    envs = labenv_distributed.DistributedVectorLab(two_workers, 2, "demo_maze", [RGB], SETTINGS)
    remote = envs.rollouts(BrightnessPolicy(), 3)
    remote.reset(seed=0)
    remote.next()
    envs.close()  # closes the rollouts too
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        actors = sum(two_workers.run(lambda dask_worker: len(dask_worker.state.actors)).values())
        if actors == 0:
            break
        time.sleep(0.05)
    assert actors == 0
    threads = two_workers.run(lambda: [t.name for t in threading.enumerate()])
    assert not any("ShardRollouts" in name for names in threads.values() for name in names)


def test_a_torch_policy_travels_as_its_class_and_loads_weights():
    torch = pytest.importorskip("torch")

    class Turn(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.turn = torch.nn.Parameter(torch.tensor(5.0))

        def forward(self, observations):
            rows = observations[RGB].shape[0]
            actions = torch.zeros((rows, 7), dtype=torch.int32)
            actions[:, 0] = self.turn.to(torch.int32)
            return actions, {"turn": self.turn.expand(rows)}

    policy = rollouts.TorchPolicy(Turn)
    policy.set_weights({"turn": torch.tensor(5.0)})  # built here: still, no module travels
    sent = dask_pickle.loads(dask_pickle.dumps(policy))
    assert sent._module is None and policy._module is not None
    with rollouts.LocalRollouts(2, "demo_maze", [RGB], SETTINGS, policy=policy,
                                unroll_length=3) as local:
        local.reset(seed=0)
        assert local.next()["actions"][:, :, 0].tolist() == [[5, 5]] * 3
        local.set_weights({"turn": torch.tensor(-7.0)})
        fragment = local.next()
        assert fragment["actions"][:, :, 0].tolist() == [[-7, -7]] * 3
        assert fragment["extras"]["turn"].tolist() == [[-7.0, -7.0]] * 3
