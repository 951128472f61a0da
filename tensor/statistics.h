// Statistics of a whole tensor, each one number, and the in-place renorm.
//
// Types follow reduce_dim.h: nothing here is defined for bool; means,
// variances, norms, distances and renorm only for floating types (as in
// Torch7); all and any only for uint8 masks. Numbers are doubles, so int64
// values beyond 2^53 lose precision.
//
// NaN: max and min return NaN if any element is NaN; the others follow
// IEEE arithmetic.
//
// Example:
//   absl::StatusOr<double> peak = ExtremeOf(frame, Extreme::kMax);
//   absl::StatusOr<double> length = NormOf(v, 2);
//   absl::StatusOr<bool> any_hit = AnyOf(hits);       // a uint8 mask
//   absl::Status clipped = Renorm(weights, 2, 0, 1.0); // rows of norm <= 1
#ifndef TENSOR_STATISTICS_H_
#define TENSOR_STATISTICS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/reduce_dim.h"
#include "tensor/tensor.h"

namespace tensor {

// The largest (smallest) element. Fails for no elements.
absl::StatusOr<double> ExtremeOf(const Tensor& tensor, Extreme extreme);

// The mean of all elements. Fails for no elements.
absl::StatusOr<double> MeanOf(const Tensor& tensor);

// The variance (or standard deviation) of all elements, dividing by n if
// `biased`, else by n - 1 (one element gives NaN). Fails for no elements.
absl::StatusOr<double> SpreadOf(const Tensor& tensor, Spread spread, bool biased);

// The p-norm of all elements, as NormAlong (reduce_dim.h) defines it; 0 for
// no elements.
absl::StatusOr<double> NormOf(const Tensor& tensor, double p);

// The p-norm of a - b, pairing elements in layout order (shapes are
// ignored); both of one floating dtype and element count.
absl::StatusOr<double> DistanceOf(const Tensor& a, const Tensor& b, double p);

// The sum of the diagonal of a matrix (rank 2; it may be rectangular).
absl::StatusOr<double> TraceOf(const Tensor& matrix);

// Whether every (any) element of a uint8 mask is nonzero; true (false) for
// no elements.
absl::StatusOr<bool> AllOf(const Tensor& mask);
absl::StatusOr<bool> AnyOf(const Tensor& mask);

// For each slice i along `dim` whose p-norm exceeds `maxnorm`, scales it by
// maxnorm / (norm + 1e-7), as Torch7 does, in place. Needs p > 0 and
// maxnorm >= 0; fails before writing anything.
absl::Status Renorm(const Tensor& tensor, double p, int dim, double maxnorm);

}  // namespace tensor

#endif  // TENSOR_STATISTICS_H_
