// Device helpers shared by the .cu files: launch geometry and the offset
// of the i-th element of a KernelShape walk. Only nvcc includes this.
#ifndef TENSOR_CUDA_STRIDED_INDEX_H_
#define TENSOR_CUDA_STRIDED_INDEX_H_

#include <cstdint>

#include "tensor/cuda/kernel_shape.h"

namespace tensor::cuda {

inline constexpr int kThreadsPerBlock = 256;

// Blocks for a grid-stride loop over `count` elements. Capped: past a few
// blocks per multiprocessor more only add scheduling, and the loop covers
// the rest.
inline unsigned BlocksFor(std::int64_t count) {
  constexpr std::int64_t kMaxBlocks = 8192;
  const std::int64_t blocks = (count + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

// The offset, in elements, of row-major element `i` under `strides`.
__device__ inline std::int64_t OffsetOf(std::int64_t i, const KernelShape& shape,
                                        const KernelStrides& strides) {
  // A contiguous or evenly strided walk coalesces to one dimension: no
  // division needed.
  if (shape.rank <= 1) return i * strides.strides[0];
  std::int64_t offset = 0;
  for (int d = shape.rank - 1; d >= 0; --d) {
    const std::int64_t extent = shape.extents[d];
    offset += (i % extent) * strides.strides[d];
    i /= extent;
  }
  return offset;
}

// Offsets of element `i` under two operands' strides, with one division
// per dimension.
__device__ inline void OffsetsOf(std::int64_t i, const KernelShape& shape,
                                 const KernelStrides& a, const KernelStrides& b,
                                 std::int64_t* a_offset, std::int64_t* b_offset) {
  if (shape.rank <= 1) {
    *a_offset = i * a.strides[0];
    *b_offset = i * b.strides[0];
    return;
  }
  std::int64_t oa = 0, ob = 0;
  for (int d = shape.rank - 1; d >= 0; --d) {
    const std::int64_t extent = shape.extents[d];
    const std::int64_t index = i % extent;
    oa += index * a.strides[d];
    ob += index * b.strides[d];
    i /= extent;
  }
  *a_offset = oa;
  *b_offset = ob;
}

// Grid-stride loop bounds for the calling thread.
__device__ inline std::int64_t FirstIndex() {
  return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline std::int64_t IndexStep() {
  return static_cast<std::int64_t>(gridDim.x) * blockDim.x;
}

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_STRIDED_INDEX_H_
