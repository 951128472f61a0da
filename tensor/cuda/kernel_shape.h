// KernelShape: a strided walk over up to kMaxKernelRank dimensions, in a
// form that is passed to a CUDA kernel by value.
//
// Plain C++ without absl, because nvcc compiles the kernels that use it.
// The host builds these with kernel_plan.h, which coalesces dimensions
// first, so most layouts need one or two.
#ifndef TENSOR_CUDA_KERNEL_SHAPE_H_
#define TENSOR_CUDA_KERNEL_SHAPE_H_

#include <cstdint>

namespace tensor::cuda {

// Enough for any layout once extent-1 dimensions are dropped and
// adjacent dense ones merged; a rarer deeper walk is split on the host.
// 16 dimensions of 8-byte extents and two operands' strides keep a
// kernel's arguments under 400 bytes.
inline constexpr int kMaxKernelRank = 16;

// The extents of a row-major walk over `count` elements. Rank 0 with
// count 1 is a single element.
struct KernelShape {
  int rank = 0;
  std::int64_t count = 0;
  std::int64_t extents[kMaxKernelRank] = {};
};

// One operand's strides, in elements (possibly negative), for the
// dimensions of a KernelShape.
struct KernelStrides {
  std::int64_t strides[kMaxKernelRank] = {};
};

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_KERNEL_SHAPE_H_
