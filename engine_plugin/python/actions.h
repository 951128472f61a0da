// actions.h: a step's actions, from numpy arrays to the C ABI, for
// labenv.Lab and labenv.VectorLab.
//
// A level's host offers discrete actions (int32, the maze's seven), or
// continuous ones (float64, one per MuJoCo actuator), or both. step()
// takes the discrete ones as `action` and the continuous ones as
// `continuous`; a level with only continuous actions takes them as
// `action`, so a MuJoCo agent writes lab.step(u).
//
// Every function that can fail returns false (or null) with a Python
// exception set. All need the GIL.
//
// Example:
//   StepActions actions = SizedActions(connection, /*rows=*/0);
//   if (!ReadStepActions(action, continuous, &actions)) return nullptr;
//   if (!SendActions(connection, actions, 0)) return nullptr;
#ifndef ENGINE_PLUGIN_PYTHON_ACTIONS_H_
#define ENGINE_PLUGIN_PYTHON_ACTIONS_H_

#include <vector>

#include "engine_plugin/python/env_support.h"
#include "engine_plugin/python/numpy_api.h"

namespace engine_plugin::python {

// One step's actions: for one instance (rows 0: arrays of shape
// (count,)) or for each of `rows` instances (shape (rows, count)).
struct StepActions {
  npy_intp rows = 0;
  int discrete_count = 0;
  int continuous_count = 0;
  std::vector<int> discrete;       // rows x discrete_count, row-major
  std::vector<double> continuous;  // rows x continuous_count
};

StepActions SizedActions(const Connection& connection, npy_intp rows);

// [{'min': int, 'max': int, 'name': str}] for each discrete action.
PyObject* ActionSpecList(const Connection& connection);
// [{'min': float, 'max': float, 'name': str}] for each continuous action.
PyObject* ContinuousActionSpecList(const Connection& connection);

// Reads step()'s `action` and `continuous` (null when not given) into
// `actions`: np.intc arrays for discrete actions, np.float64 for
// continuous ones, of the shapes StepActions says. TypeError for a
// non-array or a missing argument, ValueError for a wrong shape or dtype
// or a value that is NaN or infinite.
bool ReadStepActions(PyObject* action, PyObject* continuous, StepActions* actions);

// Sends row `row`'s actions to `connection`'s instance; false (and, with
// the GIL held, a ValueError) if the engine refuses them.
bool SendActions(const Connection& connection, const StepActions& actions, npy_intp row);

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_ACTIONS_H_
