// Reductions to one number, accumulated in double.
//
// NB: int64 values beyond 2^53 lose precision in the double accumulator.
//
// Example:
//   absl::StatusOr<double> total = Sum(rewards);
//   absl::StatusOr<double> energy = LengthSquared(signal);
#ifndef TENSOR_REDUCE_H_
#define TENSOR_REDUCE_H_

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor {

// The sum of all elements; 0 for no elements.
absl::StatusOr<double> Sum(const Tensor& tensor);

// The product of all elements; 1 for no elements.
absl::StatusOr<double> Product(const Tensor& tensor);

// The sum of the squares of all elements.
absl::StatusOr<double> LengthSquared(const Tensor& tensor);

// The sum of the products of the i-th elements of both, in layout order.
// Needs equal dtypes and element counts; shapes are ignored.
absl::StatusOr<double> Dot(const Tensor& lhs, const Tensor& rhs);

}  // namespace tensor

#endif  // TENSOR_REDUCE_H_
