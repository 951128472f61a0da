#include "engine_plugin/python/dlpack_capsule.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace engine_plugin::python {
namespace {

constexpr char kDlpackCapsule[] = "dltensor";
constexpr char kUsedDlpackCapsule[] = "used_dltensor";

// What a DLPack consumer holds: the tensor, the arrays its shape and
// strides point into, and a reference to the exporting object.
struct DlpackExport {
  DLManagedTensor managed;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  PyObject* owner;
};

// The consumer may call this from any thread, with or without the GIL.
void DeleteDlpackExport(DLManagedTensor* managed) {
  auto* exported = static_cast<DlpackExport*>(managed->manager_ctx);
  PyGILState_STATE gil = PyGILState_Ensure();
  Py_DECREF(exported->owner);
  PyGILState_Release(gil);
  delete exported;
}

// A capsule that no consumer took (renamed to "used_dltensor") still owns
// its tensor.
void DlpackCapsuleDestructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, kUsedDlpackCapsule)) return;
  // Collection may happen while an exception is being raised: keep it.
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, kDlpackCapsule));
  if (managed != nullptr) {
    managed->deleter(managed);
  } else {
    PyErr_WriteUnraisable(capsule);
  }
  PyErr_Restore(type, value, traceback);
}

}  // namespace

bool ParseDlpackArguments(PyObject* args, PyObject* kwargs, PyObject** stream) {
  static const char* keywords[] = {"stream", nullptr};
  *stream = Py_None;
  return PyArg_ParseTupleAndKeywords(args, kwargs, "|$O:__dlpack__", const_cast<char**>(keywords),
                                     stream) != 0;
}

PyObject* NewDlpackCapsule(PyObject* owner, void* data, DLDevice device, DLDataType type,
                           std::vector<std::int64_t> shape, std::vector<std::int64_t> strides) {
  auto* exported = new DlpackExport();
  exported->shape = std::move(shape);
  exported->strides = std::move(strides);
  DLTensor& tensor = exported->managed.dl_tensor;
  tensor.data = data;
  tensor.device = device;
  tensor.ndim = static_cast<int>(exported->shape.size());
  tensor.dtype = type;
  tensor.shape = exported->shape.data();
  tensor.strides = exported->strides.data();
  tensor.byte_offset = 0;
  exported->managed.manager_ctx = exported;
  exported->managed.deleter = DeleteDlpackExport;
  Py_INCREF(owner);
  exported->owner = owner;
  PyObject* capsule = PyCapsule_New(&exported->managed, kDlpackCapsule, DlpackCapsuleDestructor);
  if (capsule == nullptr) DeleteDlpackExport(&exported->managed);
  return capsule;
}

}  // namespace engine_plugin::python
