#include "tensor/internal/pairing.h"

#include <utility>

#include "tensor/convert.h"
#include "tensor/internal/kernel_support.h"

namespace tensor::internal {

absl::StatusOr<std::pair<Tensor, Tensor>> PairInLayoutOrder(const Tensor& a, const Tensor& b,
                                                           bool b_before_a) {
  Tensor first = a;
  Tensor second = b;
  // Equal layouts over equal-sized elements pair each element with itself,
  // which an element-wise walk may read and then write in place.
  const bool in_place = a.layout() == b.layout() && a.item_size() == b.item_size() &&
                        *a.data() == *b.data();
  if (b_before_a && !in_place && MayAlias(a, b)) {
    absl::StatusOr<Tensor> copy = Clone(b);
    if (!copy.ok()) return copy.status();
    second = *std::move(copy);
  }
  if (first.shape() == second.shape()) return std::make_pair(first, second);
  // Any contiguous tensor can be viewed under any shape of the same count.
  if (second.layout().IsContiguous()) {
    absl::StatusOr<Tensor> reshaped = second.Reshape(first.shape());
    if (!reshaped.ok()) return reshaped.status();
    return std::make_pair(first, *std::move(reshaped));
  }
  if (first.layout().IsContiguous()) {
    absl::StatusOr<Tensor> reshaped = first.Reshape(second.shape());
    if (!reshaped.ok()) return reshaped.status();
    return std::make_pair(*std::move(reshaped), second);
  }
  absl::StatusOr<Tensor> compact = Clone(second);
  if (!compact.ok()) return compact.status();
  absl::StatusOr<Tensor> reshaped = compact->Reshape(first.shape());
  if (!reshaped.ok()) return reshaped.status();
  return std::make_pair(first, *std::move(reshaped));
}

}  // namespace tensor::internal
