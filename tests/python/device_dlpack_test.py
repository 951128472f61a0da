"""Device observations (observationDevice=cuda:0) through DLPack, no copy.

Built with --config=cuda only (./lab test's CUDA leg). Without a GPU every
test skips, saying why. The DLPack capsule is read the way a consumer
reads it, through ctypes (the DLManagedTensor's fields, and the device
bytes by cudaMemcpy from CUDA's runtime), and by the venv's PyTorch, whose
wheel carries CUDA.
"""

import ctypes
import gc

import numpy as np
import pytest

import labenv
from labenv_testing import TURN_RIGHT, config

KDL_CUDA = 2


def load_cudart():
    for name in ("libcudart.so.13", "/usr/local/cuda/lib64/libcudart.so.13", "libcudart.so"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    return None


CUDART = load_cudart()


def device_count():
    if CUDART is None:
        return 0, "libcudart not found"
    count = ctypes.c_int(0)
    error = CUDART.cudaGetDeviceCount(ctypes.byref(count))
    if error != 0:
        CUDART.cudaGetErrorString.restype = ctypes.c_char_p
        return 0, CUDART.cudaGetErrorString(error).decode()
    return count.value, "no device"


COUNT, WHY = device_count()
pytestmark = pytest.mark.skipif(COUNT == 0, reason=f"no CUDA device: {WHY}")


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


def dl_tensor(capsule):
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    # DLManagedTensor starts with its DLTensor.
    return DLTensor.from_address(get_pointer(capsule, b"dltensor"))


def device_bytes(address, size):
    host = (ctypes.c_uint8 * size)()
    assert CUDART.cudaMemcpy(host, ctypes.c_void_p(address), ctypes.c_size_t(size), 2) == 0
    return np.frombuffer(host, dtype=np.uint8)


@pytest.fixture
def lab():
    lab = labenv.Lab(
        "demo_maze",
        ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"],
        config(observationDevice="cuda:0"),
    )
    lab.reset(seed=3)
    yield lab
    lab.close()


def test_the_frame_is_a_device_observation(lab):
    frame = lab.device_observations()["RGB_INTERLEAVED"]
    assert isinstance(frame, labenv.DeviceObservation)
    assert frame.__dlpack_device__() == (KDL_CUDA, 0)
    assert frame.shape == (24, 32, 3)
    assert frame.dtype == np.uint8
    assert frame.device == "cuda:0"
    assert repr(frame) == "DeviceObservation(shape=(24, 32, 3), dtype=uint8, device='cuda:0')"
    position = lab.device_observations()["DEBUG.POS.TRANS"]
    assert isinstance(position, labenv.ObservationArray), "only the frame moves to the GPU"


def test_the_capsule_points_at_the_device_frame(lab):
    frame = lab.device_observations()["RGB_INTERLEAVED"]
    host = np.array(lab.observations()["RGB_INTERLEAVED"])
    capsule = frame.__dlpack__(stream=None)
    tensor = dl_tensor(capsule)
    assert (tensor.device.device_type, tensor.device.device_id) == (KDL_CUDA, 0)
    assert (tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes) == (1, 8, 1)  # kDLUInt
    assert [tensor.shape[d] for d in range(tensor.ndim)] == [24, 32, 3]
    assert [tensor.strides[d] for d in range(tensor.ndim)] == [96, 3, 1]
    assert np.array_equal(device_bytes(tensor.data, host.size), host.ravel())


def test_a_capsule_keeps_the_frame_through_later_steps(lab):
    host = np.array(lab.observations()["RGB_INTERLEAVED"])
    capsule = lab.device_observations()["RGB_INTERLEAVED"].__dlpack__(stream=1)
    gc.collect()  # the DeviceObservation is gone; the capsule holds it
    for _ in range(5):
        lab.step(TURN_RIGHT)
    assert not np.array_equal(np.array(lab.observations()["RGB_INTERLEAVED"]), host)
    lab.close()
    assert np.array_equal(device_bytes(dl_tensor(capsule).data, host.size), host.ravel())


def test_a_stream_must_be_an_int(lab):
    with pytest.raises(TypeError, match="stream must be None or an int"):
        lab.device_observations()["RGB_INTERLEAVED"].__dlpack__(stream="s")


def test_a_cuda_torch_takes_the_device_frame(lab):
    import torch

    if not torch.cuda.is_available():
        pytest.skip("the venv's torch sees no CUDA device")
    host = np.array(lab.observations()["RGB_INTERLEAVED"])
    frame = torch.from_dlpack(lab.device_observations()["RGB_INTERLEAVED"])
    assert frame.is_cuda and frame.dtype == torch.uint8 and tuple(frame.shape) == host.shape
    np.testing.assert_array_equal(frame.cpu().numpy(), host)
