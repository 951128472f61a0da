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

See docs/distributed.md.
"""

import asyncio
import queue
import threading

import numpy as np

import labenv


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
            out = self._built()({name: torch.from_numpy(np.asarray(value))
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

    def reset(self, seed):
        self._observed = self._envs.reset(seed=seed)

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

    def fragment(self, shard):
        """The next unroll_length steps of every env."""
        if self._observed is None:
            raise RuntimeError("reset() comes before the first fragment")
        length, n = self._length, self._envs.num_envs
        observations = {name: np.empty((length + 1,) + value.shape, value.dtype)
                        for name, value in self._observed.items()}
        for name, value in self._observed.items():
            observations[name][0] = value
        reward = np.empty((length, n))
        terminated = np.empty((length, n), bool)
        truncated = np.empty((length, n), bool)
        actions_seen, extras_seen = [], {}
        for t in range(length):
            actions, extras = self._act()
            observed, reward[t], terminated[t], truncated[t] = self._envs.step(actions)
            for name, value in observed.items():
                observations[name][t + 1] = value
            actions_seen.append(actions)
            for name, value in extras.items():
                extras_seen.setdefault(name, []).append(np.asarray(value))
            self._observed = observed
        return {
            "observations": observations, "actions": np.stack(actions_seen),
            "reward": reward, "terminated": terminated, "truncated": truncated,
            "extras": {name: np.stack(values) for name, values in extras_seen.items()},
            "env_ids": self._env_ids, "shard": shard, "version": self.version,
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

    def __init__(self, envs, policy, unroll_length, first_env, shard, prefetch):
        self._collector = Collector(envs, policy, unroll_length, first_env)
        self._shard = shard
        self._ready = queue.Queue(maxsize=1)
        self._requests = threading.Semaphore(1 if prefetch else 0)
        self._prefetch = prefetch
        self._weights = None  # (version, weights) to apply before the next fragment
        self._lock = threading.Lock()
        self._stopping = False
        self._failed = None  # ("error", why) once the thread has failed
        self._thread = None

    def start(self, seed):
        self._collector.reset(seed)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def set_weights(self, version, weights):
        with self._lock:
            self._weights = (version, weights)

    def _run(self):
        while True:
            self._requests.acquire()
            if self._stopping:
                return
            try:
                with self._lock:
                    pending, self._weights = self._weights, None
                if pending is not None:
                    self._collector.set_weights(*pending)
                item = ("ok", self._collector.fragment(self._shard))
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

    def fetch_blocking(self):
        if not self._prefetch:
            self._requests.release()
        while True:
            try:
                kind, value = self._ready.get(timeout=0.1)
                break
            except queue.Empty:
                if self._failed is not None:
                    return self._failed  # the thread has ended: every fetch hears why
        if self._prefetch:
            self._requests.release()  # the next fragment starts now
        return kind, value

    async def fetch(self):
        return await asyncio.get_running_loop().run_in_executor(None, self.fetch_blocking)

    def stop(self):
        self._stopping = True
        self._requests.release()
        if self._thread is not None:
            self._thread.join()


class Rollouts:
    """The learner's side over a DistributedVectorLab's shards (made by
    envs.rollouts(...)): one fetch in flight a shard, fragments taken as
    they come. While it is open the envs serve it alone: step, send and
    reset are refused until close()."""

    def __init__(self, lab, policy, unroll_length, prefetch):
        if not isinstance(unroll_length, (int, np.integer)) or unroll_length < 1:
            raise ValueError("unroll_length must be >= 1, got {!r}".format(unroll_length))
        _check_picklable(policy)
        self._lab = lab
        self._policy = policy
        self._length = int(unroll_length)
        self._prefetch = bool(prefetch)
        self._version = 0
        self._fetches = {}  # shard index -> the fetch in flight
        self._started = False

    def reset(self, seed=0):
        """Starts every shard's envs at episode 0 and its collection."""
        if self._started:
            raise RuntimeError("Rollouts.reset(): already started; close() and make new ones")
        lab = self._lab
        lab._seed = int(seed)
        calls = [(shard, shard.actor.rollout_start(self._policy, self._length, lab._seed,
                                                   self._prefetch))
                 for shard in lab._shards]
        for shard, call in calls:
            lab._wait(shard, call)
        self._started = True

    def set_weights(self, weights):
        """New weights for every shard, from its next fragment on; returns
        their version."""
        self._version += 1
        calls = [(shard, shard.actor.rollout_weights(self._version, weights))
                 for shard in self._lab._shards]
        for shard, call in calls:
            self._lab._wait(shard, call)
        return self._version

    def _ask(self):
        if not self._started:
            raise RuntimeError("Rollouts: call reset() first")
        for shard in self._lab._shards:
            if shard.index not in self._fetches:
                self._fetches[shard.index] = shard.actor.rollout_fetch()

    def _take(self, shard):
        kind, value = self._lab._wait(shard, self._fetches.pop(shard.index))
        if kind == "error":
            raise RuntimeError("{}: {}".format(shard.describe(), value))
        return value

    def next(self):
        """The first fragment any shard has ready."""
        import time

        self._ask()
        shards = self._lab._shards
        deadline = time.perf_counter() + 0.5
        while time.perf_counter() < deadline:
            for shard in shards:
                if self._fetches[shard.index].done():
                    return self._take(shard)
            time.sleep(0.0002)
        # None yet: wait on the first (which notices a lost worker).
        return self._take(shards[0])

    def gather(self):
        """One fragment from every shard, in shard order."""
        self._ask()
        return [self._take(shard) for shard in self._lab._shards]

    def close(self):
        for shard in self._lab._shards:
            try:
                self._lab._wait(shard, shard.actor.rollout_stop())
            except Exception:  # noqa: BLE001 (a lost shard has nothing to stop)
                pass
        self._fetches.clear()
        self._lab._rollouts = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
