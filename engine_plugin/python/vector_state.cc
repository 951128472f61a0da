#include "engine_plugin/python/vector_state.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "engine_plugin/python/observation_array.h"
#include "engine_plugin/python/vector_async.h"

namespace engine_plugin::python {
namespace {

// Free batch buffers kept beyond the one in use; more are released, so a
// caller that once kept many batches does not pin them for ever.
constexpr int kMaxFreeBatches = 2;

// Whether nobody but the vector holds `batch`: a view or a DLPack export
// holds its array, so the count is exact. The players' frames array is
// held by the batch and by each player's view of it.
bool IsFree(const Batch& batch, std::size_t players) {
  return std::all_of(batch.arrays.begin(), batch.arrays.end(),
                     [](PyObject* array) { return Py_REFCNT(array) == 1; }) &&
         (batch.frames == nullptr ||
          Py_REFCNT(batch.frames) == static_cast<Py_ssize_t>(1 + players));
}

void Release(Batch& batch) {
  for (PyObject* array : batch.arrays) Py_DECREF(array);
  Py_XDECREF(batch.frames);
}

// Fills `batch` with an array per observation of `state` of `leading`
// rows: with several players' frames in place, one array of all of them
// and a view of it per player. False with a Python error set.
bool Allocate(const VectorState& state, npy_intp leading, Batch* batch) {
  const std::size_t players = state.frames.size();
  batch->arrays.assign(state.batched.size(), nullptr);
  if (players > 1) {
    const Batched& frame = state.batched[state.frames[0]];
    std::vector<npy_intp> shape = {leading, static_cast<npy_intp>(players)};
    shape.insert(shape.end(), frame.shape.begin(), frame.shape.end());
    batch->frames = NewOwnedObservationArray(frame.numpy_type, shape);
    if (batch->frames == nullptr) return false;
    for (std::size_t p = 0; p < players; ++p) {
      PyObject* view = NewObservationArrayView(batch->frames, /*axis=*/1, p);
      if (view == nullptr) return false;
      batch->arrays[state.frames[p]] = view;
    }
  }
  for (std::size_t b = 0; b < state.batched.size(); ++b) {
    if (batch->arrays[b] != nullptr) continue;
    const Batched& observation = state.batched[b];
    std::vector<npy_intp> shape = {leading};
    shape.insert(shape.end(), observation.shape.begin(), observation.shape.end());
    batch->arrays[b] = NewOwnedObservationArray(observation.numpy_type, shape);
    if (batch->arrays[b] == nullptr) return false;
  }
  return true;
}

bool IsFrame(const VectorState& state, int b) {
  return std::find(state.frames.begin(), state.frames.end(), b) != state.frames.end();
}

}  // namespace

VectorState::~VectorState() {
  async.reset();  // its workers may be stepping the instances
  for (PyObject* key : keys) Py_DECREF(key);
  for (Batch& batch : batches) Release(batch);
  for (Batch& batch : async_batches) Release(batch);
}

VectorState* Usable(PyObject* self) {
  VectorState* state = StateOf(self);
  if (state == nullptr) {
    PyErr_SetString(PyExc_RuntimeError,
                    "labenv.VectorLab was not initialised (its __init__ failed)");
    return nullptr;
  }
  if (state->closed) {
    PyErr_SetString(PyExc_RuntimeError, "labenv.VectorLab is closed: close() was called");
    return nullptr;
  }
  if (state->busy) {
    PyErr_SetString(PyExc_RuntimeError,
                    "labenv.VectorLab is in use by another thread (one thread at a time)");
    return nullptr;
  }
  return state;
}

std::size_t RowStride(const VectorState& state, int b) {
  const std::size_t bytes = state.batched[b].slot_bytes;
  return state.frames.size() > 1 && IsFrame(state, b) ? bytes * state.frames.size() : bytes;
}

Batch* NextBatch(std::vector<Batch>& batches, const VectorState& state, npy_intp leading) {
  Batch* chosen = nullptr;
  int free_kept = 0;
  for (std::size_t b = 0; b < batches.size();) {
    Batch& batch = batches[b];
    if (!IsFree(batch, state.frames.size())) {
      ++b;
      continue;
    }
    if (chosen == nullptr || free_kept < kMaxFreeBatches) {
      if (chosen == nullptr) {
        chosen = &batch;
      } else {
        ++free_kept;
      }
      ++b;
      continue;
    }
    // An engine's last frame may lie in this buffer, but the next step
    // gives every engine a new target before it renders or reads a frame.
    Release(batch);
    batches.erase(batches.begin() + b);
  }
  if (chosen != nullptr) return chosen;
  Batch batch;
  if (!Allocate(state, leading, &batch)) {
    for (PyObject* array : batch.arrays) Py_XDECREF(array);
    Py_XDECREF(batch.frames);
    return nullptr;
  }
  batches.push_back(std::move(batch));
  return &batches.back();
}

std::uint64_t EpisodeSeed(const VectorState& state, int instance, int episode) {
  return state.base_seed + state.seed_offset + static_cast<std::uint64_t>(instance) +
         static_cast<std::uint64_t>(episode) * state.seed_stride;
}

void StepInstance(VectorState& state, const StepOutput& out, int num_steps, int i) {
  Instance& instance = *state.instances[i];
  const EnvCApi& api = instance.connection.api;
  void* context = instance.connection.context;
  instance.error.clear();
  out.reward[i] = 0;
  out.terminated[i] = NPY_FALSE;
  out.truncated[i] = NPY_FALSE;
  if (!state.frames.empty()) {
    // Every player's frames at once, where the batch keeps them; or, when
    // the caller's arrays cannot take them so (step(out=) with several
    // players), the engine's own buffers, copied below.
    const int first = state.frames[0];
    const std::size_t bytes = state.batched[first].slot_bytes * state.frames.size();
    const int set = out.frames_in_place
                        ? api.set_frame_target(context, out.slots[first] + i * out.strides[first],
                                               bytes)
                        : api.set_frame_target(context, nullptr, 0);
    if (set != 0) {
      instance.error = api.error_message(context);
      return;
    }
  }
  if (instance.needs_start) {
    const int episode = instance.episode.load(std::memory_order_relaxed);
    if (api.start(context, episode, EpisodeSeed(state, i, episode)) != 0) {
      instance.error = api.error_message(context);
      return;
    }
    instance.episode.store(episode + 1, std::memory_order_relaxed);
    instance.needs_start = false;
  } else {
    // Read and checked (finite) before the step: the engine refuses nothing here.
    if (!SendActions(instance.connection, state.actions, i)) {
      instance.error = api.error_message(context);
      instance.needs_start = true;
      return;
    }
    const EnvCApi_EnvironmentStatus status = api.advance(context, num_steps, &out.reward[i]);
    if (status == EnvCApi_EnvironmentStatus_Error) {
      instance.error = api.error_message(context);
      instance.needs_start = true;
      return;
    }
    out.terminated[i] = status == EnvCApi_EnvironmentStatus_Terminated;
    out.truncated[i] = status == EnvCApi_EnvironmentStatus_Interrupted;
    instance.needs_start = status != EnvCApi_EnvironmentStatus_Running;
  }
  for (std::size_t b = 0; b < state.batched.size(); ++b) {
    if (out.frames_in_place && IsFrame(state, static_cast<int>(b))) continue;  // rendered there
    const Batched& observation = state.batched[b];
    EnvCApi_Observation value;
    if (api.observation(context, observation.index, &value) != 0) {
      instance.error = api.error_message(context);
      instance.needs_start = true;
      return;
    }
    // ABI observations are contiguous and row-major (env_c_api.h).
    const void* source = TensorPayload(value);
    std::memcpy(out.slots[b] + i * out.strides[b], source, observation.slot_bytes);
  }
}

}  // namespace engine_plugin::python
