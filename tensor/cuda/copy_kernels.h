// The CUDA kernels behind copy.h: element conversion and strided copies.
//
// Plain C++ without absl or tensor/ headers, because nvcc compiles
// copy_kernels.cu against it. Every launch goes to the current device's
// legacy default stream and returns the launch's error; the caller
// synchronises.
#ifndef TENSOR_CUDA_COPY_KERNELS_H_
#define TENSOR_CUDA_COPY_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "tensor/cuda/element_type.h"
#include "tensor/cuda/kernel_shape.h"

namespace tensor::cuda {

// Where a conversion check records a value that the target type cannot
// hold. Zero-initialise it on the device before the check.
struct ConversionFailure {
  int failed;
  double value;  // the value, widened to double as the CPU copy reports it
};

// Whether some value of `from` has no value of `to` (a float or a wider
// integer into an integer type), so a copy needs a check first.
bool NeedsConversionCheck(ElementType to, ElementType from);

// Records in *failure one element of src (of type `from`) that `to`
// cannot hold, if any.
cudaError_t LaunchConversionCheck(ElementType to, ElementType from, const void* src,
                                  const KernelStrides& src_strides, const KernelShape& shape,
                                  ConversionFailure* failure);

// dst[i] = src[i] converted from `from` to `to`, as the CPU copy converts.
// REQUIRES: `to` holds every element (see LaunchConversionCheck).
cudaError_t LaunchConvertingCopy(ElementType to, void* dst, const KernelStrides& dst_strides,
                                 ElementType from, const void* src,
                                 const KernelStrides& src_strides, const KernelShape& shape);

// dst[i] = src[i] for elements of `element_size` bytes (1, 2, 4 or 8).
// When dst is contiguous along the walk's last dimension and src along
// another (a transpose), both are moved in lines through shared-memory
// tiles.
cudaError_t LaunchStridedCopy(int element_size, void* dst, const KernelStrides& dst_strides,
                              const void* src, const KernelStrides& src_strides,
                              const KernelShape& shape);

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_COPY_KERNELS_H_
