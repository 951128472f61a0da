#include "tensor/elementwise_ternary.h"

#include <array>
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tensor/internal/elementwise_kernel.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/scalar_cast.h"

namespace tensor {
namespace {

using internal::Down;
using internal::MapInPlace;
using internal::Up;
using internal::WrapType;

enum class Update { kAddScaled, kAddCMul, kAddCDiv, kLerp };

constexpr const char* UpdateName(Update update) {
  switch (update) {
    case Update::kAddScaled: return "add";
    case Update::kAddCMul: return "addcmul";
    case Update::kAddCDiv: return "addcdiv";
    case Update::kLerp: break;
  }
  return "lerp";
}

// The new value of x, given value v and the operands a (and b).
template <Update kU, typename C>
C EvaluateFloating(C x, C v, C a, C b) {
  if constexpr (kU == Update::kAddScaled) return x + v * a;
  if constexpr (kU == Update::kAddCMul) return x + v * a * b;
  if constexpr (kU == Update::kAddCDiv) return x + v * a / b;
  if constexpr (kU == Update::kLerp) return x + v * (a - x);
}

// REQUIRES: b != 0 for kAddCDiv; not kLerp.
template <Update kU, typename T>
T EvaluateInteger(T x, T v, T a, T b) {
  using U = WrapType<T>;
  const U product = static_cast<U>(v) * static_cast<U>(a);
  if constexpr (kU == Update::kAddScaled) return static_cast<T>(static_cast<U>(x) + product);
  if constexpr (kU == Update::kAddCMul) {
    return static_cast<T>(static_cast<U>(x) + product * static_cast<U>(b));
  }
  if constexpr (kU == Update::kAddCDiv) {
    // Torch7 computes x + value * a / b in C, where 8- and 16-bit operands
    // are promoted to int: value * a is divided before it wraps. P is that
    // promoted type, in which the product of two such values cannot
    // overflow; for 32- and 64-bit types it is T, and the product wraps.
    using P = decltype(+T{});
    using UP = std::make_unsigned_t<P>;
    const P numerator = sizeof(T) < sizeof(int)
                            ? static_cast<P>(v) * static_cast<P>(a)
                            : static_cast<P>(static_cast<UP>(v) * static_cast<UP>(a));
    // MIN / -1 overflows in C++; negating in unsigned wraps it to MIN.
    const UP quotient = std::is_signed_v<T> && b == static_cast<T>(-1)
                            ? UP{0} - static_cast<UP>(numerator)
                            : static_cast<UP>(numerator / static_cast<P>(b));
    return static_cast<T>(static_cast<U>(x) + static_cast<U>(quotient));
  }
}

template <Update kU, typename T>
absl::Status Run(const Tensor& tensor, std::byte* origin, double value,
                 std::initializer_list<const Tensor*> operands) {
  constexpr const char* name = UpdateName(kU);
  if constexpr (std::is_same_v<T, bool>) {
    return internal::NotDefinedFor(name, tensor.dtype());
  } else if constexpr (kIsInteger<T> && kU == Update::kLerp) {
    return internal::NotForIntegers(name, tensor.dtype());
  } else {
    if (!internal::ScalarRepresentable<T>(value)) {
      return internal::NotAValueOf(name, value, tensor.dtype());
    }
    if (absl::Status s = internal::CheckWritable(tensor, name); !s.ok()) return s;
    absl::InlinedVector<Tensor, 2> aligned;
    for (const Tensor* operand : operands) {
      absl::StatusOr<Tensor> a = internal::AlignOperand(tensor, *operand);
      if (!a.ok()) return a.status();
      aligned.push_back(*std::move(a));
    }
    // Operand 0 is x, then a (and b). Built once `aligned` stops growing:
    // each Operand points at its tensor's strides.
    absl::InlinedVector<internal::Operand, 3> walk = {internal::OperandOf(tensor, origin)};
    for (const Tensor& a : aligned) {
      absl::StatusOr<std::byte*> a_origin = a.data();
      if (!a_origin.ok()) return a_origin.status();
      walk.push_back(internal::OperandOf(a, *a_origin));
    }
    if constexpr (kIsInteger<T> && kU == Update::kAddCDiv) {
      if (internal::AnyElement<T>(aligned[1], walk[2].origin,
                                            [](T b) { return b == 0; })) {
        return absl::InvalidArgumentError(absl::StrCat(
            name, ": integer division by zero (the divisor has a zero element); nothing was "
                  "changed"));
      }
    }
    if constexpr (kU == Update::kAddScaled || kU == Update::kLerp) {
      MapInPlace<T, 2>(tensor.shape(), {walk[0], walk[1]},
                       [v = static_cast<ComputeType<T>>(value)](T x, T a) {
                         if constexpr (kIsInteger<T>) {
                           return EvaluateInteger<kU, T>(x, v, a, a);
                         } else {
                           const ComputeType<T> c = Up(a);
                           return Down<T>(EvaluateFloating<kU, ComputeType<T>>(Up(x), v, c, c));
                         }
                       });
    } else {
      MapInPlace<T, 3>(tensor.shape(), {walk[0], walk[1], walk[2]},
                       [v = static_cast<ComputeType<T>>(value)](T x, T a, T b) {
                         if constexpr (kIsInteger<T>) {
                           return EvaluateInteger<kU, T>(x, v, a, b);
                         } else {
                           return Down<T>(EvaluateFloating<kU, ComputeType<T>>(Up(x), v, Up(a),
                                                                              Up(b)));
                         }
                       });
    }
    return absl::OkStatus();
  }
}

template <Update kU>
absl::Status Apply(const Tensor& tensor, double value,
                   std::initializer_list<const Tensor*> operands) {
  constexpr const char* name = UpdateName(kU);
  absl::StatusOr<std::byte*> origin = internal::CpuData(tensor, name);
  if (!origin.ok()) return origin.status();
  for (const Tensor* operand : operands) {
    if (absl::Status s = internal::CheckOperand(tensor, *operand, name); !s.ok()) {
      return s;
    }
  }
  return DispatchDType(tensor.dtype(), [&](auto tag) {
    return Run<kU, typename decltype(tag)::type>(tensor, *origin, value, operands);
  });
}

}  // namespace

absl::Status AddScaled(const Tensor& tensor, double value, const Tensor& other) {
  return Apply<Update::kAddScaled>(tensor, value, {&other});
}

absl::Status AddCMul(const Tensor& tensor, double value, const Tensor& a, const Tensor& b) {
  return Apply<Update::kAddCMul>(tensor, value, {&a, &b});
}

absl::Status AddCDiv(const Tensor& tensor, double value, const Tensor& a, const Tensor& b) {
  return Apply<Update::kAddCDiv>(tensor, value, {&a, &b});
}

absl::Status Lerp(const Tensor& tensor, const Tensor& end, double weight) {
  return Apply<Update::kLerp>(tensor, weight, {&end});
}

}  // namespace tensor
