#include "tensor/internal/kernel_support.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tensor::internal {

absl::StatusOr<std::byte*> CpuData(const Tensor& tensor, const char* operation) {
  absl::StatusOr<std::byte*> data = tensor.data();
  if (!data.ok()) return data;
  if (!tensor.device().is_cpu()) [[unlikely]] {
    return absl::FailedPreconditionError(absl::StrCat(
        operation, ": the tensor is on ", tensor.device().ToString(),
        "; this operation runs on the CPU, so copy the tensor to the CPU first"));
  }
  return data;
}

absl::Status CheckWritable(const Tensor& tensor, const char* operation) {
  if (tensor.layout().MayOverlapItself()) {
    return absl::InvalidArgumentError(absl::StrCat(
        operation, ": several elements of the destination share memory (an expanded or "
                   "unfolded view); write to a clone instead"));
  }
  return absl::OkStatus();
}

bool MayAlias(const Tensor& a, const Tensor& b) {
  if (a.storage() == nullptr || a.storage() != b.storage()) return false;
  if (a.num_elements() == 0 || b.num_elements() == 0) return false;
  const OffsetRange ra = a.layout().Reach();
  const OffsetRange rb = b.layout().Reach();
  const Index a_begin = ra.lowest * static_cast<Index>(a.item_size());
  const Index a_end = (ra.highest + 1) * static_cast<Index>(a.item_size());
  const Index b_begin = rb.lowest * static_cast<Index>(b.item_size());
  const Index b_end = (rb.highest + 1) * static_cast<Index>(b.item_size());
  return std::max(a_begin, b_begin) < std::min(a_end, b_end);
}

absl::Status CheckSameCount(const Tensor& a, const Tensor& b, const char* operation) {
  if (a.num_elements() != b.num_elements()) {
    return absl::InvalidArgumentError(
        absl::StrCat(operation, ": the tensors have ", a.num_elements(), " and ",
                     b.num_elements(), " elements (shapes ", a.layout().ShapeString(), " and ",
                     b.layout().ShapeString(), "); they must have the same number"));
  }
  return absl::OkStatus();
}

absl::Status CheckSameDType(const Tensor& a, const Tensor& b, const char* operation) {
  if (a.dtype() != b.dtype()) {
    return absl::InvalidArgumentError(absl::StrCat(operation, ": the tensors are ",
                                                   DTypeName(a.dtype()), " and ",
                                                   DTypeName(b.dtype()),
                                                   "; they must have the same type"));
  }
  return absl::OkStatus();
}

}  // namespace tensor::internal
