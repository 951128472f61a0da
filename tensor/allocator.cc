#include "tensor/allocator.h"

#include <cstdlib>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tensor {
namespace {

class CpuAllocatorImpl final : public Allocator {
 public:
  Device device() const override { return Device::Cpu(); }

  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    // aligned_alloc needs a multiple of the alignment, and a zero-byte
    // tensor still gets a unique, valid pointer.
    const std::size_t rounded = (bytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
    if (rounded < bytes) return TooLarge(bytes);
    void* data = std::aligned_alloc(kCpuAlignment, rounded == 0 ? kCpuAlignment : rounded);
    if (data == nullptr) return TooLarge(bytes);
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
