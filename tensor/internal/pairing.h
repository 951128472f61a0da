// Pairs the elements of two tensors in layout order, whatever their shapes.
#ifndef TENSOR_INTERNAL_PAIRING_H_
#define TENSOR_INTERNAL_PAIRING_H_

#include <utility>

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor::internal {

// Two tensors of one shape that visit the elements of `a` and `b` in
// layout order, pair by pair. Views are used where possible; otherwise `b`
// is compacted. If `b_before_a` and b may alias a with another layout, b
// is copied first, so writing through a cannot change what b reads.
// REQUIRES: equal element counts; both valid CPU tensors.
absl::StatusOr<std::pair<Tensor, Tensor>> PairInLayoutOrder(const Tensor& a, const Tensor& b,
                                                           bool b_before_a);

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_PAIRING_H_
