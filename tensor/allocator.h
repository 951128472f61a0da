// Allocator: the seam through which owned storage gets its bytes.
//
// Each device has one allocator. The CPU allocator hands out 64-byte
// aligned blocks (one cache line, the widest vector register); blocks of
// 2 MiB and more are aligned to 2 MiB and advised to use huge pages. It
// keeps a bounded number of freed blocks (16 KiB to 16 MiB, at most 64 MiB
// in all) and hands them out again for the same size, because fresh pages
// cost more to fault in than most work on them. Blocks of up to 512 bytes
// come from malloc's own caches, aligned by hand, since small tensors come
// and go at every level callback. A CUDA allocator plugs in
// here later without changing Storage.
//
// Example:
//   Allocator& cpu = CpuAllocator();
//   absl::StatusOr<void*> block = cpu.Allocate(1024, /*zeroed=*/true);
//   cpu.Deallocate(*block, 1024);
#ifndef TENSOR_ALLOCATOR_H_
#define TENSOR_ALLOCATOR_H_

#include <cstddef>

#include "absl/status/statusor.h"
#include "tensor/device.h"

namespace tensor {

class Allocator {
 public:
  virtual ~Allocator() = default;

  virtual Device device() const = 0;

  // A block of `bytes` bytes, zero-filled if `zeroed`. Fails with
  // ResourceExhausted rather than throwing or aborting.
  virtual absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) = 0;

  // Returns a block from Allocate with the same `bytes`.
  virtual void Deallocate(void* data, std::size_t bytes) = 0;
};

// Alignment of every CPU block, in bytes.
inline constexpr std::size_t kCpuAlignment = 64;

// The process-wide CPU allocator. Thread-safe.
Allocator& CpuAllocator();

}  // namespace tensor

#endif  // TENSOR_ALLOCATOR_H_
