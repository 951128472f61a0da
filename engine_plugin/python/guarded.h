// Guarded<&F>: a CPython entry point (a method, getter or tp_init) that
// turns a C++ exception into a Python one. An exception leaving a CPython
// callback would unwind through the interpreter's C frames and end the
// process; a huge VectorLab, say, must be a MemoryError instead.
//
// Example:
//   PyMethodDef kMethods[] = {{"reset", Guarded<&LabReset>, METH_NOARGS, ""}, ...};
#ifndef ENGINE_PLUGIN_PYTHON_GUARDED_H_
#define ENGINE_PLUGIN_PYTHON_GUARDED_H_

#include <Python.h>

#include <exception>
#include <new>
#include <type_traits>

namespace engine_plugin::python {

template <auto Function>
struct Guard;

template <typename Result, typename... Args, Result (*Function)(Args...)>
struct Guard<Function> {
  static Result Call(Args... args) {
    try {
      return Function(args...);
    } catch (const std::bad_alloc&) {
      PyErr_NoMemory();
    } catch (const std::exception& e) {
      PyErr_Format(PyExc_RuntimeError, "internal error: %s", e.what());
    }
    // What each kind of entry point returns on error.
    if constexpr (std::is_pointer_v<Result>) {
      return nullptr;
    } else {
      return -1;
    }
  }
};

template <auto Function>
inline constexpr auto Guarded = &Guard<Function>::Call;

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_GUARDED_H_
