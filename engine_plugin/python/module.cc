// labenv._labenv: the extension module behind the labenv package. It
// holds Lab, VectorLab, ObservationArray and DeviceObservation, and
// deepmind_lab's property
// attribute constants. See engine_plugin/python/labenv/__init__.py.
#define LABENV_IMPORT_ARRAY
#include "engine_plugin/python/numpy_api.h"

#include "engine_plugin/env_c_api.h"
#include "engine_plugin/python/device_observation.h"
#include "engine_plugin/python/lab.h"
#include "engine_plugin/python/observation_array.h"
#include "engine_plugin/python/vector_lab.h"

namespace engine_plugin::python {
namespace {

// levels() -> [(name, host), ...]
PyObject* Levels(PyObject*, PyObject*) {
  const int count = env_level_count();
  PyObject* list = PyList_New(count);
  if (list == nullptr) return nullptr;
  for (int i = 0; i < count; ++i) {
    PyObject* entry = Py_BuildValue("(ss)", env_level_name(i), env_level_host(i));
    if (entry == nullptr) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, i, entry);
  }
  return list;
}

PyMethodDef kFunctions[] = {
    {"levels", Levels, METH_NOARGS,
     "levels()\n--\n\nThe built-in levels this build can run, sorted by name: a list of "
     "(name, host) pairs."},
    {nullptr, nullptr, 0, nullptr},
};

int ExecModule(PyObject* module) {
  // Fills numpy's API table (numpy_api.h); returns -1 if numpy is missing.
  import_array1(-1);
  if (AddObservationArrayType(module) < 0 || AddDeviceObservationType(module) < 0 ||
      AddLabType(module) < 0 || AddVectorLabType(module) < 0) {
    return -1;
  }
  const struct {
    const char* name;
    int value;
  } kConstants[] = {
      {"READABLE", EnvCApi_PropertyAttributes_Readable},
      {"WRITABLE", EnvCApi_PropertyAttributes_Writable},
      {"READ_WRITABLE",
       EnvCApi_PropertyAttributes_Readable | EnvCApi_PropertyAttributes_Writable},
      {"LISTABLE", EnvCApi_PropertyAttributes_Listable},
  };
  for (const auto& constant : kConstants) {
    if (PyModule_AddIntConstant(module, constant.name, constant.value) < 0) return -1;
  }
  return 0;
}

PyModuleDef_Slot kSlots[] = {
    {Py_mod_exec, reinterpret_cast<void*>(ExecModule)},
    {0, nullptr},
};

PyModuleDef kModule = {
    PyModuleDef_HEAD_INIT,
    "labenv._labenv",
    "The plugin's C ABI as Python types; use the labenv package.",
    0,
    kFunctions,
    kSlots,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace
}  // namespace engine_plugin::python

PyMODINIT_FUNC PyInit__labenv() { return PyModuleDef_Init(&engine_plugin::python::kModule); }
