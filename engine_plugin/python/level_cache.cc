#include "engine_plugin/python/level_cache.h"

namespace engine_plugin::python {
namespace {

int CallLevelCache(void* cache, const char* method, const char* key, const char* pk3_path) {
  PyGILState_STATE gil = PyGILState_Ensure();
  int result = -1;
  if (!PyErr_Occurred()) {
    PyObject* output =
        PyObject_CallMethod(static_cast<PyObject*>(cache), method, "ss", key, pk3_path);
    if (output != nullptr) {
      const int truth = PyObject_IsTrue(output);
      result = truth < 0 ? -1 : truth;
      Py_DECREF(output);
    }
  }
  PyGILState_Release(gil);
  return result;
}

}  // namespace

const EnvLevelCache* LevelCacheOf(PyObject* level_cache, EnvLevelCache* out) {
  if (level_cache == Py_None) return nullptr;
  out->cache_context = level_cache;
  out->fetch = [](void* cache, const char* key, const char* path) {
    return CallLevelCache(cache, "fetch", key, path);
  };
  out->write = [](void* cache, const char* key, const char* path) {
    return CallLevelCache(cache, "write", key, path) < 0 ? -1 : 0;
  };
  return out;
}

}  // namespace engine_plugin::python
