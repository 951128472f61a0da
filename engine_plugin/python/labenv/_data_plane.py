"""DistributedVectorLab's data plane (labenv.distributed): reset and step
travel over one persistent connection a shard, beside Dask, which keeps
the control plane (placement, worker lifetimes, failure detection,
restarts). A message a step through Dask's actors costs milliseconds; a
message on a connection of its own costs tens of microseconds.

Batches live in a segment of shared memory the learner makes, SLOTS
batches of all num_envs envs. A shard on the learner's machine maps it
and steps its envs straight into its rows (VectorLab.step(out=...)): only
the small results travel. A shard elsewhere sends its rows' bytes, which
the learner receives into place. Either way the learner hands out the
whole batch without concatenating, and a slot it handed out is written
again only once nobody holds its arrays; when every slot is held, a step
goes into a private batch, its rows all received.

The connections are multiprocessing.connection's (pickle for the small
messages, raw bytes for frames), authenticated with a key the learner
draws, and each shard's listener takes one connection: the learner's.
"""

import secrets
import socket
import threading
import time
from multiprocessing.connection import Client, Listener

import numpy as np

from labenv import _shared_slots


class LevelError(RuntimeError):
    """A level's Lua error inside a shard (its worker is fine)."""


class Wire:
    """One data plane connection: multiprocessing's for the small pickled
    messages, and the same TCP socket, raw, for arrays, sent from them and
    received into them (multiprocessing's recv_bytes_into reads into a
    buffer of its own first: a copy more of every frame). Nagle's algorithm
    is off: a small message written after another would wait for its ACK,
    which the other end delays, 40 ms a message."""

    def __init__(self, connection):
        self._connection = connection
        self._socket = socket.socket(fileno=socket.dup(connection.fileno()))
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def fileno(self):  # for multiprocessing.connection.wait
        return self._connection.fileno()

    def send(self, message):
        self._connection.send(message)

    def recv(self):
        return self._connection.recv()

    def poll(self, timeout=0.0):
        return self._connection.poll(timeout)

    def send_array(self, array):
        self._socket.sendall(memoryview(np.ascontiguousarray(array)).cast("B"))

    def recv_array_into(self, array):
        view, got = memoryview(array).cast("B"), 0
        while got < len(view):
            count = self._socket.recv_into(view[got:])
            if count == 0:
                raise EOFError("the connection closed in the middle of an array")
            got += count

    def close(self):
        self._socket.close()
        self._connection.close()


class Server:
    """A shard's side: a thread that serves the learner's connection."""

    def __init__(self, envs, names, first, host, authkey, slots):
        self._envs, self._names = envs, list(names)
        self._rows = slice(first, first + envs.num_envs)
        self._slots = None
        if slots is not None:
            try:
                self._slots = _shared_slots.Slots(slots[1], name=slots[0])
            except FileNotFoundError:  # another machine: rows travel as bytes
                pass
        self._listener = Listener((host, 0), authkey=authkey)
        self.address = self._listener.address
        self.shared = self._slots is not None
        self.rollouts = None  # the shard's labenv.rollouts.ShardRollouts while they run
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        try:
            connection = Wire(self._listener.accept())
        except OSError:  # closed before the learner came
            return
        try:
            while True:
                try:
                    message = connection.recv()
                except (EOFError, OSError):
                    break
                if message[0] == "close":
                    break
                self._answer(connection, message)
        finally:
            connection.close()
            self._close_slots()

    def _answer(self, connection, message):
        if message[0] == "fetch":
            return self._send_fragment(connection, message[1])
        kind, slot = message[0], message[1]
        out = None
        if slot >= 0 and self._slots is not None:
            out = {name: view[self._rows] for name, view in self._slots.views(slot).items()}
        started = time.perf_counter()
        n = self._envs.num_envs
        try:
            if kind == "reset":
                observed = self._envs.reset(seed=message[2], episodes=message[3])
                if out is not None:
                    for name in self._names:
                        out[name][...] = observed[name]
                reward, terminated, truncated = np.zeros(n), np.zeros(n, bool), np.zeros(n, bool)
            else:
                actions, num_steps, continuous = message[2:]
                extra = {} if continuous is None else {"continuous": continuous}
                observed, reward, terminated, truncated = self._envs.step(
                    actions, num_steps=num_steps, out=out, **extra)
        except RuntimeError as error:
            connection.send({"error": str(error)})
            return
        connection.send({
            "reward": reward, "terminated": terminated, "truncated": truncated,
            "episodes": np.array(self._envs.episodes),
            "step_seconds": time.perf_counter() - started, "written": out is not None,
        })
        if out is None:
            for name in self._names:
                connection.send_array(observed[name])

    def _send_fragment(self, connection, released):
        """labenv.rollouts' next fragment of this shard: its observations as
        bytes after the rest, unless they lie in the learner's slot."""
        rollouts = self.rollouts
        if rollouts is None:  # closed (through Dask) before this fetch was read
            connection.send({"error": "the rollouts were closed"})
            return
        kind, fragment = rollouts.fetch_blocking(released)
        if kind == "error":
            connection.send({"error": fragment})
            return
        observations = fragment.pop("observations")
        connection.send(fragment)
        if observations is not None:
            for name in self._names:
                connection.send_array(observations[name])

    def _close_slots(self):
        if self._slots is not None:
            self._slots.close()
            self._slots = None

    def close(self):
        self._listener.close()
        self._thread.join(timeout=10)


class Call:
    """A reset or step in flight on a shard's connection, with the
    interface of a Dask actor call that DistributedVectorLab._wait takes:
    result(timeout) raises TimeoutError while nothing has come."""

    def __init__(self, connection, rows, names):
        self._connection, self._rows, self._names = connection, rows, names
        self._result = None

    def done(self):
        return self._result is not None or self._connection.poll(0)

    def result(self, timeout=None):
        if self._result is None:
            if not self._connection.poll(timeout):
                raise TimeoutError("no answer yet")
            header = self._connection.recv()
            if "error" in header:
                self._result = header
            else:
                if not header["written"]:
                    for name in self._names:
                        self._connection.recv_array_into(self._rows[name])
                header["observations"] = self._rows
                self._result = header
        if "error" in self._result:
            raise LevelError(self._result["error"])
        return self._result


class FragmentCall:
    """A rollouts fetch in flight on a shard's connection, with Call's
    interface: its fragment, the observations received into new arrays of
    `layout` (or left to the caller when they lie in a slot)."""

    def __init__(self, connection, layout, names):
        self._connection, self._layout, self._names = connection, layout, names
        self._result = None
        self.asked = 0  # the learner's number for it, oldest first

    def result(self, timeout=None):
        if self._result is None:
            if not self._connection.poll(timeout):
                raise TimeoutError("no fragment yet")
            fragment = self._connection.recv()
            if "error" not in fragment and fragment.get("slot") is None:
                observations = {name: np.empty(*self._layout[name]) for name in self._names}
                for name in self._names:
                    self._connection.recv_array_into(observations[name])
                fragment["observations"] = observations
            self._result = fragment
        if "error" in self._result:
            raise LevelError(self._result["error"])
        return self._result


class Plane:
    """The learner's side: the batches and one connection a shard."""

    def __init__(self, spec, names, num_envs, shared_memory=True):
        self._names = list(names)
        self._shared_memory = shared_memory
        self.layout = _shared_slots.layout(spec, self._names, (num_envs,))
        self._slots = _shared_slots.Slots(self.layout)
        self._held = _shared_slots.Held()
        self._free = set(range(_shared_slots.SLOTS))
        self.authkey = secrets.token_bytes(32)
        self.slot, self.batch = -1, None

    @property
    def slots(self):
        """What a shard needs to map the batches: (name, layout), or None
        when every shard is to send its rows."""
        return (self._slots.name, self.layout) if self._shared_memory else None

    def connect(self, address):
        return Wire(Client(address, authkey=self.authkey))

    def next_batch(self):
        """A batch to write the next reset or step into: a free slot, or
        (-1) a private one when every slot is held."""
        self._free.update(self._held.released())
        if self._free:
            self.slot = min(self._free)
            self._free.discard(self.slot)
            self.batch = self._slots.views(self.slot)
        else:
            self.slot = -1
            self.batch = {name: np.empty(shape, dtype)
                          for name, (shape, dtype) in self.layout.items()}
        return self.slot

    def send(self, connection, rows, message):
        """Sends `message` for the current batch; the Call of its answer."""
        connection.send(message)
        return Call(connection, {name: self.batch[name][rows] for name in self._names},
                    self._names)

    def hand_out(self):
        """The whole current batch, for the caller to keep."""
        if self.slot < 0:
            return dict(self.batch)
        return self._held.hand_out(self.slot, self.batch)

    def close(self):
        self._slots.close()
