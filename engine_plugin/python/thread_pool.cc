#include "engine_plugin/python/thread_pool.h"

namespace engine_plugin::python {

ThreadPool::ThreadPool(int threads) {
  try {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { Work(i); });
  } catch (...) {
    // The system refused a thread: the destructor will not run, and a
    // joinable std::thread destroyed unjoined ends the process.
    Stop();
    throw;
  }
}

ThreadPool::~ThreadPool() { Stop(); }

void ThreadPool::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_.store(true, std::memory_order_relaxed);
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::Drain(int self) {
  auto claim = [this](int i) {
    return !claimed_[i].load(std::memory_order_relaxed) &&
           !claimed_[i].exchange(true, std::memory_order_relaxed);
  };
  const int stride = threads();
  for (int i = self; i < count_; i += stride) {
    if (claim(i)) (*task_)(i);
  }
  for (int i = 0; i < count_; ++i) {
    if (i % stride != self && claim(i)) (*task_)(i);
  }
}

void ThreadPool::Work(int self) {
  std::uint64_t seen = 0;
  auto called = [&] {
    return stopping_.load(std::memory_order_acquire) ||
           generation_.load(std::memory_order_acquire) != seen;
  };
  while (true) {
    if (!SpinUntil(called)) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, called);
    }
    if (stopping_.load(std::memory_order_acquire)) return;
    // The acquire load that saw the new generation also sees task_,
    // count_ and claimed_, written before its release store.
    seen = generation_.load(std::memory_order_acquire);
    Drain(self);
    if (busy_workers_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      // The last worker out: the caller may be asleep in Run. Under the
      // mutex, so the notification cannot fall between its check and its
      // wait.
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

void ThreadPool::Run(int count, absl::FunctionRef<void(int)> task) {
  if (workers_.empty() || count <= 1) {
    for (int i = 0; i < count; ++i) task(i);
    return;
  }
  {
    // Under the mutex, so that a worker deciding to sleep either sees the
    // new generation or is already waiting when notify_all comes.
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    count_ = count;
    if (count > claimed_size_) {
      claimed_ = std::make_unique<std::atomic<bool>[]>(count);
      claimed_size_ = count;
    }
    for (int i = 0; i < count; ++i) claimed_[i].store(false, std::memory_order_relaxed);
    busy_workers_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  Drain(0);
  // Every worker checks in, even one that woke after the tasks ran out, so
  // none can read task_ once Run has returned.
  auto finished = [&] { return busy_workers_.load(std::memory_order_acquire) == 0; };
  if (!SpinUntil(finished)) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, finished);
  }
  task_ = nullptr;
}

}  // namespace engine_plugin::python
