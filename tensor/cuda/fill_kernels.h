// The CUDA kernel behind fill.h. Plain C++ without absl, because nvcc
// compiles fill_kernels.cu against it. The value arrives already converted
// to the element type on the host, so the kernel only stores bytes.
#ifndef TENSOR_CUDA_FILL_KERNELS_H_
#define TENSOR_CUDA_FILL_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "tensor/cuda/kernel_shape.h"

namespace tensor::cuda {

// Stores the low `element_size` bytes (1, 2, 4 or 8) of `bits` in every
// element of the walk. Launched on the current device's legacy default
// stream; returns the launch's error.
cudaError_t LaunchFill(int element_size, void* data, const KernelStrides& strides,
                       const KernelShape& shape, std::uint64_t bits);

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_FILL_KERNELS_H_
