"""Observations into PyTorch (the venv's) through DLPack, no copy."""

import gc
import sys

import numpy as np
import pytest
import torch

import labenv
from labenv_testing import FORWARD, TURN_RIGHT, config


@pytest.fixture
def lab():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"], config())
    lab.reset(seed=2)
    yield lab
    lab.close()


def test_the_device_is_the_cpu(lab):
    assert lab.observations()["RGB_INTERLEAVED"].__dlpack_device__() == (1, 0)  # kDLCPU


def test_torch_takes_the_frame_without_a_copy(lab):
    frame = lab.observations()["RGB_INTERLEAVED"]
    tensor = torch.from_dlpack(frame)
    assert tensor.data_ptr() == frame.ctypes.data
    assert tensor.dtype == torch.uint8
    assert tuple(tensor.shape) == frame.shape
    assert tensor.stride() == (32 * 3, 3, 1)
    assert np.array_equal(tensor.numpy(), frame)


def test_doubles_arrive_as_float64(lab):
    position = lab.observations()["DEBUG.POS.TRANS"]
    tensor = torch.from_dlpack(position)
    assert tensor.dtype == torch.float64
    assert tensor.data_ptr() == position.ctypes.data
    assert tensor.tolist() == position.tolist()


def test_a_tensor_keeps_the_buffer_after_the_array_is_gone(lab):
    frame = lab.observations()["RGB_INTERLEAVED"]
    copy = np.array(frame)
    tensor = torch.from_dlpack(frame)
    del frame
    gc.collect()
    for _ in range(20):
        lab.step(TURN_RIGHT)
        lab.observations()
    assert np.array_equal(tensor.numpy(), copy)


def test_strided_views_export_their_strides(lab):
    frame = lab.observations()["RGB_INTERLEAVED"]
    view = frame[1::2, 1::3, 2]
    tensor = torch.from_dlpack(view)
    assert tensor.data_ptr() == view.ctypes.data
    assert tensor.stride() == (2 * 32 * 3, 3 * 3)
    assert np.array_equal(tensor.numpy(), view)


def test_reversed_views_are_refused_not_crashed_on(lab):
    # torch 1.13 aborts the process on a negative DLPack stride.
    reversed_view = lab.observations()["RGB_INTERLEAVED"][:, ::-1]
    with pytest.raises(BufferError, match="negative strides"):
        torch.from_dlpack(reversed_view)
    copied = torch.from_dlpack(np.ascontiguousarray(reversed_view))
    assert np.array_equal(copied.numpy(), reversed_view)


def test_numpy_reads_the_capsule_back(lab):
    frame = lab.observations()["RGB_INTERLEAVED"]
    again = np.from_dlpack(frame)
    assert again.ctypes.data == frame.ctypes.data


def test_an_unused_capsule_releases_its_reference(lab):
    frame = lab.observations()["RGB_INTERLEAVED"]
    before = sys.getrefcount(frame)
    capsule = frame.__dlpack__()
    assert sys.getrefcount(frame) == before + 1
    del capsule
    assert sys.getrefcount(frame) == before


def test_a_stream_is_refused_for_cpu_memory(lab):
    with pytest.raises(BufferError, match="stream"):
        lab.observations()["RGB_INTERLEAVED"].__dlpack__(stream=1)


def test_results_of_numpy_operations_export_too(lab):
    frame = lab.observations()["RGB_INTERLEAVED"]
    doubled = frame.astype(np.int32) * 2
    assert isinstance(doubled, labenv.ObservationArray)
    assert torch.from_dlpack(doubled).dtype == torch.int32


def test_frames_of_a_run_stay_intact_in_torch(lab):
    tensors, copies = [], []
    for _ in range(50):
        frame = lab.observations()["RGB_INTERLEAVED"]
        tensors.append(torch.from_dlpack(frame))
        copies.append(np.array(frame))
        lab.step(FORWARD)
    for tensor, copy in zip(tensors, copies):
        assert np.array_equal(tensor.numpy(), copy)


def test_device_observations_on_the_cpu_are_the_zero_copy_arrays(lab):
    # Without observationDevice=cuda:N nothing is on a GPU.
    device = lab.device_observations()
    host = lab.observations()
    assert set(device) == {"RGB_INTERLEAVED", "DEBUG.POS.TRANS"}
    for name, value in device.items():
        assert isinstance(value, labenv.ObservationArray)
        assert value.__dlpack_device__() == (1, 0)  # kDLCPU
        assert np.array_equal(value, host[name])
    assert device["RGB_INTERLEAVED"].ctypes.data == host["RGB_INTERLEAVED"].ctypes.data
    assert torch.from_dlpack(device["RGB_INTERLEAVED"]).data_ptr() == (
        host["RGB_INTERLEAVED"].ctypes.data
    )


def test_device_observations_need_a_frame():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], config())
    with pytest.raises(RuntimeError, match="wrong status for call to device_observations"):
        lab.device_observations()
    lab.close()


def test_device_observations_are_made_by_the_lab_only():
    with pytest.raises(TypeError):
        labenv.DeviceObservation()
