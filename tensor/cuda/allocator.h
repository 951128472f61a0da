// CudaAllocator: the tensor::Allocator for one CUDA device's memory.
//
// cudaMalloc and cudaFree are slow (cudaFree synchronises the device), and a
// workload allocates the same sizes step after step, so freed blocks are
// kept per device and handed out again for a request of the same rounded
// size: a multiple of 512 bytes below 1 MiB, of 2 MiB from there on. At
// most kMaxCachedBytes are kept per device; past that the oldest kept
// blocks go back to cudaFree. When cudaMalloc fails, the device's cache is
// emptied and the allocation tried once more.
//
// NB: every operation of this backend runs on the device's legacy default
// stream, so work on a block always finishes before work queued after its
// reuse starts; a block can be handed out again without waiting.
//
// Example:
//   absl::StatusOr<Allocator*> gpu = tensor::cuda::CudaAllocator(0);
//   absl::StatusOr<Tensor> t = Tensor::Zeros(DType::kFloat32, {64, 64}, **gpu);
#ifndef TENSOR_CUDA_ALLOCATOR_H_
#define TENSOR_CUDA_ALLOCATOR_H_

#include <cstddef>

#include "absl/status/statusor.h"
#include "tensor/allocator.h"

namespace tensor::cuda {

// The most bytes of freed blocks kept for reuse on one device.
inline constexpr std::size_t kMaxCachedBytes = std::size_t{1} << 30;

// The size of the block that serves a request of `bytes`: rounded up to a
// multiple of 512 bytes below 1 MiB and of 2 MiB from 1 MiB on. 0 if that
// overflows.
std::size_t CudaBlockSize(std::size_t bytes);

// The allocator of CUDA device `device`, created on first use and never
// destroyed. Thread-safe; Deallocate may come from any thread. Fails if
// there is no such device.
absl::StatusOr<Allocator*> CudaAllocator(int device);

// Returns every kept block of every device to cudaFree.
void EmptyCache();

// The bytes of freed blocks kept for reuse on `device` (0 for a device
// whose allocator was never used).
std::size_t CachedBytes(int device);

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_ALLOCATOR_H_
