#include "tensor/elementwise_unary.h"

#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/device_ops.h"
#include "tensor/internal/device_dispatch.h"
#include "tensor/internal/elementwise_kernel.h"
#include "tensor/internal/kernel_support.h"

namespace tensor {
namespace {

using F = UnaryFunction;
using internal::Down;
using internal::MapInPlace;
using internal::Up;
using internal::WrapType;

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

// Whether kF is defined for T, and if so whether it changes any value
// (trunc leaves integers as they are).
enum class Effect { kUndefined, kNone, kMaps };
template <UnaryFunction kF, typename T>
constexpr Effect EffectOn() {
  if constexpr (std::is_same_v<T, bool>) {
    return Effect::kUndefined;
  } else if constexpr (kIsInteger<T>) {
    if (!DefinedForIntegers(kF) || (kF == F::kNeg && std::is_unsigned_v<T>)) {
      return Effect::kUndefined;
    }
    return kF == F::kTrunc ? Effect::kNone : Effect::kMaps;
  }
  return Effect::kMaps;
}

// What ApplyUnary refuses before any write, shared by the CPU kernel and
// the device dispatch.
template <UnaryFunction kF, typename T>
absl::Status CheckUnary(const Tensor& tensor) {
  const char* name = UnaryFunctionName(kF);
  if constexpr (EffectOn<kF, T>() == Effect::kUndefined) {
    if constexpr (kIsInteger<T> && !std::is_same_v<T, bool> && !DefinedForIntegers(kF)) {
      return internal::NotForIntegers(name, tensor.dtype());
    }
    return internal::NotDefinedFor(name, tensor.dtype());
  } else if constexpr (EffectOn<kF, T>() == Effect::kNone) {
    return absl::OkStatus();
  }
  return internal::CheckWritable(tensor, name);
}

template <UnaryFunction kF>
absl::Status Apply(const Tensor& tensor, std::byte* origin) {
  return DispatchDType(tensor.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if (absl::Status s = CheckUnary<kF, T>(tensor); !s.ok()) return s;
    if constexpr (EffectOn<kF, T>() == Effect::kMaps) {
      if constexpr (kIsInteger<T>) {
        MapInPlace<T, 1>(tensor.shape(), {internal::OperandOf(tensor, origin)},
                         [](T x) { return EvaluateInteger<kF, T>(x); });
      } else {
        MapInPlace<T, 1>(tensor.shape(), {internal::OperandOf(tensor, origin)}, [](T x) {
          return Down<T>(EvaluateFloating<kF, ComputeType<T>>(Up(x)));
        });
      }
    }
    return absl::OkStatus();
  });
}

// Calls g(std::integral_constant<UnaryFunction, f>) for the runtime
// `function`.
template <UnaryFunction... kFs, typename G>
absl::Status Dispatch(UnaryFunction function, G g) {
  absl::Status status = absl::OkStatus();
  ((function == kFs ? (status = g(std::integral_constant<UnaryFunction, kFs>{}), true) : false) ||
   ...);
  return status;
}

template <typename G>
absl::Status DispatchFunction(UnaryFunction function, G g) {
  return Dispatch<F::kAbs, F::kSign, F::kNeg, F::kCinv, F::kAcos, F::kAsin, F::kAtan, F::kCos,
                  F::kCosh, F::kSin, F::kSinh, F::kTan, F::kTanh, F::kExp, F::kLog, F::kLog1p,
                  F::kSqrt, F::kRsqrt, F::kSigmoid, F::kTrunc, F::kFrac>(function, g);
}

absl::Status ApplyUnaryOnDevice(const Tensor& tensor, UnaryFunction function) {
  absl::StatusOr<const DeviceOps*> ops =
      internal::DeviceOpsWith({&tensor}, &DeviceOps::apply_unary, UnaryFunctionName(function));
  if (!ops.ok()) return ops.status();
  absl::Status checked = DispatchFunction(function, [&](auto f) {
    return DispatchDType(tensor.dtype(), [&](auto tag) {
      return CheckUnary<decltype(f)::value, typename decltype(tag)::type>(tensor);
    });
  });
  if (!checked.ok()) return checked;
  return (*ops)->apply_unary(tensor, function);
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
  if (!tensor.device().is_cpu()) [[unlikely]] return ApplyUnaryOnDevice(tensor, function);
  absl::StatusOr<std::byte*> origin = internal::CpuData(tensor, UnaryFunctionName(function));
  if (!origin.ok()) return origin.status();
  return DispatchFunction(
      function, [&](auto f) { return Apply<decltype(f)::value>(tensor, *origin); });
}

}  // namespace tensor
