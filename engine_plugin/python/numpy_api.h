// numpy_api.h: Python.h and numpy's C API, included the same way by every
// file of the labenv extension.
//
// numpy's API is a table of function pointers that import_array() fills
// once per extension. PY_ARRAY_UNIQUE_SYMBOL shares that one table across
// the extension's files; only module.cc, which defines
// LABENV_IMPORT_ARRAY, owns it, and only it calls import_array().
#ifndef ENGINE_PLUGIN_PYTHON_NUMPY_API_H_
#define ENGINE_PLUGIN_PYTHON_NUMPY_API_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL labenv_ARRAY_API
#ifndef LABENV_IMPORT_ARRAY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#endif  // ENGINE_PLUGIN_PYTHON_NUMPY_API_H_
