"""labenv.rollouts: the policy runs beside the environments, and whole
fragments of T steps travel, not one message a step.

    rollouts = labenv.rollouts.LocalRollouts(16, 'demo_maze', ['RGB_INTERLEAVED'], config,
                                             policy=policy, unroll_length=32, shards=2)
    # or, on a Dask cluster, over a DistributedVectorLab's shards:
    rollouts = envs.rollouts(policy, unroll_length=32)
    rollouts.reset(seed=0)
    fragment = rollouts.next()         # one shard's T steps, whichever is ready first
    rollouts.set_weights(new_weights)  # every shard, from its next fragment on

- The policy is a picklable callable: policy(observations) -> actions, or
  (actions, extras), where observations is a dict of batched numpy arrays
  (one shard's envs) and extras a dict of arrays with the same leading
  batch (logits, values). Each shard has its own copy. set_weights(w)
  hands w to every copy's set_weights (TorchPolicy loads a state dict).
- A fragment is a dict, time-major: 'observations' {name: (T + 1, B,
  ...)}, the first being what the first action saw and the last what to
  bootstrap from; 'actions' (T, B, ...); 'reward', 'terminated',
  'truncated' (T, B); 'extras' {name: (T, B, ...)}; 'env_ids' (B,), the
  envs of the whole batch it holds; 'shard'; and 'version', the weights it
  was made with (0 before any set_weights; every fragment is made with one
  version). VectorLab's next-step autoreset holds: after terminated[t] or
  truncated[t], step t + 1 starts the env's next episode and its reward is 0.
- prefetch=True (the default): each shard collects its next fragment
  while the learner consumes the last, so after set_weights a shard's
  next two fragments (the one under way, and the one its fetch in flight
  already holds) may still carry the old version.
  prefetch=False: a shard collects only when asked, so gather() after
  set_weights(v) returns fragments all made with v (on-policy learning).
- Seeds do not depend on placement: env i, episode k gets s + i + k * n,
  as in one VectorLab of n, so LocalRollouts and the distributed form
  give the same fragments from the same policy.
- A shard whose worker is lost is a ShardLostError naming its envs; with
  the DistributedVectorLab's restart=True it is made again on a live
  worker instead, collecting under the weights last set, its envs at
  their next episodes (those the learner saw end, plus one). The fragment
  it was collecting is lost; its first one since says 'restarted': True
  (a trajectory boundary for every env in it), every other False.

See docs/distributed.md.
"""

import queue
import threading
import time
from multiprocessing.connection import wait as connection_wait

import numpy as np

import labenv
from labenv import _data_plane, _shared_slots


class TorchPolicy:
    """A PyTorch module built in each shard from its class and arguments,
    called without gradients on the observations as tensors; its output
    (actions, or (actions, extras)) comes back as numpy arrays.
    set_weights loads a state dict."""

    def __init__(self, module_class, *args, **kwargs):
        self._make = (module_class, args, kwargs)
        self._module = None

    def _built(self):
        if self._module is None:
            module_class, args, kwargs = self._make
            self._module = module_class(*args, **kwargs)
        return self._module

    def set_weights(self, state_dict):
        self._built().load_state_dict(state_dict)

    def __getstate__(self):  # the class and arguments travel, not a module
        return {"_make": self._make, "_module": None}

    def __call__(self, observations):
        import torch

        with torch.no_grad():
            # DLPack: VectorLab's read-only arrays, without a copy.
            out = self._built()({name: torch.from_dlpack(value)
                                 for name, value in observations.items()})
        if isinstance(out, tuple):
            actions, extras = out
            return (actions.detach().numpy(),
                    {name: value.detach().numpy() for name, value in extras.items()})
        return out.detach().numpy()


class Collector:
    """Fragments of one VectorLab (a shard's envs) under one policy."""

    def __init__(self, envs, policy, unroll_length, first_env):
        if not isinstance(unroll_length, (int, np.integer)) or unroll_length < 1:
            raise ValueError("unroll_length must be >= 1, got {!r}".format(unroll_length))
        self._envs = envs
        self._policy = policy
        self._length = int(unroll_length)
        self._env_ids = np.arange(first_env, first_env + envs.num_envs)
        self._observed = None
        self.version = 0

    def reset(self, seed, episodes=None):
        """Every env at episode 0, or env i at episodes[i]."""
        self._observed = self._envs.reset(seed=seed, episodes=episodes)

    def set_weights(self, version, weights):
        if not hasattr(self._policy, "set_weights"):
            raise TypeError("set_weights: the policy ({}) has no set_weights method".format(
                type(self._policy).__name__))
        self._policy.set_weights(weights)
        self.version = version

    def _act(self):
        out = self._policy(self._observed)
        actions, extras = out if isinstance(out, tuple) else (out, {})
        return np.ascontiguousarray(actions, dtype=np.intc), extras

    def fragment(self, shard, out=None):
        """The next unroll_length steps of every env; the observations go
        into `out` ({name: (T + 1, B, ...)}) when given."""
        if self._observed is None:
            raise RuntimeError("reset() comes before the first fragment")
        length, n = self._length, self._envs.num_envs
        observations = out if out is not None else {
            name: np.empty((length + 1,) + value.shape, value.dtype)
            for name, value in self._observed.items()}
        for name, value in self._observed.items():
            observations[name][0] = value
        reward = np.empty((length, n))
        terminated = np.empty((length, n), bool)
        truncated = np.empty((length, n), bool)
        actions_seen, extras_seen = [], {}
        policy_seconds = step_seconds = 0.0
        for t in range(length):
            started = time.perf_counter()
            actions, extras = self._act()
            acted = time.perf_counter()
            # Straight into the fragment (a shared memory slot): no copy.
            observed, reward[t], terminated[t], truncated[t] = self._envs.step(
                actions, out={name: value[t + 1] for name, value in observations.items()})
            policy_seconds += acted - started
            step_seconds += time.perf_counter() - acted
            actions_seen.append(actions)
            for name, value in extras.items():
                extras_seen.setdefault(name, []).append(np.asarray(value))
            self._observed = observed
        return {
            "observations": observations, "actions": np.stack(actions_seen),
            "reward": reward, "terminated": terminated, "truncated": truncated,
            "extras": {name: np.stack(values) for name, values in extras_seen.items()},
            "env_ids": self._env_ids, "shard": shard, "version": self.version,
            "seconds": {"policy": policy_seconds, "step": step_seconds}, "restarted": False,
        }


class LocalRollouts:
    """The rollout API in this process: `shards` VectorLabs of the batch,
    each with the seeds it has in the distributed form, stepped in turn."""

    def __init__(self, num_envs, level, observations, config=None, *, policy, unroll_length,
                 shards=1, num_threads=None):
        from labenv.distributed import split  # the distributed form's split

        self._collectors = [
            Collector(labenv.VectorLab(count, level, list(observations), config,
                                       num_threads=num_threads, seed_offset=first,
                                       seed_stride=num_envs),
                      _copy(policy), unroll_length, first)
            for first, count in split(num_envs, shards)]
        self._turn = 0
        self._version = 0

    def reset(self, seed=0):
        for collector in self._collectors:
            collector.reset(seed)

    def set_weights(self, weights):
        self._version += 1
        for collector in self._collectors:
            collector.set_weights(self._version, weights)

    def next(self):
        shard = self._turn
        self._turn = (self._turn + 1) % len(self._collectors)
        return self._collectors[shard].fragment(shard)

    def gather(self):
        return [collector.fragment(shard) for shard, collector in enumerate(self._collectors)]

    def close(self):
        for collector in self._collectors:
            collector._envs.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


def _copy(policy):
    """Each shard's own copy, as sending it to a worker makes."""
    import copy

    return copy.deepcopy(policy)


def _check_picklable(policy):
    """Refuses here, not in a worker, a policy Dask cannot send."""
    from distributed.protocol import pickle

    try:
        pickle.dumps(policy)
    except Exception as error:  # noqa: BLE001 (pickle raises many kinds)
        raise TypeError("the policy cannot be pickled, so it cannot travel to the shards: "
                        "{}: {}".format(type(error).__name__, error)) from None


class ShardRollouts:
    """A shard's side (inside labenv.distributed's actor): a thread collects
    fragments into a queue of one, on request or ahead (prefetch)."""

    def __init__(self, envs, policy, unroll_length, first_env, shard, prefetch, slots=None):
        self._collector = Collector(envs, policy, unroll_length, first_env)
        self._shard = shard
        # The learner's segment (name, layout), if this machine has it.
        self._slots = None
        if slots is not None:
            try:
                self._slots = _shared_slots.Slots(slots[1], name=slots[0])
            except FileNotFoundError:  # another machine: fragments travel whole
                pass
        self._free = set(range(_shared_slots.SLOTS))
        self._freed = threading.Lock()
        self._ready = queue.Queue(maxsize=1)
        self._requests = threading.Semaphore(1 if prefetch else 0)
        self._prefetch = prefetch
        self._weights = None  # (version, weights) to apply before the next fragment
        self._lock = threading.Lock()
        self._stopping = False
        self._failed = None  # ("error", why) once the thread has failed
        self._thread = None

    def start(self, seed, episodes=None):
        self._collector.reset(seed, episodes)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def set_weights(self, version, weights):
        with self._lock:
            self._weights = (version, weights)

    def _run(self):
        while True:
            waited = time.perf_counter()
            self._requests.acquire()
            waited = time.perf_counter() - waited
            if self._stopping:
                return
            try:
                with self._lock:
                    pending, self._weights = self._weights, None
                if pending is not None:
                    self._collector.set_weights(*pending)
                slot = self._free_slot()
                if slot < 0:
                    fragment = self._collector.fragment(self._shard)
                else:
                    fragment = self._collector.fragment(self._shard, self._slots.views(slot))
                    fragment["observations"], fragment["slot"] = None, slot
                fragment["seconds"]["waiting"] = waited  # for the learner to ask
                item = ("ok", fragment)
            except Exception as error:  # noqa: BLE001 (handed to the learner, named)
                self._failed = ("error", "{}: {}".format(type(error).__name__, error))
                item = self._failed
            while not self._stopping:  # a full queue must not outlast stop()
                try:
                    self._ready.put(item, timeout=0.1)
                    break
                except queue.Full:
                    continue
            if self._failed is not None:
                return

    @property
    def shared(self):
        return self._slots is not None

    def _free_slot(self):
        """A slot to write, or -1 (the fragment travels whole) without
        shared memory or while the learner holds every slot: waiting for
        one would stall the shard on a learner that keeps fragments."""
        if self._slots is None:
            return -1
        with self._freed:
            if not self._free:
                return -1
            slot = min(self._free)
            self._free.discard(slot)
            return slot

    def fetch_blocking(self, released=()):
        with self._freed:
            self._free.update(released)
        if not self._prefetch:
            self._requests.release()
        while True:
            try:
                kind, value = self._ready.get(timeout=0.1)
                break
            except queue.Empty:
                if self._failed is not None:
                    return self._failed  # the thread has ended: every fetch hears why
                if self._stopping:
                    return ("error", "the rollouts were closed")
        if self._prefetch:
            self._requests.release()  # the next fragment starts now
        return kind, value

    def stop(self):
        self._stopping = True
        self._requests.release()
        if self._thread is not None:
            self._thread.join()
        if self._slots is not None:
            self._slots.close()
            self._slots = None


class Rollouts:
    """The learner's side over a DistributedVectorLab's shards (made by
    envs.rollouts(...)): one fetch in flight a shard, fragments taken as
    they come. While it is open the envs serve it alone: step, send and
    reset are refused until close(). With shared_memory (the default), a
    shard on the learner's machine writes its fragments' observations into
    a segment the learner made (labenv/_shared_slots.py), and only the
    rest travels through Dask; a shard elsewhere sends them whole."""

    def __init__(self, lab, policy, unroll_length, prefetch, shared_memory):
        if not isinstance(unroll_length, (int, np.integer)) or unroll_length < 1:
            raise ValueError("unroll_length must be >= 1, got {!r}".format(unroll_length))
        _check_picklable(policy)
        self._lab = lab
        self._policy = policy
        self._length = int(unroll_length)
        self._prefetch = bool(prefetch)
        self._shared_memory = bool(shared_memory)
        self._version = 0
        self._fetches = {}  # shard index -> the fetch in flight
        self._asked = 0     # fetches sent, to number them
        self._slots = {}    # shard index -> its Slots, for shards on this machine
        self._held = {}     # shard index -> the slots handed out (Held)
        self._layouts = {}  # shard index -> its fragments' observations' layout
        self._ends = {}     # shard index -> episodes each of its envs ended
        self._weights = None  # (version, weights) last set, for a restarted shard
        self._restarted = set()  # shards whose next fragment is their first since
        self._started = False

    @property
    def shared(self):
        """The shards whose fragments come through shared memory."""
        return sorted(self._slots)

    def reset(self, seed=0):
        """Starts every shard's envs at episode 0 and its collection."""
        if self._started:
            raise RuntimeError("Rollouts.reset(): already started; close() and make new ones")
        lab = self._lab
        lab._seed = int(seed)
        calls = []
        for shard in lab._shards:
            self._layouts[shard.index] = _shared_slots.layout(
                lab.observation_spec(), lab._args[1], (self._length + 1, shard.count))
            self._ends[shard.index] = np.zeros(shard.count, np.int64)
            calls.append((shard, shard.actor.rollout_start(
                self._policy, self._length, lab._seed, self._prefetch, self._new_slots(shard))))
        self._started = True
        for shard, call in calls:
            self._keep_slots_if(lab._wait(shard, call), shard)

    def _new_slots(self, shard):
        """A segment for `shard`'s fragments (with shared_memory): its
        (name, layout) for the shard, else None."""
        if not self._shared_memory:
            return None
        self._slots[shard.index] = _shared_slots.Slots(self._layouts[shard.index])
        self._held[shard.index] = _shared_slots.Held()
        return (self._slots[shard.index].name, self._layouts[shard.index])

    def _keep_slots_if(self, shared, shard):
        """Drops `shard`'s segment unless the shard said it maps it (one on
        another machine sends its fragments whole)."""
        if not shared and shard.index in self._slots:
            self._slots.pop(shard.index).close()
            self._held.pop(shard.index, None)

    def _restart(self, shard):
        """Lost `shard` on a new actor (labenv.distributed's restart=True),
        collecting again: its envs at their next episodes, under the weights
        last set, into a new segment (the learner may hold arrays of the
        old one, which stay valid; the new actor must not write there)."""
        lab = self._lab
        lab._replace(shard)
        self._fetches.pop(shard.index, None)
        if shard.index in self._slots:
            self._slots.pop(shard.index).close()
        episodes = (self._ends[shard.index] + 1).tolist()
        shared = lab._wait(shard, shard.actor.rollout_start(
            self._policy, self._length, lab._seed, self._prefetch, self._new_slots(shard),
            episodes, self._weights))
        self._keep_slots_if(shared, shard)
        self._restarted.add(shard.index)

    def set_weights(self, weights):
        """New weights for every shard, from its next fragment on; returns
        their version."""
        from labenv.distributed import ShardLostError

        self._version += 1
        self._weights = (self._version, weights)
        calls = [(shard, shard.actor.rollout_weights(self._version, weights))
                 for shard in self._lab._shards]
        for shard, call in calls:
            try:
                self._lab._wait(shard, call)
            except ShardLostError:
                if not self._lab._restart:
                    raise
                self._restart(shard)  # under these weights from its first fragment
        return self._version

    def _ask(self):
        """A fetch in flight on every shard's data plane connection."""
        if not self._started:
            raise RuntimeError("Rollouts: call reset() first")
        lab = self._lab
        for shard in lab._shards:
            if shard.index not in self._fetches:
                held = self._held.get(shard.index)
                shard.connection.send(("fetch", held.released() if held is not None else []))
                self._fetches[shard.index] = _data_plane.FragmentCall(
                    shard.connection, self._layouts[shard.index], lab._args[1])
                self._asked += 1
                self._fetches[shard.index].asked = self._asked

    def _take(self, shard):
        from labenv.distributed import ShardLostError

        try:
            value = self._lab._wait(shard, self._fetches.pop(shard.index))
        except ShardLostError:
            if not self._lab._restart:
                raise
            self._restart(shard)
            self._ask()
            value = self._lab._wait(shard, self._fetches.pop(shard.index))
        if shard.index in self._restarted:  # its first fragment since
            value["restarted"] = True
            self._restarted.discard(shard.index)
        self._ends[shard.index] += (value["terminated"] | value["truncated"]).sum(axis=0)
        slot = value.pop("slot", None)
        if slot is not None:
            value["observations"] = self._held[shard.index].hand_out(
                slot, self._slots[shard.index].views(slot))
        return value

    def next(self):
        """The first fragment any shard has ready."""
        self._ask()
        shards = self._lab._shards
        # None within half a second: wait on the first (which notices a
        # lost worker and the timeout).
        ready = connection_wait([shard.connection for shard in shards], timeout=0.5)
        # Of those ready, the one asked longest ago: a shard collecting ahead
        # is always ready, and must not starve the others.
        waiting = sorted(shards, key=lambda shard: self._fetches[shard.index].asked)
        first = next((shard for shard in waiting if shard.connection in ready), waiting[0])
        return self._take(first)

    def gather(self):
        """One fragment from every shard, in shard order."""
        self._ask()
        return [self._take(shard) for shard in self._lab._shards]

    def close(self):
        for shard in self._lab._shards:
            try:
                self._lab._wait(shard, shard.actor.rollout_stop())
                if shard.index in self._fetches:  # its answer, so that steps find none
                    self._lab._wait(shard, self._fetches[shard.index])
            except Exception:  # noqa: BLE001 (a lost shard has nothing to stop)
                pass
        self._fetches.clear()
        for slots in self._slots.values():
            slots.close()
        self._slots.clear()
        self._lab._rollouts = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
