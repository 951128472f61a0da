// Torch7's construction and extraction functions.
//
// The Fill* functions write the values of a constructor (eye, range,
// linspace, logspace) into an existing tensor, in row-major order of its
// own shape, so a caller can fill a new tensor or a `res` view alike. The
// others derive a new owned, row-major tensor from existing ones (diag,
// tril, triu, cat, repeatTensor). Every check runs before the first write.
// Dimensions are 0-based here.
//
// Example:
//   absl::StatusOr<Index> n = RangeCount(2, 5, 1.2);           // 3
//   absl::StatusOr<Tensor> r = Tensor::Uninitialized(DType::kFloat64, {*n});
//   absl::Status s = FillRange(*r, 2, 1.2);                    // 2, 3.2, 4.4
//   absl::StatusOr<Tensor> rows = Cat({a, b}, 0);               // a above b
#ifndef TENSOR_CREATE_H_
#define TENSOR_CREATE_H_

#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "tensor/allocator.h"
#include "tensor/tensor.h"

namespace tensor {

// The element count of Torch7's range(from, to, step), which includes `to`
// when the steps land on it: floor((to - from) / step) + 1. Fails for a
// zero or non-finite step, non-finite bounds, a step that leads away from
// `to`, or more than 2^53 elements.
absl::StatusOr<Index> RangeCount(double from, double to, double step);

// Element i becomes from + i * step. Integer tensors need a whole `from`
// and `step`, and every value in the type's range.
absl::Status FillRange(const Tensor& tensor, double from, double step);

// n equally spaced values from `first` to `last`, both included (n the
// element count; n == 1 needs first == last, as in Torch7). Floating types
// only.
absl::Status FillLinspace(const Tensor& tensor, double first, double last);

// 10^v for the values v of FillLinspace. Floating types only.
absl::Status FillLogspace(const Tensor& tensor, double first, double last);

// Ones on the main diagonal of a rank-2 tensor, zeros elsewhere.
absl::Status FillEye(const Tensor& tensor);

// Diagonal k (0 the main one, k > 0 above it, k < 0 below) of a matrix as
// a vector, or a vector as diagonal k of a new square matrix of zeros.
absl::StatusOr<Tensor> Diag(const Tensor& tensor, Index k, Allocator& allocator = CpuAllocator());

// A copy of a matrix keeping the elements on and below (Tril) or on and
// above (Triu) diagonal k; the others are zero.
absl::StatusOr<Tensor> Tril(const Tensor& tensor, Index k, Allocator& allocator = CpuAllocator());
absl::StatusOr<Tensor> Triu(const Tensor& tensor, Index k, Allocator& allocator = CpuAllocator());

// The inputs joined along `dim` (by default the last). Empty (rank-0)
// inputs are skipped; the others need one dtype, one rank and equal extents
// but along `dim`. Only empty inputs give an empty tensor.
absl::StatusOr<Tensor> Cat(absl::Span<const Tensor> inputs, std::optional<int> dim = std::nullopt,
                           Allocator& allocator = CpuAllocator());

// The tensor tiled repeats[d] times along each dimension d. With more
// repeats than dimensions, the tensor first gets leading extent-1
// dimensions. Every repeat must be at least 1.
absl::StatusOr<Tensor> RepeatTensor(const Tensor& tensor, absl::Span<const Index> repeats,
                                    Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_CREATE_H_
