#include "engine_plugin/python/env_support.h"

#include <cstring>
#include <string>
#include <vector>

#include "engine_plugin/python/observation_array.h"

namespace labenv {

void Connection::Release() {
  if (context != nullptr) api.release_context(context);
  context = nullptr;
}

bool Connect(const char* level, PyObject* config, Connection* connection) {
  if (config != Py_None && !PyDict_Check(config)) {
    PyErr_Format(PyExc_TypeError, "config must be a dict of str to str, got %s",
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
    PyObject* key;
    PyObject* value;
    Py_ssize_t position = 0;
    while (PyDict_Next(config, &position, &key, &value)) {
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
    PyErr_Format(PyExc_TypeError, "observations must be a list of str, got %s",
                 Py_TYPE(names)->tp_name);
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
  }
  return specs;
}

}  // namespace labenv
