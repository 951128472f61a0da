// Equality of whole tensors.
//
// Example:
//   absl::StatusOr<bool> same = Equal(a.Transpose(0, 1).value(), b);
#ifndef TENSOR_COMPARE_H_
#define TENSOR_COMPARE_H_

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor {

// True iff dtype, shape and every element are equal (NaN equals nothing),
// whatever the two layouts are. Fails only if either tensor is invalid.
absl::StatusOr<bool> Equal(const Tensor& lhs, const Tensor& rhs);

}  // namespace tensor

#endif  // TENSOR_COMPARE_H_
