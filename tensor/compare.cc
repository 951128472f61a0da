#include "tensor/compare.h"


#include "tensor/internal/kernel_support.h"
#include "tensor/internal/strided_loop.h"

namespace tensor {

absl::StatusOr<bool> Equal(const Tensor& lhs, const Tensor& rhs) {
  absl::StatusOr<std::byte*> lhs_origin = internal::CpuData(lhs, "==");
  if (!lhs_origin.ok()) return lhs_origin.status();
  absl::StatusOr<std::byte*> rhs_origin = internal::CpuData(rhs, "==");
  if (!rhs_origin.ok()) return rhs_origin.status();
  if (lhs.dtype() != rhs.dtype() || lhs.shape() != rhs.shape()) return false;
  // Both are walked under one plan of their common shape, so element i of
  // one always meets element i of the other, whatever the two layouts.
  const internal::LoopPlan<2> plan = internal::PlanLoop<2>(
      lhs.shape(),
      {internal::OperandOf(lhs, *lhs_origin), internal::OperandOf(rhs, *rhs_origin)},
      internal::Order::kAny);
  return DispatchDType(lhs.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return internal::ForEachRun(plan, [](auto p, Index n, auto s) {
      for (Index i = 0; i < n; ++i) {
        const auto a = static_cast<ComputeType<T>>(*reinterpret_cast<const T*>(p[0] + i * s[0]));
        const auto b = static_cast<ComputeType<T>>(*reinterpret_cast<const T*>(p[1] + i * s[1]));
        if (!(a == b)) return false;
      }
      return true;
    });
  });
}

}  // namespace tensor
