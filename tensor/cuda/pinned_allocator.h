// PinnedHostAllocator: a tensor::Allocator of page-locked host memory.
//
// A copy between the host and a device reads page-locked memory by DMA
// straight from where it lies; pageable memory is first copied by the
// driver into a page-locked buffer of its own. A buffer that is filled on
// the host and uploaded again and again (an engine's frame) is worth
// allocating here. cudaHostAlloc and cudaFreeHost are slow, so callers
// allocate once and reuse; nothing is cached here.
//
// Tensors over this memory are CPU tensors (device() is Device::Cpu()):
// every CPU operation works on them.
//
// Example:
//   absl::StatusOr<Allocator*> pinned = tensor::cuda::PinnedHostAllocator();
//   absl::StatusOr<Tensor> frame = Tensor::Uninitialized(DType::kUInt8, {84, 84, 3}, **pinned);
#ifndef TENSOR_CUDA_PINNED_ALLOCATOR_H_
#define TENSOR_CUDA_PINNED_ALLOCATOR_H_

#include "absl/status/statusor.h"
#include "tensor/allocator.h"

namespace tensor::cuda {

// The process's page-locked host allocator, created on first use and never
// destroyed. Thread-safe. Fails (naming CUDA's reason) when this process
// has no CUDA device, since page-locking needs the driver.
absl::StatusOr<Allocator*> PinnedHostAllocator();

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_PINNED_ALLOCATOR_H_
