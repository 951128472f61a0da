// Reductions and scans along one dimension of a tensor.
//
// A reduction gives a new row-major tensor of the input's shape with extent
// 1 at `dim`; a scan (cumulative sum or product) keeps the shape. Dimensions
// are 0-based. Every check runs before anything is allocated.
//
// Types: results keep the input's dtype. Integer sums and products wrap
// around as the element-wise arithmetic does (elementwise.h); floating
// types accumulate in double. Means, variances and norms are defined only
// for floating types, and nothing here for bool.
//
// NaN: sums, products and norms follow IEEE arithmetic; max and min return
// NaN, at the position of the first NaN, wherever a NaN is met.
//
// Example:
//   absl::StatusOr<Tensor> column_sums = SumAlong(m, 0);         // {1, n}
//   absl::StatusOr<ValuesAndIndices> best =
//       ExtremeAlong(scores, 1, Extreme::kMax, /*first_index=*/1);
//   // best->values {m, 1}: each row's largest score; best->indices: where.
#ifndef TENSOR_REDUCE_DIM_H_
#define TENSOR_REDUCE_DIM_H_

#include "absl/status/statusor.h"
#include "tensor/allocator.h"
#include "tensor/internal/line_kernels.h"
#include "tensor/tensor.h"

namespace tensor {

using internal::Extreme;

// Values picked from lines of a tensor, and where along each line each
// came from.
struct ValuesAndIndices {
  Tensor values;   // the input's dtype
  Tensor indices;  // int64 positions, counting from the call's first_index
};

// The sum along `dim`; 0 where the dimension is empty.
absl::StatusOr<Tensor> SumAlong(const Tensor& input, int dim,
                                Allocator& allocator = CpuAllocator());

// The product along `dim`; 1 where the dimension is empty.
absl::StatusOr<Tensor> ProductAlong(const Tensor& input, int dim,
                                    Allocator& allocator = CpuAllocator());

// The mean along `dim`. Fails if the dimension is empty.
absl::StatusOr<Tensor> MeanAlong(const Tensor& input, int dim,
                                 Allocator& allocator = CpuAllocator());

enum class Spread { kVariance, kStandardDeviation };

// The variance (or its square root) along `dim`: the mean squared
// deviation from the mean, dividing by n if `biased`, else by n - 1 (so one
// element gives NaN, 0 / 0). Fails if the dimension is empty.
absl::StatusOr<Tensor> SpreadAlong(const Tensor& input, int dim, Spread spread, bool biased,
                                   Allocator& allocator = CpuAllocator());

// The p-norm along `dim`: (sum |x|^p)^(1/p) for p > 0, the count of
// nonzero elements for p = 0, the largest magnitude for p = inf. Fails for
// negative or NaN p.
absl::StatusOr<Tensor> NormAlong(const Tensor& input, double p, int dim,
                                 Allocator& allocator = CpuAllocator());

// The largest (smallest) value along `dim` and its position, the first one
// where several are equal. Fails if the dimension is empty.
absl::StatusOr<ValuesAndIndices> ExtremeAlong(const Tensor& input, int dim, Extreme extreme,
                                              Index first_index,
                                              Allocator& allocator = CpuAllocator());

enum class Scan { kSum, kProduct };

// Running sums (products) along `dim`: element i is the sum (product) of
// elements 0 .. i. The same shape as `input`.
absl::StatusOr<Tensor> ScanAlong(const Tensor& input, int dim, Scan scan,
                                 Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_REDUCE_DIM_H_
