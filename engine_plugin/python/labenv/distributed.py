"""labenv.distributed: a batch of environments spread over a Dask cluster.

    import distributed, labenv.distributed
    client = distributed.Client(distributed.LocalCluster(n_workers=2, threads_per_worker=1),
                                direct_to_workers=True)
    envs = labenv.distributed.DistributedVectorLab(client, 32, 'demo_maze', ['RGB_INTERLEAVED'])
    observations = envs.reset(seed=0)                  # {'RGB_INTERLEAVED': (32, 84, 84, 3)}
    observations, reward, terminated, truncated, info = envs.step(actions)

- Shards. The batch is split into shards, by default one per worker
  process, as evenly as can be (5 over 2: 3 and 2). Each shard is a
  labenv.VectorLab living in its worker as a Dask actor, stepping on its
  own C++ threads. reset and step send one message to each shard and
  gather one batch from each: observations come back as numpy arrays,
  concatenated in env order (or, with concatenate=False, a list of one dict
  per shard).
- Seeds do not depend on placement: env i of the whole batch, episode k,
  gets the engine seed s + i + k * num_envs, as in one local
  labenv.VectorLab of num_envs (each shard is a VectorLab with that seed
  offset and stride).
- step returns VectorLab's four results and an info dict: 'episodes', the
  episode number each env is in, and 'restarted', the envs whose shard was
  recreated in this step.
- step_async / step_wait split a step so that a learner computes while the
  environments step. labenv.gym.VectorLab.over(envs, ...) (or envs.gym())
  is the Gymnasium VectorEnv form.
- Faults. When a worker dies its shard is lost: the next step raises
  ShardLostError naming the environments lost, or, with restart=True, the
  shard is recreated on a live worker with its episode counters carried
  over; its environments start their next episodes in that step, marked in
  info['restarted'], with reward 0 and both flags False. A level's error
  inside a worker raises RuntimeError with the level's message and the
  environments it concerns.
- Every wait is bounded by `timeout` seconds (default DEFAULT_TIMEOUT): a
  shard that does not answer in time counts as lost.

See docs/distributed.md.
"""

import time
import uuid
import warnings

import numpy as np

import labenv
from labenv import _data_plane, _distributed_async
from labenv._shard import Shard

# Seconds any one wait on the cluster may take: starting a shard (its
# worker loads the level), or one step of every shard.
DEFAULT_TIMEOUT = 60.0


LevelError = _data_plane.LevelError  # a level's Lua error inside a shard


class ShardLostError(RuntimeError):
    """A shard's worker died or stopped answering; its environments are lost."""


def split(num_envs, shards):
    """[(first env, count)] of `shards` shards as even as can be, larger first."""
    base, extra = divmod(num_envs, shards)
    ranges, first = [], 0
    for shard in range(shards):
        count = base + (1 if shard < extra else 0)
        ranges.append((first, count))
        first += count
    return ranges


def _checked_batch(batch, what, shape, dtype, dtype_name):
    """`batch` if it is a numpy array of `shape` and `dtype`, else VectorLab's error."""
    if not isinstance(batch, np.ndarray):
        raise TypeError("{} must be a numpy array of dtype {} and shape {}, got {}".format(
            what, dtype_name, shape, type(batch).__name__))
    if batch.shape != shape:
        raise ValueError("{} must have shape {}, got {}".format(what, shape, batch.shape))
    if batch.dtype != dtype or not batch.dtype.isnative:
        raise ValueError("{} must have dtype {}, got {!r}".format(what, dtype_name, batch.dtype))
    return batch


class _ShardHandle:
    """The client's side of one shard: its actor, worker and environments."""

    def __init__(self, index, first, count):
        self.index = index
        self.first = first
        self.count = count
        self.future = None  # the actor's task: holding it keeps the actor alive
        self.actor = None
        self.worker = None
        self.episodes = np.zeros(count, np.int64)  # carried over a restart
        self.pending = None  # the call in flight
        self.connection = None  # the data plane's
        self.shared = False  # whether it writes into the learner's shared memory
        self.rows = slice(first, first + count)

    def describe(self):
        last = self.first + self.count - 1
        envs = "env {}".format(self.first) if self.count == 1 else "envs {}-{}".format(
            self.first, last)
        return "{} (shard {} on {})".format(envs, self.index, self.worker)


class DistributedVectorLab:
    """num_envs environments of `level` in shards on a Dask cluster.

    Args:
      client: a distributed.Client, made with direct_to_workers=True (else
        each call to a shard goes through the scheduler: slower, and a
        warning says so), or a scheduler address ('tcp://host:8786') for
        which one is made (and closed by close()).
      num_envs: environments in all, >= 1.
      level, observations, config: as for labenv.VectorLab.
      shards: how many shards (default: one per worker process; at most
        num_envs).
      num_threads: each shard's VectorLab threads (default: its CPUs).
      restart: recreate a lost shard on a live worker instead of raising.
      timeout: seconds any one wait may take (DEFAULT_TIMEOUT).
      concatenate: observations as one array per name (True) or a list of
        one dict per shard (False).
      batch_size: how many envs recv() returns (default num_envs).
      shared_memory: shards on this machine write their rows of each batch
        into its shared memory (True), or every shard sends them as bytes.
    """

    def __init__(self, client, num_envs, level, observations, config=None, *, shards=None,
                 num_threads=None, restart=False, timeout=DEFAULT_TIMEOUT, concatenate=True,
                 batch_size=None, shared_memory=True):
        import distributed  # only this module needs Dask

        if not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError("DistributedVectorLab needs num_envs >= 1, got {!r}".format(num_envs))
        if not timeout > 0:
            raise ValueError("timeout must be > 0 seconds, got {!r}".format(timeout))
        batch_size = num_envs if batch_size is None else batch_size
        if not isinstance(batch_size, (int, np.integer)) or not 1 <= batch_size <= num_envs:
            raise ValueError("batch_size must be in [1, num_envs = {}], got {!r}".format(
                num_envs, batch_size))
        self._async = _distributed_async.AsyncShards(int(num_envs), int(batch_size))
        self._timeout = float(timeout)
        self._owns_client = isinstance(client, str)
        if self._owns_client:
            try:
                client = distributed.Client(client, timeout=self._timeout,
                                            direct_to_workers=True)
            except (OSError, TimeoutError) as error:
                raise ConnectionError(
                    "cannot reach the Dask scheduler at {} within {} s: {}".format(
                        client, self._timeout, error)) from None
        if not client.direct_to_workers:
            # Not changed behind the caller's back: it is their client.
            warnings.warn(
                "the Dask client was made without direct_to_workers=True, so every call to a "
                "shard goes through the scheduler, which costs about 3 times the round trip; "
                "make it with distributed.Client(..., direct_to_workers=True)", stacklevel=2)
        self._client = client
        self.num_envs = int(num_envs)
        self._args = (level, list(observations), config, num_threads)
        self._restart = restart
        self._concatenate = concatenate
        self._seed = 0
        self._closed = False
        self._lost = None  # the ShardLostError that broke it
        self._rollouts = None  # the open labenv.rollouts.Rollouts
        self._plane = None  # made once the first shard has said its specs
        workers = self._live_workers()
        count = min(self.num_envs, shards or len(workers))
        if count < 1:
            raise ValueError("shards must be >= 1, got {!r}".format(shards))
        self._shards = [_ShardHandle(i, first, n)
                        for i, (first, n) in enumerate(split(self.num_envs, count))]
        try:
            for shard in self._shards:
                self._start(shard, workers[shard.index % len(workers)])
            self._specs = self._wait(self._shards[0], self._shards[0].actor.specs())
            self._plane = _data_plane.Plane(self._specs["observation_spec"], observations,
                                            self.num_envs, shared_memory)
            for shard in self._shards:
                self._open(shard)
        except BaseException:
            self.close()
            raise

    # -- the cluster ---------------------------------------------------------

    def _live_workers(self, avoid=()):
        """Worker addresses, waiting up to the timeout for one to exist."""
        deadline = time.monotonic() + self._timeout
        while True:
            workers = sorted(set(self._client.scheduler_info()["workers"]) - set(avoid))
            if workers:
                return workers
            if time.monotonic() > deadline:
                raise ShardLostError("no live Dask worker within {} s".format(self._timeout))
            time.sleep(0.1)

    def _start(self, shard, worker):
        level, observations, config, num_threads = self._args
        shard.worker = worker
        # Pinned to its worker: if that worker dies, Dask must not start a
        # fresh copy elsewhere behind our back (its envs would silently
        # restart); recreating is ours to do, and to mark.
        shard.future = self._client.submit(
            Shard, shard.count, level, observations, config, num_threads, shard.first,
            self.num_envs, shard.index, actor=True, workers=[worker],
            allow_other_workers=False, pure=False, key="labenv-shard-{}".format(uuid.uuid4().hex))
        try:
            shard.actor = shard.future.result(timeout=self._timeout)
        except LevelError as error:
            raise RuntimeError("{}: {}".format(shard.describe(), error)) from None
        if self._plane is not None:  # a restart: the first start opens it in __init__
            self._open(shard)

    def _open(self, shard):
        """The shard's data plane connection."""
        address, shard.shared = self._wait(
            shard, shard.actor.open_plane(self._plane.slots, self._plane.authkey))
        shard.connection = self._plane.connect(address)

    def _wait(self, shard, call):
        """The result of an actor call, or the error it raised, within the
        timeout; a worker that leaves the cluster is noticed within a second
        or two (the scheduler's word reaches the client that often)."""
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                return call.result(timeout=min(0.5, max(deadline - time.monotonic(), 0.01)))
            except LevelError as error:
                raise RuntimeError("{}: {}".format(shard.describe(), error)) from None
            except TimeoutError:
                if time.monotonic() >= deadline:
                    why = "no answer within {} s".format(self._timeout)
                elif shard.worker not in self._client.scheduler_info()["workers"]:
                    why = "its worker left the cluster"
                else:
                    continue
            except Exception as error:  # the worker died, the network failed
                why = "{}: {}".format(type(error).__name__, error)
            raise ShardLostError("{} were lost: {}".format(shard.describe(), why))

    def _check_usable(self, method):
        if self._closed:
            raise RuntimeError("{}(): the environments are closed".format(method))
        if self._rollouts is not None:
            raise RuntimeError("{}(): the envs serve rollouts; close them first".format(method))
        if self._lost is not None:
            raise ShardLostError("{}(): {} (create a new DistributedVectorLab, or pass "
                                 "restart=True)".format(method, self._lost))

    # -- what VectorLab has --------------------------------------------------

    def observation_spec(self):
        return self._specs["observation_spec"]

    def action_spec(self):
        return self._specs["action_spec"]

    def continuous_action_spec(self):
        return self._specs["continuous_action_spec"]

    def fps(self):
        return self._specs["fps"]

    @property
    def shards(self):
        """[(worker address, first env, count)] of each shard."""
        return [(shard.worker, shard.first, shard.count) for shard in self._shards]

    def reset(self, seed=None):
        """Starts episode 0 of every env; returns the observations."""
        self._check_usable("reset")
        self._check_none_in_flight("reset")
        self._seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]
                         if seed is None else seed)
        slot = self._plane.next_batch()
        for shard in self._shards:
            shard.episodes = np.zeros(shard.count, np.int64)  # a restart starts at episode 0
            shard.pending = self._plane.send(shard.connection, shard.rows,
                                             ("reset", slot, self._seed, None))
        return self._gather(self._collect_all())[0]

    def step_async(self, actions, num_steps=1, continuous=None):
        """Sends each shard its rows of the actions; step_wait gathers."""
        self._check_usable("step_async")
        self._check_none_in_flight("step_async")
        if any(shard.pending is not None for shard in self._shards):
            raise RuntimeError("step_async(): a step is in flight; call step_wait() first")
        actions, continuous = self._checked_actions(actions, continuous)
        if not isinstance(num_steps, (int, np.integer)) or num_steps < 1:
            raise ValueError("num_steps must be >= 1, got {!r}".format(num_steps))
        slot = self._plane.next_batch()
        for shard in self._shards:
            rows = shard.rows
            shard.pending = self._plane.send(shard.connection, rows, (
                "step", slot, None if actions is None else actions[rows], int(num_steps),
                None if continuous is None else continuous[rows]))

    def _checked_actions(self, actions, continuous, rows=None):
        """(actions, continuous) as VectorLab.step takes them, checked here
        with VectorLab's rules and errors before any shard is sent a row: a
        shard that refused its rows would be counted as lost, and the
        others would have stepped without it."""
        discrete_count = len(self.action_spec())
        continuous_count = len(self.continuous_action_spec())
        rows = self.num_envs if rows is None else rows
        # A level with only continuous actions takes them as `actions`.
        if discrete_count == 0 and continuous_count > 0 and continuous is None:
            actions, continuous = None, actions
        if actions is not None or discrete_count > 0:
            actions = _checked_batch(actions, "actions", (rows, discrete_count),
                                     np.intc, "np.intc (int32)")
        if continuous_count == 0:
            if continuous is not None:
                raise TypeError("continuous: this level has no continuous actions")
            return actions, None
        if continuous is None:
            raise TypeError("this level has {} continuous actions: pass them as continuous=, a "
                            "np.float64 array of shape ({}, {})".format(
                                continuous_count, rows, continuous_count))
        continuous = _checked_batch(continuous, "continuous", (rows, continuous_count),
                                    np.float64, "np.float64")
        if not np.all(np.isfinite(continuous)):
            raise ValueError("continuous: every element must be a finite number")
        return actions, continuous

    def step_wait(self):
        """(observations, reward, terminated, truncated, info) of the step in flight."""
        self._check_usable("step_wait")
        if any(shard.pending is None for shard in self._shards):
            raise RuntimeError("step_wait(): no step in flight; call step_async() first")
        return self._gather(self._collect_all())

    def step(self, actions, num_steps=1, continuous=None):
        """step_async then step_wait: VectorLab.step's results and an info dict."""
        self.step_async(actions, num_steps, continuous)
        return self.step_wait()

    # -- EnvPool's asynchronous contract (labenv/_distributed_async.py) ------

    @property
    def batch_size(self):
        return self._async.batch_size

    def _check_none_in_flight(self, method):
        flying = int(self._async.in_flight.sum())
        if flying:
            raise RuntimeError("{}(): {} envs are in flight (sent, not yet received); recv() "
                               "them first".format(method, flying))

    def async_reset(self, seed=None):
        """Starts episode 0 of every env, as reset(); recv() returns them."""
        self._check_usable("async_reset")
        self._check_none_in_flight("async_reset")
        self._seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]
                         if seed is None else seed)
        _distributed_async.async_reset(self, self._seed)

    def send(self, actions, env_ids=None, num_steps=1, continuous=None):
        """Hands each env of env_ids (default all) its row of actions; returns at once."""
        self._check_usable("send")
        if any(shard.pending is not None for shard in self._shards):
            raise RuntimeError("send(): a step is in flight; call step_wait() first")
        _distributed_async.send(self, actions, env_ids, num_steps, continuous)

    def recv(self):
        """(observations, reward, terminated, truncated, env_ids, info) of
        the first batch_size envs back; info has 'episodes' and 'restarted'."""
        self._check_usable("recv")
        return _distributed_async.recv(self)

    def _collect_all(self):
        """Every shard's result; a level's error is raised once all shards
        have answered, so no call stays in flight and the next step works
        (the failed environments start new episodes, as in VectorLab)."""
        results, level_error = [], None
        for shard in self._shards:
            try:
                results.append(self._collect(shard))
            except ShardLostError:
                raise
            except RuntimeError as error:
                level_error = level_error or error
        if level_error is not None:
            raise level_error
        return results

    def _collect(self, shard):
        call, shard.pending = shard.pending, None
        try:
            result = self._wait(shard, call)
        except ShardLostError as error:
            if not self._restart:
                self._lost = error
                self._drain()
                raise
            result = self._restart_shard(shard)
            for name, value in result["observations"].items():  # into the batch, as the rest
                self._plane.batch[name][shard.rows] = value
        result["restarted"] = np.full(shard.count, result.pop("restarted", False))
        shard.episodes = result["episodes"]
        return result

    def _drain(self):
        """Waits out the other shards' calls in flight, so none is left behind."""
        for shard in self._shards:
            if shard.pending is not None:
                try:
                    shard.pending.result(timeout=self._timeout)
                except Exception:  # noqa: BLE001 (already broken; the first error is raised)
                    pass
                shard.pending = None

    def _replace(self, shard):
        """A new actor for lost `shard` on a live worker (another than the
        one it was lost with, while there is one), with its data plane
        connection; labenv.rollouts restarts its collection on it."""
        lost = shard.worker
        try:
            shard.connection.close()
        except OSError:
            pass
        self._client.cancel([shard.future], force=True)
        workers = self._live_workers()
        others = [worker for worker in workers if worker != lost] or workers
        self._start(shard, others[shard.index % len(others)])

    def _restart_shard(self, shard):
        """A new actor for `shard` on a live worker, its envs at their next
        episodes (shard.episodes)."""
        self._replace(shard)
        result = self._wait(shard, shard.actor.reset(self._seed, shard.episodes.tolist()))
        result["restarted"] = True
        return result

    def _gather(self, results):
        # Every shard's rows are in the same batch already: nothing to join.
        batch = self._plane.hand_out()
        if self._concatenate:
            observations = batch
        else:
            observations = [{name: batch[name][shard.rows] for name in batch}
                            for shard in self._shards]
        # The episode an env is in is one less than the one it starts next.
        info = {
            "episodes": np.concatenate([r["episodes"] for r in results]) - 1,
            "restarted": np.concatenate([r["restarted"] for r in results]),
            "step_seconds": np.array([r["step_seconds"] for r in results]),
        }
        return (observations,
                np.concatenate([r["reward"] for r in results]),
                np.concatenate([r["terminated"] for r in results]),
                np.concatenate([r["truncated"] for r in results]),
                info)

    def rollouts(self, policy, unroll_length, prefetch=True, shared_memory=True):
        """labenv.rollouts.Rollouts over these shards: the policy runs beside
        the envs, and fragments of unroll_length steps come back."""
        from labenv import rollouts

        self._check_usable("rollouts")
        self._check_none_in_flight("rollouts")
        self._rollouts = rollouts.Rollouts(self, policy, unroll_length, prefetch,
                                           shared_memory)
        return self._rollouts

    def gym(self, render_mode=None, action_set=None, frame_skip=1):
        """These environments as a Gymnasium VectorEnv (labenv.gym.VectorLab)."""
        return labenv.gym.VectorLab.over(self, self._args[1], render_mode, action_set,
                                         frame_skip)

    def close(self):
        """Closes every shard's environments and removes its actor; idempotent."""
        if self._closed:
            return
        if getattr(self, "_rollouts", None) is not None:
            self._rollouts.close()
        self._closed = True
        for shard in getattr(self, "_shards", []):
            # Best effort, shard by shard: a dead worker, or a client that
            # closed first, took its shard with it already.
            try:
                if shard.connection is not None:
                    shard.connection.send(("close",))
                    shard.connection.close()
            except OSError:
                pass
            try:
                live = self._client.scheduler_info()["workers"]
                if shard.actor is not None and shard.worker in live:
                    shard.actor.close().result(timeout=self._timeout)
            except Exception:  # noqa: BLE001
                pass
            try:
                if shard.future is not None:
                    self._client.cancel([shard.future], force=True)
            except Exception:  # noqa: BLE001
                pass
            shard.actor = shard.future = None
        if getattr(self, "_plane", None) is not None:
            self._plane.close()
        if self._owns_client:
            self._client.close(timeout=self._timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
