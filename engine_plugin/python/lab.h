// lab.h: labenv.Lab, one engine instance with DeepMind Lab's Python API
// (deepmind_lab.Lab), over the C ABI (engine_plugin/env_c_api.h).
//
// It keeps deepmind_lab.Lab's methods, argument names, result formats and
// exception types, so that code written against it runs after changing the
// import. Differences, each a superset:
//   - observations() returns zero-copy, read-only ObservationArrays (see
//     observation_array.h) instead of fresh copies, and also works right
//     after an episode ended, for its final frame;
//   - after close() every method but close() and is_running() raises
//     RuntimeError instead of touching a released context;
//   - step() reads strided action arrays correctly and releases the GIL
//     while the engine runs; a Lab used by two threads at once raises;
//   - status() tells a terminated episode from an interrupted one, which
//     the adapters (labenv.dm_env, labenv.gym) need.
//
// Example (Python):
//   lab = labenv.Lab('demo_maze', ['RGB_INTERLEAVED'], {'width': '84'})
//   lab.reset(seed=1)
//   reward = lab.step(np.array([0, 0, 0, 1, 0, 0, 0], dtype=np.intc), num_steps=4)
//   frame = lab.observations()['RGB_INTERLEAVED']   # (84, 84, 3) uint8, read-only
#ifndef ENGINE_PLUGIN_PYTHON_LAB_H_
#define ENGINE_PLUGIN_PYTHON_LAB_H_

#include "engine_plugin/python/numpy_api.h"

namespace engine_plugin::python {

// Readies labenv.Lab and adds it to `module`. Returns 0, or -1 with a
// Python error set.
int AddLabType(PyObject* module);

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_LAB_H_
