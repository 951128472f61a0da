// DeepMind Lab's level_cache object for labenv.Lab: its fetch(key,
// pk3_path) and write(key, pk3_path), as the C ABI's EnvLevelCache
// (engine_plugin/level_cache.h), called as DeepMind Lab's module calls
// them: on the thread of the start that compiles, which runs without the
// GIL. A Python exception stays pending on that thread, and the start,
// failing, raises it.
#ifndef ENGINE_PLUGIN_PYTHON_LEVEL_CACHE_H_
#define ENGINE_PLUGIN_PYTHON_LEVEL_CACHE_H_

#include <Python.h>

#include "engine_plugin/env_c_api.h"

namespace engine_plugin::python {

// *out over `level_cache` (borrowed: the caller keeps it alive as long
// as the context), or null for None.
const EnvLevelCache* LevelCacheOf(PyObject* level_cache, EnvLevelCache* out);

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_LEVEL_CACHE_H_
