// thread_pool.h: a fixed set of threads that run one batch of indexed
// tasks at a time, for VectorLab's lock-step engine instances.
//
// Run(count, task) calls task(0) .. task(count - 1), each exactly once,
// spread over the pool's threads and the calling thread, and returns when
// all have finished (and no thread touches `task` any more). Tasks are
// taken in index order from a shared counter, so a slow instance does not
// hold up the others' threads. Run is for one caller at a time.
//
// Example:
//   ThreadPool pool(2);                      // the caller plus one thread
//   pool.Run(8, [&](int i) { Step(envs[i]); });
#ifndef ENGINE_PLUGIN_PYTHON_THREAD_POOL_H_
#define ENGINE_PLUGIN_PYTHON_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/functional/function_ref.h"

namespace labenv {

class ThreadPool {
 public:
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
  void Work();
  // Wakes the workers to exit and joins them.
  void Stop();
  // Takes and runs tasks of the current batch until none are left.
  void Drain();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::uint64_t generation_ = 0;  // one per Run; wakes the workers
  int busy_workers_ = 0;          // workers still inside this batch
  bool stopping_ = false;
  const absl::FunctionRef<void(int)>* task_ = nullptr;
  int count_ = 0;
  std::atomic<int> next_{0};
  std::vector<std::thread> workers_;
};

}  // namespace labenv

#endif  // ENGINE_PLUGIN_PYTHON_THREAD_POOL_H_
