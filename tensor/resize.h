// Resize: a tensor of another shape over the same elements, as Torch7's
// resize and resizeAs.
//
// Only a tensor that owns its storage can change its size: lent memory
// belongs to its lender, whose buffer has the size it has.
//
// Example:
//   absl::StatusOr<Tensor> bigger = Resize(t, {4, 5});
//   if (bigger.ok()) t = *std::move(bigger);   // replace t: see below
#ifndef TENSOR_RESIZE_H_
#define TENSOR_RESIZE_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "tensor/allocator.h"
#include "tensor/tensor.h"

namespace tensor {

// `tensor` under `shape`, row-major. The first min(old, new) elements in
// row-major order are the tensor's own in row-major order, and any further
// elements are 0: the same count keeps every value, as a reshape would.
//
// The same shape returns `tensor` unchanged, layout included (also for a
// lent tensor). Otherwise a lent tensor is an error naming its lender.
// The storage is kept when `tensor` is its only holder (no view can see
// the change) and it is large enough; else the result gets new storage
// from `allocator`, and views of the old storage keep it, unchanged.
// NB: when the storage is kept, `tensor`'s own elements move: replace
// `tensor` with the result.
absl::StatusOr<Tensor> Resize(const Tensor& tensor, absl::Span<const Index> shape,
                              Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_RESIZE_H_
