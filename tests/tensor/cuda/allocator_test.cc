#include "tensor/cuda/allocator.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/cuda/runtime.h"
#include "tensor/tensor.h"
#include "tests/tensor/cuda/cuda_test_support.h"

namespace tensor::cuda {
namespace {

using ::testing::HasSubstr;
using testing::CudaTest;

constexpr std::size_t kMiB = std::size_t{1} << 20;

// These need no device.

TEST(CudaBlockSizeTest, RoundsTo512BytesBelowOneMiBAndTo2MiBFromThere) {
  EXPECT_EQ(CudaBlockSize(0), 512u);
  EXPECT_EQ(CudaBlockSize(1), 512u);
  EXPECT_EQ(CudaBlockSize(512), 512u);
  EXPECT_EQ(CudaBlockSize(513), 1024u);
  EXPECT_EQ(CudaBlockSize(kMiB - 1), kMiB);
  EXPECT_EQ(CudaBlockSize(kMiB), 2 * kMiB);
  EXPECT_EQ(CudaBlockSize(2 * kMiB), 2 * kMiB);
  EXPECT_EQ(CudaBlockSize(2 * kMiB + 1), 4 * kMiB);
  EXPECT_EQ(CudaBlockSize(SIZE_MAX), 0u);
}

TEST(CudaAllocatorErrorTest, ANegativeDeviceIsAnError) {
  const absl::StatusOr<Allocator*> allocator = CudaAllocator(-1);
  ASSERT_FALSE(allocator.ok());
  EXPECT_EQ(allocator.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(allocator.status().message()), HasSubstr("CUDA device -1"));
}

TEST(CudaAllocatorErrorTest, ADeviceBeyondTheCountIsAnError) {
  const absl::StatusOr<Allocator*> allocator = CudaAllocator(DeviceCount());
  ASSERT_FALSE(allocator.ok());
  EXPECT_THAT(std::string(allocator.status().message()),
              HasSubstr(absl::StrCat("CUDA device ", DeviceCount())));
}

// These need a device.

class CudaAllocatorTest : public CudaTest {
 protected:
  void SetUp() override {
    CudaTest::SetUp();
    if (IsSkipped()) return;
    EmptyCache();
  }
};

TEST_F(CudaAllocatorTest, IsTheOneAllocatorOfItsDevice) {
  ASSERT_OK_AND_ASSIGN(Allocator * first, CudaAllocator(0));
  ASSERT_OK_AND_ASSIGN(Allocator * second, CudaAllocator(0));
  EXPECT_EQ(first, second);
  EXPECT_EQ(first->device(), Device::Cuda(0));
}

TEST_F(CudaAllocatorTest, ReusesAFreedBlockOfTheSameRoundedSize) {
  Allocator& gpu = Gpu();
  ASSERT_OK_AND_ASSIGN(void* first, gpu.Allocate(1000, false));
  gpu.Deallocate(first, 1000);
  EXPECT_EQ(CachedBytes(0), 1024u);
  ASSERT_OK_AND_ASSIGN(void* second, gpu.Allocate(1020, false));
  EXPECT_EQ(second, first);
  EXPECT_EQ(CachedBytes(0), 0u);
  gpu.Deallocate(second, 1020);
}

TEST_F(CudaAllocatorTest, KeepsABlockOfAnotherSizeForLater) {
  Allocator& gpu = Gpu();
  ASSERT_OK_AND_ASSIGN(void* small, gpu.Allocate(1000, false));
  gpu.Deallocate(small, 1000);
  ASSERT_OK_AND_ASSIGN(void* large, gpu.Allocate(3 * kMiB, false));
  EXPECT_NE(large, small);
  EXPECT_EQ(CachedBytes(0), 1024u);
  gpu.Deallocate(large, 3 * kMiB);
  EXPECT_EQ(CachedBytes(0), 1024u + 4 * kMiB);
}

TEST_F(CudaAllocatorTest, ZeroesAReusedBlock) {
  Allocator& gpu = Gpu();
  constexpr std::size_t kBytes = 4096;
  ASSERT_OK_AND_ASSIGN(void* dirty, gpu.Allocate(kBytes, false));
  ASSERT_EQ(cudaMemset(dirty, 0xab, kBytes), cudaSuccess);
  gpu.Deallocate(dirty, kBytes);
  ASSERT_OK_AND_ASSIGN(void* zeroed, gpu.Allocate(kBytes, true));
  ASSERT_EQ(zeroed, dirty);  // the same block, so the zeroing is what cleared it
  std::vector<unsigned char> host(kBytes, 0xff);
  ASSERT_EQ(cudaMemcpy(host.data(), zeroed, kBytes, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(host, std::vector<unsigned char>(kBytes, 0));
  gpu.Deallocate(zeroed, kBytes);
}

TEST_F(CudaAllocatorTest, ReturnsTheOldestBlocksPastTheCap) {
  Allocator& gpu = Gpu();
  const std::size_t block = kMaxCachedBytes / 4;
  std::vector<void*> blocks;
  for (int i = 0; i < 5; ++i) {
    ASSERT_OK_AND_ASSIGN(void* data, gpu.Allocate(block, false));
    blocks.push_back(data);
  }
  for (void* data : blocks) gpu.Deallocate(data, block);
  EXPECT_EQ(CachedBytes(0), kMaxCachedBytes);
  // The four newest come back, newest first; the oldest went to cudaFree.
  for (int i = 4; i >= 1; --i) {
    ASSERT_OK_AND_ASSIGN(void* data, gpu.Allocate(block, false));
    EXPECT_EQ(data, blocks[i]);
  }
  EXPECT_EQ(CachedBytes(0), 0u);
  for (int i = 1; i <= 4; ++i) gpu.Deallocate(blocks[i], block);
}

TEST_F(CudaAllocatorTest, DoesNotKeepABlockLargerThanTheCap) {
  Allocator& gpu = Gpu();
  const std::size_t bytes = kMaxCachedBytes + 2 * kMiB;
  ASSERT_OK_AND_ASSIGN(void* data, gpu.Allocate(bytes, false));
  gpu.Deallocate(data, bytes);
  EXPECT_EQ(CachedBytes(0), 0u);
}

TEST_F(CudaAllocatorTest, EmptyCacheFreesEveryKeptBlock) {
  Allocator& gpu = Gpu();
  ASSERT_OK_AND_ASSIGN(void* a, gpu.Allocate(100, false));
  ASSERT_OK_AND_ASSIGN(void* b, gpu.Allocate(5 * kMiB, false));
  gpu.Deallocate(a, 100);
  gpu.Deallocate(b, 5 * kMiB);
  EXPECT_EQ(CachedBytes(0), 512u + 6 * kMiB);
  EmptyCache();
  EXPECT_EQ(CachedBytes(0), 0u);
}

TEST_F(CudaAllocatorTest, TakesBackABlockFreedOnAnotherThread) {
  Allocator& gpu = Gpu();
  ASSERT_OK_AND_ASSIGN(void* data, gpu.Allocate(64 * 1024, false));
  std::thread other([&] { gpu.Deallocate(data, 64 * 1024); });
  other.join();
  ASSERT_OK_AND_ASSIGN(void* again, gpu.Allocate(64 * 1024, false));
  EXPECT_EQ(again, data);
  gpu.Deallocate(again, 64 * 1024);
}

TEST_F(CudaAllocatorTest, SurvivesThreadsAllocatingAndFreeingAtOnce) {
  Allocator& gpu = Gpu();
  std::vector<std::thread> threads;
  std::vector<absl::Status> failures(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&gpu, &failures, t] {
      std::vector<std::pair<void*, std::size_t>> held;
      for (int i = 0; i < 500; ++i) {
        const std::size_t bytes = 512 * static_cast<std::size_t>(1 + (i * 7 + t) % 9);
        absl::StatusOr<void*> data = gpu.Allocate(bytes, i % 3 == 0);
        if (!data.ok()) {
          failures[t] = data.status();
          break;
        }
        held.emplace_back(*data, bytes);
        if (held.size() > 8) {
          gpu.Deallocate(held.front().first, held.front().second);
          held.erase(held.begin());
        }
      }
      for (const auto& [data, bytes] : held) gpu.Deallocate(data, bytes);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const absl::Status& s : failures) EXPECT_TRUE(s.ok()) << s;
  EXPECT_LE(CachedBytes(0), kMaxCachedBytes);
}

TEST_F(CudaAllocatorTest, AnImpossibleAllocationIsResourceExhausted) {
  const std::size_t bytes = std::size_t{1} << 50;
  const absl::StatusOr<void*> data = Gpu().Allocate(bytes, false);
  ASSERT_FALSE(data.ok());
  EXPECT_EQ(data.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(data.status().message()), HasSubstr(absl::StrCat(bytes, " bytes")));
  EXPECT_THAT(std::string(data.status().message()), HasSubstr("cuda:0"));
  // The failure left no error behind for the next CUDA call.
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(CudaAllocatorTest, LeavesTheCurrentDeviceAsItWas) {
  const int last = DeviceCount() - 1;
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  ASSERT_OK_AND_ASSIGN(Allocator * allocator, CudaAllocator(last));
  ASSERT_OK_AND_ASSIGN(void* data, allocator->Allocate(1 << 20, true));
  cudaPointerAttributes attributes;
  ASSERT_EQ(cudaPointerGetAttributes(&attributes, data), cudaSuccess);
  EXPECT_EQ(attributes.device, last);
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, 0);
  allocator->Deallocate(data, 1 << 20);
}

TEST_F(CudaAllocatorTest, BacksZeroFilledTensors) {
  ASSERT_OK_AND_ASSIGN(Tensor t, Tensor::Zeros(DType::kFloat32, {3, 5}, Gpu()));
  EXPECT_EQ(t.device(), Device::Cuda(0));
  EXPECT_EQ(testing::HostBytes(t), std::vector<unsigned char>(3 * 5 * sizeof(float), 0));
}

}  // namespace
}  // namespace tensor::cuda
