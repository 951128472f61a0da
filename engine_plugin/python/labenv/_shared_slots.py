"""Observations in shared memory, when the learner and a shard share a
machine: the shard writes each fragment (labenv.rollouts) or batch
(labenv._data_plane) into a slot of a segment the learner made, and only
the slot's number travels.

The learner makes one segment a shard, of `count` slots, each holding one
fragment's observations ({name: (T + 1, B, ...)}), and unlinks it when the
rollouts close. A slot the learner hands out stays the learner's until it
holds no reference to its arrays (nor a view of them, nor a tensor over
them), as with VectorLab's batches: a fragment never changes under whoever
keeps it. Each fetch tells the shard which slots came free since the last.
"""

import mmap
import os
import sys
import uuid
import weakref
from multiprocessing import shared_memory

import numpy as np

# Slots a shard: one being written, one on its way or held by the learner,
# and one spare, so that a learner keeping the last fragment while it
# takes the next does not stall the shard.
SLOTS = 3
_ALIGN = 64


def layout(spec, names, leading):
    """{name: (shape, dtype)} of observations with `leading` extents before
    their own: (T + 1, B) for a fragment, (n,) for a batch."""
    by_name = {entry["name"]: entry for entry in spec}
    return {name: (tuple(leading) + tuple(by_name[name]["shape"]),
                   np.dtype(by_name[name]["dtype"])) for name in names}


def _offsets(fragment_layout):
    offsets, total = {}, 0
    for name, (shape, dtype) in fragment_layout.items():
        offsets[name] = total
        size = int(np.prod(shape)) * dtype.itemsize
        total += (size + _ALIGN - 1) // _ALIGN * _ALIGN
    return offsets, total


class Slots:
    """A segment of SLOTS fragments' observations: made by the learner
    (name None) or attached by the shard (the learner's name)."""

    def __init__(self, fragment_layout, name=None):
        self._layout = fragment_layout
        self._offsets, self.slot_bytes = _offsets(fragment_layout)
        if name is None:
            self._segment = shared_memory.SharedMemory(
                name="labenv-" + uuid.uuid4().hex[:16], create=True,
                size=max(1, SLOTS * self.slot_bytes))
            self.name, self._buffer = self._segment.name, self._segment.buf
            # Unlinked by close(), or when this is collected, or at exit: a
            # learner that never closes (a failed test) leaves no segment.
            self._unlink = weakref.finalize(self, _unlink, self._segment)
        else:
            # Mapped from its file rather than through SharedMemory, which in
            # Python 3.11 would register it with a resource tracker (perhaps
            # the learner's own) that unlinks it at exit: the learner owns it.
            with open(os.path.join("/dev/shm", name), "r+b") as file:
                self._map = mmap.mmap(file.fileno(), 0)
            self._segment, self.name, self._buffer = None, name, memoryview(self._map)

    def views(self, slot):
        """{name: array} of slot `slot`, writable. Each array holds an
        export of the mapping (np.frombuffer's), so that close() cannot
        unmap it under the array: np.ndarray(buffer=) keeps only a reference
        to the mapping, which closes all the same, and the next mapping may
        land at the same address."""
        base = slot * self.slot_bytes
        return {name: np.frombuffer(self._buffer, dtype, int(np.prod(shape)),
                                    base + self._offsets[name]).reshape(shape)
                for name, (shape, dtype) in self._layout.items()}

    def close(self):
        """Unmaps it (unless arrays over it live on, which keep it mapped
        until they go) and, for its maker, unlinks it."""
        if self._segment is not None:
            self._unlink()
            return
        try:
            self._buffer.release()
            self._map.close()
        except (BufferError, ValueError):
            pass


def _unlink(segment):
    """A segment's maker's end of it: unmapped if no array holds it, and
    its name removed, once."""
    try:
        segment.close()
    except BufferError:  # arrays over it keep it mapped until they go
        pass
    try:
        segment.unlink()
    except FileNotFoundError:
        pass


def _unreferenced(array):
    """Whether only a Held holds `array` (a view of Slots.views) and its
    flat base: a copy of the dict holds the array, and a view of it (a
    slice, a tensor) the base, where numpy collapses a view's base to."""
    # One reference each from the Held (or the array, for its base) and
    # getrefcount's argument.
    return sys.getrefcount(array) <= 2 and sys.getrefcount(array.base) <= 2


class Held:
    """The learner's side: which slots of a shard it has handed out."""

    def __init__(self):
        self._held = {}  # slot -> {name: array} handed out

    def hand_out(self, slot, views):
        """The caller's own dict of the arrays: a dict it keeps keeps them
        (and the slot), whereas one shared with this would not count."""
        self._held[slot] = views
        return dict(views)

    def released(self):
        """The slots nobody but this holds any more; they go back."""
        free = [slot for slot, views in self._held.items()
                if all(_unreferenced(views[name]) for name in views)]
        for slot in free:
            del self._held[slot]
        return free
