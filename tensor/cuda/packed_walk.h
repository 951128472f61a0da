// Packed walks: contiguous operands that start on 16 bytes are read and
// written 16 bytes per access. One element per access keeps too few bytes
// in flight to reach the memory's bandwidth (on an H100, cadd of 64M
// floats ran at 0.52x memcpy's bandwidth one float at a time, 0.96x
// packed). Only nvcc includes this.
#ifndef TENSOR_CUDA_PACKED_WALK_H_
#define TENSOR_CUDA_PACKED_WALK_H_

#include <cstdint>

#include "tensor/cuda/kernel_shape.h"
#include "tensor/cuda/strided_index.h"

namespace tensor::cuda {

// The elements of one 16-byte access.
template <typename S>
struct alignas(16) Pack {
  static constexpr int kLanes = 16 / sizeof(S);
  S lane[kLanes];
};

__host__ __device__ inline bool StartsOn16Bytes(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Whether a walk of `shape` over `a` and `b`, each with the given stride of
// its one dimension, can run packed.
__host__ __device__ inline bool Packable(const KernelShape& shape, const void* a,
                                         std::int64_t a_stride, const void* b,
                                         std::int64_t b_stride) {
  return shape.rank == 1 && a_stride == 1 && b_stride == 1 && StartsOn16Bytes(a) &&
         StartsOn16Bytes(b);
}

// Blocks for a packed grid-stride loop over `count` elements of S: one
// thread per pack.
template <typename S>
unsigned PackedBlocksFor(std::int64_t count) {
  return BlocksFor((count + Pack<S>::kLanes - 1) / Pack<S>::kLanes);
}

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_PACKED_WALK_H_
