// Checks shared by the CPU kernels: validity and device, writable
// destinations, aliasing, matching counts and dtypes.
#ifndef TENSOR_INTERNAL_KERNEL_SUPPORT_H_
#define TENSOR_INTERNAL_KERNEL_SUPPORT_H_

#include <array>
#include <cstddef>

#include "absl/status/statusor.h"
#include "tensor/internal/strided_loop.h"
#include "tensor/tensor.h"

namespace tensor::internal {

// The origin of a valid CPU tensor, or the reason there is none.
absl::StatusOr<std::byte*> CpuData(const Tensor& tensor, const char* operation);

// Fails if two elements of `tensor` share memory (an expanded or unfolded
// view), where writing one element would change another.
absl::Status CheckWritable(const Tensor& tensor, const char* operation);

// Whether the two tensors may touch the same bytes.
// REQUIRES: both valid CPU tensors.
bool MayAlias(const Tensor& a, const Tensor& b);

// Fails unless both have the same number of elements.
absl::Status CheckSameCount(const Tensor& a, const Tensor& b, const char* operation);

// Fails unless both have the same dtype.
absl::Status CheckSameDType(const Tensor& a, const Tensor& b, const char* operation);

inline Operand OperandOf(const Tensor& tensor, std::byte* origin) {
  return {origin, &tensor.layout().strides(), static_cast<Index>(tensor.item_size())};
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_KERNEL_SUPPORT_H_
