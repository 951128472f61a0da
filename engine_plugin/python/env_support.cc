#include "engine_plugin/python/env_support.h"

#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "engine_plugin/python/observation_array.h"

namespace engine_plugin::python {

void Connection::Release() {
  if (context != nullptr) api.release_context(context);
  context = nullptr;
}

bool ReadSeed(PyObject* value, const char* what, std::uint64_t* seed) {
  if (!PyIndex_Check(value)) {
    PyErr_Format(PyExc_ValueError, "'%s' must be int or None, was '%s'.", what,
                 Py_TYPE(value)->tp_name);
    return false;
  }
  PyObject* index = PyNumber_Index(value);
  if (index == nullptr) return false;
  *seed = PyLong_AsUnsignedLongLongMask(index);
  Py_DECREF(index);
  return !PyErr_Occurred();
}

bool ReadCounts(PyObject* value, const char* what, std::vector<int>* counts) {
  PyObject* sequence = PySequence_Fast(value, "a sequence of ints expected");
  if (sequence == nullptr) return false;
  const Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence);
  bool ok = size == static_cast<Py_ssize_t>(counts->size());
  if (!ok) {
    PyErr_Format(PyExc_ValueError, "'%s' has %zd entries, %zu expected (one per env)", what,
                 size, counts->size());
  }
  for (Py_ssize_t i = 0; ok && i < size; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(sequence, i);
    // Any integer, numpy's too.
    PyObject* index = PyIndex_Check(item) ? PyNumber_Index(item) : nullptr;
    const long count = index != nullptr ? PyLong_AsLong(index) : -1;
    Py_XDECREF(index);
    ok = count >= 0 && count <= INT_MAX;
    if (!ok) {
      PyErr_Clear();  // an overflow reads as out of range
      PyErr_Format(PyExc_ValueError, "%s[%zd] must be an int in [0, 2**31), got %R", what, i,
                   item);
    } else {
      (*counts)[i] = static_cast<int>(count);
    }
  }
  Py_DECREF(sequence);
  return ok;
}

bool Connect(const char* level, PyObject* config, Connection* connection,
             const EnvLevelCache* level_cache) {
  if (config != Py_None && !PyDict_Check(config)) {
    // DeepMind Lab's words first (its tests match them), then ours.
    PyErr_Format(PyExc_TypeError, "config must be dict, not %s: a dict of str to str",
                 Py_TYPE(config)->tp_name);
    return false;
  }
  char error[1024];
  if (env_connect(level, &connection->api, &connection->context, error, sizeof(error)) != 0) {
    PyErr_Format(PyExc_RuntimeError, "Failed to connect RL API - \"%s\"", error);
    return false;
  }
  const EnvCApi& api = connection->api;
  void* context = connection->context;
  if (config != Py_None) {
    // The host setting first, wherever it stands in the dict: the settings
    // after it go to that host (engine.h).
    PyObject* host = PyDict_GetItemString(config, "host");
    if (host != nullptr && PyUnicode_Check(host)) {
      const char* host_text = PyUnicode_AsUTF8(host);
      if (host_text == nullptr) return false;
      if (api.setting(context, "host", host_text) != 0) {
        PyErr_Format(PyExc_RuntimeError, "Failed to apply setting 'host = %s' - \"%s\"", host_text,
                     api.error_message(context));
        return false;
      }
    }
    PyObject* key;
    PyObject* value;
    Py_ssize_t position = 0;
    while (PyDict_Next(config, &position, &key, &value)) {
      if (host != nullptr && key != nullptr && PyUnicode_Check(key) &&
          PyUnicode_CompareWithASCIIString(key, "host") == 0 && PyUnicode_Check(value)) {
        continue;
      }
      if (!PyUnicode_Check(key) || !PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError,
                     "config keys and values must be str, as in DeepMind Lab; got %R: %R", key,
                     value);
        return false;
      }
      const char* key_text = PyUnicode_AsUTF8(key);
      const char* value_text = PyUnicode_AsUTF8(value);
      if (key_text == nullptr || value_text == nullptr) return false;
      if (api.setting(context, key_text, value_text) != 0) {
        PyErr_Format(PyExc_RuntimeError, "Failed to apply setting '%s = %s' - \"%s\"", key_text,
                     value_text, api.error_message(context));
        return false;
      }
    }
  }
  if (level_cache != nullptr && env_set_level_cache(context, level_cache) != 0) {
    PyErr_Format(PyExc_RuntimeError, "Failed to set the level cache - \"%s\"",
                 api.error_message(context));
    return false;
  }
  if (api.init(context) != 0) {
    PyErr_Format(PyExc_RuntimeError, "Failed to init environment - \"%s\"",
                 api.error_message(context));
    return false;
  }
  return true;
}

bool FindObservations(const Connection& connection, PyObject* names, std::vector<int>* indices,
                      std::vector<PyObject*>* keys) {
  if (!PyList_Check(names) && !PyTuple_Check(names)) {
    // DeepMind Lab's words first (its tests match them), then ours.
    PyErr_Format(PyExc_TypeError, "observations must be list, not %s: a list of str",
                 names == Py_None ? "None" : Py_TYPE(names)->tp_name);
    return false;
  }
  const EnvCApi& api = connection.api;
  const int count = api.observation_count(connection.context);
  const Py_ssize_t wanted = PySequence_Fast_GET_SIZE(names);
  for (Py_ssize_t i = 0; i < wanted; ++i) {
    PyObject* name = PySequence_Fast_GET_ITEM(names, i);
    if (!PyUnicode_Check(name)) {
      PyErr_Format(PyExc_TypeError, "observation names must be str, got %R", name);
      return false;
    }
    const char* text = PyUnicode_AsUTF8(name);
    if (text == nullptr) return false;
    int found = -1;
    for (int j = 0; j < count && found < 0; ++j) {
      if (std::strcmp(api.observation_name(connection.context, j), text) == 0) found = j;
    }
    if (found < 0) {
      PyErr_Format(PyExc_ValueError, "Unknown observation '%s'.", text);
      return false;
    }
    indices->push_back(found);
    if (keys != nullptr) {
      Py_INCREF(name);
      keys->push_back(name);
    }
  }
  return true;
}

namespace {

// The dtype entry of a spec: the numpy scalar type, or str.
PyObject* SpecDtype(EnvCApi_ObservationType type) {
  if (type == EnvCApi_ObservationString) {
    Py_INCREF(&PyUnicode_Type);
    return reinterpret_cast<PyObject*>(&PyUnicode_Type);
  }
  PyArray_Descr* descr = PyArray_DescrFromType(NumpyTypeOf(type));
  if (descr == nullptr) return nullptr;
  auto* scalar_type = reinterpret_cast<PyObject*>(descr->typeobj);
  Py_INCREF(scalar_type);
  Py_DECREF(descr);
  return scalar_type;
}

}  // namespace

PyObject* ObservationSpecList(const Connection& connection) {
  const EnvCApi& api = connection.api;
  const int count = api.observation_count(connection.context);
  PyObject* specs = PyList_New(count);
  if (specs == nullptr) return nullptr;
  for (int i = 0; i < count; ++i) {
    EnvCApi_ObservationSpec spec;
    if (api.observation_spec(connection.context, i, &spec) != 0) {
      Py_DECREF(specs);
      PyErr_Format(PyExc_RuntimeError, "observation_spec: %s",
                   api.error_message(connection.context));
      return nullptr;
    }
    // A string's length varies; deepmind_lab gives it the shape ().
    const int dims = spec.type == EnvCApi_ObservationString ? 0 : spec.dims;
    PyObject* shape = PyTuple_New(dims);
    if (shape == nullptr) {
      Py_DECREF(specs);
      return nullptr;
    }
    for (int d = 0; d < dims; ++d) PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(spec.shape[d]));
    PyObject* dtype = SpecDtype(spec.type);
    PyObject* entry =
        dtype == nullptr ? nullptr
                         : Py_BuildValue("{s:s,s:N,s:N}", "name",
                                         api.observation_name(connection.context, i), "shape",
                                         shape, "dtype", dtype);
    if (entry == nullptr) {
      if (dtype == nullptr) Py_DECREF(shape);
      Py_DECREF(specs);
      return nullptr;
    }
    PyList_SET_ITEM(specs, i, entry);
    // The level's declared range, as 'min' and 'max'.
    double min_value = 0, max_value = 0;
    const int bounded = api.observation_bounds(connection.context, i, &min_value, &max_value);
    if (bounded < 0) {
      Py_DECREF(specs);
      PyErr_Format(PyExc_RuntimeError, "observation_bounds: %s",
                   api.error_message(connection.context));
      return nullptr;
    }
    if (bounded == 1) {
      PyObject* low = PyFloat_FromDouble(min_value);
      PyObject* high = PyFloat_FromDouble(max_value);
      const bool set = low != nullptr && high != nullptr &&
                       PyDict_SetItemString(entry, "min", low) == 0 &&
                       PyDict_SetItemString(entry, "max", high) == 0;
      Py_XDECREF(low);
      Py_XDECREF(high);
      if (!set) {
        Py_DECREF(specs);
        return nullptr;
      }
    }
  }
  return specs;
}

}  // namespace engine_plugin::python
