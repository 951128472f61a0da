// ThreadPool (engine_plugin/python/thread_pool.h): every task of every
// batch runs exactly once and has finished when Run returns, whether the
// workers are spinning for the next batch or asleep, and the workers do
// share the work.
#include "engine_plugin/python/thread_pool.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace engine_plugin::python {
namespace {

// Runs `batches` batches of `count` tasks, waiting `gap` between them, and
// checks that each task ran once per batch, before Run returned.
void RunBatches(ThreadPool& pool, int batches, int count, std::chrono::microseconds gap) {
  std::vector<std::atomic<int>> runs(count);
  for (int batch = 0; batch < batches; ++batch) {
    pool.Run(count, [&](int i) { runs[i].fetch_add(1, std::memory_order_relaxed); });
    for (int i = 0; i < count; ++i) {
      ASSERT_EQ(runs[i].load(std::memory_order_relaxed), batch + 1)
          << "task " << i << " of batch " << batch;
    }
    if (gap.count() > 0) std::this_thread::sleep_for(gap);
  }
}

TEST(ThreadPoolTest, BatchesBackToBackRunEveryTaskOnce) {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    RunBatches(pool, 2000, 8, std::chrono::microseconds(0));
    RunBatches(pool, 200, 1, std::chrono::microseconds(0));
    RunBatches(pool, 200, 0, std::chrono::microseconds(0));
  }
}

TEST(ThreadPoolTest, BatchesAfterTheWorkersSleptRunEveryTaskOnce) {
  ThreadPool pool(3);
  // Gaps on both sides of the spin: the workers are woken, or still spinning.
  RunBatches(pool, 20, 16, ThreadPool::kSpin * 5);
  RunBatches(pool, 50, 16, ThreadPool::kSpin / 4);
}

TEST(ThreadPoolTest, RunWaitsForTasksThatOutlastTheSpin) {
  ThreadPool pool(2);
  std::atomic<int> finished{0};
  pool.Run(2, [&](int) {
    std::this_thread::sleep_for(ThreadPool::kSpin * 10);
    finished.fetch_add(1);
  });
  EXPECT_EQ(finished.load(), 2);
}

TEST(ThreadPoolTest, WorkersShareABatch) {
  ThreadPool pool(2);
  std::mutex mutex;
  std::set<std::thread::id> seen;
  // Tasks long enough that the caller alone cannot take them all before the
  // worker wakes.
  pool.Run(8, [&](int) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::lock_guard<std::mutex> lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  EXPECT_EQ(seen.size(), 2u);
}

TEST(ThreadPoolTest, StopsWhileSpinningOrAsleep) {
  { ThreadPool spinning(4); RunBatches(spinning, 10, 4, std::chrono::microseconds(0)); }
  ThreadPool* asleep = new ThreadPool(4);
  RunBatches(*asleep, 10, 4, std::chrono::microseconds(0));
  std::this_thread::sleep_for(ThreadPool::kSpin * 5);
  delete asleep;
}

}  // namespace
}  // namespace engine_plugin::python
