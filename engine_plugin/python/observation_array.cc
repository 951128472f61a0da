#include "engine_plugin/python/guarded.h"
#include "engine_plugin/python/observation_array.h"

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "dlpack/dlpack.h"
#include "engine_plugin/python/dlpack_capsule.h"
#include "engine_plugin/python/module_type.h"

namespace engine_plugin::python {
namespace {

constexpr char kRetainedCapsule[] = "labenv.retained_observation";

// Runs when the last array over a retained observation is collected.
void ReleaseRetained(PyObject* capsule) {
  env_release_observation(static_cast<EnvCApi_RetainedObservation*>(
      PyCapsule_GetPointer(capsule, kRetainedCapsule)));
}

// The DLPack element type of a numpy dtype, or false for one DLPack has no
// code for (objects, strings, non-native byte order).
bool DlpackTypeOf(PyArray_Descr* descr, DLDataType* type) {
  if (PyDataType_ISBYTESWAPPED(descr)) return false;
  switch (descr->kind) {
    case 'i':
      type->code = kDLInt;
      break;
    case 'u':
    case 'b':  // bool as one-byte unsigned: DLPack 0.6 has no bool code
      type->code = kDLUInt;
      break;
    case 'f':
      type->code = kDLFloat;
      break;
    case 'c':
      type->code = kDLComplex;
      break;
    default:
      return false;
  }
  type->bits = static_cast<std::uint8_t>(PyDataType_ELSIZE(descr) * 8);
  type->lanes = 1;
  return true;
}

// [ObservationArray.__dlpack__(stream=None)] -> a "dltensor" capsule over
// this array's memory (no copy) that keeps the array alive. DLPack 0.x
// cannot say "read-only": a consumer must not write through it.
PyObject* ObservationArrayDlpack(PyObject* self, PyObject* args, PyObject* kwargs) {
  PyObject* stream = nullptr;
  if (!ParseDlpackArguments(args, kwargs, &stream)) return nullptr;
  if (stream != Py_None) {
    PyErr_SetString(PyExc_BufferError,
                    "__dlpack__: stream must be None for a CPU array (this one is on the CPU)");
    return nullptr;
  }
  auto* array = reinterpret_cast<PyArrayObject*>(self);
  DLDataType type;
  if (!DlpackTypeOf(PyArray_DESCR(array), &type)) {
    PyErr_Format(PyExc_BufferError, "__dlpack__: DLPack has no element type for dtype %R",
                 reinterpret_cast<PyObject*>(PyArray_DESCR(array)));
    return nullptr;
  }
  const int dims = PyArray_NDIM(array);
  const npy_intp item_size = PyArray_ITEMSIZE(array);
  std::vector<std::int64_t> shape(dims);
  std::vector<std::int64_t> strides(dims);
  for (int d = 0; d < dims; ++d) {
    const npy_intp byte_stride = PyArray_STRIDE(array, d);
    // DLPack counts strides in elements; numpy may stride by bytes that
    // are not a whole element (a view of a structured array).
    if (byte_stride % item_size != 0) {
      PyErr_SetString(PyExc_BufferError,
                      "__dlpack__: a stride is not a whole number of elements");
      return nullptr;
    }
    // NB: DLPack allows negative strides, but consumers do not all take
    // them (torch 1.13 aborts the process): refuse rather than crash.
    if (byte_stride < 0) {
      PyErr_SetString(PyExc_BufferError,
                      "__dlpack__: negative strides (a reversed view) are not exported; "
                      "np.ascontiguousarray(view) copies it");
      return nullptr;
    }
    shape[d] = PyArray_DIM(array, d);
    strides[d] = byte_stride / item_size;
  }
  return NewDlpackCapsule(self, PyArray_DATA(array), DLDevice{kDLCPU, 0}, type, std::move(shape),
                          std::move(strides));
}

// [ObservationArray.__dlpack_device__()] -> (kDLCPU, 0): observations live
// in host memory.
PyObject* ObservationArrayDlpackDevice(PyObject*, PyObject*) {
  return Py_BuildValue("(ii)", static_cast<int>(kDLCPU), 0);
}

PyMethodDef kObservationArrayMethods[] = {
    {"__dlpack__", reinterpret_cast<PyCFunction>(Guarded<&ObservationArrayDlpack>),
     METH_VARARGS | METH_KEYWORDS,
     "__dlpack__(*, stream=None)\n--\n\nA DLPack capsule over this array's memory, without a "
     "copy; it keeps the array alive. The consumer must treat it as read-only."},
    {"__dlpack_device__", Guarded<&ObservationArrayDlpackDevice>, METH_NOARGS,
     "__dlpack_device__()\n--\n\n(kDLCPU, 0): observations are in host memory."},
    {nullptr, nullptr, 0, nullptr},
};

// A static type: a heap type made with PyType_FromSpec would inherit
// ndarray's dealloc, which does not release the reference every instance
// holds on its heap type.
PyTypeObject observation_array_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyObject* NewArray(int numpy_type, int dims, const npy_intp* shape, const npy_intp* strides,
                   void* data, int flags) {
  PyArray_Descr* descr = PyArray_DescrFromType(numpy_type);  // stolen below
  if (descr == nullptr) return nullptr;
  return PyArray_NewFromDescr(&observation_array_type, descr, dims, shape, strides, data, flags,
                              nullptr);
}

}  // namespace

int AddObservationArrayType(PyObject* module) {
  observation_array_type.tp_name = "labenv.ObservationArray";
  observation_array_type.tp_basicsize = PyArray_Type.tp_basicsize;
  observation_array_type.tp_flags = Py_TPFLAGS_DEFAULT;
  observation_array_type.tp_doc =
      "A read-only numpy array over an observation, with DLPack export.\n\n"
      "It holds the engine buffer it aliases until it is collected; the engine\n"
      "never writes that buffer meanwhile.";
  observation_array_type.tp_methods = kObservationArrayMethods;
  observation_array_type.tp_base = &PyArray_Type;
  return AddModuleType(module, "ObservationArray", &observation_array_type);
}

int NumpyTypeOf(EnvCApi_ObservationType type) {
  switch (type) {
    case EnvCApi_ObservationBytes:
      return NPY_UINT8;
    case EnvCApi_ObservationDoubles:
      return NPY_FLOAT64;
    case EnvCApi_ObservationFloats:
      return NPY_FLOAT32;
    case EnvCApi_ObservationString:
      break;
  }
  return -1;
}

const void* TensorPayload(const EnvCApi_Observation& observation) {
  switch (observation.spec.type) {
    case EnvCApi_ObservationDoubles:
      return observation.payload.doubles;
    case EnvCApi_ObservationFloats:
      return observation.payload.floats;
    default:
      return observation.payload.bytes;
  }
}

std::size_t ElementBytes(EnvCApi_ObservationType type) {
  switch (type) {
    case EnvCApi_ObservationDoubles:
      return sizeof(double);
    case EnvCApi_ObservationFloats:
      return sizeof(float);
    default:
      return 1;
  }
}

PyObject* WrapRetainedObservation(const EnvCApi_Observation& observation,
                                  EnvCApi_RetainedObservation* handle) {
  const EnvCApi_ObservationSpec& spec = observation.spec;
  if (spec.type == EnvCApi_ObservationString) {
    PyObject* text = PyUnicode_FromStringAndSize(observation.payload.string, spec.shape[0]);
    env_release_observation(handle);
    return text;
  }
  if (spec.dims > NPY_MAXDIMS) {
    env_release_observation(handle);
    PyErr_Format(PyExc_RuntimeError, "an observation has %d dimensions, numpy allows %d",
                 spec.dims, NPY_MAXDIMS);
    return nullptr;
  }
  PyObject* capsule = PyCapsule_New(handle, kRetainedCapsule, ReleaseRetained);
  if (capsule == nullptr) {
    env_release_observation(handle);
    return nullptr;
  }
  const int numpy_type = NumpyTypeOf(spec.type);
  const auto item_size = static_cast<npy_intp>(ElementBytes(spec.type));
  npy_intp shape[NPY_MAXDIMS];
  npy_intp strides[NPY_MAXDIMS];
  for (int d = 0; d < spec.dims; ++d) {
    shape[d] = spec.shape[d];
    strides[d] = spec.strides[d] * item_size;
  }
  void* data = const_cast<void*>(TensorPayload(observation));
  // Flags 0: not writeable. numpy works out contiguity and alignment.
  PyObject* array = NewArray(numpy_type, spec.dims, shape, strides, data, 0);
  if (array == nullptr) {
    Py_DECREF(capsule);
    return nullptr;
  }
  // Steals `capsule`, also on failure. A base that is not an array and has
  // no writable buffer also stops setflags(write=True).
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject*>(array), capsule) < 0) {
    Py_DECREF(array);
    return nullptr;
  }
  return array;
}

PyObject* CopyObservation(const EnvCApi_Observation& observation) {
  const EnvCApi_ObservationSpec& spec = observation.spec;
  if (spec.type == EnvCApi_ObservationString) {
    return PyUnicode_FromStringAndSize(observation.payload.string, spec.shape[0]);
  }
  std::vector<npy_intp> shape(spec.shape, spec.shape + spec.dims);
  const int numpy_type = NumpyTypeOf(spec.type);
  PyObject* array = NewOwnedObservationArray(numpy_type, shape);
  if (array == nullptr) return nullptr;
  const auto item_size = static_cast<npy_intp>(ElementBytes(spec.type));
  // The ABI's strides are row-major (env_c_api.h); walk them anyway, one
  // element at a time, as events are small.
  const auto* source = static_cast<const std::uint8_t*>(TensorPayload(observation));
  auto* target = static_cast<std::uint8_t*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(array)));
  const npy_intp count = PyArray_SIZE(reinterpret_cast<PyArrayObject*>(array));
  for (npy_intp i = 0; i < count; ++i) {
    npy_intp rest = i;
    npy_intp offset = 0;
    for (int d = spec.dims - 1; d >= 0; --d) {
      offset += (rest % spec.shape[d]) * spec.strides[d];
      rest /= spec.shape[d];
    }
    std::memcpy(target + i * item_size, source + offset * item_size, item_size);
  }
  return array;
}

PyObject* NewOwnedObservationArray(int numpy_type, absl::Span<const npy_intp> shape) {
  PyObject* array = NewArray(numpy_type, static_cast<int>(shape.size()), shape.data(), nullptr,
                             nullptr, 0);
  if (array == nullptr) return nullptr;
  PyArray_CLEARFLAGS(reinterpret_cast<PyArrayObject*>(array), NPY_ARRAY_WRITEABLE);
  return array;
}

PyObject* NewObservationArrayView(PyObject* base, int axis, std::size_t index) {
  auto* array = reinterpret_cast<PyArrayObject*>(base);
  const int dims = PyArray_NDIM(array);
  std::vector<npy_intp> shape, strides;
  for (int d = 0; d < dims; ++d) {
    if (d == axis) continue;
    shape.push_back(PyArray_DIM(array, d));
    strides.push_back(PyArray_STRIDE(array, d));
  }
  auto* data = static_cast<std::uint8_t*>(PyArray_DATA(array)) +
               static_cast<npy_intp>(index) * PyArray_STRIDE(array, axis);
  PyObject* view = NewArray(PyArray_TYPE(array), dims - 1, shape.data(), strides.data(), data, 0);
  if (view == nullptr) return nullptr;
  Py_INCREF(base);  // stolen by SetBaseObject, also on failure
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject*>(view), base) < 0) {
    Py_DECREF(view);
    return nullptr;
  }
  return view;
}

}  // namespace engine_plugin::python
