#include "engine_plugin/python/vector_async.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "engine_plugin/python/actions.h"
#include "engine_plugin/python/env_support.h"

namespace engine_plugin::python {
namespace {

template <typename T>
T* DataOf(PyObject* array) {
  return static_cast<T*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(array)));
}

// env_ids (None: every env, in order) into *envs: ints in [0, n), no one
// twice, none in flight. ValueError naming the entry otherwise.
bool ReadEnvIds(const VectorState& state, PyObject* env_ids, std::vector<int>* envs) {
  if (env_ids == Py_None) {
    for (int i = 0; i < state.n; ++i) envs->push_back(i);
    return true;
  }
  PyObject* sequence = PySequence_Fast(env_ids, "send: env_ids must be a sequence of ints");
  if (sequence == nullptr) return false;
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
  std::vector<bool> seen(state.n, false);
  for (Py_ssize_t j = 0; j < count; ++j) {
    const long env = PyLong_AsLong(PySequence_Fast_GET_ITEM(sequence, j));
    if (env == -1 && PyErr_Occurred()) {
      PyErr_Format(PyExc_ValueError, "send: env_ids[%zd] is not an int", j);
      Py_DECREF(sequence);
      return false;
    }
    const char* why = nullptr;
    if (env < 0 || env >= state.n) {
      why = "is not an env of this VectorLab";
    } else if (seen[env]) {
      why = "is given twice";
    } else if (state.async != nullptr && state.async->in_flight(static_cast<int>(env))) {
      why = "is in flight: recv() returns it before it can be sent again";
    }
    if (why != nullptr) {
      PyErr_Format(PyExc_ValueError, "send: env_ids[%zd] = %ld %s (n = %d)", j, env, why,
                   state.n);
      Py_DECREF(sequence);
      return false;
    }
    seen[env] = true;
    envs->push_back(static_cast<int>(env));
  }
  Py_DECREF(sequence);
  if (envs->empty()) {
    PyErr_SetString(PyExc_ValueError, "send: env_ids is empty");
    return false;
  }
  return true;
}

// Makes the workers on the first send.
bool EnsureAsync(VectorState& state) {
  if (state.async != nullptr) return true;
  try {
    state.async = std::make_unique<AsyncSteps>(state, state.pool->threads());
  } catch (const std::system_error& e) {
    PyErr_Format(PyExc_RuntimeError, "VectorLab: cannot start %d threads: %s",
                 state.pool->threads(), e.what());
    return false;
  }
  return true;
}

}  // namespace

AsyncSteps::AsyncSteps(VectorState& state, int workers)
    : state_(state),
      reward_(state.n),
      terminated_(state.n),
      truncated_(state.n),
      in_flight_(state.n, false) {
  // Laid out as a NextBatch buffer of n rows: several players' frames
  // rendered in place lie together, in the first one's staging.
  for (std::size_t b = 0; b < state.batched.size(); ++b) {
    const std::size_t stride = RowStride(state, static_cast<int>(b));
    const auto frame = std::find(state.frames.begin(), state.frames.end(), static_cast<int>(b));
    const std::size_t player = frame - state.frames.begin();
    staging_.emplace_back(player > 0 && frame != state.frames.end() ? 0 : stride * state.n);
    output_.slots.push_back(staging_.back().data());
    output_.strides.push_back(stride);
  }
  for (std::size_t p = 1; p < state.frames.size(); ++p) {
    output_.slots[state.frames[p]] =
        output_.slots[state.frames[0]] + p * state.batched[state.frames[p]].slot_bytes;
  }
  output_.reward = reward_.data();
  output_.terminated = terminated_.data();
  output_.truncated = truncated_.data();
  try {
    for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { Work(); });
  } catch (...) {
    Stop();  // a joinable std::thread destroyed unjoined ends the process
    throw;
  }
}

AsyncSteps::~AsyncSteps() { Stop(); }

void AsyncSteps::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queued_count_.store(-1, std::memory_order_release);  // ends every spin
  }
  work_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void AsyncSteps::Step(int env) {
  // The mutex that handed the env out orders this after send's writes of
  // its actions.
  StepInstance(state_, output_, state_.instances[env]->num_steps, env);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_.push_back(env);
    done_count_.store(static_cast<int>(done_.size()), std::memory_order_release);
  }
  finished_.notify_one();
}

int AsyncSteps::TakeQueued() {
  const int env = queued_.front();
  queued_.pop_front();
  queued_count_.store(static_cast<int>(queued_.size()), std::memory_order_release);
  return env;
}

void AsyncSteps::Work() {
  while (true) {
    SpinUntil([this] { return queued_count_.load(std::memory_order_acquire) != 0; });
    int env;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_.wait(lock, [this] { return stopping_ || !queued_.empty(); });
      if (stopping_) return;
      env = TakeQueued();
    }
    Step(env);
  }
}

void AsyncSteps::Send(absl::Span<const int> envs) {
  for (int env : envs) in_flight_[env] = true;
  count_in_flight_ += static_cast<int>(envs.size());
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queued_.insert(queued_.end(), envs.begin(), envs.end());
    queued_count_.store(static_cast<int>(queued_.size()), std::memory_order_release);
  }
  work_.notify_all();
}

std::vector<int> AsyncSteps::Receive(int count) {
  std::vector<int> envs;
  {
    // It sleeps at once rather than spin: the workers need the cores.
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [&] { return static_cast<int>(done_.size()) >= count; });
    envs.assign(done_.begin(), done_.begin() + count);
    done_.erase(done_.begin(), done_.begin() + count);
    done_count_.store(static_cast<int>(done_.size()), std::memory_order_release);
  }
  for (int env : envs) in_flight_[env] = false;
  count_in_flight_ -= count;
  return envs;
}

void AsyncSteps::PutBack(absl::Span<const int> envs) {
  for (int env : envs) in_flight_[env] = true;
  count_in_flight_ += static_cast<int>(envs.size());
  std::lock_guard<std::mutex> lock(mutex_);
  done_.insert(done_.begin(), envs.begin(), envs.end());
  done_count_.store(static_cast<int>(done_.size()), std::memory_order_release);
}

bool NoneInFlight(const VectorState& state, const char* call) {
  if (state.async == nullptr || state.async->count_in_flight() == 0) return true;
  PyErr_Format(PyExc_RuntimeError,
               "VectorLab.%s: %d envs are in flight (sent, not yet received); recv() them first",
               call, state.async->count_in_flight());
  return false;
}

// send(actions, env_ids=None, num_steps=1, continuous=None) -> None
PyObject* VectorLabSend(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"actions", "env_ids", "num_steps", "continuous", nullptr};
  PyObject* actions = nullptr;
  PyObject* env_ids = Py_None;
  int num_steps = 1;
  PyObject* continuous = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OiO:send", const_cast<char**>(keywords),
                                   &actions, &env_ids, &num_steps, &continuous)) {
    return nullptr;
  }
  VectorState* state = Usable(self);
  if (state == nullptr) return nullptr;
  if (!state->reset_done) {
    PyErr_SetString(PyExc_RuntimeError, "VectorLab: call reset() or async_reset() before send()");
    return nullptr;
  }
  if (num_steps < 1) {
    PyErr_Format(PyExc_ValueError, "num_steps must be >= 1, got %d", num_steps);
    return nullptr;
  }
  std::vector<int> envs;
  if (!ReadEnvIds(*state, env_ids, &envs)) return nullptr;
  StepActions rows = SizedActions(state->instances[0]->connection, envs.size());
  if (!ReadStepActions(actions, continuous, &rows)) return nullptr;
  if (!EnsureAsync(*state)) return nullptr;
  StepActions& all = state->actions;
  for (std::size_t j = 0; j < envs.size(); ++j) {
    std::copy_n(rows.discrete.begin() + j * rows.discrete_count, rows.discrete_count,
                all.discrete.begin() + envs[j] * all.discrete_count);
    std::copy_n(rows.continuous.begin() + j * rows.continuous_count, rows.continuous_count,
                all.continuous.begin() + envs[j] * all.continuous_count);
    state->instances[envs[j]]->num_steps = num_steps;
  }
  state->async->Send(envs);
  Py_RETURN_NONE;
}

// async_reset(seed=None, episodes=None) -> None: reset(), its first frames
// left for recv().
PyObject* VectorLabAsyncReset(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"seed", "episodes", nullptr};
  PyObject* seed_arg = Py_None;
  PyObject* episodes_arg = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:async_reset",
                                   const_cast<char**>(keywords), &seed_arg, &episodes_arg)) {
    return nullptr;
  }
  VectorState* state = Usable(self);
  if (state == nullptr || !NoneInFlight(*state, "async_reset")) return nullptr;
  std::vector<int> episodes(state->n, 0);
  if (episodes_arg != Py_None && !ReadCounts(episodes_arg, "episodes", &episodes)) return nullptr;
  std::uint64_t seed = 0;
  if (seed_arg == Py_None) {
    seed = state->seeds() >> 1;
  } else if (!ReadSeed(seed_arg, "seed", &seed)) {
    return nullptr;
  }
  if (!EnsureAsync(*state)) return nullptr;
  state->base_seed = seed;
  std::vector<int> envs(state->n);
  for (int i = 0; i < state->n; ++i) {
    envs[i] = i;
    state->instances[i]->episode = episodes[i];
    state->instances[i]->needs_start = true;
  }
  state->reset_done = true;
  state->async->Send(envs);
  Py_RETURN_NONE;
}

// recv() -> (observations, reward, terminated, truncated, env_ids)
PyObject* VectorLabRecv(PyObject* self, PyObject*) {
  VectorState* state = Usable(self);
  if (state == nullptr) return nullptr;
  const int count = state->batch_size;
  const int in_flight = state->async == nullptr ? 0 : state->async->count_in_flight();
  if (in_flight < count) {
    PyErr_Format(PyExc_RuntimeError,
                 "VectorLab.recv: %d envs are in flight, fewer than batch_size %d: send() "
                 "more first",
                 in_flight, count);
    return nullptr;
  }
  AsyncSteps& async = *state->async;
  std::vector<int> envs;
  state->busy = true;
  Py_BEGIN_ALLOW_THREADS
  envs = async.Receive(count);
  Py_END_ALLOW_THREADS
  state->busy = false;
  // A failed env is reported and returned to idle (its next step starts an
  // episode); the others go back for the next recv.
  for (int j = 0; j < count; ++j) {
    const Instance& instance = *state->instances[envs[j]];
    if (instance.error.empty()) continue;
    std::vector<int> others = envs;
    others.erase(others.begin() + j);
    async.PutBack(others);
    PyErr_Format(PyExc_RuntimeError, "VectorLab env %d: \"%s\"", envs[j], instance.error.c_str());
    return nullptr;
  }
  Batch* batch = NextBatch(state->async_batches, *state, count);
  PyObject* reward = NewResultArray(NPY_FLOAT64, count);
  PyObject* terminated = NewResultArray(NPY_BOOL, count);
  PyObject* truncated = NewResultArray(NPY_BOOL, count);
  PyObject* ids = NewResultArray(NPY_INT32, count);
  PyObject* observations = PyDict_New();
  for (std::size_t b = 0; batch != nullptr && observations != nullptr && b < batch->arrays.size();
       ++b) {
    if (PyDict_SetItem(observations, state->keys[b], batch->arrays[b]) < 0) {
      Py_CLEAR(observations);
    }
  }
  if (batch == nullptr || reward == nullptr || terminated == nullptr || truncated == nullptr ||
      ids == nullptr || observations == nullptr) {
    async.PutBack(envs);  // nothing is lost: the next recv returns them
    Py_XDECREF(reward);
    Py_XDECREF(terminated);
    Py_XDECREF(truncated);
    Py_XDECREF(ids);
    Py_XDECREF(observations);
    return nullptr;
  }
  const StepOutput& from = async.output();
  for (int j = 0; j < count; ++j) {
    const int env = envs[j];
    for (std::size_t b = 0; b < state->batched.size(); ++b) {
      const std::size_t stride = from.strides[b];  // the batch's too
      std::memcpy(DataOf<std::uint8_t>(batch->arrays[b]) + j * stride, from.slots[b] + env * stride,
                  state->batched[b].slot_bytes);
    }
    DataOf<double>(reward)[j] = from.reward[env];
    DataOf<npy_bool>(terminated)[j] = from.terminated[env];
    DataOf<npy_bool>(truncated)[j] = from.truncated[env];
    DataOf<std::int32_t>(ids)[j] = env;
  }
  return Py_BuildValue("(NNNNN)", observations, reward, terminated, truncated, ids);
}

}  // namespace engine_plugin::python
