// Compiles only: proves Python.h and the numpy C API headers resolve.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

static_assert(NPY_MAXDIMS >= 32, "numpy headers are wired");
