// Writes computed values into a tensor in row-major order of its own
// shape, whatever its strides: element i of a transposed or reversed view
// is the i-th one a reader of that view sees. The creation and random
// kernels need exactly this order so that results do not depend on layout.
#ifndef TENSOR_INTERNAL_ROW_MAJOR_FILL_H_
#define TENSOR_INTERNAL_ROW_MAJOR_FILL_H_

#include <array>
#include <cstddef>

#include "absl/status/statusor.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/strided_loop.h"
#include "tensor/tensor.h"

namespace tensor::internal {

// The origin of `tensor` if it is a valid CPU tensor whose elements are all
// distinct in memory, so that it can be written.
inline absl::StatusOr<std::byte*> WritableData(const Tensor& tensor, const char* operation) {
  absl::StatusOr<std::byte*> origin = CpuData(tensor, operation);
  if (!origin.ok()) return origin;
  if (absl::Status s = CheckWritable(tensor, operation); !s.ok()) return s;
  return origin;
}

// Sets the i-th element (row-major, 0-based) to value(i), for i in order.
// REQUIRES: T is the tensor's element type; `origin` is from WritableData.
template <typename T, typename ValueOf>
void FillRowMajor(const Tensor& tensor, std::byte* origin, ValueOf&& value) {
  const LoopPlan<1> plan =
      PlanLoop<1>(tensor.shape(), {OperandOf(tensor, origin)}, Order::kRowMajor);
  Index i = 0;
  ForEachRun(plan, [&](const std::array<std::byte*, 1>& pointers, Index count,
                       const std::array<Index, 1>& strides) {
    std::byte* element = pointers[0];
    for (Index j = 0; j < count; ++j, element += strides[0]) {
      *reinterpret_cast<T*>(element) = value(i++);
    }
    return true;
  });
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_ROW_MAJOR_FILL_H_
