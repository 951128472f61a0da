#include "tensor/cuda/allocator.h"

#include <cuda_runtime_api.h>

#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/cuda/runtime.h"

namespace tensor::cuda {
namespace {

constexpr std::size_t kSmallGranule = 512;
constexpr std::size_t kLargeGranule = std::size_t{2} << 20;
constexpr std::size_t kLargeFrom = std::size_t{1} << 20;

// Freed blocks of one device, matched by exact size, newest first, so the
// block handed out is the one most likely still in the L2 cache.
class BlockCache {
 public:
  // A kept block of exactly `size` bytes, or null.
  void* Take(std::size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = by_size_.find(size);
    if (found == by_size_.end()) return nullptr;
    std::deque<Age>& blocks = found->second;
    const Age newest = blocks.back();
    blocks.pop_back();
    if (blocks.empty()) by_size_.erase(found);
    void* data = newest->data;
    by_age_.erase(newest);
    bytes_ -= size;
    return data;
  }

  // Keeps `data` for a later Take. Returns the oldest blocks that no
  // longer fit under kMaxCachedBytes; the caller frees them outside the
  // lock.
  std::vector<void*> Give(void* data, std::size_t size) {
    // Keeping it would only push every other block out.
    if (size > kMaxCachedBytes) return {data};
    std::vector<void*> evicted;
    std::lock_guard<std::mutex> lock(mutex_);
    by_age_.push_back({data, size});
    by_size_[size].push_back(std::prev(by_age_.end()));
    bytes_ += size;
    while (bytes_ > kMaxCachedBytes) evicted.push_back(PopOldest());
    return evicted;
  }

  // Every kept block, removed from the cache.
  std::vector<void*> TakeAll() {
    std::vector<void*> all;
    std::lock_guard<std::mutex> lock(mutex_);
    while (!by_age_.empty()) all.push_back(PopOldest());
    return all;
  }

  std::size_t bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return bytes_;
  }

 private:
  struct Block {
    void* data;
    std::size_t size;
  };
  using Age = std::list<Block>::iterator;

  // REQUIRES: mutex_ held, by_age_ not empty.
  void* PopOldest() {
    const Block oldest = by_age_.front();
    // Both lists are oldest first, so the oldest block overall is the
    // oldest of its size.
    auto found = by_size_.find(oldest.size);
    found->second.pop_front();
    if (found->second.empty()) by_size_.erase(found);
    by_age_.pop_front();
    bytes_ -= oldest.size;
    return oldest.data;
  }

  mutable std::mutex mutex_;
  std::list<Block> by_age_;  // oldest first
  std::unordered_map<std::size_t, std::deque<Age>> by_size_;  // each oldest first
  std::size_t bytes_ = 0;
};

class CachingAllocator final : public Allocator {
 public:
  explicit CachingAllocator(int device) : device_(device) {}

  Device device() const override { return Device::Cuda(device_); }

  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    const std::size_t size = CudaBlockSize(bytes);
    if (size == 0) return Exhausted(bytes, "the size overflows");
    void* data = cache_.Take(size);
    absl::Status status = OnDevice(device_, [&] {
      if (data == nullptr) {
        cudaError_t error = cudaMalloc(&data, size);
        if (error == cudaErrorMemoryAllocation) {
          // Kept blocks may be what fills the device: give them back and
          // try once more.
          cudaGetLastError();
          FreeAll(cache_.TakeAll());
          error = cudaMalloc(&data, size);
        }
        if (error != cudaSuccess) {
          cudaGetLastError();
          data = nullptr;
          return Exhausted(bytes, cudaGetErrorString(error));
        }
      }
      if (!zeroed) return absl::OkStatus();
      // Synchronised: a peer copy from another device's stream must not
      // overtake the zeroing.
      if (absl::Status s = CudaStatus(cudaMemsetAsync(data, 0, bytes, 0), "cudaMemsetAsync");
          !s.ok()) {
        return s;
      }
      return CudaStatus(cudaStreamSynchronize(0), "cudaStreamSynchronize");
    });
    if (!status.ok()) {
      if (data != nullptr) Deallocate(data, bytes);
      return status;
    }
    return data;
  }

  void Deallocate(void* data, std::size_t bytes) override {
    FreeAll(cache_.Give(data, CudaBlockSize(bytes)));
  }

  void EmptyCache() { FreeAll(cache_.TakeAll()); }

  std::size_t cached_bytes() const { return cache_.bytes(); }

 private:
  absl::Status Exhausted(std::size_t bytes, const char* reason) const {
    return absl::ResourceExhaustedError(absl::StrCat("cannot allocate ", bytes,
                                                     " bytes of CUDA memory on ",
                                                     device().ToString(), ": ", reason));
  }

  // NB: Deallocate cannot report an error, and a failing cudaFree means
  // the context is already broken (the next call reports that), so its
  // status is dropped here.
  void FreeAll(const std::vector<void*>& blocks) {
    if (blocks.empty()) return;
    OnDevice(device_, [&] {
      for (void* block : blocks) cudaFree(block);
      return absl::OkStatus();
    }).IgnoreError();
  }

  const int device_;
  BlockCache cache_;
};

// Allocators by device index, created on first use. Never destroyed: a
// tensor held by a static may free its storage after main returns.
class Registry {
 public:
  CachingAllocator& Get(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (static_cast<std::size_t>(device) >= allocators_.size()) {
      allocators_.resize(device + 1);
    }
    std::unique_ptr<CachingAllocator>& allocator = allocators_[device];
    if (allocator == nullptr) allocator = std::make_unique<CachingAllocator>(device);
    return *allocator;
  }

  // The allocators created so far.
  std::vector<CachingAllocator*> All() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<CachingAllocator*> all;
    for (const auto& allocator : allocators_) {
      if (allocator != nullptr) all.push_back(allocator.get());
    }
    return all;
  }

  CachingAllocator* Find(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (device < 0 || static_cast<std::size_t>(device) >= allocators_.size()) return nullptr;
    return allocators_[device].get();
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<CachingAllocator>> allocators_;
};

Registry& Allocators() {
  static Registry* const registry = new Registry;
  return *registry;
}

}  // namespace

std::size_t CudaBlockSize(std::size_t bytes) {
  // A zero-byte tensor still gets a unique, valid pointer.
  if (bytes == 0) return kSmallGranule;
  const std::size_t granule = bytes < kLargeFrom ? kSmallGranule : kLargeGranule;
  if (bytes > SIZE_MAX - (granule - 1)) return 0;
  return (bytes + granule - 1) / granule * granule;
}

absl::StatusOr<Allocator*> CudaAllocator(int device) {
  if (absl::Status s = CheckDevice(device); !s.ok()) return s;
  return &Allocators().Get(device);
}

void EmptyCache() {
  for (CachingAllocator* allocator : Allocators().All()) allocator->EmptyCache();
}

std::size_t CachedBytes(int device) {
  const CachingAllocator* allocator = Allocators().Find(device);
  return allocator == nullptr ? 0 : allocator->cached_bytes();
}

}  // namespace tensor::cuda
