// Fill: sets every element of a tensor to one value, on any device.
//
// The value is checked and converted exactly as the CPU fill
// (ApplyScalars with ElementOp::kAssign) does it: it must be a value of
// the tensor's dtype (whole and in range for integers, 0 or 1 for bool),
// and floating types round it to nearest. The conversion happens once, on
// the host; a CUDA kernel then stores the resulting bytes.
//
// Example:
//   absl::Status s = tensor::cuda::Fill(gpu_image, 0.5);
#ifndef TENSOR_CUDA_FILL_H_
#define TENSOR_CUDA_FILL_H_

#include "absl/status/status.h"
#include "tensor/tensor.h"

namespace tensor::cuda {

// Sets every element of `t` to `value`. A CPU tensor is filled by the CPU.
// An expanded view (elements sharing memory) is filled as on the CPU: one
// value, so the order of the writes cannot matter. Fails if `t` is invalid
// (a revoked loan), its device does not exist, or `value` is not a value of
// its dtype; then nothing is written.
absl::Status Fill(const Tensor& t, double value);

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_FILL_H_
