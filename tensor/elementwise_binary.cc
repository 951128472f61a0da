#include "tensor/elementwise_binary.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tensor/internal/elementwise_kernel.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/scalar_cast.h"

namespace tensor {
namespace {

using F = BinaryFunction;
using internal::Down;
using internal::MapInPlace;
using internal::Up;
using internal::WrapType;

template <BinaryFunction kF, typename C>
C EvaluateFloating(C x, C v) {
  if constexpr (kF == F::kPow) return std::pow(x, v);
  if constexpr (kF == F::kFmod) return std::fmod(x, v);
  if constexpr (kF == F::kRemainder) {
    // From fmod, which is exact, rather than x - v * floor(x / v), which
    // rounds twice.
    const C r = std::fmod(x, v);
    return r != 0 && (r < 0) != (v < 0) ? r + v : r;
  }
  if constexpr (kF == F::kMax) return x > v || x != x ? x : v;
  if constexpr (kF == F::kMin) return x < v || x != x ? x : v;
  if constexpr (kF == F::kAtan2) return std::atan2(x, v);
}

// x ^ n by squaring, wrapping around as integer multiplication does.
template <typename T>
T IntegerPow(T x, std::uint64_t n) {
  using U = WrapType<T>;
  U result = 1, base = static_cast<U>(x);
  for (; n != 0; n >>= 1) {
    if (n & 1) result *= base;
    base *= base;
  }
  return static_cast<T>(result);
}

// REQUIRES: v >= 0 for kPow; v != 0 for kFmod and kRemainder; not kAtan2.
template <BinaryFunction kF, typename T>
T EvaluateInteger(T x, T v) {
  if constexpr (kF == F::kPow) return IntegerPow(x, static_cast<std::uint64_t>(v));
  if constexpr (kF == F::kFmod || kF == F::kRemainder) {
    // MIN % -1 overflows in C++; its remainder is 0.
    if (std::is_signed_v<T> && v == static_cast<T>(-1)) return T{0};
    const T r = static_cast<T>(x % v);
    if constexpr (kF == F::kRemainder && std::is_signed_v<T>) {
      if (r != 0 && (r < 0) != (v < 0)) return static_cast<T>(r + v);  // opposite signs: no overflow
    }
    return r;
  }
  if constexpr (kF == F::kMax) return x < v ? v : x;
  if constexpr (kF == F::kMin) return v < x ? v : x;
}

absl::Status DivisionByZero(const char* name) {
  return absl::InvalidArgumentError(
      absl::StrCat(name, ": integer division by zero; nothing was changed"));
}

template <BinaryFunction kF, typename T>
absl::Status ApplyScalar(const Tensor& tensor, std::byte* origin, double value) {
  const char* name = BinaryScalarName(kF);
  const std::array<internal::Operand, 1> operands = {internal::OperandOf(tensor, origin)};
  if constexpr (kIsInteger<T>) {
    if constexpr (kF == F::kPow) {
      if (!(value >= 0 && std::trunc(value) == value &&
            internal::FloatFitsInteger<std::int64_t>(value))) {
        return absl::InvalidArgumentError(absl::StrCat(
            name, ": the exponent of an integer tensor must be a whole number >= 0, got ",
            value));
      }
      if (absl::Status s = internal::CheckWritable(tensor, name); !s.ok()) return s;
      const auto n = static_cast<std::uint64_t>(value);
      MapInPlace<T, 1>(tensor.shape(), operands, [n](T x) { return IntegerPow(x, n); });
      return absl::OkStatus();
    }
    if (!internal::ScalarRepresentable<T>(value)) {
      return internal::NotAValueOf(name, value, tensor.dtype());
    }
    if ((kF == F::kFmod || kF == F::kRemainder) && value == 0) return DivisionByZero(name);
    if (absl::Status s = internal::CheckWritable(tensor, name); !s.ok()) return s;
    const T v = static_cast<T>(value);
    MapInPlace<T, 1>(tensor.shape(), operands, [v](T x) { return EvaluateInteger<kF, T>(x, v); });
  } else {
    if (absl::Status s = internal::CheckWritable(tensor, name); !s.ok()) return s;
    using C = ComputeType<T>;
    const C v = static_cast<C>(value);
    MapInPlace<T, 1>(tensor.shape(), operands,
                     [v](T x) { return Down<T>(EvaluateFloating<kF, C>(Up(x), v)); });
  }
  return absl::OkStatus();
}

template <BinaryFunction kF, typename T>
absl::Status ApplyTensor(const Tensor& tensor, std::byte* origin, const Tensor& other) {
  const char* name = BinaryTensorName(kF);
  if (absl::Status s = internal::CheckWritable(tensor, name); !s.ok()) return s;
  absl::StatusOr<Tensor> aligned = internal::AlignOperand(tensor, other);
  if (!aligned.ok()) return aligned.status();
  absl::StatusOr<std::byte*> other_origin = aligned->data();
  if (!other_origin.ok()) return other_origin.status();
  if constexpr (kIsInteger<T>) {
    if (kF == F::kPow && std::is_signed_v<T> &&
        internal::AnyElement<T>(*aligned, *other_origin, [](T v) { return v < 0; })) {
      return absl::InvalidArgumentError(absl::StrCat(
          name, ": the exponents of an integer tensor must be >= 0; nothing was changed"));
    }
    if ((kF == F::kFmod || kF == F::kRemainder) &&
        internal::AnyElement<T>(*aligned, *other_origin, [](T v) { return v == 0; })) {
      return DivisionByZero(name);
    }
  }
  const std::array<internal::Operand, 2> operands = {
      internal::OperandOf(tensor, origin), internal::OperandOf(*aligned, *other_origin)};
  MapInPlace<T, 2>(tensor.shape(), operands, [](T x, T y) {
    if constexpr (kIsInteger<T>) {
      return EvaluateInteger<kF, T>(x, y);
    } else {
      return Down<T>(EvaluateFloating<kF, ComputeType<T>>(Up(x), Up(y)));
    }
  });
  return absl::OkStatus();
}

// Calls f(std::integral_constant<BinaryFunction, function>).
template <typename Fn>
absl::Status DispatchFunction(BinaryFunction function, Fn&& f) {
  switch (function) {
    case F::kPow: return f(std::integral_constant<F, F::kPow>{});
    case F::kFmod: return f(std::integral_constant<F, F::kFmod>{});
    case F::kRemainder: return f(std::integral_constant<F, F::kRemainder>{});
    case F::kMax: return f(std::integral_constant<F, F::kMax>{});
    case F::kMin: return f(std::integral_constant<F, F::kMin>{});
    case F::kAtan2: break;
  }
  return f(std::integral_constant<F, F::kAtan2>{});
}

// apply(f, TypeTag<T>{}) for `function` as f and the element type T of
// `dtype`, or the error for the pairs that are not defined: any bool, and
// atan2 of integers.
template <typename Apply>
absl::Status DispatchKernel(DType dtype, BinaryFunction function, const char* name,
                            Apply&& apply) {
  return DispatchDType(dtype, [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      return internal::NotDefinedFor(name, dtype);
    } else {
      return DispatchFunction(function, [&](auto f) {
        if constexpr (kIsInteger<T> && decltype(f)::value == F::kAtan2) {
          return internal::NotForIntegers(name, dtype);
        } else {
          return apply(f, tag);
        }
      });
    }
  });
}

}  // namespace

const char* BinaryScalarName(BinaryFunction function) {
  static constexpr const char* kNames[] = {"pow", "fmod", "remainder", "cmax", "cmin", "atan2"};
  return kNames[static_cast<int>(function)];
}

const char* BinaryTensorName(BinaryFunction function) {
  static constexpr const char* kNames[] = {"cpow", "cfmod", "cremainder", "cmax", "cmin", "atan2"};
  return kNames[static_cast<int>(function)];
}

absl::Status ApplyBinaryScalar(const Tensor& tensor, BinaryFunction function, double value) {
  const char* name = BinaryScalarName(function);
  absl::StatusOr<std::byte*> origin = internal::CpuData(tensor, name);
  if (!origin.ok()) return origin.status();
  if (function == F::kAtan2) {
    return absl::InvalidArgumentError("atan2: the second argument must be a tensor");
  }
  return DispatchKernel(tensor.dtype(), function, name, [&](auto f, auto tag) {
    return ApplyScalar<decltype(f)::value, typename decltype(tag)::type>(tensor, *origin, value);
  });
}

absl::Status ApplyBinaryTensor(const Tensor& tensor, BinaryFunction function,
                               const Tensor& other) {
  const char* name = BinaryTensorName(function);
  absl::StatusOr<std::byte*> origin = internal::CpuData(tensor, name);
  if (!origin.ok()) return origin.status();
  if (absl::Status s = internal::CheckOperand(tensor, other, name); !s.ok()) return s;
  return DispatchKernel(tensor.dtype(), function, name, [&](auto f, auto tag) {
    return ApplyTensor<decltype(f)::value, typename decltype(tag)::type>(tensor, *origin, other);
  });
}

}  // namespace tensor
