#include "tensor/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/device_ops.h"
#include "tensor/internal/device_dispatch.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/line_kernels.h"
#include "tensor/internal/lines.h"
#include "tensor/internal/pairing.h"
#include "tensor/internal/strided_loop.h"

namespace tensor {
namespace {

using internal::CpuData;
using internal::ForEachRun;
using internal::Lift;
using internal::LoopPlan;
using internal::OperandOf;
using internal::Order;
using internal::PlanLoop;

LoopPlan<1> PlanOver(const Tensor& tensor, std::byte* origin) {
  return PlanLoop<1>(tensor.shape(), {OperandOf(tensor, origin)}, Order::kAny);
}

// op over every element of a T tensor, before Finish.
template <typename T, typename Op>
typename Op::A Accumulate(const Op& op, const LoopPlan<1>& plan) {
  typename Op::A total = op.Identity();
  ForEachRun(plan, [&](auto p, Index n, auto s) {
    total = op.Merge(total, internal::AccumulateRun<T>(op, p[0], n, s[0]));
    return true;
  });
  return total;
}

absl::Status NoElements(const Tensor& tensor, const char* operation) {
  return absl::InvalidArgumentError(absl::StrCat(operation, ": the tensor (shape ",
                                                 tensor.layout().ShapeString(),
                                                 ") has no elements"));
}

// The origin of a floating tensor with at least one element.
absl::StatusOr<std::byte*> FloatingNonEmpty(const Tensor& tensor, const char* operation) {
  absl::StatusOr<std::byte*> origin = CpuData(tensor, operation);
  if (!origin.ok()) return origin.status();
  if (absl::Status s = internal::CheckFloating(tensor, operation); !s.ok()) return s;
  if (tensor.num_elements() == 0) return NoElements(tensor, operation);
  return origin;
}

// ExtremeOf's checks, shared by the CPU kernel and the device dispatch.
absl::Status CheckExtremeOf(const Tensor& tensor, const char* operation) {
  if (absl::Status s = internal::CheckNumeric(tensor, operation); !s.ok()) return s;
  if (tensor.num_elements() == 0) return NoElements(tensor, operation);
  return absl::OkStatus();
}

absl::Status CheckNormExponent(double p, const char* operation) {
  if (p >= 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": p must be at least 0 (or inf), got ", p));
}

absl::StatusOr<bool> Logical(const Tensor& mask, const char* operation, bool all) {
  absl::StatusOr<std::byte*> origin = CpuData(mask, operation);
  if (!origin.ok()) return origin.status();
  if (mask.dtype() != DType::kUInt8) {
    return absl::InvalidArgumentError(absl::StrCat(operation, ": not defined for ",
                                                   DTypeTensorName(mask.dtype()),
                                                   " (only for ByteTensor masks)"));
  }
  // all: stop at the first zero; any: at the first nonzero.
  const bool finished = ForEachRun(PlanOver(mask, *origin), [all](auto p, Index n, auto s) {
    for (Index i = 0; i < n; ++i) {
      if ((*reinterpret_cast<const std::uint8_t*>(p[0] + i * s[0]) != 0) != all) return false;
    }
    return true;
  });
  return finished == all;
}

}  // namespace

absl::StatusOr<double> ExtremeOf(const Tensor& tensor, Extreme extreme) {
  const char* operation = extreme == Extreme::kMax ? "max" : "min";
  if (!tensor.device().is_cpu()) [[unlikely]] {
    absl::StatusOr<const DeviceOps*> ops =
        internal::DeviceOpsWith({&tensor}, &DeviceOps::extreme, operation);
    if (!ops.ok()) return ops.status();
    if (absl::Status s = CheckExtremeOf(tensor, operation); !s.ok()) return s;
    return (*ops)->extreme(tensor, extreme);
  }
  absl::StatusOr<std::byte*> origin = CpuData(tensor, operation);
  if (!origin.ok()) return origin.status();
  if (absl::Status s = CheckExtremeOf(tensor, operation); !s.ok()) return s;
  return internal::DispatchNumeric(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto find = [&](auto kind) {
      constexpr Extreme kExtreme = decltype(kind)::value;
      bool started = false;
      T best{};
      ForEachRun(PlanOver(tensor, *origin), [&](auto p, Index n, auto s) {
        // Only a NaN or a zero (0 or -0: the first) needs the element itself.
        const auto [value, nan] = internal::ExtremeValueOfRun<kExtreme, T>(p[0], n, s[0]);
        const T run = nan || value == 0 ? internal::ExtremeOfRun<kExtreme, T>(p[0], n, s[0]).first
                                        : static_cast<T>(value);
        if (!started || internal::Beats<kExtreme>(run, best)) best = run;
        started = true;
        return !internal::IsNan(best);  // nothing beats a NaN
      });
      return static_cast<double>(Lift(best));
    };
    return extreme == Extreme::kMax ? find(std::integral_constant<Extreme, Extreme::kMax>{})
                                    : find(std::integral_constant<Extreme, Extreme::kMin>{});
  });
}

absl::StatusOr<double> MeanOf(const Tensor& tensor) {
  absl::StatusOr<std::byte*> origin = FloatingNonEmpty(tensor, "mean");
  if (!origin.ok()) return origin.status();
  return internal::DispatchFloating(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Accumulate<T>(internal::SumOp<T>{}, PlanOver(tensor, *origin)) /
           static_cast<double>(tensor.num_elements());
  });
}

absl::StatusOr<double> SpreadOf(const Tensor& tensor, Spread spread, bool biased) {
  const char* operation = spread == Spread::kVariance ? "var" : "std";
  absl::StatusOr<std::byte*> origin = FloatingNonEmpty(tensor, operation);
  if (!origin.ok()) return origin.status();
  const auto n = static_cast<double>(tensor.num_elements());
  const double variance = internal::DispatchFloating(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const LoopPlan<1> plan = PlanOver(tensor, *origin);
    // Two passes, as SpreadAlong: the mean, then the deviations from it.
    const double mean = Accumulate<T>(internal::SumOp<T>{}, plan) / n;
    double squares = 0;
    ForEachRun(plan, [&](auto p, Index m, auto s) {
      for (Index i = 0; i < m; ++i) {
        const double d = Lift(*reinterpret_cast<const T*>(p[0] + i * s[0])) - mean;
        squares += d * d;
      }
      return true;
    });
    return squares / (biased ? n : n - 1);
  });
  return spread == Spread::kVariance ? variance : std::sqrt(variance);
}

absl::StatusOr<double> NormOf(const Tensor& tensor, double p) {
  absl::StatusOr<std::byte*> origin = CpuData(tensor, "norm");
  if (!origin.ok()) return origin.status();
  if (absl::Status s = internal::CheckFloating(tensor, "norm"); !s.ok()) return s;
  if (absl::Status s = CheckNormExponent(p, "norm"); !s.ok()) return s;
  return internal::DispatchFloating(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return internal::DispatchNormKind(p, [&](auto kind) {
      const internal::NormOp<T, decltype(kind)::value> op{p};
      return op.Finish(Accumulate<T>(op, PlanOver(tensor, *origin)), tensor.num_elements());
    });
  });
}

absl::StatusOr<double> DistanceOf(const Tensor& a, const Tensor& b, double p) {
  absl::StatusOr<std::byte*> a_origin = CpuData(a, "dist");
  if (!a_origin.ok()) return a_origin.status();
  absl::StatusOr<std::byte*> b_origin = CpuData(b, "dist");
  if (!b_origin.ok()) return b_origin.status();
  if (absl::Status s = internal::CheckSameDType(a, b, "dist"); !s.ok()) return s;
  if (absl::Status s = internal::CheckFloating(a, "dist"); !s.ok()) return s;
  if (absl::Status s = internal::CheckSameCount(a, b, "dist"); !s.ok()) return s;
  if (absl::Status s = CheckNormExponent(p, "dist"); !s.ok()) return s;
  absl::StatusOr<std::pair<Tensor, Tensor>> pair =
      internal::PairInLayoutOrder(a, b, /*b_before_a=*/false);
  if (!pair.ok()) return pair.status();
  const Tensor& x = pair->first;
  const Tensor& y = pair->second;
  absl::StatusOr<std::byte*> x_origin = x.data();
  if (!x_origin.ok()) return x_origin.status();
  absl::StatusOr<std::byte*> y_origin = y.data();
  if (!y_origin.ok()) return y_origin.status();
  return internal::DispatchFloating(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return internal::DispatchNormKind(p, [&](auto kind) {
      const internal::NormOp<T, decltype(kind)::value> op{p};
      double total = op.Identity();
      ForEachRun(PlanLoop<2>(x.shape(), {OperandOf(x, *x_origin), OperandOf(y, *y_origin)},
                             Order::kAny),
                 [&](auto q, Index n, auto s) {
                   for (Index i = 0; i < n; ++i) {
                     total = op.Add(total, Lift(*reinterpret_cast<const T*>(q[0] + i * s[0])) -
                                               Lift(*reinterpret_cast<const T*>(q[1] + i * s[1])));
                   }
                   return true;
                 });
      return op.Finish(total, x.num_elements());
    });
  });
}

absl::StatusOr<double> TraceOf(const Tensor& matrix) {
  absl::StatusOr<std::byte*> origin = CpuData(matrix, "trace");
  if (!origin.ok()) return origin.status();
  if (absl::Status s = internal::CheckNumeric(matrix, "trace"); !s.ok()) return s;
  if (matrix.rank() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "trace: needs a matrix (2 dimensions), got shape ", matrix.layout().ShapeString()));
  }
  const Index n = std::min(matrix.shape()[0], matrix.shape()[1]);
  const Strides& strides = matrix.layout().strides();
  const Index step = (strides[0] + strides[1]) * static_cast<Index>(matrix.item_size());
  return internal::DispatchNumeric(matrix.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    double total = 0;
    for (Index i = 0; i < n; ++i) {
      total += static_cast<double>(Lift(*reinterpret_cast<const T*>(*origin + i * step)));
    }
    return total;
  });
}

absl::StatusOr<bool> AllOf(const Tensor& mask) { return Logical(mask, "all", true); }

absl::StatusOr<bool> AnyOf(const Tensor& mask) { return Logical(mask, "any", false); }

absl::Status Renorm(const Tensor& tensor, double p, int dim, double maxnorm) {
  absl::StatusOr<std::byte*> origin = CpuData(tensor, "renorm");
  if (!origin.ok()) return origin.status();
  if (absl::Status s = internal::CheckDimension(tensor, dim, "renorm"); !s.ok()) return s;
  if (absl::Status s = internal::CheckFloating(tensor, "renorm"); !s.ok()) return s;
  if (!(p > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("renorm: p must be greater than 0 (or inf), got ", p));
  }
  if (!(maxnorm >= 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("renorm: maxnorm must be at least 0, got ", maxnorm));
  }
  if (absl::Status s = internal::CheckWritable(tensor, "renorm"); !s.ok()) return s;
  if (tensor.num_elements() == 0) return absl::OkStatus();
  const Shape slice = internal::ReducedShape(tensor.shape(), dim);
  const Index stride = tensor.layout().strides()[dim] * static_cast<Index>(tensor.item_size());
  internal::DispatchFloating(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    internal::DispatchNormKind(p, [&](auto kind) {
      const internal::NormOp<T, decltype(kind)::value> op{p};
      LoopPlan<1> plan = PlanLoop<1>(slice, {OperandOf(tensor, *origin)}, Order::kAny);
      std::byte* const first = plan.origins[0];
      for (Index i = 0; i < tensor.shape()[dim]; ++i) {
        plan.origins[0] = first + i * stride;
        const double norm = op.Finish(Accumulate<T>(op, plan), 0);
        if (!(norm > maxnorm)) continue;
        const double scale = maxnorm / (norm + 1e-7);
        ForEachRun(plan, [&](auto q, Index n, auto s) {
          for (Index j = 0; j < n; ++j) {
            T& x = *reinterpret_cast<T*>(q[0] + j * s[0]);
            x = internal::Lower<T>(Lift(x) * scale);
          }
          return true;
        });
      }
    });
  });
  return absl::OkStatus();
}

}  // namespace tensor
