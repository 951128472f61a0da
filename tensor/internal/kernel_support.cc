#include "tensor/internal/kernel_support.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/work_meter.h"

namespace tensor::internal {

absl::StatusOr<std::byte*> CpuData(const Tensor& tensor, const char* operation) {
  absl::StatusOr<std::byte*> data = tensor.data();
  if (!data.ok()) return data;
  if (!tensor.device().is_cpu()) [[unlikely]] {
    return absl::FailedPreconditionError(absl::StrCat(
        operation, ": the tensor is on ", tensor.device().ToString(),
        "; this operation runs on the CPU, so copy the tensor to the CPU first"));
  }
  // Every kernel asks for its operands' data before it visits them.
  if (absl::Status charged = ChargeWork(tensor.layout().num_elements()); !charged.ok()) {
    return absl::ResourceExhaustedError(absl::StrCat(operation, ": ", charged.message()));
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

namespace {

// The addresses [begin, end) that a valid CPU tensor with elements touches.
std::pair<std::uintptr_t, std::uintptr_t> AddressRange(const Tensor& tensor) {
  const OffsetRange reach = tensor.layout().Reach();
  const Index item = static_cast<Index>(tensor.item_size());
  const auto origin = reinterpret_cast<std::uintptr_t>(*tensor.data());
  const Index offset = tensor.layout().offset();
  return {origin + (reach.lowest - offset) * item, origin + (reach.highest - offset + 1) * item};
}

}  // namespace

bool MayAlias(const Tensor& a, const Tensor& b) {
  if (a.num_elements() == 0 || b.num_elements() == 0) return false;
  // By address, not by storage: two loans may lend the same memory.
  const auto [a_begin, a_end] = AddressRange(a);
  const auto [b_begin, b_end] = AddressRange(b);
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
