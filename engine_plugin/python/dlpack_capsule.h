// dlpack_capsule.h: the "dltensor" capsules that labenv's __dlpack__
// methods return (DLPack 0.x, as torch.from_dlpack takes them), and those
// methods' arguments.
//
// The capsule holds a reference to the exporting object, which keeps the
// memory alive; a consumer that takes the capsule (renaming it
// "used_dltensor") takes that reference over and drops it through the
// DLManagedTensor's deleter, from any thread.
//
// Example (GIL held; `self` owns the memory at `data`):
//   return NewDlpackCapsule(self, data, DLDevice{kDLCPU, 0}, type, {84, 84, 3}, {252, 3, 1});
#ifndef ENGINE_PLUGIN_PYTHON_DLPACK_CAPSULE_H_
#define ENGINE_PLUGIN_PYTHON_DLPACK_CAPSULE_H_

#include <cstdint>
#include <vector>

#include "dlpack/dlpack.h"
#include "engine_plugin/python/numpy_api.h"

namespace engine_plugin::python {

// Parses __dlpack__'s arguments, a keyword-only `stream` (default None),
// into *stream (borrowed). False with a Python error set.
bool ParseDlpackArguments(PyObject* args, PyObject* kwargs, PyObject** stream);

// A new capsule over `data` with `shape` and `strides` (in elements), or
// null with a Python error set.
PyObject* NewDlpackCapsule(PyObject* owner, void* data, DLDevice device, DLDataType type,
                           std::vector<std::int64_t> shape, std::vector<std::int64_t> strides);

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_DLPACK_CAPSULE_H_
