// Selecting by value: masks (maskedSelect, maskedCopy, maskedFill) and
// nonzero, as in Torch7.
//
// A mask is a uint8 tensor of 0s and 1s (any other value is an error) with
// as many elements as the tensor it masks; their shapes may differ. The
// two are paired element by element in row-major order, and "the k-th
// selected element" counts in that order.
//
// Every check runs before the first write, the mask's values included, so
// a failed call leaves the tensor as it was. A mask or source that shares
// memory with the destination is read as it was before the call.
//
// Example:
//   absl::StatusOr<Tensor> picked = MaskedSelect(values, mask);   // rank 1
//   MaskedFill(image, background_mask, 0.0);
//   absl::StatusOr<Tensor> where = NonZero(labels, /*index_base=*/0);  // n x rank
#ifndef TENSOR_MASKED_H_
#define TENSOR_MASKED_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/allocator.h"
#include "tensor/tensor.h"

namespace tensor {

// A new rank-1 tensor of tensor's dtype: the elements where the mask is 1,
// in row-major order. Shape {0} when it selects none.
absl::StatusOr<Tensor> MaskedSelect(const Tensor& tensor, const Tensor& mask,
                                    Allocator& allocator = CpuAllocator());

// The k-th element where the mask is 1 = source's k-th element in
// row-major order. `source` has tensor's dtype and at least as many
// elements as the mask has 1s; its shape does not matter.
absl::Status MaskedCopy(const Tensor& tensor, const Tensor& mask, const Tensor& source);

// Sets the elements where the mask is 1 to `value`, which must be a value
// of tensor's dtype.
absl::Status MaskedFill(const Tensor& tensor, const Tensor& mask, double value);

// A new int64 tensor of shape {n, rank}: row i holds the subscripts,
// counting from `index_base`, of the i-th nonzero element of `tensor` in
// row-major order. NaN counts as nonzero.
absl::StatusOr<Tensor> NonZero(const Tensor& tensor, Index index_base,
                               Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_MASKED_H_
