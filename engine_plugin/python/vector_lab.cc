#include "engine_plugin/python/guarded.h"
#include "engine_plugin/python/vector_lab.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "engine_plugin/env_c_api.h"
#include "engine_plugin/python/actions.h"
#include "engine_plugin/python/env_support.h"
#include "engine_plugin/python/module_type.h"
#include "engine_plugin/python/observation_array.h"
#include "engine_plugin/python/thread_pool.h"
#include "engine_plugin/python/vector_async.h"
#include "engine_plugin/python/vector_state.h"

namespace engine_plugin::python {
namespace {

constexpr char kRgbName[] = "RGB_INTERLEAVED";
// The most environments one VectorLab makes. Each is a level's Lua VM and
// its host's world: some tens of thousands already fill a large machine's
// memory, and n = 10^9 used to run for 15 s and take 3.7 GB before it
// failed. Beyond one machine, labenv.distributed.
constexpr int kMaxEnvs = 1 << 16;

// The positions among `indices` (the requested observations) of the
// frames to render in place, in player order: RGB_INTERLEAVED, or with
// several players every one of 1.RGB_INTERLEAVED, 2.RGB_INTERLEAVED, ...;
// none when a player's is not asked for, or when the host renders its
// frame on request (MuJoCo refuses a target), which are copied instead.
std::vector<int> FramesInPlace(const Connection& first, const std::vector<int>& indices) {
  const int count = first.api.observation_count(first.context);
  std::vector<int> players;  // the engine's index of each player's frame
  for (int i = 0; i < count; ++i) {
    const std::string name = first.api.observation_name(first.context, i);
    const std::string own = std::to_string(players.size() + 1) + "." + kRgbName;
    if (name == kRgbName || name == own) players.push_back(i);
  }
  std::vector<int> frames;
  for (int index : players) {
    const auto at = std::find(indices.begin(), indices.end(), index);
    if (at == indices.end()) return {};
    frames.push_back(static_cast<int>(at - indices.begin()));
  }
  if (frames.empty() || first.api.set_frame_target(first.context, nullptr, 0) != 0) return {};
  return frames;
}

// step(out=...)'s arrays, checked: a dict with each requested observation
// as a writable, C-contiguous array of shape (n, ...) and its dtype, which
// the step writes into (RGB rendered straight into it). Null with a
// ValueError or TypeError otherwise.
Batch* OutBatch(VectorState& state, PyObject* out, Batch* holder) {
  if (!PyDict_Check(out)) {
    PyErr_SetString(PyExc_TypeError, "step: out must be a dict of numpy arrays");
    return nullptr;
  }
  for (std::size_t b = 0; b < state.batched.size(); ++b) {
    const Batched& observation = state.batched[b];
    PyObject* array = PyDict_GetItemWithError(out, state.keys[b]);
    if (array == nullptr) {
      if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "step: out has no array for '%U'", state.keys[b]);
      }
      return nullptr;
    }
    std::vector<npy_intp> shape = {state.n};
    shape.insert(shape.end(), observation.shape.begin(), observation.shape.end());
    PyArrayObject* as_array = reinterpret_cast<PyArrayObject*>(array);
    if (!PyArray_Check(array) || !PyArray_IS_C_CONTIGUOUS(as_array) ||
        !PyArray_ISWRITEABLE(as_array) || PyArray_TYPE(as_array) != observation.numpy_type ||
        PyArray_NDIM(as_array) != static_cast<int>(shape.size()) ||
        !std::equal(shape.begin(), shape.end(), PyArray_DIMS(as_array))) {
      PyErr_Format(PyExc_ValueError,
                   "step: out['%U'] must be a writable, C-contiguous numpy array of the "
                   "observation's dtype and shape (n, *its shape)",
                   state.keys[b]);
      return nullptr;
    }
    holder->arrays.push_back(array);  // borrowed: the caller's dict holds it
  }
  return holder;
}

// Runs one lock-step pass over every instance and returns the batched
// observations, plus (reward, terminated, truncated) when `results`; in
// step(out=)'s arrays `into` when given, else in a batch buffer.
PyObject* RunStep(VectorState& state, int num_steps, bool results, PyObject* into = nullptr) {
  Batch given;
  Batch* batch = into == nullptr ? NextBatch(state.batches, state, state.n)
                                 : OutBatch(state, into, &given);
  if (batch == nullptr) return nullptr;
  // The caller's arrays stay alive while the step writes without the GIL:
  // another thread could drop them from the dict.
  for (PyObject* array : given.arrays) Py_INCREF(array);
  struct Release {
    Batch& batch;
    ~Release() {
      for (PyObject* array : batch.arrays) Py_DECREF(array);
    }
  } release{given};
  PyObject* reward = NewResultArray(NPY_FLOAT64, state.n);
  PyObject* terminated = NewResultArray(NPY_BOOL, state.n);
  PyObject* truncated = NewResultArray(NPY_BOOL, state.n);
  PyObject* observations = PyDict_New();
  if (reward == nullptr || terminated == nullptr || truncated == nullptr ||
      observations == nullptr) {
    Py_XDECREF(reward);
    Py_XDECREF(terminated);
    Py_XDECREF(truncated);
    Py_XDECREF(observations);
    return nullptr;
  }
  StepOutput out;
  for (std::size_t b = 0; b < batch->arrays.size(); ++b) {
    out.slots.push_back(static_cast<std::uint8_t*>(
        PyArray_DATA(reinterpret_cast<PyArrayObject*>(batch->arrays[b]))));
    // The caller's arrays are C-contiguous, a slot after the other.
    out.strides.push_back(into == nullptr ? RowStride(state, static_cast<int>(b))
                                          : state.batched[b].slot_bytes);
  }
  // Several players' frames go in place only where the batch keeps an
  // instance's together.
  out.frames_in_place = into == nullptr || state.frames.size() <= 1;
  out.reward = static_cast<double*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(reward)));
  out.terminated =
      static_cast<npy_bool*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(terminated)));
  out.truncated =
      static_cast<npy_bool*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(truncated)));
  state.busy = true;
  Py_BEGIN_ALLOW_THREADS
  state.pool->Run(state.n, [&](int i) { StepInstance(state, out, num_steps, i); });
  Py_END_ALLOW_THREADS
  state.busy = false;
  for (int i = 0; i < state.n; ++i) {
    const Instance& instance = *state.instances[i];
    if (instance.error.empty()) continue;
    PyErr_Format(PyExc_RuntimeError, "VectorLab env %d: \"%s\"", i, instance.error.c_str());
    Py_DECREF(reward);
    Py_DECREF(terminated);
    Py_DECREF(truncated);
    Py_DECREF(observations);
    return nullptr;
  }
  for (std::size_t b = 0; b < state.batched.size(); ++b) {
    if (PyDict_SetItem(observations, state.keys[b], batch->arrays[b]) < 0) {
      Py_DECREF(reward);
      Py_DECREF(terminated);
      Py_DECREF(truncated);
      Py_DECREF(observations);
      return nullptr;
    }
  }
  if (!results) {
    Py_DECREF(reward);
    Py_DECREF(terminated);
    Py_DECREF(truncated);
    return observations;
  }
  return Py_BuildValue("(NNNN)", observations, reward, terminated, truncated);
}

void VectorLabDealloc(PyObject* self) {
  delete StateOf(self);
  Py_TYPE(self)->tp_free(self);
}

PyObject* VectorLabNew(PyTypeObject* type, PyObject*, PyObject*) {
  PyObject* self = type->tp_alloc(type, 0);
  if (self != nullptr) reinterpret_cast<VectorLabObject*>(self)->state = nullptr;
  return self;
}

// VectorLab(n, level, observations, config=None, num_threads=None,
//           seed_offset=0, seed_stride=None, batch_size=None)
int VectorLabInit(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"n",           "level",       "observations",
                                   "config",      "num_threads", "seed_offset",
                                   "seed_stride", "batch_size",  nullptr};
  int n = 0;
  const char* level = nullptr;
  PyObject* observations = nullptr;
  PyObject* config = Py_None;
  PyObject* threads_arg = Py_None;
  PyObject* offset_arg = nullptr;
  PyObject* stride_arg = Py_None;
  PyObject* batch_arg = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "isO|OOOOO:VectorLab",
                                   const_cast<char**>(keywords), &n, &level, &observations,
                                   &config, &threads_arg, &offset_arg, &stride_arg, &batch_arg)) {
    return -1;
  }
  std::uint64_t seed_offset = 0;
  std::uint64_t seed_stride = static_cast<std::uint64_t>(n);
  if ((offset_arg != nullptr && !ReadSeed(offset_arg, "seed_offset", &seed_offset)) ||
      (stride_arg != Py_None && !ReadSeed(stride_arg, "seed_stride", &seed_stride))) {
    return -1;
  }
  if (n < 1 || n > kMaxEnvs) {
    PyErr_Format(PyExc_ValueError, "VectorLab needs 1 <= n <= %d environments, got %d", kMaxEnvs,
                 n);
    return -1;
  }
  int threads = std::min<int>(n, std::max(1u, std::thread::hardware_concurrency()));
  if (threads_arg != Py_None) {
    const long asked = PyLong_AsLong(threads_arg);
    if (asked == -1 && PyErr_Occurred()) return -1;
    if (asked < 1) {
      PyErr_Format(PyExc_ValueError, "num_threads must be >= 1, got %ld", asked);
      return -1;
    }
    // A thread beyond one per environment would never have work.
    threads = static_cast<int>(std::min<long>(asked, n));
  }
  int batch_size = n;
  if (batch_arg != Py_None) {
    const long asked = PyLong_AsLong(batch_arg);
    if (asked == -1 && PyErr_Occurred()) return -1;
    if (asked < 1 || asked > n) {
      PyErr_Format(PyExc_ValueError, "batch_size must be in [1, n = %d], got %ld", n, asked);
      return -1;
    }
    batch_size = static_cast<int>(asked);
  }
  if (StateOf(self) != nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "VectorLab.__init__ may only be called once");
    return -1;
  }
  auto state = std::make_unique<VectorState>();
  state->n = n;
  state->seed_offset = seed_offset;
  state->seed_stride = seed_stride;
  state->batch_size = batch_size;
  for (int i = 0; i < n; ++i) {
    auto instance = std::make_unique<Instance>();
    if (!Connect(level, config, &instance->connection)) return -1;
    state->instances.push_back(std::move(instance));
  }
  const Connection& first = state->instances[0]->connection;
  std::vector<int> indices;
  if (!FindObservations(first, observations, &indices, &state->keys)) return -1;
  for (std::size_t b = 0; b < indices.size(); ++b) {
    EnvCApi_ObservationSpec spec;
    first.api.observation_spec(first.context, indices[b], &spec);
    const char* name = first.api.observation_name(first.context, indices[b]);
    if (spec.type == EnvCApi_ObservationString) {
      PyErr_Format(PyExc_ValueError,
                   "VectorLab batches fixed-shape arrays; '%s' is a string observation", name);
      return -1;
    }
    Batched batched{indices[b], NumpyTypeOf(spec.type), {}, 0};
    std::size_t elements = 1;
    for (int d = 0; d < spec.dims; ++d) {
      if (spec.shape[d] == 0) {
        PyErr_Format(PyExc_ValueError,
                     "VectorLab batches fixed-shape arrays; '%s' has a dynamic extent (0 in its "
                     "spec)", name);
        return -1;
      }
      batched.shape.push_back(spec.shape[d]);
      elements *= static_cast<std::size_t>(spec.shape[d]);
    }
    batched.slot_bytes = elements * ElementBytes(spec.type);
    state->batched.push_back(std::move(batched));
  }
  state->frames = FramesInPlace(first, indices);
  state->actions = SizedActions(first, n);
  try {
    state->pool = std::make_unique<ThreadPool>(threads);
  } catch (const std::system_error& e) {
    PyErr_Format(PyExc_RuntimeError, "VectorLab: cannot start %d threads: %s", threads, e.what());
    return -1;
  }
  reinterpret_cast<VectorLabObject*>(self)->state = state.release();
  return 0;
}

// reset(seed=None, episodes=None) -> observations: episode 0 of every env,
// or env i's episodes[i].
PyObject* VectorLabReset(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"seed", "episodes", nullptr};
  PyObject* seed_arg = Py_None;
  PyObject* episodes_arg = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:reset", const_cast<char**>(keywords),
                                   &seed_arg, &episodes_arg)) {
    return nullptr;
  }
  VectorState* state = Usable(self);
  if (state == nullptr || !NoneInFlight(*state, "reset")) return nullptr;
  std::vector<int> episodes(state->n, 0);
  if (episodes_arg != Py_None && !ReadCounts(episodes_arg, "episodes", &episodes)) return nullptr;
  if (seed_arg == Py_None) {
    state->base_seed = state->seeds() >> 1;
  } else if (!ReadSeed(seed_arg, "seed", &state->base_seed)) {
    return nullptr;
  }
  for (int i = 0; i < state->n; ++i) {
    state->instances[i]->episode = episodes[i];
    state->instances[i]->needs_start = true;
  }
  state->reset_done = false;
  PyObject* observations = RunStep(*state, 1, /*results=*/false);
  state->reset_done = observations != nullptr;
  return observations;
}

// step(actions, num_steps=1, continuous=None) -> (observations, reward,
// terminated, truncated)
PyObject* VectorLabStep(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"actions", "num_steps", "continuous", "out", nullptr};
  PyObject* actions = nullptr;
  int num_steps = 1;
  PyObject* continuous = nullptr;
  PyObject* out = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|iOO:step", const_cast<char**>(keywords),
                                   &actions, &num_steps, &continuous, &out)) {
    return nullptr;
  }
  VectorState* state = Usable(self);
  if (state == nullptr || !NoneInFlight(*state, "step")) return nullptr;
  if (!state->reset_done) {
    PyErr_SetString(PyExc_RuntimeError, "VectorLab: call reset() before step()");
    return nullptr;
  }
  if (num_steps < 1) {
    PyErr_Format(PyExc_ValueError, "num_steps must be >= 1, got %d", num_steps);
    return nullptr;
  }
  if (!ReadStepActions(actions, continuous, &state->actions)) return nullptr;
  return RunStep(*state, num_steps, /*results=*/true, out == Py_None ? nullptr : out);
}

PyObject* VectorLabObservationSpec(PyObject* self, PyObject*) {
  VectorState* state = Usable(self);
  return state == nullptr ? nullptr : ObservationSpecList(state->instances[0]->connection);
}

PyObject* VectorLabActionSpec(PyObject* self, PyObject*) {
  VectorState* state = Usable(self);
  return state == nullptr ? nullptr : ActionSpecList(state->instances[0]->connection);
}

PyObject* VectorLabContinuousActionSpec(PyObject* self, PyObject*) {
  VectorState* state = Usable(self);
  return state == nullptr ? nullptr : ContinuousActionSpecList(state->instances[0]->connection);
}

PyObject* VectorLabFps(PyObject* self, PyObject*) {
  VectorState* state = Usable(self);
  if (state == nullptr) return nullptr;
  const Connection& first = state->instances[0]->connection;
  return PyLong_FromLong(first.api.fps(first.context));
}

// read_property(key) -> [str], env by env, as Lab.read_property.
PyObject* VectorLabReadProperty(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"key", nullptr};
  const char* key = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s:read_property", const_cast<char**>(keywords),
                                   &key)) {
    return nullptr;
  }
  VectorState* state = Usable(self);
  if (state == nullptr) return nullptr;
  PyObject* values = PyList_New(state->n);
  if (values == nullptr) return nullptr;
  for (int i = 0; i < state->n; ++i) {
    const Connection& connection = state->instances[i]->connection;
    const char* value = nullptr;
    if (connection.api.read_property(connection.context, key, &value) !=
        EnvCApi_PropertyResult_Success) {
      Py_DECREF(values);
      PyErr_Format(PyExc_KeyError, "VectorLab env %d: %s", i,
                   connection.api.error_message(connection.context));
      return nullptr;
    }
    PyObject* text = PyUnicode_FromString(value);
    if (text == nullptr) {
      Py_DECREF(values);
      return nullptr;
    }
    PyList_SET_ITEM(values, i, text);
  }
  return values;
}

// close() -> True if this call closed it. Batches already returned stay.
PyObject* VectorLabClose(PyObject* self, PyObject*) {
  VectorState* state = StateOf(self);
  if (state == nullptr || state->closed) Py_RETURN_FALSE;
  if (state->busy) {
    PyErr_SetString(PyExc_RuntimeError, "labenv.VectorLab is in use by another thread");
    return nullptr;
  }
  state->async.reset();  // waits for the steps under way
  state->pool.reset();
  for (std::unique_ptr<Instance>& instance : state->instances) instance->connection.Release();
  state->closed = true;
  Py_RETURN_TRUE;
}

PyObject* VectorLabNumEnvs(PyObject* self, void*) {
  VectorState* state = StateOf(self);
  return PyLong_FromLong(state == nullptr ? 0 : state->n);
}

// The episode each env starts next: the one under way is one less.
PyObject* VectorLabEpisodes(PyObject* self, void*) {
  VectorState* state = StateOf(self);
  if (state == nullptr) return PyList_New(0);
  PyObject* list = PyList_New(state->n);
  for (int i = 0; list != nullptr && i < state->n; ++i) {
    PyList_SET_ITEM(list, i, PyLong_FromLong(state->instances[i]->episode));
  }
  return list;
}

PyObject* VectorLabBatchSize(PyObject* self, void*) {
  VectorState* state = StateOf(self);
  return PyLong_FromLong(state == nullptr ? 0 : state->batch_size);
}

PyObject* VectorLabNumThreads(PyObject* self, void*) {
  VectorState* state = StateOf(self);
  return PyLong_FromLong(state == nullptr || state->pool == nullptr ? 0
                                                                    : state->pool->threads());
}

PyMethodDef kVectorLabMethods[] = {
    {"reset", reinterpret_cast<PyCFunction>(Guarded<&VectorLabReset>), METH_VARARGS | METH_KEYWORDS,
     "reset(seed=None, episodes=None)\n--\n\nStarts episode 0 of every env, or env i's "
     "episodes[i], and returns the batched observations. Env i's episode k gets the seed "
     "seed + seed_offset + i + k * seed_stride."},
    {"step", reinterpret_cast<PyCFunction>(Guarded<&VectorLabStep>), METH_VARARGS | METH_KEYWORDS,
     "step(actions, num_steps=1, continuous=None, out=None)\n--\n\nSteps every env with its "
     "row of "
     "`actions` (np.intc, shape (n, 7) in the maze) and of `continuous` (np.float64, shape "
     "(n, count), for levels with continuous actions; a level with only those takes them as "
     "`actions`); returns (observations, reward, terminated, truncated). Envs whose "
     "episode ended in the previous step start a new one instead (next-step autoreset). "
     "`out`, a dict of writable C-contiguous arrays of shape (n, ...), one per observation, "
     "takes the observations instead of a new batch (RGB rendered straight into it)."},
    {"send", reinterpret_cast<PyCFunction>(Guarded<&VectorLabSend>), METH_VARARGS | METH_KEYWORDS,
     "send(actions, env_ids=None, num_steps=1, continuous=None)\n--\n\nHands each env of "
     "`env_ids` (default: all n) its row of `actions` (and of `continuous`) and returns at "
     "once; the envs step on the worker threads. An env may not be sent again before recv() "
     "returns it."},
    {"recv", Guarded<&VectorLabRecv>, METH_NOARGS,
     "recv()\n--\n\nWaits for the first batch_size envs sent to finish and returns "
     "(observations, reward, terminated, truncated, env_ids) for them, in the order they "
     "finished; env_ids is np.int32."},
    {"async_reset", reinterpret_cast<PyCFunction>(Guarded<&VectorLabAsyncReset>),
     METH_VARARGS | METH_KEYWORDS,
     "async_reset(seed=None, episodes=None)\n--\n\nStarts every env as reset() does and "
     "returns at once; recv() returns their first frames."},
    {"observation_spec", Guarded<&VectorLabObservationSpec>, METH_NOARGS,
     "observation_spec()\n--\n\nOne env's observations, as Lab.observation_spec()."},
    {"action_spec", Guarded<&VectorLabActionSpec>, METH_NOARGS,
     "action_spec()\n--\n\nOne env's actions, as Lab.action_spec()."},
    {"continuous_action_spec", Guarded<&VectorLabContinuousActionSpec>, METH_NOARGS,
     "continuous_action_spec()\n--\n\nOne env's continuous actions, as "
     "Lab.continuous_action_spec()."},
    {"fps", Guarded<&VectorLabFps>, METH_NOARGS, "fps()\n--\n\nFrames per second of the simulation."},
    {"read_property", reinterpret_cast<PyCFunction>(Guarded<&VectorLabReadProperty>),
     METH_VARARGS | METH_KEYWORDS,
     "read_property(key)\n--\n\nEach env's value of a property: [str] of length n."},
    {"close", Guarded<&VectorLabClose>, METH_NOARGS,
     "close()\n--\n\nReleases every engine instance and the threads; True if this call "
     "closed it."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef kVectorLabGetSets[] = {
    {"num_envs", Guarded<&VectorLabNumEnvs>, nullptr, "The number of environments, n.", nullptr},
    {"episodes", Guarded<&VectorLabEpisodes>, nullptr,
     "The episode number each env starts next, a list of n ints.", nullptr},
    {"batch_size", Guarded<&VectorLabBatchSize>, nullptr,
     "How many envs recv() returns (n unless given).", nullptr},
    {"num_threads", Guarded<&VectorLabNumThreads>, nullptr,
     "Threads that step the environments (the caller's included); 0 once closed.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyTypeObject vector_lab_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

}  // namespace

int AddVectorLabType(PyObject* module) {
  vector_lab_type.tp_name = "labenv.VectorLab";
  vector_lab_type.tp_basicsize = sizeof(VectorLabObject);
  vector_lab_type.tp_flags = Py_TPFLAGS_DEFAULT;
  vector_lab_type.tp_doc =
      "VectorLab(n, level, observations, config=None, num_threads=None, batch_size=None)\n"
      "--\n\n"
      "n engine instances of `level` stepped together on a thread pool, their\n"
      "observations batched with a leading dimension n (step), or stepped\n"
      "apart and returned batch_size at a time as they finish (send, recv).\n"
      "See docs/python.md.";
  vector_lab_type.tp_methods = kVectorLabMethods;
  vector_lab_type.tp_getset = kVectorLabGetSets;
  vector_lab_type.tp_new = VectorLabNew;
  vector_lab_type.tp_init = Guarded<&VectorLabInit>;
  vector_lab_type.tp_dealloc = VectorLabDealloc;
  return AddModuleType(module, "VectorLab", &vector_lab_type);
}

}  // namespace engine_plugin::python
