#include "tensor/allocator.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tensor {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

class CpuAllocatorImpl final : public Allocator {
 public:
  Device device() const override { return Device::Cpu(); }

  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    // Large blocks are aligned to and backed by transparent huge pages:
    // with 4 KiB pages, TLB misses cost a memory-bound kernel on this
    // machine kind half its speed (memcpy of 8 MB: 1.5 vs 0.8 ns/double).
    const bool huge = bytes >= kHugePage;
    const std::size_t alignment = huge ? kHugePage : kCpuAlignment;
    // aligned_alloc needs a multiple of the alignment, and a zero-byte
    // tensor still gets a unique, valid pointer.
    const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    if (rounded < bytes) return TooLarge(bytes);
    void* data = std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
    if (data == nullptr) return TooLarge(bytes);
    // Advice only: where THP is off this fails harmlessly.
    if (huge) madvise(data, rounded, MADV_HUGEPAGE);
    if (zeroed) std::memset(data, 0, bytes);
    return data;
  }

  void Deallocate(void* data, std::size_t) override { std::free(data); }

 private:
  static absl::Status TooLarge(std::size_t bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot allocate ", bytes, " bytes of CPU memory"));
  }
};

}  // namespace

Allocator& CpuAllocator() {
  static CpuAllocatorImpl* const allocator = new CpuAllocatorImpl;
  return *allocator;
}

}  // namespace tensor
