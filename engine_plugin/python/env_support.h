// env_support.h: what labenv.Lab and labenv.VectorLab share: connecting an
// engine instance through the C ABI, finding observations by name, the
// observation spec list in deepmind_lab's format (actions: actions.h).
//
// Every function that can fail returns false (or null) with a Python
// exception set, whose message carries the engine's. All need the GIL.
//
// Example:
//   Connection connection;
//   if (!Connect("demo_maze", config, &connection)) return nullptr;
//   std::vector<int> indices;
//   if (!FindObservations(connection, names, &indices, nullptr)) return nullptr;
#ifndef ENGINE_PLUGIN_PYTHON_ENV_SUPPORT_H_
#define ENGINE_PLUGIN_PYTHON_ENV_SUPPORT_H_

#include <cstdint>
#include <vector>

#include "engine_plugin/env_c_api.h"
#include "engine_plugin/python/numpy_api.h"

namespace engine_plugin::python {

// One engine instance. Releases its context when destroyed.
struct Connection {
  EnvCApi api = {};
  void* context = nullptr;

  Connection() = default;
  ~Connection() { Release(); }
  void Release();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
};

// Connects `level`, applies `config` (a dict of str to str, or None) and
// `level_cache` (or none: null), and inits. RuntimeError with the engine's
// message for a bad level, setting or a failing init; TypeError for a
// config that is not all strings.
bool Connect(const char* level, PyObject* config, Connection* connection,
             const EnvLevelCache* level_cache = nullptr);

// The indices of `names` (a list or tuple of str). ValueError
// "Unknown observation 'X'." as deepmind_lab. When `keys` is not null it
// receives a new reference to each name, for dict keys.
bool FindObservations(const Connection& connection, PyObject* names, std::vector<int>* indices,
                      std::vector<PyObject*>* keys);

// `value` (any int, taken modulo 2**64: the engine's seeds are 64-bit)
// into *seed. ValueError naming `what` for anything but an int.
bool ReadSeed(PyObject* value, const char* what, std::uint64_t* seed);

// `value`, a sequence of exactly counts->size() ints in [0, 2**31), into
// *counts. ValueError naming `what` and the entry otherwise.
bool ReadCounts(PyObject* value, const char* what, std::vector<int>* counts);

// [{'name': str, 'shape': tuple, 'dtype': numpy.uint8 | numpy.float64 | str}]
// for every observation the level offers; strings have shape ().
PyObject* ObservationSpecList(const Connection& connection);

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_ENV_SUPPORT_H_
