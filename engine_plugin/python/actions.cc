#include "engine_plugin/python/actions.h"

#include <cmath>
#include <cstring>
#include <string>

namespace engine_plugin::python {
namespace {

std::string ShapeText(const std::vector<npy_intp>& shape) {
  std::string text = "(";
  for (std::size_t d = 0; d < shape.size(); ++d) {
    text += (d > 0 ? ", " : "") + std::to_string(shape[d]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

// Copies `array`'s elements (numpy type `type`, `element` bytes each) in
// row-major order, whatever its strides, into `out`: a view such as
// actions[:, ::2] is not contiguous.
bool ReadArray(PyObject* value, const char* what, const std::vector<npy_intp>& shape, int type,
               const char* dtype_name, std::size_t element, void* out) {
  const std::string wanted = ShapeText(shape);
  if (!PyArray_Check(value)) {
    PyErr_Format(PyExc_TypeError, "%s must be a numpy array of dtype %s and shape %s, got %s",
                 what, dtype_name, wanted.c_str(), Py_TYPE(value)->tp_name);
    return false;
  }
  auto* array = reinterpret_cast<PyArrayObject*>(value);
  bool shape_ok = PyArray_NDIM(array) == static_cast<int>(shape.size());
  for (std::size_t d = 0; shape_ok && d < shape.size(); ++d) {
    shape_ok = PyArray_DIM(array, d) == shape[d];
  }
  if (!shape_ok) {
    PyObject* given = PyObject_GetAttrString(value, "shape");
    if (given == nullptr) return false;
    PyErr_Format(PyExc_ValueError, "%s must have shape %s, got %R", what, wanted.c_str(), given);
    Py_DECREF(given);
    return false;
  }
  if (PyArray_TYPE(array) != type || !PyArray_ISNOTSWAPPED(array)) {
    PyErr_Format(PyExc_ValueError, "%s must have dtype %s, got %R", what, dtype_name,
                 reinterpret_cast<PyObject*>(PyArray_DESCR(array)));
    return false;
  }
  const char* base = static_cast<const char*>(PyArray_DATA(array));
  auto* target = static_cast<char*>(out);
  const npy_intp rows = shape.size() == 1 ? 1 : shape[0];
  const npy_intp columns = shape.back();
  const npy_intp row_stride = shape.size() == 1 ? 0 : PyArray_STRIDE(array, 0);
  const npy_intp column_stride = PyArray_STRIDE(array, static_cast<int>(shape.size()) - 1);
  for (npy_intp row = 0; row < rows; ++row) {
    for (npy_intp i = 0; i < columns; ++i) {
      std::memcpy(target + (row * columns + i) * element,
                  base + row * row_stride + i * column_stride, element);
    }
  }
  return true;
}

std::vector<npy_intp> ShapeOf(npy_intp rows, int count) {
  if (rows == 0) return {count};
  return {rows, count};
}

}  // namespace

StepActions SizedActions(const Connection& connection, npy_intp rows) {
  StepActions actions;
  actions.rows = rows;
  actions.discrete_count = connection.api.act_discrete_count(connection.context);
  actions.continuous_count = connection.api.act_continuous_count(connection.context);
  const npy_intp n = rows == 0 ? 1 : rows;
  actions.discrete.resize(static_cast<std::size_t>(n * actions.discrete_count));
  actions.continuous.resize(static_cast<std::size_t>(n * actions.continuous_count));
  return actions;
}

PyObject* ActionSpecList(const Connection& connection) {
  const EnvCApi& api = connection.api;
  const int count = api.act_discrete_count(connection.context);
  PyObject* specs = PyList_New(count);
  if (specs == nullptr) return nullptr;
  for (int i = 0; i < count; ++i) {
    int low = 0;
    int high = 0;
    api.act_discrete_bounds(connection.context, i, &low, &high);
    PyObject* entry = Py_BuildValue("{s:i,s:i,s:s}", "min", low, "max", high, "name",
                                    api.act_discrete_name(connection.context, i));
    if (entry == nullptr) {
      Py_DECREF(specs);
      return nullptr;
    }
    PyList_SET_ITEM(specs, i, entry);
  }
  return specs;
}

PyObject* ContinuousActionSpecList(const Connection& connection) {
  const EnvCApi& api = connection.api;
  const int count = api.act_continuous_count(connection.context);
  PyObject* specs = PyList_New(count);
  if (specs == nullptr) return nullptr;
  for (int i = 0; i < count; ++i) {
    double low = 0;
    double high = 0;
    api.act_continuous_bounds(connection.context, i, &low, &high);
    PyObject* entry = Py_BuildValue("{s:d,s:d,s:s}", "min", low, "max", high, "name",
                                    api.act_continuous_name(connection.context, i));
    if (entry == nullptr) {
      Py_DECREF(specs);
      return nullptr;
    }
    PyList_SET_ITEM(specs, i, entry);
  }
  return specs;
}

bool ReadStepActions(PyObject* action, PyObject* continuous, StepActions* actions) {
  const char* noun = actions->rows == 0 ? "action" : "actions";
  // A level with only continuous actions takes them as `action`.
  if (actions->discrete_count == 0 && actions->continuous_count > 0 && continuous == nullptr) {
    continuous = action;
    action = nullptr;
  }
  if (action != nullptr &&
      !ReadArray(action, noun, ShapeOf(actions->rows, actions->discrete_count), NPY_INT,
                 "np.intc (int32)", sizeof(int), actions->discrete.data())) {
    return false;
  }
  if (actions->continuous_count == 0) {
    if (continuous != nullptr && continuous != Py_None) {
      PyErr_SetString(PyExc_TypeError, "continuous: this level has no continuous actions");
      return false;
    }
    return true;
  }
  if (continuous == nullptr || continuous == Py_None) {
    PyErr_Format(PyExc_TypeError,
                 "this level has %d continuous actions: pass them as continuous=, a np.float64 "
                 "array",
                 actions->continuous_count);
    return false;
  }
  const char* what = action == nullptr ? noun : "continuous";
  if (!ReadArray(continuous, what, ShapeOf(actions->rows, actions->continuous_count), NPY_DOUBLE,
                 "np.float64", sizeof(double), actions->continuous.data())) {
    return false;
  }
  for (std::size_t i = 0; i < actions->continuous.size(); ++i) {
    if (!std::isfinite(actions->continuous[i])) {
      const std::string value = std::isnan(actions->continuous[i])   ? "nan"
                                : actions->continuous[i] > 0 ? "inf"
                                                             : "-inf";
      PyErr_Format(PyExc_ValueError, "%s: element %zu is %s, not a finite number", what, i,
                   value.c_str());
      return false;
    }
  }
  return true;
}

bool SendActions(const Connection& connection, const StepActions& actions, npy_intp row) {
  const EnvCApi& api = connection.api;
  if (actions.discrete_count > 0) {
    api.act_discrete(connection.context, &actions.discrete[row * actions.discrete_count]);
  }
  if (actions.continuous_count > 0 &&
      api.act_continuous(connection.context, &actions.continuous[row * actions.continuous_count]) !=
          0) {
    if (PyGILState_Check()) {
      PyErr_Format(PyExc_ValueError, "%s", api.error_message(connection.context));
    }
    return false;
  }
  return true;
}

}  // namespace engine_plugin::python
