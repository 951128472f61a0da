// vector_async.h: labenv.VectorLab's asynchronous calls, EnvPool's
// contract. send(actions, env_ids) hands those envs their actions and
// returns at once; the envs step on worker threads; recv() waits for the
// first batch_size envs to finish, whichever they are, and returns their
// observations, results and ids in the order they finished. A slow env
// holds up only itself, where step() waits for the slowest of all n.
//
// An env is "in flight" from send until recv returns it: sending it again
// before is an error, and so are reset() and step() while any env is in
// flight. Each env's next step is what step() would give it (autoreset,
// seeds and episode numbers alike), so the same actions give the same
// episodes in either form. async_reset() starts every env as reset()
// does, and recv() then returns their first frames.
//
// Each env writes into its own slot of a staging area, and recv copies
// the envs it returns into one batch buffer of batch_size (vector_state.h's
// buffers: a batch never changes under whoever keeps it).
//
// Example (Python):
//   envs = labenv.VectorLab(8, 'demo_maze', ['RGB_INTERLEAVED'], batch_size=4)
//   envs.async_reset(seed=0)
//   while True:
//     obs, reward, terminated, truncated, env_ids = envs.recv()  # 4 envs
//     envs.send(policy(obs), env_ids)
#ifndef ENGINE_PLUGIN_PYTHON_VECTOR_ASYNC_H_
#define ENGINE_PLUGIN_PYTHON_VECTOR_ASYNC_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/types/span.h"
#include "engine_plugin/python/numpy_api.h"
#include "engine_plugin/python/vector_state.h"

namespace engine_plugin::python {

// The workers and queues of the asynchronous calls, and the staging area
// the envs write into. Send and Receive are for one caller at a time.
class AsyncSteps {
 public:
  // Starts `workers` threads (VectorLab's num_threads) that step `state`'s
  // instances. The caller of Receive only waits: a step it took itself
  // would hold up its return (a slow env would hold up the batch, which is
  // what send/recv is for avoiding). Throws std::system_error when the
  // system refuses a thread.
  AsyncSteps(VectorState& state, int workers);
  // Waits for the steps under way; drops those not begun.
  ~AsyncSteps();

  // Queues a step of each env. REQUIRES: none of them in flight.
  void Send(absl::Span<const int> envs);
  // Waits until `count` envs have finished and takes them, in the order
  // they finished. Called without the GIL.
  // REQUIRES: count <= count_in_flight().
  std::vector<int> Receive(int count);
  // Puts envs that Receive took back, first in line for the next Receive.
  void PutBack(absl::Span<const int> envs);

  bool in_flight(int env) const { return in_flight_[env]; }
  int count_in_flight() const { return count_in_flight_; }
  const StepOutput& output() const { return output_; }

  AsyncSteps(const AsyncSteps&) = delete;
  AsyncSteps& operator=(const AsyncSteps&) = delete;

 private:
  void Work();
  void Stop();
  // Steps `env` and adds it to done_.
  void Step(int env);
  // The first queued env. REQUIRES: mutex_ held, queued_ not empty.
  int TakeQueued();

  VectorState& state_;
  // The staging area: instance i's observation b at slots[b] + i * slot
  // bytes, and its results.
  std::vector<std::vector<std::uint8_t>> staging_;
  std::vector<double> reward_;
  std::vector<npy_bool> terminated_, truncated_;
  StepOutput output_;
  // Only the caller's thread reads and writes these.
  std::vector<bool> in_flight_;
  int count_in_flight_ = 0;

  std::mutex mutex_;
  std::condition_variable work_;      // a step is queued, or stopping
  std::condition_variable finished_;  // a step finished
  std::deque<int> queued_;            // under mutex_
  std::deque<int> done_;              // under mutex_, in the order they finished
  bool stopping_ = false;             // under mutex_
  // Copies of queued_.size() and done_.size(), for spinning without the mutex.
  std::atomic<int> queued_count_{0};
  std::atomic<int> done_count_{0};
  std::vector<std::thread> workers_;
};

// The Python methods, for VectorLab's method table (vector_lab.cc).
PyObject* VectorLabSend(PyObject* self, PyObject* args, PyObject* kwargs);
PyObject* VectorLabRecv(PyObject* self, PyObject* unused);
PyObject* VectorLabAsyncReset(PyObject* self, PyObject* args, PyObject* kwargs);

// Fails (RuntimeError) if any env is in flight: reset() and step() first
// need every env back.
bool NoneInFlight(const VectorState& state, const char* call);

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_VECTOR_ASYNC_H_
