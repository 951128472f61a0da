#include "engine_plugin/python/guarded.h"
#include "engine_plugin/python/lab.h"

#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "engine_plugin/env_c_api.h"
#include "engine_plugin/python/actions.h"
#include "engine_plugin/python/device_observation.h"
#include "engine_plugin/python/env_support.h"
#include "engine_plugin/python/level_cache.h"
#include "engine_plugin/python/module_type.h"
#include "engine_plugin/python/observation_array.h"

namespace engine_plugin::python {
namespace {

// deepmind_lab's statuses beside the ABI's EnvCApi_EnvironmentStatus.
constexpr int kClosed = -3;
constexpr int kInitialised = -2;  // after init, before the first reset
constexpr int kStarted = -1;      // after reset, before the first step

struct LabState {
  // DeepMind Lab's level_cache object, owned: it outlives the connection.
  PyObject* level_cache = nullptr;
  Connection connection;
  std::vector<int> indices;     // of the requested observations
  std::vector<PyObject*> keys;  // their names, owned: observations()' keys
  StepActions actions;
  int status = kInitialised;
  int episode = 0;
  long long num_steps = 0;
  // Seeds for reset(seed=None), in [0, 2**31) as deepmind_lab draws them
  // from rand(): levels written for it hand the seed to random:seed, which
  // takes an integer that a Lua number holds exactly.
  std::mt19937 seeds{std::random_device{}()};
  // Set while step or reset runs without the GIL: another thread must not
  // use the context then (env_c_api.h: one thread at a time).
  bool busy = false;

  ~LabState() {
    for (PyObject* key : keys) Py_DECREF(key);
    connection.Release();
    Py_XDECREF(level_cache);
  }
};


struct LabObject {
  PyObject_HEAD
  LabState* state;  // null until __init__ succeeds
};

LabState* StateOf(PyObject* self) { return reinterpret_cast<LabObject*>(self)->state; }

// The state of a Lab that may use its context now, or null with
// RuntimeError: never initialised, closed, or busy on another thread.
LabState* Usable(PyObject* self) {
  LabState* state = StateOf(self);
  if (state == nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "labenv.Lab was not initialised (its __init__ failed)");
    return nullptr;
  }
  if (state->status == kClosed) {
    // DeepMind Lab's words too ("wrong status to advance"), which its
    // users' code and tests match.
    PyErr_SetString(PyExc_RuntimeError,
                    "labenv.Lab is closed: close() was called (wrong status to advance, reset or "
                    "observe)");
    return nullptr;
  }
  if (state->busy) {
    PyErr_SetString(PyExc_RuntimeError,
                    "labenv.Lab is in use by another thread (one thread at a time per Lab)");
    return nullptr;
  }
  return state;
}

void LabDealloc(PyObject* self) {
  delete StateOf(self);
  Py_TYPE(self)->tp_free(self);
}

PyObject* LabNew(PyTypeObject* type, PyObject*, PyObject*) {
  PyObject* self = type->tp_alloc(type, 0);
  if (self != nullptr) reinterpret_cast<LabObject*>(self)->state = nullptr;
  return self;
}

// Lab(level, observations, config=None, renderer='software', level_cache=None)
int LabInit(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"level", "observations", "config", "renderer", "level_cache",
                                   nullptr};
  const char* level = nullptr;
  PyObject* observations = nullptr;
  PyObject* config = Py_None;
  const char* renderer = nullptr;
  PyObject* level_cache = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sO|OzO:Lab", const_cast<char**>(keywords),
                                   &level, &observations, &config, &renderer, &level_cache)) {
    return -1;
  }
  // The renderer is the host's (the dmlab host's renderer setting chooses
  // its engine's): the argument is accepted for code written for DeepMind
  // Lab, and checked as it checks it.
  if (renderer != nullptr && renderer[0] != '\0' && std::strcmp(renderer, "software") != 0 &&
      std::strcmp(renderer, "hardware") != 0) {
    PyErr_Format(PyExc_RuntimeError,
                 "Failed to set renderer must be \"hardware\" or \"software\" actual \"%s\"!",
                 renderer);
    return -1;
  }
  auto state = std::make_unique<LabState>();
  EnvLevelCache cache;  // DeepMind Lab's level cache (level_cache.h)
  if (level_cache != Py_None) {
    Py_INCREF(level_cache);
    state->level_cache = level_cache;
  }
  if (!Connect(level, config, &state->connection, LevelCacheOf(level_cache, &cache))) return -1;
  if (!FindObservations(state->connection, observations, &state->indices, &state->keys)) {
    return -1;
  }
  state->actions = SizedActions(state->connection, /*rows=*/0);
  LabState* old = reinterpret_cast<LabObject*>(self)->state;
  if (old != nullptr && old->busy) {
    PyErr_SetString(PyExc_RuntimeError, "labenv.Lab is in use by another thread");
    return -1;
  }
  delete old;
  reinterpret_cast<LabObject*>(self)->state = state.release();
  return 0;
}

// reset(episode=-1, seed=None) -> True
PyObject* LabReset(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"episode", "seed", nullptr};
  int episode = -1;
  PyObject* seed_arg = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|iO:reset", const_cast<char**>(keywords),
                                   &episode, &seed_arg)) {
    return nullptr;
  }
  LabState* state = Usable(self);
  if (state == nullptr) return nullptr;
  std::uint64_t seed = 0;
  if (seed_arg == Py_None) {
    seed = state->seeds() >> 1;
  } else if (!ReadSeed(seed_arg, "seed", &seed)) {
    return nullptr;
  }
  if (episode >= 0) state->episode = episode;
  const Connection& connection = state->connection;
  int result = 0;
  state->busy = true;
  Py_BEGIN_ALLOW_THREADS
  result = connection.api.start(connection.context, state->episode, seed);
  Py_END_ALLOW_THREADS
  state->busy = false;
  if (result != 0) {
    state->status = EnvCApi_EnvironmentStatus_Error;
    // The level cache's exception, pending since its call, is the error.
    if (PyErr_Occurred()) return nullptr;
    PyErr_Format(PyExc_RuntimeError, "Failed to start environment - \"%s\"",
                 connection.api.error_message(connection.context));
    return nullptr;
  }
  state->num_steps = 0;
  ++state->episode;
  state->status = kStarted;
  Py_RETURN_TRUE;
}

bool Running(const LabState& state) {
  return state.status == kStarted || state.status == EnvCApi_EnvironmentStatus_Running;
}

// Whether the engine holds a frame: running, or the episode just ended.
bool HasFrame(const LabState& state) {
  return Running(state) || state.status == EnvCApi_EnvironmentStatus_Terminated ||
         state.status == EnvCApi_EnvironmentStatus_Interrupted;
}

// step(action, num_steps=1, continuous=None) -> reward. Vectorcall: this
// is the hot path.
PyObject* LabStep(PyObject* self, PyObject* const* args, Py_ssize_t count, PyObject* names) {
  PyObject* action = count > 0 ? args[0] : nullptr;
  PyObject* steps_arg = count > 1 ? args[1] : nullptr;
  PyObject* continuous = count > 2 ? args[2] : nullptr;
  if (count > 3) {
    PyErr_Format(PyExc_TypeError, "step() takes at most 3 arguments (%zd given)", count);
    return nullptr;
  }
  const Py_ssize_t keyword_count = names == nullptr ? 0 : PyTuple_GET_SIZE(names);
  for (Py_ssize_t k = 0; k < keyword_count; ++k) {
    PyObject* name = PyTuple_GET_ITEM(names, k);
    PyObject** slot = PyUnicode_CompareWithASCIIString(name, "action") == 0       ? &action
                      : PyUnicode_CompareWithASCIIString(name, "num_steps") == 0  ? &steps_arg
                      : PyUnicode_CompareWithASCIIString(name, "continuous") == 0 ? &continuous
                                                                                  : nullptr;
    if (slot == nullptr || *slot != nullptr) {
      PyErr_Format(PyExc_TypeError, "step() got %s keyword argument '%U'",
                   slot == nullptr ? "an unexpected" : "a repeated", name);
      return nullptr;
    }
    *slot = args[count + k];
  }
  if (action == nullptr) {
    PyErr_SetString(PyExc_TypeError, "step() missing required argument 'action' (pos 1)");
    return nullptr;
  }
  int num_steps = 1;
  if (steps_arg != nullptr) {
    const long value = PyLong_AsLong(steps_arg);
    if (value == -1 && PyErr_Occurred()) return nullptr;
    if (value < INT_MIN || value > INT_MAX) {
      PyErr_SetString(PyExc_OverflowError, "num_steps does not fit a C int");
      return nullptr;
    }
    num_steps = static_cast<int>(value);
  }
  // Refused before anything happens: the episode goes on.
  if (num_steps < 1) {
    PyErr_Format(PyExc_ValueError, "num_steps must be >= 1, got %d", num_steps);
    return nullptr;
  }
  LabState* state = Usable(self);
  if (state == nullptr) return nullptr;
  if (!Running(*state)) {
    PyErr_SetString(PyExc_RuntimeError, "Environment in wrong status to advance.");
    return nullptr;
  }
  if (!ReadStepActions(action, continuous, &state->actions)) return nullptr;
  const Connection& connection = state->connection;
  if (!SendActions(connection, state->actions, 0)) return nullptr;
  double reward = 0;
  int status = 0;
  state->busy = true;
  Py_BEGIN_ALLOW_THREADS
  status = connection.api.advance(connection.context, num_steps, &reward);
  Py_END_ALLOW_THREADS
  state->busy = false;
  state->status = status;
  state->num_steps += num_steps;
  if (status == EnvCApi_EnvironmentStatus_Error) {
    // deepmind_lab raises ValueError here, so code that catches it still does.
    PyErr_Format(PyExc_ValueError, "Failed to advance environment \"%s\"",
                 connection.api.error_message(connection.context));
    return nullptr;
  }
  return PyFloat_FromDouble(reward);
}

// The requested observations of the current frame, as a dict, zero-copy:
// ObservationArrays and strs; with `on_device` (device_observations()),
// DeviceObservations for those on a GPU instead of host copies of them.
PyObject* ObservationDict(PyObject* self, const char* call, bool on_device) {
  LabState* state = Usable(self);
  if (state == nullptr) return nullptr;
  if (!HasFrame(*state)) {
    PyErr_Format(PyExc_RuntimeError, "Environment in wrong status for call to %s()", call);
    return nullptr;
  }
  const Connection& connection = state->connection;
  PyObject* result = PyDict_New();
  if (result == nullptr) return nullptr;
  for (std::size_t i = 0; i < state->indices.size(); ++i) {
    EnvCApi_Observation observation;
    EnvCApi_Device device = {EnvCApi_DeviceCpu, 0};
    EnvCApi_RetainedObservation* handle = nullptr;
    const int failed = on_device ? connection.api.retain_observation_on_device(
                                       connection.context, state->indices[i], &observation,
                                       &device, &handle)
                                 : connection.api.retain_observation(
                                       connection.context, state->indices[i], &observation,
                                       &handle);
    if (failed != 0) {
      Py_DECREF(result);
      PyErr_Format(PyExc_RuntimeError, "Failed to read observations - \"%s\"",
                   connection.api.error_message(connection.context));
      return nullptr;
    }
    PyObject* value = device.type == EnvCApi_DeviceCpu
                          ? WrapRetainedObservation(observation, handle)
                          : WrapDeviceObservation(observation, device, handle);
    if (value == nullptr || PyDict_SetItem(result, state->keys[i], value) < 0) {
      Py_XDECREF(value);
      Py_DECREF(result);
      return nullptr;
    }
    Py_DECREF(value);
  }
  return result;
}

// observations() -> {name: ObservationArray | str}, zero-copy.
PyObject* LabObservations(PyObject* self, PyObject*) {
  return ObservationDict(self, "observations", /*on_device=*/false);
}

// device_observations() -> {name: DeviceObservation | ObservationArray | str}:
// observations() without the copy to the host of those on a GPU.
PyObject* LabDeviceObservations(PyObject* self, PyObject*) {
  return ObservationDict(self, "device_observations", /*on_device=*/true);
}

PyObject* LabObservationSpec(PyObject* self, PyObject*) {
  LabState* state = Usable(self);
  return state == nullptr ? nullptr : ObservationSpecList(state->connection);
}

PyObject* LabActionSpec(PyObject* self, PyObject*) {
  LabState* state = Usable(self);
  return state == nullptr ? nullptr : ActionSpecList(state->connection);
}

PyObject* LabContinuousActionSpec(PyObject* self, PyObject*) {
  LabState* state = Usable(self);
  return state == nullptr ? nullptr : ContinuousActionSpecList(state->connection);
}

PyObject* LabFps(PyObject* self, PyObject*) {
  LabState* state = Usable(self);
  if (state == nullptr) return nullptr;
  return PyLong_FromLong(state->connection.api.fps(state->connection.context));
}

PyObject* LabNumSteps(PyObject* self, PyObject*) {
  LabState* state = Usable(self);
  return state == nullptr ? nullptr : PyLong_FromLongLong(state->num_steps);
}

PyObject* LabIsRunning(PyObject* self, PyObject*) {
  LabState* state = StateOf(self);
  return PyBool_FromLong(state != nullptr && Running(*state));
}

// status() -> where the episode stands, for adapters that must tell an
// episode the level ended from one cut short (labenv's addition).
PyObject* LabStatus(PyObject* self, PyObject*) {
  const LabState* state = StateOf(self);
  const char* status = "closed";
  if (state == nullptr) {
    status = "uninitialised";
  } else {
    switch (state->status) {
      case kClosed:
        break;
      case kInitialised:
        status = "initialised";
        break;
      case kStarted:
      case EnvCApi_EnvironmentStatus_Running:
        status = "running";
        break;
      case EnvCApi_EnvironmentStatus_Terminated:
        status = "terminated";
        break;
      case EnvCApi_EnvironmentStatus_Interrupted:
        status = "interrupted";
        break;
      default:
        status = "error";
        break;
    }
  }
  return PyUnicode_FromString(status);
}

// events() -> [(name, [values])] raised by the last reset or step; copies,
// as the engine lends them only until the next step.
PyObject* LabEvents(PyObject* self, PyObject*) {
  LabState* state = Usable(self);
  if (state == nullptr) return nullptr;
  if (!HasFrame(*state)) {
    PyErr_SetString(PyExc_RuntimeError, "Environment in wrong status for call to events()");
    return nullptr;
  }
  const EnvCApi& api = state->connection.api;
  void* context = state->connection.context;
  const int count = api.event_count(context);
  PyObject* result = PyList_New(count);
  if (result == nullptr) return nullptr;
  for (int e = 0; e < count; ++e) {
    EnvCApi_Event event;
    if (api.event(context, e, &event) != 0) {
      Py_DECREF(result);
      PyErr_Format(PyExc_RuntimeError, "Failed to read events - \"%s\"",
                   api.error_message(context));
      return nullptr;
    }
    PyObject* values = PyList_New(event.observation_count);
    if (values == nullptr) {
      Py_DECREF(result);
      return nullptr;
    }
    for (int v = 0; v < event.observation_count; ++v) {
      PyObject* value = CopyObservation(event.observations[v]);
      if (value == nullptr) {
        Py_DECREF(values);
        Py_DECREF(result);
        return nullptr;
      }
      PyList_SET_ITEM(values, v, value);
    }
    PyObject* entry = Py_BuildValue("(sN)", api.event_type_name(context, event.id), values);
    if (entry == nullptr) {
      Py_DECREF(result);
      return nullptr;
    }
    PyList_SET_ITEM(result, e, entry);
  }
  return result;
}

// close() -> True if this call closed it. Arrays already handed out stay
// valid: they hold their own buffers (env_c_api.h).
PyObject* LabClose(PyObject* self, PyObject*) {
  LabState* state = StateOf(self);
  if (state == nullptr || state->status == kClosed) Py_RETURN_FALSE;
  if (state->busy) {
    PyErr_SetString(PyExc_RuntimeError, "labenv.Lab is in use by another thread");
    return nullptr;
  }
  state->connection.Release();
  state->status = kClosed;
  Py_RETURN_TRUE;
}

// Raises deepmind_lab's exception, with its words, for a failed property
// call; `value` is the value a write tried (null for a read or a list).
PyObject* PropertyError(const LabState& state, EnvCApi_PropertyResult result, const char* key,
                        const char* verb, const char* value = nullptr) {
  switch (result) {
    case EnvCApi_PropertyResult_PermissionDenied:
      PyErr_Format(PyExc_TypeError, "'%s' not %s.", key, verb);
      break;
    case EnvCApi_PropertyResult_InvalidArgument:
      if (value != nullptr) {
        PyErr_Format(PyExc_TypeError, "Type error! Cannot assign '%s' to '%s'. (\"%s\")", value,
                     key, state.connection.api.error_message(state.connection.context));
      } else {
        PyErr_Format(PyExc_TypeError, "Invalid argument for '%s' - \"%s\"", key,
                     state.connection.api.error_message(state.connection.context));
      }
      break;
    case EnvCApi_PropertyResult_Error:
      // The level's callback raised a Lua error.
      PyErr_Format(PyExc_RuntimeError, "Property '%s' failed - \"%s\"", key,
                   state.connection.api.error_message(state.connection.context));
      break;
    default:
      PyErr_Format(PyExc_KeyError, "'%s' not found.", key);
      break;
  }
  return nullptr;
}

PyObject* LabWriteProperty(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"key", "value", nullptr};
  const char* key = nullptr;
  const char* value = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ss:write_property",
                                   const_cast<char**>(keywords), &key, &value)) {
    return nullptr;
  }
  LabState* state = Usable(self);
  if (state == nullptr) return nullptr;
  const EnvCApi_PropertyResult result =
      state->connection.api.write_property(state->connection.context, key, value);
  if (result != EnvCApi_PropertyResult_Success) {
    return PropertyError(*state, result, key, "writable", value);
  }
  Py_RETURN_NONE;
}

PyObject* LabReadProperty(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"key", nullptr};
  const char* key = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s:read_property", const_cast<char**>(keywords),
                                   &key)) {
    return nullptr;
  }
  LabState* state = Usable(self);
  if (state == nullptr) return nullptr;
  const char* value = nullptr;
  const EnvCApi_PropertyResult result =
      state->connection.api.read_property(state->connection.context, key, &value);
  if (result != EnvCApi_PropertyResult_Success) return PropertyError(*state, result, key, "readable");
  return PyUnicode_FromString(value);
}

struct PropertyListing {
  PyObject* dict;
  bool failed;
};

void AddListedProperty(void* userdata, const char* key, EnvCApi_PropertyAttributes attributes) {
  auto* listing = static_cast<PropertyListing*>(userdata);
  if (listing->failed) return;
  PyObject* value = PyLong_FromLong(attributes);
  listing->failed = value == nullptr || PyDict_SetItemString(listing->dict, key, value) < 0;
  Py_XDECREF(value);
}

// properties(key='') -> {child key: READABLE | WRITABLE | LISTABLE bits}
PyObject* LabProperties(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"key", nullptr};
  const char* key = "";
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|s:properties", const_cast<char**>(keywords),
                                   &key)) {
    return nullptr;
  }
  LabState* state = Usable(self);
  if (state == nullptr) return nullptr;
  PropertyListing listing{PyDict_New(), false};
  if (listing.dict == nullptr) return nullptr;
  const EnvCApi_PropertyResult result = state->connection.api.list_property(
      state->connection.context, &listing, key, AddListedProperty);
  if (listing.failed) {
    Py_DECREF(listing.dict);
    return nullptr;
  }
  if (result != EnvCApi_PropertyResult_Success) {
    Py_DECREF(listing.dict);
    return PropertyError(*state, result, key, "listable");
  }
  return listing.dict;
}

PyMethodDef kLabMethods[] = {
    {"reset", reinterpret_cast<PyCFunction>(Guarded<&LabReset>), METH_VARARGS | METH_KEYWORDS,
     "reset(episode=-1, seed=None)\n--\n\nStarts an episode: `episode` (default: the last "
     "plus one) with `seed` (default: a random one). Returns True."},
    {"step", reinterpret_cast<PyCFunction>(Guarded<&LabStep>), METH_FASTCALL | METH_KEYWORDS,
     "step(action, num_steps=1, continuous=None)\n--\n\nApplies `action` (the discrete "
     "actions, np.intc of shape (7,) in the maze) and `continuous` (np.float64, when the level "
     "has continuous actions; a level with only those takes them as `action`) for `num_steps` "
     "steps and returns their total reward."},
    {"observations", Guarded<&LabObservations>, METH_NOARGS,
     "observations()\n--\n\nThe requested observations of the current frame: read-only "
     "ObservationArrays that alias the engine's buffers (strings are str)."},
    {"device_observations", Guarded<&LabDeviceObservations>, METH_NOARGS,
     "device_observations()\n--\n\nLike observations(), but an observation the engine keeps "
     "on a GPU (observationDevice=cuda:N) comes as a DeviceObservation over that buffer, "
     "without a copy, for torch.from_dlpack."},
    {"observation_spec", Guarded<&LabObservationSpec>, METH_NOARGS,
     "observation_spec()\n--\n\nEvery observation the level offers: [{'name', 'shape', "
     "'dtype'}]."},
    {"action_spec", Guarded<&LabActionSpec>, METH_NOARGS,
     "action_spec()\n--\n\nThe discrete actions: [{'min', 'max', 'name'}]."},
    {"continuous_action_spec", Guarded<&LabContinuousActionSpec>, METH_NOARGS,
     "continuous_action_spec()\n--\n\nThe continuous actions: [{'min', 'max', 'name'}]."},
    {"fps", Guarded<&LabFps>, METH_NOARGS, "fps()\n--\n\nFrames per second of the simulation."},
    {"num_steps", Guarded<&LabNumSteps>, METH_NOARGS,
     "num_steps()\n--\n\nFrames stepped since the last reset()."},
    {"is_running", Guarded<&LabIsRunning>, METH_NOARGS,
     "is_running()\n--\n\nWhether the episode is running (reset and not yet ended)."},
    {"status", Guarded<&LabStatus>, METH_NOARGS,
     "status()\n--\n\nThe episode's state (labenv's addition): 'initialised' (before the "
     "first reset), 'running', 'terminated' (the level ended it), 'interrupted' "
     "(episodeLengthSeconds cut it short), 'error' (reset again), 'closed' or 'uninitialised' "
     "(__init__ failed)."},
    {"events", Guarded<&LabEvents>, METH_NOARGS,
     "events()\n--\n\nThe events of the last reset or step: [(name, [values])]."},
    {"close", Guarded<&LabClose>, METH_NOARGS,
     "close()\n--\n\nReleases the engine instance; True if this call closed it."},
    {"write_property", reinterpret_cast<PyCFunction>(Guarded<&LabWriteProperty>),
     METH_VARARGS | METH_KEYWORDS, "write_property(key, value)\n--\n\nWrites a property."},
    {"read_property", reinterpret_cast<PyCFunction>(Guarded<&LabReadProperty>),
     METH_VARARGS | METH_KEYWORDS, "read_property(key)\n--\n\nReads a property (a str)."},
    {"properties", reinterpret_cast<PyCFunction>(Guarded<&LabProperties>), METH_VARARGS | METH_KEYWORDS,
     "properties(key='')\n--\n\nThe properties under `key`: {key: attribute bits}."},
    {nullptr, nullptr, 0, nullptr},
};

PyTypeObject lab_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

}  // namespace

int AddLabType(PyObject* module) {
  lab_type.tp_name = "labenv.Lab";
  lab_type.tp_basicsize = sizeof(LabObject);
  lab_type.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  lab_type.tp_doc =
      "Lab(level, observations, config=None, renderer='software', level_cache=None)\n--\n\n"
      "One engine instance with deepmind_lab.Lab's API. `level` is a built-in level name\n"
      "or a path to a level script; `config` maps setting names to str values.";
  lab_type.tp_methods = kLabMethods;
  lab_type.tp_new = LabNew;
  lab_type.tp_init = Guarded<&LabInit>;
  lab_type.tp_dealloc = LabDealloc;
  return AddModuleType(module, "Lab", &lab_type);
}

}  // namespace engine_plugin::python
