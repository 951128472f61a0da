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
// holds its array, so the count is exact.
bool IsFree(const Batch& batch) {
  return std::all_of(batch.arrays.begin(), batch.arrays.end(),
                     [](PyObject* array) { return Py_REFCNT(array) == 1; });
}

void Release(Batch& batch) {
  for (PyObject* array : batch.arrays) Py_DECREF(array);
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

Batch* NextBatch(std::vector<Batch>& batches, const std::vector<Batched>& batched,
                 npy_intp leading) {
  Batch* chosen = nullptr;
  int free_kept = 0;
  for (std::size_t b = 0; b < batches.size();) {
    Batch& batch = batches[b];
    if (!IsFree(batch)) {
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
  for (const Batched& observation : batched) {
    std::vector<npy_intp> shape = {leading};
    shape.insert(shape.end(), observation.shape.begin(), observation.shape.end());
    PyObject* array = NewOwnedObservationArray(observation.numpy_type, shape);
    if (array == nullptr) {
      Release(batch);
      return nullptr;
    }
    batch.arrays.push_back(array);
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
  if (state.rgb >= 0) {
    const std::size_t bytes = state.batched[state.rgb].slot_bytes;
    if (api.set_frame_target(context, out.slots[state.rgb] + i * bytes, bytes) != 0) {
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
    if (static_cast<int>(b) == state.rgb) continue;  // already rendered in place
    const Batched& observation = state.batched[b];
    EnvCApi_Observation value;
    if (api.observation(context, observation.index, &value) != 0) {
      instance.error = api.error_message(context);
      instance.needs_start = true;
      return;
    }
    // ABI observations are contiguous and row-major (env_c_api.h).
    const void* source = TensorPayload(value);
    std::memcpy(out.slots[b] + i * observation.slot_bytes, source, observation.slot_bytes);
  }
}

}  // namespace engine_plugin::python
