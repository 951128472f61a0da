#include "tensor/random_fill.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tensor/internal/row_major_fill.h"
#include "tensor/internal/scalar_cast.h"

namespace tensor {
namespace {

using internal::ConvertUnchecked;
using internal::FillRowMajor;
using internal::WritableData;
using internal::Widen;

absl::Status NotDefinedFor(const char* operation, DType dtype) {
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": not defined for ", DTypeTensorName(dtype)));
}

// The destination's origin, after the checks every fill shares.
absl::StatusOr<std::byte*> Destination(const Tensor& tensor, const char* operation,
                                       bool floating_only) {
  absl::StatusOr<std::byte*> origin = WritableData(tensor, operation);
  if (!origin.ok()) return origin;
  if (floating_only && !IsFloating(tensor.dtype())) return NotDefinedFor(operation, tensor.dtype());
  return origin;
}

// r as a T below b: rounding a draw just under b to a coarser type can
// reach b, and the interval is half-open.
template <typename T>
T BelowBound(double r, double a, double b) {
  const T value = ConvertUnchecked<T>(r);
  if (!(a < b) || static_cast<double>(Widen(value)) < b) return value;
  if constexpr (std::is_floating_point_v<T>) {
    const T below = std::nextafter(value, -std::numeric_limits<T>::infinity());
    if (static_cast<double>(below) >= a) return below;
  }
  return ConvertUnchecked<T>(a);
}

// The largest n such that T holds every integer in [1, n] exactly.
template <typename T>
double ExactIntegerLimit() {
  if constexpr (std::is_same_v<T, Float16>) {
    return 0x1p11;
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return 0x1p8;
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::ldexp(1.0, std::numeric_limits<T>::digits);
  } else {
    return static_cast<double>(std::numeric_limits<T>::max());
  }
}

}  // namespace

absl::Status FillUniform(const Tensor& tensor, double a, double b, RandomSource& source) {
  if (!std::isfinite(a) || !std::isfinite(b) || a > b) {
    return absl::InvalidArgumentError(
        absl::StrCat("uniform: bounds must be finite with a <= b, got [", a, ", ", b, ")"));
  }
  absl::StatusOr<std::byte*> origin = Destination(tensor, "uniform", true);
  if (!origin.ok()) return origin.status();
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    FillRowMajor<T>(tensor, *origin,
                    [&](Index) { return BelowBound<T>(source.UniformReal(a, b), a, b); });
  });
  return absl::OkStatus();
}

absl::Status FillNormal(const Tensor& tensor, double mean, double stdv, RandomSource& source) {
  if (!std::isfinite(mean)) {
    return absl::InvalidArgumentError(absl::StrCat("normal: mean must be finite, got ", mean));
  }
  if (!std::isfinite(stdv) || !(stdv > 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "normal: standard deviation must be finite and strictly positive, got ", stdv));
  }
  absl::StatusOr<std::byte*> origin = Destination(tensor, "normal", true);
  if (!origin.ok()) return origin.status();
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    FillRowMajor<T>(tensor, *origin,
                    [&](Index) { return ConvertUnchecked<T>(source.Normal(mean, stdv)); });
  });
  return absl::OkStatus();
}

absl::Status FillBernoulli(const Tensor& tensor, double p, RandomSource& source) {
  if (!(p >= 0 && p <= 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bernoulli: probability must be in [0, 1], got ", p));
  }
  absl::StatusOr<std::byte*> origin = Destination(tensor, "bernoulli", false);
  if (!origin.ok()) return origin.status();
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // A draw in [0, 1) is below p with probability p; p == 1 always is.
    FillRowMajor<T>(tensor, *origin, [&](Index) {
      return ConvertUnchecked<T>(source.UniformReal(0, 1) < p ? 1.0 : 0.0);
    });
  });
  return absl::OkStatus();
}

absl::Status FillRandPerm(const Tensor& tensor, RandomSource& source) {
  if (tensor.rank() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "randperm: the tensor must have rank 1, got shape ", tensor.layout().ShapeString()));
  }
  absl::StatusOr<std::byte*> origin = Destination(tensor, "randperm", false);
  if (!origin.ok()) return origin.status();
  if (tensor.dtype() == DType::kBool) return NotDefinedFor("randperm", tensor.dtype());
  const Index n = tensor.num_elements();
  return DispatchDType(tensor.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      if (static_cast<double>(n) > ExactIntegerLimit<T>()) {
        return absl::InvalidArgumentError(absl::StrCat("randperm: ", DTypeTensorName(tensor.dtype()),
                                                       " cannot hold ", n));
      }
      FillRowMajor<T>(tensor, *origin,
                      [](Index i) { return ConvertUnchecked<T>(static_cast<double>(i + 1)); });
      // Fisher-Yates, drawing as tensor:shuffle does.
      const Index stride = tensor.layout().strides()[0];
      T* data = reinterpret_cast<T*>(*origin);
      for (Index i = n - 1; i > 0; --i) {
        const Index j = source.UniformInt(0, i);
        std::swap(data[i * stride], data[j * stride]);
      }
    }
    return absl::OkStatus();
  });
}

}  // namespace tensor
