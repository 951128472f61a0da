#include "tensor/internal/elementwise_kernel.h"

#include "absl/strings/str_cat.h"
#include "tensor/convert.h"

namespace tensor::internal {

absl::Status NotForIntegers(const char* operation, DType dtype) {
  return absl::InvalidArgumentError(absl::StrCat(operation, ": not defined for ",
                                                 DTypeTensorName(dtype),
                                                 "; convert to FloatTensor or DoubleTensor first"));
}

absl::Status NotDefinedFor(const char* operation, DType dtype) {
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": not defined for ", DTypeTensorName(dtype)));
}

absl::Status NotAValueOf(const char* operation, double value, DType dtype) {
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": ", value, " is not a value of ", DTypeName(dtype)));
}

absl::Status CheckOperand(const Tensor& dst, const Tensor& operand, const char* operation) {
  if (absl::StatusOr<std::byte*> origin = internal::CpuData(operand, operation); !origin.ok()) {
    return origin.status();
  }
  return CheckOperandMatches(dst, operand, operation);
}

absl::Status CheckOperandMatches(const Tensor& dst, const Tensor& operand, const char* operation) {
  if (absl::Status s = internal::CheckSameDType(dst, operand, operation); !s.ok()) return s;
  return internal::CheckSameCount(dst, operand, operation);
}

absl::StatusOr<Tensor> AlignOperand(const Tensor& dst, const Tensor& operand) {
  Tensor aligned = operand;
  if (operand.shape() != dst.shape()) {
    // Any contiguous tensor can be viewed under any shape of its count;
    // others are compacted first.
    if (!operand.layout().IsContiguous()) {
      absl::StatusOr<Tensor> compact = Clone(operand);
      if (!compact.ok()) return compact.status();
      aligned = *std::move(compact);
    }
    absl::StatusOr<Tensor> reshaped = aligned.Reshape(dst.shape());
    if (!reshaped.ok()) return reshaped.status();
    aligned = *std::move(reshaped);
  }
  // Element i of the operand may share memory with element i of dst (each
  // is read before it is written), but with no other element of dst.
  const bool element_for_element =
      aligned.layout() == dst.layout() && *aligned.data() == *dst.data();
  if (!element_for_element && internal::MayAlias(dst, aligned)) return Clone(aligned);
  return aligned;
}

}  // namespace tensor::internal
