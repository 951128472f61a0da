// Element-wise comparisons, giving masks: a new uint8 tensor of x's shape
// holding 1 where the comparison holds and 0 elsewhere.
//
// Against a number, the comparison is exact whatever the types: an int64
// element beyond 2^53 is not rounded to a double first, and a float32
// element is compared with the double as given (x < 0.1 is exact). NaN
// compares unequal to everything, itself included.
//
// Against a tensor y, y must have x's dtype and element count; shapes are
// ignored and elements pair up in layout (row-major) order. Bool tensors
// are not compared. The mask's storage comes from `allocator`.
//
// Example:
//   absl::StatusOr<Tensor> hot = CompareScalar(image, CompareOp::kGt, 200);
//   absl::StatusOr<Tensor> same = CompareTensor(a, CompareOp::kEq, b);
#ifndef TENSOR_ELEMENTWISE_COMPARE_H_
#define TENSOR_ELEMENTWISE_COMPARE_H_

#include "absl/status/statusor.h"
#include "tensor/allocator.h"
#include "tensor/tensor.h"

namespace tensor {

enum class CompareOp { kLt, kLe, kGt, kGe, kEq, kNe };

// "lt", "le", "gt", "ge", "eq", "ne".
const char* CompareOpName(CompareOp op);

// The mask of x[i] op value.
absl::StatusOr<Tensor> CompareScalar(const Tensor& x, CompareOp op, double value,
                                     Allocator& allocator = CpuAllocator());

// The mask of x[i] op y[i].
absl::StatusOr<Tensor> CompareTensor(const Tensor& x, CompareOp op, const Tensor& y,
                                     Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_ELEMENTWISE_COMPARE_H_
