#include "tensor/allocator.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tensor {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// Freed blocks kept for reuse. A workload allocates the same shapes step
// after step, and a fresh block costs page faults, which on this machine
// kind cost more than the work on the block: allocating and zeroing a new
// 512 KiB block took 300-400 us, refilling a used one 15-30 us. Blocks are
// matched by exact rounded size, newest first; past the bounds below the
// oldest go back to malloc. Under AddressSanitizer nothing is kept, so a
// read of freed storage is still reported.
class BlockCache {
 public:
  static constexpr std::size_t kMinBlock = std::size_t{16} << 10;
  static constexpr std::size_t kMaxBlock = std::size_t{16} << 20;
  static constexpr std::size_t kMaxBytes = kAddressSanitizer ? 0 : std::size_t{64} << 20;
  static constexpr std::size_t kMaxBlocks = 32;

  // A kept block of exactly `size` bytes, or null.
  void* Take(std::size_t size) {
    if (!Cacheable(size)) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
      if (it->size != size) continue;
      void* data = it->data;
      blocks_.erase(std::next(it).base());
      bytes_ -= size;
      return data;
    }
    return nullptr;
  }

  // Keeps `data` for a later Take, or frees it.
  void Give(void* data, std::size_t size) {
    if (!Cacheable(size)) {
      std::free(data);
      return;
    }
    std::vector<Block> evicted;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      blocks_.push_back({data, size});
      bytes_ += size;
      std::size_t oldest = 0;
      while (bytes_ > kMaxBytes || blocks_.size() - oldest > kMaxBlocks) {
        bytes_ -= blocks_[oldest].size;
        evicted.push_back(blocks_[oldest++]);
      }
      blocks_.erase(blocks_.begin(), blocks_.begin() + oldest);
    }
    for (const Block& block : evicted) std::free(block.data);
  }

 private:
  struct Block {
    void* data;
    std::size_t size;
  };

  static bool Cacheable(std::size_t size) {
    return size >= kMinBlock && size <= kMaxBlock && size <= kMaxBytes;
  }

  std::mutex mutex_;
  std::vector<Block> blocks_;  // oldest first
  std::size_t bytes_ = 0;
};

// Blocks of up to kSmallBytes come from malloc, aligned by hand:
// aligned_alloc bypasses malloc's per-thread cache, and its splitting made
// a clone of four doubles spend half its time in malloc and free, while
// small tensors come and go at every level callback. The block's malloc
// address is kept just below it.
constexpr std::size_t kSmallBytes = 512;

void* AllocateSmall(std::size_t rounded) {
  void* const base = std::malloc(rounded + kCpuAlignment + sizeof(void*));
  if (base == nullptr) return nullptr;
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(base) + sizeof(void*);
  void** const block =
      reinterpret_cast<void**>((first + kCpuAlignment - 1) & ~(std::uintptr_t{kCpuAlignment} - 1));
  block[-1] = base;
  return block;
}

void FreeSmall(void* block) { std::free(static_cast<void**>(block)[-1]); }

class CpuAllocatorImpl final : public Allocator {
 public:
  Device device() const override { return Device::Cpu(); }

  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    const std::size_t rounded = Rounded(bytes);
    if (rounded < bytes) return TooLarge(bytes);
    void* data;
    if (rounded <= kSmallBytes) {
      data = AllocateSmall(rounded);
      if (data == nullptr) return TooLarge(bytes);
    } else if (data = cache_.Take(rounded); data == nullptr) {
      data = std::aligned_alloc(Alignment(bytes), rounded);
      if (data == nullptr) return TooLarge(bytes);
      // Advice only: where THP is off this fails harmlessly.
      if (bytes >= kHugePage) madvise(data, rounded, MADV_HUGEPAGE);
    }
    if (zeroed) std::memset(data, 0, bytes);
    return data;
  }

  void Deallocate(void* data, std::size_t bytes) override {
    const std::size_t rounded = Rounded(bytes);
    if (rounded <= kSmallBytes) {
      FreeSmall(data);
    } else {
      cache_.Give(data, rounded);
    }
  }

 private:
  // Large blocks are aligned to and backed by transparent huge pages: with
  // 4 KiB pages, TLB misses cost a memory-bound kernel on this machine kind
  // half its speed (memcpy of 8 MB: 1.5 vs 0.8 ns/double).
  static std::size_t Alignment(std::size_t bytes) {
    return bytes >= kHugePage ? kHugePage : kCpuAlignment;
  }

  // aligned_alloc needs a multiple of the alignment, and a zero-byte
  // tensor still gets a unique, valid pointer. Less than `bytes` on
  // overflow.
  static std::size_t Rounded(std::size_t bytes) {
    const std::size_t alignment = Alignment(bytes);
    if (bytes == 0) return alignment;
    return (bytes + alignment - 1) / alignment * alignment;
  }

  static absl::Status TooLarge(std::size_t bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot allocate ", bytes, " bytes of CPU memory"));
  }

  BlockCache cache_;
};

}  // namespace

Allocator& CpuAllocator() {
  static CpuAllocatorImpl* const allocator = new CpuAllocatorImpl;
  return *allocator;
}

}  // namespace tensor
