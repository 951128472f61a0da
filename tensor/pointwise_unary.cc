#include "tensor/pointwise_unary.h"

#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/pointwise_kernel.h"

namespace tensor {
namespace {

using F = UnaryFunction;
using pointwise_internal::Down;
using pointwise_internal::MapInPlace;
using pointwise_internal::Up;
using pointwise_internal::WrapType;

// Whether the function is defined for integer tensors at all.
constexpr bool DefinedForIntegers(UnaryFunction f) {
  return f == F::kAbs || f == F::kSign || f == F::kNeg || f == F::kTrunc || f == F::kFrac;
}

// f(x) in the floating compute type C.
template <UnaryFunction kF, typename C>
C EvaluateFloating(C x) {
  if constexpr (kF == F::kAbs) return std::abs(x);
  if constexpr (kF == F::kSign) return x > 0 ? C{1} : x < 0 ? C{-1} : C{0};  // NaN too, as Torch7
  if constexpr (kF == F::kNeg) return -x;
  if constexpr (kF == F::kCinv) return C{1} / x;
  if constexpr (kF == F::kAcos) return std::acos(x);
  if constexpr (kF == F::kAsin) return std::asin(x);
  if constexpr (kF == F::kAtan) return std::atan(x);
  if constexpr (kF == F::kCos) return std::cos(x);
  if constexpr (kF == F::kCosh) return std::cosh(x);
  if constexpr (kF == F::kSin) return std::sin(x);
  if constexpr (kF == F::kSinh) return std::sinh(x);
  if constexpr (kF == F::kTan) return std::tan(x);
  if constexpr (kF == F::kTanh) return std::tanh(x);
  if constexpr (kF == F::kExp) return std::exp(x);
  if constexpr (kF == F::kLog) return std::log(x);
  if constexpr (kF == F::kLog1p) return std::log1p(x);
  if constexpr (kF == F::kSqrt) return std::sqrt(x);
  if constexpr (kF == F::kRsqrt) return C{1} / std::sqrt(x);
  if constexpr (kF == F::kSigmoid) return C{1} / (C{1} + std::exp(-x));
  if constexpr (kF == F::kTrunc) return std::trunc(x);
  if constexpr (kF == F::kFrac) return x - std::trunc(x);
}

// f(x) for an integer type T, wrapping where the result does not fit.
template <UnaryFunction kF, typename T>
T EvaluateInteger(T x) {
  using U = WrapType<T>;
  if constexpr (kF == F::kAbs) {
    if constexpr (std::is_unsigned_v<T>) {
      return x;
    } else {
      return x < 0 ? static_cast<T>(U{0} - static_cast<U>(x)) : x;
    }
  }
  if constexpr (kF == F::kSign) return static_cast<T>((x > 0) - (x < 0));
  if constexpr (kF == F::kNeg) return static_cast<T>(U{0} - static_cast<U>(x));
  if constexpr (kF == F::kFrac) return T{0};
}

template <UnaryFunction kF>
absl::Status Apply(const Tensor& tensor, std::byte* origin) {
  return DispatchDType(tensor.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    const char* name = UnaryFunctionName(kF);
    if constexpr (std::is_same_v<T, bool>) {
      return pointwise_internal::NotDefinedFor(name, tensor.dtype());
    } else if constexpr (kIsInteger<T>) {
      if constexpr (!DefinedForIntegers(kF)) {
        return pointwise_internal::NotForIntegers(name, tensor.dtype());
      } else if constexpr (kF == F::kNeg && std::is_unsigned_v<T>) {
        return pointwise_internal::NotDefinedFor(name, tensor.dtype());
      } else if constexpr (kF != F::kTrunc) {  // trunc leaves integers as they are
        if (absl::Status s = internal::CheckWritable(tensor, name); !s.ok()) return s;
        MapInPlace<T, 1>(tensor.shape(), {internal::OperandOf(tensor, origin)},
                         [](T x) { return EvaluateInteger<kF, T>(x); });
      }
      return absl::OkStatus();
    } else {
      if (absl::Status s = internal::CheckWritable(tensor, name); !s.ok()) return s;
      MapInPlace<T, 1>(tensor.shape(), {internal::OperandOf(tensor, origin)}, [](T x) {
        return Down<T>(EvaluateFloating<kF, ComputeType<T>>(Up(x)));
      });
      return absl::OkStatus();
    }
  });
}

// Calls Apply<f> for the runtime `function`.
template <UnaryFunction... kFs>
absl::Status Dispatch(UnaryFunction function, const Tensor& tensor, std::byte* origin) {
  absl::Status status = absl::OkStatus();
  ((function == kFs ? (status = Apply<kFs>(tensor, origin), true) : false) || ...);
  return status;
}

}  // namespace

const char* UnaryFunctionName(UnaryFunction function) {
  static constexpr const char* kNames[] = {
      "abs", "sign", "neg",  "cinv", "acos", "asin",  "atan",  "cos",     "cosh",  "sin",  "sinh",
      "tan", "tanh", "exp",  "log",  "log1p", "sqrt", "rsqrt", "sigmoid", "trunc", "frac",
  };
  return kNames[static_cast<int>(function)];
}

absl::Status ApplyUnary(const Tensor& tensor, UnaryFunction function) {
  absl::StatusOr<std::byte*> origin = internal::CpuData(tensor, UnaryFunctionName(function));
  if (!origin.ok()) return origin.status();
  return Dispatch<F::kAbs, F::kSign, F::kNeg, F::kCinv, F::kAcos, F::kAsin, F::kAtan, F::kCos,
                  F::kCosh, F::kSin, F::kSinh, F::kTan, F::kTanh, F::kExp, F::kLog, F::kLog1p,
                  F::kSqrt, F::kRsqrt, F::kSigmoid, F::kTrunc, F::kFrac>(function, tensor,
                                                                         *origin);
}

}  // namespace tensor
