// ops::CompareScalar and CompareTensor: host side.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "tensor/cuda/copy.h"
#include "tensor/cuda/fill.h"
#include "tensor/cuda/kernel_plan.h"
#include "tensor/cuda/op_support.h"
#include "tensor/cuda/ops.h"
#include "tensor/cuda/ops_kernels.h"
#include "tensor/cuda/runtime.h"
#include "tensor/internal/scalar_cast.h"

namespace tensor::cuda::ops {
namespace {

static_assert(static_cast<int>(ComparisonOp::kNe) == static_cast<int>(CompareOp::kNe) &&
                  static_cast<int>(ComparisonOp::kGt) == static_cast<int>(CompareOp::kGt),
              "ComparisonOp must number the ops as CompareOp does");

// x op value for integer x, as CompareIntegers in elementwise_compare.cc:
// rewritten as x op' bound for a bound of the type, or a constant where no
// element can change the answer (x < 2.5 is x < 3; x < 1e30 always holds
// for int32; x == 0.5 never does). Integers are never rounded to doubles.
struct IntegerComparison {
  bool constant;
  bool answer;        // where constant
  std::int64_t bound;  // otherwise
};

IntegerComparison RewriteForIntegers(DType dtype, CompareOp op, double value) {
  using Op = CompareOp;
  if (std::isnan(value)) return {true, op == Op::kNe, 0};
  const bool whole = std::trunc(value) == value;
  const double bound = op == Op::kLt || op == Op::kGe ? std::ceil(value) : std::floor(value);
  const bool fits = DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsInteger<T>) {
      return internal::FloatFitsInteger<T>(bound);
    } else {
      return false;  // not reached: only integer types are rewritten
    }
  });
  if (!fits || ((op == Op::kEq || op == Op::kNe) && !whole)) {
    switch (op) {
      case Op::kLt:
      case Op::kLe: return {true, bound > 0, 0};
      case Op::kGt:
      case Op::kGe: return {true, bound < 0, 0};
      case Op::kEq: return {true, false, 0};
      case Op::kNe: break;
    }
    return {true, true, 0};
  }
  return {false, false, static_cast<std::int64_t>(bound)};
}

}  // namespace

absl::Status CompareScalar(const Tensor& x, CompareOp op, double value, const Tensor& out) {
  const char* name = CompareOpName(op);
  absl::StatusOr<int> device = CommonDevice({&x, &out}, name);
  if (!device.ok()) return device.status();
  absl::StatusOr<std::byte*> x_origin = x.data();
  if (!x_origin.ok()) return x_origin.status();
  absl::StatusOr<std::byte*> out_origin = out.data();
  if (!out_origin.ok()) return out_origin.status();
  if (x.num_elements() == 0) return absl::OkStatus();
  IntegerComparison integer{false, false, 0};
  if (x.dtype() >= DType::kUInt8 && x.dtype() <= DType::kInt64) {
    integer = RewriteForIntegers(x.dtype(), op, value);
    if (integer.constant) return Fill(out, integer.answer ? 1 : 0);
  }
  return OnDevice(*device, [&]() -> absl::Status {
    const std::size_t item = x.item_size();
    absl::Status launched = ForEachKernelBlock<2>(
        x.shape(), {&out.layout().strides(), &x.layout().strides()},
        [&](const KernelBlock<2>& block) {
          return CudaStatus(
              LaunchCompareScalar(ElementTypeOf(x.dtype()), static_cast<ComparisonOp>(op),
                                  reinterpret_cast<std::uint8_t*>(*out_origin) + block.offsets[0],
                                  block.strides[0], *x_origin + block.offsets[1] * item,
                                  block.strides[1], value, integer.bound, block.shape),
              "the comparison kernel");
        });
    if (!launched.ok()) return launched;
    return Synchronize();
  });
}

absl::Status CompareTensor(const Tensor& x, CompareOp op, const Tensor& y, const Tensor& out) {
  const char* name = CompareOpName(op);
  absl::StatusOr<int> device = CommonDevice({&x, &y, &out}, name);
  if (!device.ok()) return device.status();
  if (x.num_elements() == 0) return absl::OkStatus();
  return OnDevice(*device, [&]() -> absl::Status {
    // Only out is written, and it is new: y needs no copy unless its shape
    // differs and its layout cannot be viewed under x's.
    absl::StatusOr<Tensor> other = InShapeOf(x, y);
    if (!other.ok()) return other.status();
    absl::StatusOr<std::byte*> x_origin = x.data();
    if (!x_origin.ok()) return x_origin.status();
    absl::StatusOr<std::byte*> y_origin = other->data();
    if (!y_origin.ok()) return y_origin.status();
    absl::StatusOr<std::byte*> out_origin = out.data();
    if (!out_origin.ok()) return out_origin.status();
    const std::size_t item = x.item_size();
    absl::Status launched = ForEachKernelBlock<3>(
        x.shape(), {&out.layout().strides(), &x.layout().strides(), &other->layout().strides()},
        [&](const KernelBlock<3>& block) {
          return CudaStatus(
              LaunchCompareTensors(
                  ElementTypeOf(x.dtype()), static_cast<ComparisonOp>(op),
                  reinterpret_cast<std::uint8_t*>(*out_origin) + block.offsets[0],
                  block.strides[0], *x_origin + block.offsets[1] * item, block.strides[1],
                  *y_origin + block.offsets[2] * item, block.strides[2], block.shape),
              "the comparison kernel");
        });
    if (!launched.ok()) return launched;
    return Synchronize();
  });
}

}  // namespace tensor::cuda::ops
