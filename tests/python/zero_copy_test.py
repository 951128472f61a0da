"""Observation arrays alias the engine's buffers and never change under you."""

import gc

import numpy as np
import pytest

import labenv
from labenv_testing import FORWARD, TEST_LEVEL, TURN_RIGHT, config


def _pointer(array):
    return array.__array_interface__["data"][0]


def _allocated(lab):
    return int(lab.read_property("engine.frameBuffersAllocated"))


@pytest.fixture
def lab():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED", "DEBUG.POS.TRANS", "GRAY_HALF"], config())
    lab.reset(seed=3)
    yield lab
    lab.close()


def test_every_view_of_a_frame_has_the_engines_pointer(lab):
    first = lab.observations()["RGB_INTERLEAVED"]
    again = lab.observations()["RGB_INTERLEAVED"]
    # Two reads of one frame are the same engine buffer, not two copies.
    assert _pointer(first) == _pointer(again)
    assert first.ctypes.data == _pointer(first)
    # The buffer protocol hands out that same memory.
    view = memoryview(first)
    assert view.readonly
    assert np.frombuffer(view, dtype=np.uint8).ctypes.data == _pointer(first)
    lab.step(FORWARD)
    # The next frame is rendered into another buffer.
    assert _pointer(lab.observations()["RGB_INTERLEAVED"]) != _pointer(first)


def test_the_interface_exports_explicit_shape_and_strides(lab):
    frame = lab.observations()["RGB_INTERLEAVED"]
    interface = frame.__array_interface__
    assert interface["shape"] == (24, 32, 3)
    assert interface["typestr"] == "|u1"
    assert frame.strides == (32 * 3, 3, 1)
    assert interface["data"][1] is True  # read-only


def test_arrays_are_read_only_and_cannot_be_made_writable(lab):
    frame = lab.observations()["RGB_INTERLEAVED"]
    with pytest.raises(ValueError, match="read-only"):
        frame[0, 0, 0] = 1
    with pytest.raises(ValueError):
        frame.setflags(write=True)
    with pytest.raises(ValueError, match="read-only"):
        frame[:, ::2][0, 0, 0] = 1


def test_a_kept_frame_never_changes_and_is_not_reused(lab):
    kept = lab.observations()["RGB_INTERLEAVED"]
    copy = np.array(kept, copy=True)
    for _ in range(30):
        lab.step(TURN_RIGHT)
        assert _pointer(lab.observations()["RGB_INTERLEAVED"]) != _pointer(kept)
    assert not np.array_equal(lab.observations()["RGB_INTERLEAVED"], copy)  # the view moved
    assert np.array_equal(kept, copy)


def test_a_thousand_kept_arrays_all_stay_unchanged():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED", "DEBUG.POS.TRANS", "GRAY_HALF"], config())
    lab.reset(seed=4)
    rng = np.random.default_rng(0)
    kept, copies = [], []
    for step in range(1000):
        observed = lab.observations()
        kept.append(observed)
        copies.append({name: np.array(value, copy=True) for name, value in observed.items()})
        action = np.array([rng.integers(-30, 31), 0, 0, rng.integers(0, 2), 0, 0, 0], np.intc)
        lab.step(action)
        if not lab.is_running():
            lab.reset()
    pointers = {_pointer(observed["RGB_INTERLEAVED"]) for observed in kept}
    assert len(pointers) == 1000  # every kept frame holds its own buffer
    for observed, copy in zip(kept, copies):
        for name in observed:
            assert np.array_equal(observed[name], copy[name]), name
    # A level's custom observation (GRAY_HALF) is its own tensor, which it
    # rewrites every frame: the engine copied it once when it was retained.
    assert len({_pointer(observed["GRAY_HALF"]) for observed in kept}) == 1000


def test_released_buffers_are_recycled(lab):
    for _ in range(200):
        lab.observations()
        lab.step(FORWARD)
    # The pool only ever needed a couple of frames: nothing was copied.
    assert _allocated(lab) <= 3
    held = [lab.observations() for _ in range(1)]
    for _ in range(5):
        lab.step(FORWARD)
        held.append(lab.observations())
    before = _allocated(lab)
    del held
    gc.collect()
    for _ in range(50):
        lab.observations()
        lab.step(FORWARD)
    assert _allocated(lab) == before  # freed buffers were reused, none new


def test_a_view_keeps_the_buffer_alive_after_its_parent_is_gone(lab):
    view = lab.observations()["RGB_INTERLEAVED"][::2, 1::3, 0]
    assert not view.flags.c_contiguous
    copy = np.array(view)
    gc.collect()
    for _ in range(20):
        lab.step(TURN_RIGHT)
        lab.observations()
    assert np.array_equal(view, copy)


def test_arrays_outlive_close():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], config())
    lab.reset(seed=1)
    frame = lab.observations()["RGB_INTERLEAVED"]
    copy = np.array(frame)
    lab.close()
    del lab
    gc.collect()
    assert np.array_equal(frame, copy)


def test_the_base_chain_ends_in_the_retained_handle(lab):
    frame = lab.observations()["RGB_INTERLEAVED"]
    assert type(frame.base).__name__ == "PyCapsule"
    assert not frame.flags.owndata
