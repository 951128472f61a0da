"""DistributedVectorLab's send/recv (labenv.distributed): EnvPool's
contract over shards, as labenv.VectorLab has it on one machine.

send(actions, env_ids) groups the envs by shard and sends each shard one
call with its rows, at once; recv() gathers shards' answers as they come
until batch_size envs are back and returns those, in the order they came
(a shard's envs in their order), keeping any more for the next recv. A
shard steps the envs of one call together, on its VectorLab's threads, so
the unit of arrival is a shard's call: a slow shard holds up only its own
envs.

Faults: a lost shard raises ShardLostError, or with restart=True is
recreated; its envs in flight come back with their next episode's first
frame, and its envs the caller holds are marked restarted when next
returned. A level's error in an env raises RuntimeError naming it from the
recv that would have returned it; the others of its call are kept.
"""

import asyncio

import numpy as np


def first_done(client, calls, timeout):
    """The index of the first of `calls` (actor calls) to finish, or None
    after `timeout` seconds: one wait on the client's event loop, rather
    than polling, which would wake this process between the workers'
    steps on a machine whose cores they share."""
    for index, call in enumerate(calls):
        if call.done():
            return index

    async def settled(call):
        try:
            await call
        except Exception:  # noqa: BLE001 (its error is raised when it is taken)
            pass

    async def first():
        tasks = [asyncio.ensure_future(settled(call)) for call in calls]
        done, pending = await asyncio.wait(tasks, timeout=timeout,
                                           return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        return tasks.index(next(iter(done))) if done else None

    return client.sync(first)


class AsyncShards:
    """The client's bookkeeping of the envs in flight and back."""

    def __init__(self, num_envs, batch_size):
        self.batch_size = batch_size
        self.in_flight = np.zeros(num_envs, bool)
        self.calls = []      # [(shard, call, global env ids)], in the order sent
        self.back = []       # [(env id, result row dict)], arrived, not yet returned
        self.errors = []     # [(env id, its shard, message)], arrived, not yet raised
        self.restarted = np.zeros(num_envs, bool)  # marked for their next return

    def checked_ids(self, env_ids, num_envs):
        ids = list(range(num_envs)) if env_ids is None else [int(i) for i in env_ids]
        if not ids:
            raise ValueError("send: env_ids is empty")
        seen = set()
        for j, env in enumerate(ids):
            if not 0 <= env < num_envs:
                raise ValueError("send: env_ids[{}] = {} is not an env of these {}".format(
                    j, env, num_envs))
            if env in seen:
                raise ValueError("send: env_ids[{}] = {} is given twice".format(j, env))
            if self.in_flight[env]:
                raise ValueError("send: env_ids[{}] = {} is in flight: recv() returns it before "
                                 "it can be sent again".format(j, env))
            seen.add(env)
        return ids


def send(lab, actions, env_ids, num_steps, continuous):
    state = lab._async
    ids = state.checked_ids(env_ids, lab.num_envs)
    actions, continuous = lab._checked_actions(actions, continuous, rows=len(ids))
    if not isinstance(num_steps, (int, np.integer)) or num_steps < 1:
        raise ValueError("num_steps must be >= 1, got {!r}".format(num_steps))
    order = np.array(ids)
    for shard in lab._shards:
        mine = np.nonzero((order >= shard.first) & (order < shard.first + shard.count))[0]
        if len(mine) == 0:
            continue
        call = shard.actor.send_recv(
            (order[mine] - shard.first).tolist(),
            None if actions is None else actions[mine], int(num_steps),
            None if continuous is None else continuous[mine])
        state.calls.append((shard, call, order[mine].tolist()))
    state.in_flight[order] = True


def async_reset(lab, seed):
    state = lab._async
    for shard in lab._shards:
        shard.episodes = np.zeros(shard.count, np.int64)
        call = shard.actor.reset(lab._seed)
        state.calls.append((shard, call, list(range(shard.first, shard.first + shard.count))))
    state.in_flight[:] = True
    state.restarted[:] = False


def _keep(lab, shard, envs, result):
    """A shard's answer for `envs` (global ids), row by row, into state.back."""
    state = lab._async
    row = 0  # the rows hold the envs that did not fail, in order
    for env in envs:
        local = env - shard.first
        message = result.get("errors", {}).get(local)
        if message is not None:
            state.errors.append((env, "shard {} on {}".format(shard.index, shard.worker),
                                 message))
            continue
        state.back.append((env, {
            "observations": {name: value[row] for name, value in result["observations"].items()},
            "reward": result["reward"][row], "terminated": result["terminated"][row],
            "truncated": result["truncated"][row],
            "episode": result["episodes"][local] - 1,
            "restarted": bool(result.get("restarted", False)) or state.restarted[env],
        }))
        state.restarted[env] = False
        row += 1


def _restart(lab, shard):
    """Recreates a lost shard; its envs in flight come back with their next
    episode's first frame, the others are marked for their next return."""
    state = lab._async
    result = lab._restart_shard(shard)
    shard.episodes = result["episodes"]
    envs = list(range(shard.first, shard.first + shard.count))
    flying = [env for env in envs if state.in_flight[env]
              and not any(env == e for e, _ in state.back)]
    state.calls = [(s, c, e) for s, c, e in state.calls if s is not shard]
    rows = {env: row for row, env in enumerate(envs)}
    picked = {name: value[[rows[env] for env in flying]]
              for name, value in result["observations"].items()}
    for env in envs:
        if env not in flying:
            state.restarted[env] = True
    _keep(lab, shard, flying, {
        "observations": picked,
        "reward": np.zeros(len(flying)), "terminated": np.zeros(len(flying), bool),
        "truncated": np.zeros(len(flying), bool), "episodes": result["episodes"],
        "restarted": True})


def _collect_one(lab):
    """Waits for the first shard call to answer and keeps its rows."""
    state = lab._async
    # None within half a second: wait on the oldest, which notices a lost
    # worker and the timeout.
    k = first_done(lab._client, [call for _, call, _ in state.calls], 0.5) or 0
    shard, call, envs = state.calls.pop(k)
    from labenv.distributed import ShardLostError

    try:
        result = lab._wait(shard, call)
    except ShardLostError as error:
        if not lab._restart:
            lab._lost = error
            raise
        _restart(lab, shard)
        return
    _keep(lab, shard, envs, result)


def recv(lab):
    state = lab._async
    waiting = int(state.in_flight.sum())
    if waiting < state.batch_size:
        raise RuntimeError("recv: {} envs are in flight, fewer than batch_size {}: send() more "
                           "first".format(waiting, state.batch_size))
    while not state.errors and len(state.back) < state.batch_size:
        _collect_one(lab)
    if state.errors:
        env, where, message = state.errors.pop(0)
        state.in_flight[env] = False
        raise RuntimeError("env {} ({}): {}".format(env, where, message))
    taken, state.back = state.back[:state.batch_size], state.back[state.batch_size:]
    ids = np.array([env for env, _ in taken], np.int32)
    state.in_flight[ids] = False
    rows = [row for _, row in taken]
    names = rows[0]["observations"].keys()
    observations = {name: np.stack([row["observations"][name] for row in rows]) for name in names}
    info = {"episodes": np.array([row["episode"] for row in rows]),
            "restarted": np.array([row["restarted"] for row in rows])}
    return (observations,
            np.array([row["reward"] for row in rows], np.float64),
            np.array([row["terminated"] for row in rows], bool),
            np.array([row["truncated"] for row in rows], bool),
            ids, info)
