#include "tensor/random_fill.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

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

absl::Status FillRandom(const Tensor& tensor, std::int64_t a, std::int64_t b,
                        RandomSource& source) {
  if (a > b) {
    return absl::InvalidArgumentError(
        absl::StrCat("random: the range [", a, ", ", b, "] is empty"));
  }
  absl::StatusOr<std::byte*> origin = Destination(tensor, "random", false);
  if (!origin.ok()) return origin.status();
  return DispatchDType(tensor.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    const double limit = ExactIntegerLimit<T>();
    const double lowest = std::is_signed_v<ComputeType<T>> ? -limit : 0;
    if (static_cast<double>(a) < lowest || static_cast<double>(b) > limit) {
      return absl::InvalidArgumentError(absl::StrCat(
          "random: ", DTypeTensorName(tensor.dtype()), " cannot hold every integer in [", a, ", ",
          b, "]"));
    }
    FillRowMajor<T>(tensor, *origin, [&](Index) {
      if constexpr (std::is_integral_v<T>) {
        return static_cast<T>(source.UniformInt(a, b));
      } else {
        return ConvertUnchecked<T>(static_cast<double>(source.UniformInt(a, b)));
      }
    });
    return absl::OkStatus();
  });
}

namespace {

// A floating fill of `value()` after checking `valid`, or why not.
template <typename Draw>
absl::Status FillFloating(const Tensor& tensor, const char* operation, bool valid,
                          const std::string& why, Draw&& draw) {
  if (!valid) return absl::InvalidArgumentError(absl::StrCat(operation, ": ", why));
  absl::StatusOr<std::byte*> origin = Destination(tensor, operation, true);
  if (!origin.ok()) return origin.status();
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    FillRowMajor<T>(tensor, *origin, [&](Index) { return ConvertUnchecked<T>(draw()); });
  });
  return absl::OkStatus();
}

}  // namespace

absl::Status FillExponential(const Tensor& tensor, double lambda, RandomSource& source) {
  return FillFloating(tensor, "exponential", std::isfinite(lambda) && lambda > 0,
                      absl::StrCat("lambda must be finite and > 0, got ", lambda),
                      [&] { return -std::log1p(-source.UniformReal(0, 1)) / lambda; });
}

absl::Status FillCauchy(const Tensor& tensor, double median, double sigma, RandomSource& source) {
  return FillFloating(
      tensor, "cauchy", std::isfinite(median) && std::isfinite(sigma) && sigma > 0,
      absl::StrCat("the median must be finite and sigma finite and > 0, got ", median, " and ",
                   sigma),
      [&] { return median + sigma * std::tan(M_PI * (source.UniformReal(0, 1) - 0.5)); });
}

absl::Status FillLogNormal(const Tensor& tensor, double mean, double stdv, RandomSource& source) {
  return FillFloating(
      tensor, "logNormal", std::isfinite(mean) && std::isfinite(stdv) && stdv > 0,
      absl::StrCat("the mean must be finite and stdv finite and > 0, got ", mean, " and ", stdv),
      [&] { return std::exp(source.Normal(mean, stdv)); });
}

absl::Status FillGeometric(const Tensor& tensor, double p, RandomSource& source) {
  if (!(p > 0 && p < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("geometric: probability must be in (0, 1), got ", p));
  }
  absl::StatusOr<std::byte*> origin = Destination(tensor, "geometric", false);
  if (!origin.ok()) return origin.status();
  const double log_p = std::log(p);
  auto draw = [&] { return std::floor(std::log1p(-source.UniformReal(0, 1)) / log_p) + 1; };
  return DispatchDType(tensor.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<ComputeType<T>>) {
      FillRowMajor<T>(tensor, *origin, [&](Index) { return ConvertUnchecked<T>(draw()); });
    } else {
      // Drawn first, so that a value the type cannot hold writes nothing.
      std::vector<double> values(static_cast<std::size_t>(tensor.num_elements()));
      for (double& value : values) {
        value = draw();
        if (value > ExactIntegerLimit<T>()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "geometric: drew ", value, ", which ", DTypeTensorName(tensor.dtype()),
              " cannot hold"));
        }
      }
      FillRowMajor<T>(tensor, *origin,
                      [&](Index i) { return ConvertUnchecked<T>(values[static_cast<std::size_t>(i)]); });
    }
    return absl::OkStatus();
  });
}

}  // namespace tensor
