// module_type.h: how each of labenv's static types joins the module.
//
// Example:
//   if (AddModuleType(module, "Lab", &lab_type) < 0) return -1;
#ifndef ENGINE_PLUGIN_PYTHON_MODULE_TYPE_H_
#define ENGINE_PLUGIN_PYTHON_MODULE_TYPE_H_

#include "engine_plugin/python/numpy_api.h"

namespace engine_plugin::python {

// Readies `type` (its slots filled in) and adds it to `module` as `name`.
// Returns 0, or -1 with a Python error set. The module holds a reference
// for as long as it lives; static types are never freed anyway.
inline int AddModuleType(PyObject* module, const char* name, PyTypeObject* type) {
  if (PyType_Ready(type) < 0) return -1;
  Py_INCREF(type);
  if (PyModule_AddObject(module, name, reinterpret_cast<PyObject*>(type)) < 0) {
    Py_DECREF(type);
    return -1;
  }
  return 0;
}

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_MODULE_TYPE_H_
