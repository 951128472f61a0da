#include "tensor/elementwise_compare.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tensor/device_ops.h"
#include "tensor/internal/device_dispatch.h"
#include "tensor/internal/elementwise_kernel.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/scalar_cast.h"
#include "tensor/internal/strided_loop.h"
#include "tensor/internal/vector_width.h"

namespace tensor {
namespace {

using Mask = std::uint8_t;

template <CompareOp kOp, typename A, typename B>
bool Holds(A a, B b) {
  if constexpr (kOp == CompareOp::kLt) return a < b;
  if constexpr (kOp == CompareOp::kLe) return a <= b;
  if constexpr (kOp == CompareOp::kGt) return a > b;
  if constexpr (kOp == CompareOp::kGe) return a >= b;
  if constexpr (kOp == CompareOp::kEq) return a == b;
  if constexpr (kOp == CompareOp::kNe) return a != b;
}

// Calls f(std::integral_constant<CompareOp, op>).
template <typename F>
decltype(auto) DispatchOp(CompareOp op, F&& f) {
  switch (op) {
    case CompareOp::kLt: return f(std::integral_constant<CompareOp, CompareOp::kLt>{});
    case CompareOp::kLe: return f(std::integral_constant<CompareOp, CompareOp::kLe>{});
    case CompareOp::kGt: return f(std::integral_constant<CompareOp, CompareOp::kGt>{});
    case CompareOp::kGe: return f(std::integral_constant<CompareOp, CompareOp::kGe>{});
    case CompareOp::kEq: return f(std::integral_constant<CompareOp, CompareOp::kEq>{});
    case CompareOp::kNe: break;
  }
  return f(std::integral_constant<CompareOp, CompareOp::kNe>{});
}

// mask[i] = test(x[i]...) over the operands after the mask, all of type T.
template <typename T, int N, typename Test>
void FillMask(const Tensor& mask, const std::array<internal::Operand, N>& operands, Test test) {
  const internal::LoopPlan<N> plan =
      internal::PlanLoop<N>(mask.shape(), operands, internal::Order::kAny);
  internal::ForEachRun(plan, [&test](auto p, Index n, auto s) {
    Mask* m = reinterpret_cast<Mask*>(p[0]);
    const T* x = reinterpret_cast<const T*>(p[1]);
    const bool dense_x = s[1] == static_cast<Index>(sizeof(T));
    if constexpr (N == 2) {
      if (s[0] == 1 && dense_x) {
        internal::AtVectorWidth(n, [m, x, n, test]() TENSOR_VECTOR_LOOP {
          for (Index i = 0; i < n; ++i) m[i] = test(x[i]);
        });
      } else {
        for (Index i = 0; i < n; ++i) {
          p[0][i * s[0]] = static_cast<std::byte>(test(*reinterpret_cast<const T*>(p[1] + i * s[1])));
        }
      }
    } else {
      const T* y = reinterpret_cast<const T*>(p[2]);
      if (s[0] == 1 && dense_x && s[2] == static_cast<Index>(sizeof(T))) {
        internal::AtVectorWidth<internal::Reads::kSeveralArrays>(
            n, [m, x, y, n, test]() TENSOR_VECTOR_LOOP {
              for (Index i = 0; i < n; ++i) m[i] = test(x[i], y[i]);
            });
      } else {
        for (Index i = 0; i < n; ++i) {
          p[0][i * s[0]] = static_cast<std::byte>(test(*reinterpret_cast<const T*>(p[1] + i * s[1]),
                                                       *reinterpret_cast<const T*>(p[2] + i * s[2])));
        }
      }
    }
    return true;
  });
}

void FillConstant(const Tensor& mask, bool value) {
  if (mask.num_elements() > 0) std::memset(*mask.data(), value ? 1 : 0, mask.num_elements());
}

// x op value for integer x, rewritten as x op' bound for a bound of T, or
// as a constant when no element of T can change the answer: x < 2.5 is
// x < 3, x < 1e30 always holds for int32, x == 0.5 never does. Integers
// are never rounded to doubles, so int64 beyond 2^53 compares exactly.
template <typename T>
void CompareIntegers(const Tensor& mask, internal::Operand x, CompareOp op, double value) {
  using Op = CompareOp;
  if (std::isnan(value)) return FillConstant(mask, op == Op::kNe);
  const bool whole = std::trunc(value) == value;
  const double bound = op == Op::kLt || op == Op::kGe ? std::ceil(value) : std::floor(value);
  if (!internal::FloatFitsInteger<T>(bound) || ((op == Op::kEq || op == Op::kNe) && !whole)) {
    switch (op) {
      case Op::kLt:
      case Op::kLe: return FillConstant(mask, bound > 0);
      case Op::kGt:
      case Op::kGe: return FillConstant(mask, bound < 0);
      case Op::kEq: return FillConstant(mask, false);
      case Op::kNe: return FillConstant(mask, true);
    }
  }
  const T b = static_cast<T>(bound);
  DispatchOp(op, [&](auto op_tag) {
    FillMask<T, 2>(mask, {internal::OperandOf(mask, *mask.data()), x},
                   [b](T v) { return static_cast<Mask>(Holds<decltype(op_tag)::value>(v, b)); });
  });
}

absl::StatusOr<Tensor> NewMask(const Tensor& x, Allocator& allocator) {
  return Tensor::Uninitialized(DType::kUInt8, x.shape(), allocator);
}

absl::Status NotForBool(CompareOp op) {
  return absl::InvalidArgumentError(
      absl::StrCat(CompareOpName(op), ": not defined for BoolTensor"));
}

// The mask of x op value, or of x op *y, computed by the backend of x's
// device into a mask allocated there.
absl::StatusOr<Tensor> CompareOnDevice(const Tensor& x, CompareOp op, double value,
                                       const Tensor* y) {
  const char* name = CompareOpName(op);
  absl::StatusOr<const DeviceOps*> ops =
      y == nullptr ? internal::DeviceOpsWith({&x}, &DeviceOps::compare_scalar, name)
                   : internal::DeviceOpsWith({&x, y}, &DeviceOps::compare_tensor, name);
  if (!ops.ok()) return ops.status();
  if (y != nullptr) {
    if (absl::Status s = internal::CheckOperandMatches(x, *y, name); !s.ok()) return s;
  }
  if (x.dtype() == DType::kBool) return NotForBool(op);
  absl::StatusOr<Tensor> mask =
      internal::NewOnDevice(**ops, x.device(), DType::kUInt8, x.shape(), name);
  if (!mask.ok()) return mask.status();
  absl::Status status = y == nullptr ? (*ops)->compare_scalar(x, op, value, *mask)
                                     : (*ops)->compare_tensor(x, op, *y, *mask);
  if (!status.ok()) return status;
  return mask;
}

}  // namespace

const char* CompareOpName(CompareOp op) {
  static constexpr const char* kNames[] = {"lt", "le", "gt", "ge", "eq", "ne"};
  return kNames[static_cast<int>(op)];
}

absl::StatusOr<Tensor> CompareScalar(const Tensor& x, CompareOp op, double value,
                                     Allocator& allocator) {
  if (!x.device().is_cpu()) [[unlikely]] return CompareOnDevice(x, op, value, nullptr);
  absl::StatusOr<std::byte*> origin = internal::CpuData(x, CompareOpName(op));
  if (!origin.ok()) return origin.status();
  if (x.dtype() == DType::kBool) return NotForBool(op);
  absl::StatusOr<Tensor> mask = NewMask(x, allocator);
  if (!mask.ok()) return mask.status();
  if (x.num_elements() == 0) return mask;
  const internal::Operand source = internal::OperandOf(x, *origin);
  DispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsInteger<T>) {
      CompareIntegers<T>(*mask, source, op, value);
    } else if constexpr (kIsFloating<T>) {
      // In double: every float holds exactly, and `value` stays as given.
      DispatchOp(op, [&](auto op_tag) {
        FillMask<T, 2>(*mask, {internal::OperandOf(*mask, *mask->data()), source}, [value](T v) {
          return static_cast<Mask>(
              Holds<decltype(op_tag)::value>(static_cast<double>(internal::Up(v)), value));
        });
      });
    }
  });
  return mask;
}

absl::StatusOr<Tensor> CompareTensor(const Tensor& x, CompareOp op, const Tensor& y,
                                     Allocator& allocator) {
  if (!x.device().is_cpu() || !y.device().is_cpu()) [[unlikely]] {
    return CompareOnDevice(x, op, 0, &y);
  }
  const char* name = CompareOpName(op);
  absl::StatusOr<std::byte*> origin = internal::CpuData(x, name);
  if (!origin.ok()) return origin.status();
  if (absl::Status s = internal::CheckOperand(x, y, name); !s.ok()) return s;
  if (x.dtype() == DType::kBool) return NotForBool(op);
  // Only x's shape matters here: nothing is written to x or y.
  absl::StatusOr<Tensor> aligned = y;
  if (y.shape() != x.shape()) aligned = internal::AlignOperand(x, y);
  if (!aligned.ok()) return aligned.status();
  absl::StatusOr<std::byte*> y_origin = aligned->data();
  if (!y_origin.ok()) return y_origin.status();
  absl::StatusOr<Tensor> mask = NewMask(x, allocator);
  if (!mask.ok()) return mask.status();
  if (x.num_elements() == 0) return mask;
  const std::array<internal::Operand, 3> operands = {internal::OperandOf(*mask, *mask->data()),
                                                     internal::OperandOf(x, *origin),
                                                     internal::OperandOf(*aligned, *y_origin)};
  DispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    DispatchOp(op, [&](auto op_tag) {
      FillMask<T, 3>(*mask, operands, [](T a, T b) {
        return static_cast<Mask>(Holds<decltype(op_tag)::value>(internal::Up(a),
                                                                 internal::Up(b)));
      });
    });
  });
  return mask;
}

}  // namespace tensor
