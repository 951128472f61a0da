#include "engine_plugin/python/device_observation.h"
#include "engine_plugin/python/guarded.h"

#include <cstdint>
#include <vector>

#include "dlpack/dlpack.h"
#include "engine_plugin/python/dlpack_capsule.h"
#include "engine_plugin/python/module_type.h"
#include "engine_plugin/python/observation_array.h"

namespace engine_plugin::python {
namespace {

struct DeviceObservationObject {
  PyObject_HEAD
  EnvCApi_RetainedObservation* handle;
  // Its spec's shape and strides, and its payload, belong to `handle`.
  EnvCApi_Observation observation;
  EnvCApi_Device device;
};

DeviceObservationObject* Cast(PyObject* self) {
  return reinterpret_cast<DeviceObservationObject*>(self);
}

void Dealloc(PyObject* self) {
  env_release_observation(Cast(self)->handle);
  Py_TYPE(self)->tp_free(self);
}

DLDataType DlpackType(EnvCApi_ObservationType type) {
  switch (type) {
    case EnvCApi_ObservationDoubles:
      return {kDLFloat, 64, 1};
    case EnvCApi_ObservationFloats:
      return {kDLFloat, 32, 1};
    default:
      return {kDLUInt, 8, 1};
  }
}

const char* DtypeName(EnvCApi_ObservationType type) {
  switch (type) {
    case EnvCApi_ObservationDoubles:
      return "float64";
    case EnvCApi_ObservationFloats:
      return "float32";
    default:
      return "uint8";
  }
}

// [DeviceObservation.__dlpack__(*, stream=None)] -> a "dltensor" capsule
// over the device buffer (no copy) that keeps this object alive. Any
// stream will do: the engine's upload finished before the step returned,
// so no consumer stream has anything to wait for.
PyObject* DeviceObservationDlpack(PyObject* self, PyObject* args, PyObject* kwargs) {
  PyObject* stream = nullptr;
  if (!ParseDlpackArguments(args, kwargs, &stream)) return nullptr;
  if (stream != Py_None && !PyLong_Check(stream)) {
    PyErr_Format(PyExc_TypeError, "__dlpack__: stream must be None or an int, got %.200s",
                 Py_TYPE(stream)->tp_name);
    return nullptr;
  }
  const DeviceObservationObject& object = *Cast(self);
  const EnvCApi_ObservationSpec& spec = object.observation.spec;
  const DLDataType type = DlpackType(spec.type);
  return NewDlpackCapsule(self, const_cast<void*>(TensorPayload(object.observation)),
                          DLDevice{kDLCUDA, object.device.index}, type,
                          std::vector<std::int64_t>(spec.shape, spec.shape + spec.dims),
                          std::vector<std::int64_t>(spec.strides, spec.strides + spec.dims));
}

// [DeviceObservation.__dlpack_device__()] -> (kDLCUDA, N).
PyObject* DeviceObservationDlpackDevice(PyObject* self, PyObject*) {
  return Py_BuildValue("(ii)", static_cast<int>(kDLCUDA), Cast(self)->device.index);
}

PyObject* GetShape(PyObject* self, void*) {
  const EnvCApi_ObservationSpec& spec = Cast(self)->observation.spec;
  PyObject* shape = PyTuple_New(spec.dims);
  if (shape == nullptr) return nullptr;
  for (int d = 0; d < spec.dims; ++d) {
    PyObject* extent = PyLong_FromLongLong(spec.shape[d]);
    if (extent == nullptr) {
      Py_DECREF(shape);
      return nullptr;
    }
    PyTuple_SET_ITEM(shape, d, extent);
  }
  return shape;
}

PyObject* GetDType(PyObject* self, void*) {
  return reinterpret_cast<PyObject*>(
      PyArray_DescrFromType(NumpyTypeOf(Cast(self)->observation.spec.type)));
}

PyObject* GetDevice(PyObject* self, void*) {
  return PyUnicode_FromFormat("cuda:%d", Cast(self)->device.index);
}

PyObject* Repr(PyObject* self) {
  PyObject* shape = GetShape(self, nullptr);
  if (shape == nullptr) return nullptr;
  PyObject* repr =
      PyUnicode_FromFormat("DeviceObservation(shape=%R, dtype=%s, device='cuda:%d')", shape,
                           DtypeName(Cast(self)->observation.spec.type),
                           Cast(self)->device.index);
  Py_DECREF(shape);
  return repr;
}

PyMethodDef kMethods[] = {
    {"__dlpack__", reinterpret_cast<PyCFunction>(Guarded<&DeviceObservationDlpack>),
     METH_VARARGS | METH_KEYWORDS,
     "__dlpack__(*, stream=None)\n--\n\nA DLPack capsule over the device buffer, without a "
     "copy; it keeps this observation alive. The consumer must treat it as read-only."},
    {"__dlpack_device__", Guarded<&DeviceObservationDlpackDevice>, METH_NOARGS,
     "__dlpack_device__()\n--\n\n(kDLCUDA, N): the buffer is on CUDA device N."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef kGetSet[] = {
    {"shape", Guarded<&GetShape>, nullptr, "The extents, as a tuple.", nullptr},
    {"dtype", Guarded<&GetDType>, nullptr, "The element type, as a numpy dtype.", nullptr},
    {"device", Guarded<&GetDevice>, nullptr, "'cuda:N'.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyTypeObject device_observation_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

}  // namespace

int AddDeviceObservationType(PyObject* module) {
  device_observation_type.tp_name = "labenv.DeviceObservation";
  device_observation_type.tp_basicsize = sizeof(DeviceObservationObject);
  device_observation_type.tp_flags = Py_TPFLAGS_DEFAULT;
  device_observation_type.tp_doc =
      "An observation in GPU memory, for DLPack consumers (torch.from_dlpack).\n\n"
      "It holds the engine buffer until it is collected; the engine never\n"
      "writes that buffer meanwhile. Lab.device_observations() makes them.";
  device_observation_type.tp_dealloc = Dealloc;
  device_observation_type.tp_repr = Repr;
  device_observation_type.tp_methods = kMethods;
  device_observation_type.tp_getset = kGetSet;
  return AddModuleType(module, "DeviceObservation", &device_observation_type);
}

PyObject* WrapDeviceObservation(const EnvCApi_Observation& observation, EnvCApi_Device device,
                                EnvCApi_RetainedObservation* handle) {
  PyObject* self = device_observation_type.tp_alloc(&device_observation_type, 0);
  if (self == nullptr) {
    env_release_observation(handle);
    return nullptr;
  }
  DeviceObservationObject& object = *Cast(self);
  object.handle = handle;
  object.observation = observation;
  object.device = device;
  return self;
}

}  // namespace engine_plugin::python
