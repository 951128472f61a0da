// thread_pool.h: a fixed set of threads that run one batch of indexed
// tasks at a time, for VectorLab's lock-step engine instances.
//
// Run(count, task) calls task(0) .. task(count - 1), each exactly once,
// spread over the pool's threads and the calling thread, and returns when
// all have finished (and no thread touches `task` any more). Run is for
// one caller at a time.
//
// Each thread owns a fixed share of the indices (thread t of T: those with
// i % T == t), so an engine instance steps on the same core batch after
// batch and finds its state in that core's cache; a thread that finishes
// its share takes tasks not yet claimed from the others', so a slow
// instance does not hold up the rest.
//
// Batches come back to back (an agent steps, acts, steps), and one batch
// is a few hundred microseconds of work: waking a sleeping thread through
// the kernel costs tens of microseconds on a virtual machine, so a
// two-thread pool ran slower than one thread. So each worker spins for a
// while (kSpin) after a batch before it sleeps, and Run spins while the
// workers finish their last tasks before it sleeps: a batch that follows
// within kSpin, and the ends of batches, cost no system call.
//
// Example:
//   ThreadPool pool(2);                      // the caller plus one thread
//   pool.Run(8, [&](int i) { Step(envs[i]); });
#ifndef ENGINE_PLUGIN_PYTHON_THREAD_POOL_H_
#define ENGINE_PLUGIN_PYTHON_THREAD_POOL_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/functional/function_ref.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace engine_plugin::python {

class ThreadPool {
 public:
  // How long a thread spins for the next batch (a worker) or for the end of
  // this one (the caller of Run) before it sleeps.
  static constexpr std::chrono::microseconds kSpin{200};

  // `threads` >= 1 counts the caller of Run, so threads - 1 are started.
  // Throws std::system_error when the system refuses a thread (having
  // stopped those it started).
  explicit ThreadPool(int threads);
  ~ThreadPool();

  void Run(int count, absl::FunctionRef<void(int)> task);

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

 private:
  // The loop of worker `self` (1 .. threads - 1; the caller of Run
  // is 0).
  void Work(int self);
  // Wakes the workers to exit and joins them.
  void Stop();
  // Runs thread `self`'s share of the current batch, then any task of it
  // no thread has claimed yet.
  void Drain(int self);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  // One per Run; written under mutex_, read by spinning workers without it.
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<bool> stopping_{false};
  std::atomic<int> busy_workers_{0};  // workers still inside this batch
  const absl::FunctionRef<void(int)>* task_ = nullptr;
  int count_ = 0;
  // claimed_[i]: some thread has taken task i of this batch. Grows to the
  // largest count run; reset by Run before it publishes a batch.
  std::unique_ptr<std::atomic<bool>[]> claimed_;
  int claimed_size_ = 0;
  std::vector<std::thread> workers_;
};

// Spins until done() or for ThreadPool::kSpin, telling the core (and its
// hyperthread twin) that this thread waits; whether done() came true.
// VectorLab's asynchronous calls wait so too (vector_async.cc).
template <typename Done>
bool SpinUntil(Done done) {
  const auto until = std::chrono::steady_clock::now() + ThreadPool::kSpin;
  while (!done()) {
    for (int i = 0; i < 64; ++i) {
#if defined(__x86_64__)
      _mm_pause();
#else
      std::this_thread::yield();
#endif
    }
    if (std::chrono::steady_clock::now() >= until) return done();
  }
  return true;
}

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_THREAD_POOL_H_
