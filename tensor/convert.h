// Copies into new owned storage.
//
// Example:
//   absl::StatusOr<Tensor> bytes = Convert(image, DType::kUInt8);
//   absl::StatusOr<Tensor> mine = Clone(lent_frame);  // outlives the loan
#ifndef TENSOR_CONVERT_H_
#define TENSOR_CONVERT_H_

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor {

// A new owned, row-major tensor of `dtype` with the same shape and values,
// converted as ApplyComponents(kAssign) converts. Its storage comes from
// `allocator`.
absl::StatusOr<Tensor> Convert(const Tensor& tensor, DType dtype,
                               Allocator& allocator = CpuAllocator());

// Convert to the tensor's own dtype.
absl::StatusOr<Tensor> Clone(const Tensor& tensor, Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_CONVERT_H_
