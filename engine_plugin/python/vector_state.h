// vector_state.h: what labenv.VectorLab's lock-step calls (vector_lab.cc)
// and its asynchronous ones (vector_async.cc) share: the engine instances,
// the batched observations and their buffers, and the stepping of one
// instance, which runs on a worker thread without the GIL.
//
// Example (inside a method, the GIL held):
//   VectorState* state = Usable(self);
//   Batch* batch = NextBatch(state->batches, *state, state->n);
#ifndef ENGINE_PLUGIN_PYTHON_VECTOR_STATE_H_
#define ENGINE_PLUGIN_PYTHON_VECTOR_STATE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine_plugin/python/actions.h"
#include "engine_plugin/python/env_support.h"
#include "engine_plugin/python/numpy_api.h"
#include "engine_plugin/python/thread_pool.h"

namespace engine_plugin::python {

class AsyncSteps;

// One engine instance of the vector and what its last step produced.
struct Instance {
  Connection connection;
  // The next episode to start; atomic because a worker of the
  // asynchronous calls may start one while Python reads `episodes`.
  std::atomic<int> episode{0};
  bool needs_start = true;
  int num_steps = 1;  // of its next asynchronous step
  std::string error;  // the last step's, "" if none
};

// One requested observation: where it is in the engine and its slot size.
struct Batched {
  int index;
  int numpy_type;
  std::vector<npy_intp> shape;  // one observation's, without the leading batch
  std::size_t slot_bytes;
};

// One buffer: an array per requested observation, owned by the vector.
// With several players' frames rendered in place, `frames` is one array
// of all of them (leading x players x H x W x 3) and their arrays are
// views of it, one player each.
struct Batch {
  std::vector<PyObject*> arrays;
  PyObject* frames = nullptr;
};

// Where a step writes: each observation's slots (instance i at
// slots[b] + i * strides[b]) and each instance's results. With
// frames_in_place the engines render their frames into their slots.
struct StepOutput {
  std::vector<std::uint8_t*> slots;
  std::vector<std::size_t> strides;
  bool frames_in_place = true;
  double* reward;
  npy_bool* terminated;
  npy_bool* truncated;
};

struct VectorState {
  int n = 0;
  std::vector<std::unique_ptr<Instance>> instances;
  std::vector<Batched> batched;
  std::vector<PyObject*> keys;  // owned
  // Positions in `batched` of the frames the engines render in place, in
  // player order: RGB_INTERLEAVED, or every player's 1.RGB_INTERLEAVED,
  // 2.RGB_INTERLEAVED, ... (each instance's lie together, one target);
  // empty when they are copied like any other observation.
  std::vector<int> frames;
  std::vector<Batch> batches;   // of n, for reset and step
  std::unique_ptr<ThreadPool> pool;
  StepActions actions;  // n rows
  std::uint64_t base_seed = 0;
  // Env i's episode k gets base_seed + seed_offset + i + k * seed_stride:
  // a shard of a larger batch (labenv.distributed) gives its envs the
  // seeds they would have in one VectorLab of the whole batch.
  std::uint64_t seed_offset = 0;
  std::uint64_t seed_stride = 0;
  // Base seeds for reset(seed=None), in [0, 2**31) as Lab draws them.
  std::mt19937 seeds{std::random_device{}()};
  bool reset_done = false;
  bool closed = false;
  bool busy = false;  // a call runs without the GIL
  // The asynchronous calls (vector_async.h): recv's batch size, the
  // buffers of its batches, and the workers, made on the first send.
  int batch_size = 0;
  std::vector<Batch> async_batches;  // of batch_size
  std::unique_ptr<AsyncSteps> async;

  ~VectorState();
};

struct VectorLabObject {
  PyObject_HEAD
  VectorState* state;
};

inline VectorState* StateOf(PyObject* self) {
  return reinterpret_cast<VectorLabObject*>(self)->state;
}

// The state of an initialised, open VectorLab that no other thread is
// using; null with a RuntimeError otherwise.
VectorState* Usable(PyObject* self);

// A free buffer of `batches` whose arrays have a leading dimension
// `leading` (a new one if Python holds every buffer), keeping at most two
// free others. Null with a Python error set if allocating fails.
Batch* NextBatch(std::vector<Batch>& batches, const VectorState& state, npy_intp leading);

// The bytes from one instance's slot of observation b to the next in a
// NextBatch buffer: its size, or every player's frames' for a frame
// rendered in place with several players.
std::size_t RowStride(const VectorState& state, int b);

// A new 1-D array of n results (rewards, flags, ids).
inline PyObject* NewResultArray(int numpy_type, npy_intp n) {
  return PyArray_SimpleNew(1, &n, numpy_type);
}

// The seed of instance i's episode.
std::uint64_t EpisodeSeed(const VectorState& state, int instance, int episode);

// Steps (or starts) instance i with its row of state.actions, writing into
// `out`; `num_steps` frames a step. Runs without the GIL; on failure
// instance i's error says why and its next step starts an episode.
void StepInstance(VectorState& state, const StepOutput& out, int num_steps, int i);

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_VECTOR_STATE_H_
