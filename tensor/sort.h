// Sorting and order statistics along one dimension of a tensor.
//
// Each gives new row-major tensors: the values (the input's dtype) and
// their positions along `dim` in the input (int64, counted from
// `first_index`). Dimensions are 0-based. Nothing here is defined for bool.
//
// The order is total and stable: ascending puts NaN after every number,
// descending before; equal values (0 and -0 are equal, as are NaNs) keep
// the order of their positions in both directions. So every result,
// indices included, is fully determined by the input.
//
// Example:
//   absl::StatusOr<ValuesAndIndices> sorted =
//       SortAlong(scores, 1, SortOrder::kDescending, /*first_index=*/0);
//   absl::StatusOr<ValuesAndIndices> best3 =
//       TopKAlong(scores, 3, 1, SortOrder::kDescending, 0);
#ifndef TENSOR_SORT_H_
#define TENSOR_SORT_H_

#include "absl/status/statusor.h"
#include "tensor/allocator.h"
#include "tensor/reduce_dim.h"
#include "tensor/tensor.h"

namespace tensor {

enum class SortOrder { kAscending, kDescending };

// Every line along `dim` sorted; the same shape as `input`.
absl::StatusOr<ValuesAndIndices> SortAlong(const Tensor& input, int dim, SortOrder order,
                                           Index first_index,
                                           Allocator& allocator = CpuAllocator());

// The first k of each line in `order` (kAscending: the k smallest), in
// that order; extent k at `dim`. Needs 0 <= k <= the extent of dim.
absl::StatusOr<ValuesAndIndices> TopKAlong(const Tensor& input, Index k, int dim,
                                           SortOrder order, Index first_index,
                                           Allocator& allocator = CpuAllocator());

// The k-th smallest of each line (k counts from 1), the element that an
// ascending sort puts at position k; extent 1 at `dim`. Needs 1 <= k <=
// the extent of dim.
absl::StatusOr<ValuesAndIndices> KthValueAlong(const Tensor& input, Index k, int dim,
                                               Index first_index,
                                               Allocator& allocator = CpuAllocator());

// The median of each line: the k-th smallest for k = (n + 1) / 2, so the
// lower of the two middle values of an even count. Fails for an empty dim.
absl::StatusOr<ValuesAndIndices> MedianAlong(const Tensor& input, int dim, Index first_index,
                                             Allocator& allocator = CpuAllocator());

// The most frequent value of each line, the smallest of several equally
// frequent ones, and the position of its last occurrence (as Torch7
// reports it). Fails for an empty dim.
absl::StatusOr<ValuesAndIndices> ModeAlong(const Tensor& input, int dim, Index first_index,
                                           Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_SORT_H_
