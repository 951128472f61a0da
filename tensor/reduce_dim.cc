#include "tensor/reduce_dim.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/device_ops.h"
#include "tensor/internal/device_dispatch.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/line_kernels.h"
#include "tensor/internal/lines.h"
#include "tensor/internal/strided_loop.h"

namespace tensor {
namespace {

using internal::Accumulator;
using internal::CpuData;
using internal::ForEachLine;
using internal::ForEachRun;
using internal::Lift;
using internal::LoopPlan;
using internal::Lower;
using internal::Operand;
using internal::OperandOf;
using internal::Order;
using internal::PlanLoop;

enum class Domain { kNumeric, kFloating };

// The checks every reduction shares besides validity: the dimension, the
// dtype and, where `nonempty`, elements along dim. The device dispatch
// makes them too.
absl::Status CheckReduction(const Tensor& input, int dim, const char* operation, Domain domain,
                            bool nonempty) {
  if (absl::Status s = internal::CheckDimension(input, dim, operation); !s.ok()) return s;
  absl::Status type = domain == Domain::kFloating ? internal::CheckFloating(input, operation)
                                                  : internal::CheckNumeric(input, operation);
  if (!type.ok()) return type;
  if (nonempty && input.shape()[dim] == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(operation, ": the dimension to reduce has no elements (shape ",
                     input.layout().ShapeString(), ")"));
  }
  return absl::OkStatus();
}

// The input's origin after validity and CheckReduction.
absl::StatusOr<std::byte*> CheckInput(const Tensor& input, int dim, const char* operation,
                                      Domain domain, bool nonempty) {
  absl::StatusOr<std::byte*> origin = CpuData(input, operation);
  if (!origin.ok()) return origin.status();
  if (absl::Status s = CheckReduction(input, dim, operation, domain, nonempty); !s.ok()) return s;
  return origin;
}

Index ByteStride(const Tensor& tensor, int dim) {
  return tensor.layout().strides()[dim] * static_cast<Index>(tensor.item_size());
}

// output[j] = op over the line j of `input` along `dim`. Where dim is the
// innermost dimension in memory, each line is one run; elsewhere the lines
// are summed slice by slice (acc += input.select(dim, i)), so that the
// inner loop walks a slice in memory order instead of striding down lines.
template <typename T, typename Op>
absl::Status AccumulateAlong(const Op& op, const Tensor& input, std::byte* origin, int dim,
                             const Tensor& output, Allocator& allocator) {
  using A = typename Op::A;
  const Index n = input.shape()[dim];
  const Index count = output.num_elements();
  if (count == 0) return absl::OkStatus();
  T* out = reinterpret_cast<T*>(*output.data());
  const Strides out_strides = internal::RowMajorStrides(output.shape());
  if (n == 0) {
    for (Index j = 0; j < count; ++j) out[j] = Lower<T>(op.Finish(op.Identity(), 0));
    return absl::OkStatus();
  }
  const Index stride = ByteStride(input, dim);
  if (internal::IsInnermost(input, dim)) {
    const Operand out_operand{reinterpret_cast<std::byte*>(out), &out_strides, sizeof(T)};
    ForEachLine<2>(input.shape(), dim, {OperandOf(input, origin), out_operand}, [&](auto starts) {
      *reinterpret_cast<T*>(starts[1]) =
          Lower<T>(op.Finish(internal::AccumulateRun<T>(op, starts[0], n, stride), n));
    });
    return absl::OkStatus();
  }
  // Accumulate in the output itself where it has the accumulator's type.
  Tensor scratch;
  A* acc = reinterpret_cast<A*>(out);
  if constexpr (!std::is_same_v<A, T>) {
    absl::StatusOr<Tensor> made = Tensor::Uninitialized(DType::kFloat64, output.shape(), allocator);
    if (!made.ok()) return made.status();
    scratch = *std::move(made);
    acc = reinterpret_cast<A*>(*scratch.data());
  }
  for (Index j = 0; j < count; ++j) acc[j] = op.Identity();
  const Operand acc_operand{reinterpret_cast<std::byte*>(acc), &out_strides, sizeof(A)};
  LoopPlan<2> plan = PlanLoop<2>(output.shape(), {OperandOf(input, origin), acc_operand}, Order::kAny);
  std::byte* const first = plan.origins[0];
  for (Index i = 0; i < n; ++i) {
    plan.origins[0] = first + i * stride;
    ForEachRun(plan, [&](auto p, Index m, auto s) {
      if (s[0] == sizeof(T) && s[1] == sizeof(A)) {
        const T* x = reinterpret_cast<const T*>(p[0]);
        A* a = reinterpret_cast<A*>(p[1]);
        for (Index j = 0; j < m; ++j) a[j] = op.Add(a[j], Lift(x[j]));
      } else {
        for (Index j = 0; j < m; ++j) {
          A& a = *reinterpret_cast<A*>(p[1] + j * s[1]);
          a = op.Add(a, Lift(*reinterpret_cast<const T*>(p[0] + j * s[0])));
        }
      }
      return true;
    });
  }
  if constexpr (!std::is_same_v<A, T> || !Op::kPlainFinish) {
    for (Index j = 0; j < count; ++j) out[j] = Lower<T>(op.Finish(acc[j], n));
  }
  return absl::OkStatus();
}

// Checks, allocates the result, and runs with_op(TypeTag<T>, run), where
// run(op) accumulates with `op`.
template <typename WithOp>
absl::StatusOr<Tensor> Reduce(const Tensor& input, int dim, const char* operation, Domain domain,
                              bool nonempty, Allocator& allocator, WithOp with_op) {
  absl::StatusOr<std::byte*> origin = CheckInput(input, dim, operation, domain, nonempty);
  if (!origin.ok()) return origin.status();
  absl::StatusOr<Tensor> output =
      Tensor::Uninitialized(input.dtype(), internal::ReducedShape(input.shape(), dim), allocator);
  if (!output.ok()) return output.status();
  absl::Status status = internal::DispatchNumeric(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return with_op(tag, [&](const auto& op) {
      return AccumulateAlong<T>(op, input, *origin, dim, *output, allocator);
    });
  });
  if (!status.ok()) return status;
  return output;
}

// One candidate against the best so far: a NaN is always taken, so a NaN
// wins, but at its last position rather than its first (ExtremeLines
// corrects that). A select without branches, which vectorises where the
// exact first-NaN rule does not.
template <Extreme kExtreme, typename T>
inline void Challenge(T candidate, double position, T& best, double& best_at) {
  using C = ComputeType<T>;
  const C a = static_cast<C>(candidate), b = static_cast<C>(best);
  bool take = kExtreme == Extreme::kMax ? a > b : a < b;
  if constexpr (kIsFloating<T>) take = take | (a != a);
  best = take ? candidate : best;
  best_at = take ? position : best_at;
}

// For k in [0, kSlices): challenges v[j], at[j] with x_k[j] (at x + k *
// step) and position + k. kSlices slices at once, so that v and at go
// through registers once per kSlices slices. Positions are doubles (exact
// below 2^53): selecting an int64 by a double comparison does not
// vectorise without AVX, selecting a double does.
template <Extreme kExtreme, int kSlices, typename T>
[[gnu::always_inline]] inline void SliceExtremeBody(const T* __restrict x, Index step,
                                                    T* __restrict v, double* __restrict at,
                                                    Index n, double position) {
  static_assert(kSlices == 1 || kSlices == 4);
  for (Index j = 0; j < n; ++j) {
    T best = v[j];
    double best_at = at[j];
    Challenge<kExtreme>(x[j], position, best, best_at);
    if constexpr (kSlices == 4) {
      Challenge<kExtreme>(x[step + j], position + 1, best, best_at);
      Challenge<kExtreme>(x[2 * step + j], position + 2, best, best_at);
      Challenge<kExtreme>(x[3 * step + j], position + 3, best, best_at);
    }
    v[j] = best;
    at[j] = best_at;
  }
}

// SliceExtremeBody, compiled twice: for the baseline and for AVX2 (four
// doubles per select instead of two), chosen at run time. Not inlined into
// the walk: there its pointers lose __restrict and gcc 12 no longer
// vectorises the loop (measured: 2x slower).
template <Extreme kExtreme, int kSlices, typename T>
[[gnu::noinline]] void SliceExtremeBaseline(const T* __restrict x, Index step, T* __restrict v,
                                            double* __restrict at, Index n, double position) {
  SliceExtremeBody<kExtreme, kSlices>(x, step, v, at, n, position);
}

template <Extreme kExtreme, int kSlices, typename T>
[[gnu::noinline, gnu::target("avx2")]] void SliceExtremeAvx2(const T* __restrict x, Index step,
                                                             T* __restrict v,
                                                             double* __restrict at, Index n,
                                                             double position) {
  SliceExtremeBody<kExtreme, kSlices>(x, step, v, at, n, position);
}

template <Extreme kExtreme, int kSlices, typename T>
void SliceExtreme(const T* x, Index step, T* v, double* at, Index n, double position) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  avx2 ? SliceExtremeAvx2<kExtreme, kSlices>(x, step, v, at, n, position)
       : SliceExtremeBaseline<kExtreme, kSlices>(x, step, v, at, n, position);
}

template <Extreme kExtreme, typename T>
absl::Status ExtremeLines(const Tensor& input, std::byte* origin, int dim,
                          const ValuesAndIndices& out, Index first_index, Allocator& allocator) {
  const Index n = input.shape()[dim];
  const Index stride = ByteStride(input, dim);
  const Strides out_strides = internal::RowMajorStrides(out.values.shape());
  const Operand values{*out.values.data(), &out_strides, sizeof(T)};
  if (internal::IsInnermost(input, dim)) {
    const Operand indices{*out.indices.data(), &out_strides, sizeof(std::int64_t)};
    ForEachLine<3>(input.shape(), dim, {OperandOf(input, origin), values, indices},
                   [&](auto starts) {
                     const auto [value, index] =
                         internal::ExtremeOfRun<kExtreme, T>(starts[0], n, stride);
                     *reinterpret_cast<T*>(starts[1]) = value;
                     *reinterpret_cast<std::int64_t*>(starts[2]) = index + first_index;
                   });
    return absl::OkStatus();
  }
  // Slice by slice, as AccumulateAlong does; the first slice starts it.
  absl::StatusOr<Tensor> positions =
      Tensor::Uninitialized(DType::kFloat64, out.values.shape(), allocator);
  if (!positions.ok()) return positions.status();
  double* at = reinterpret_cast<double*>(*positions->data());
  const Operand at_operand{reinterpret_cast<std::byte*>(at), &out_strides, sizeof(double)};
  LoopPlan<3> plan =
      PlanLoop<3>(out.values.shape(), {OperandOf(input, origin), values, at_operand}, Order::kAny);
  std::byte* const first = plan.origins[0];
  constexpr int kBlock = 4;
  const Index step = stride / static_cast<Index>(sizeof(T));
  for (Index i = 0; i < n;) {
    const int block = i > 0 && n - i >= kBlock ? kBlock : 1;
    plan.origins[0] = first + i * stride;
    const auto position = static_cast<double>(i);
    ForEachRun(plan, [&](auto p, Index m, auto s) {
      if (i == 0) {
        for (Index j = 0; j < m; ++j) {
          *reinterpret_cast<T*>(p[1] + j * s[1]) = *reinterpret_cast<const T*>(p[0] + j * s[0]);
          *reinterpret_cast<double*>(p[2] + j * s[2]) = position;
        }
      } else if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
        // The outputs are row-major like the plan, so unit-stride too.
        const T* x = reinterpret_cast<const T*>(p[0]);
        T* v = reinterpret_cast<T*>(p[1]);
        double* at = reinterpret_cast<double*>(p[2]);
        block == kBlock ? SliceExtreme<kExtreme, kBlock>(x, step, v, at, m, position)
                        : SliceExtreme<kExtreme, 1>(x, step, v, at, m, position);
      } else {
        for (int k = 0; k < block; ++k) {
          for (Index j = 0; j < m; ++j) {
            Challenge<kExtreme>(*reinterpret_cast<const T*>(p[0] + k * stride + j * s[0]),
                                position + k, *reinterpret_cast<T*>(p[1] + j * s[1]),
                                *reinterpret_cast<double*>(p[2] + j * s[2]));
          }
        }
      }
      return true;
    });
    i += block;
  }
  if constexpr (kIsFloating<T>) {
    // Where a NaN won, find its first position: rare, so a walk of the
    // few lines concerned is cheap.
    ForEachLine<3>(input.shape(), dim, {OperandOf(input, origin), values, at_operand},
                   [&](auto starts) {
                     if (!internal::IsNan(*reinterpret_cast<const T*>(starts[1]))) return;
                     Index i = 0;
                     while (!internal::IsNan(*reinterpret_cast<const T*>(starts[0] + i * stride))) ++i;
                     *reinterpret_cast<double*>(starts[2]) = static_cast<double>(i);
                   });
  }
  std::int64_t* indices = reinterpret_cast<std::int64_t*>(*out.indices.data());
  for (Index j = 0; j < out.indices.num_elements(); ++j) {
    indices[j] = static_cast<std::int64_t>(at[j]) + first_index;
  }
  return absl::OkStatus();
}

template <typename T>
void SpreadLines(const Tensor& input, std::byte* origin, int dim, const Tensor& output,
                 Spread spread, bool biased) {
  const Index n = input.shape()[dim];
  const Index stride = ByteStride(input, dim);
  const Strides out_strides = internal::RowMajorStrides(output.shape());
  const Operand out{*output.data(), &out_strides, sizeof(T)};
  ForEachLine<2>(input.shape(), dim, {OperandOf(input, origin), out}, [&](auto starts) {
    // Two passes: the mean, then the squared deviations from it, which
    // keeps the precision that one pass of sums of squares loses.
    const double mean =
        internal::AccumulateRun<T>(internal::SumOp<T>{}, starts[0], n, stride) / static_cast<double>(n);
    double squares = 0;
    for (Index i = 0; i < n; ++i) {
      const double d = Lift(*reinterpret_cast<const T*>(starts[0] + i * stride)) - mean;
      squares += d * d;
    }
    const double variance = squares / static_cast<double>(biased ? n : n - 1);
    *reinterpret_cast<T*>(starts[1]) =
        Lower<T>(spread == Spread::kVariance ? variance : std::sqrt(variance));
  });
}

template <typename T, typename Op>
void ScanLines(const Op& op, const Tensor& input, std::byte* origin, int dim,
               const Tensor& output) {
  const Index n = input.shape()[dim];
  const Index stride = ByteStride(input, dim);
  const Strides out_strides = internal::RowMajorStrides(output.shape());
  const Index out_stride = out_strides[dim] * static_cast<Index>(sizeof(T));
  const Operand out{*output.data(), &out_strides, sizeof(T)};
  ForEachLine<2>(input.shape(), dim, {OperandOf(input, origin), out}, [&](auto starts) {
    typename Op::A acc = op.Identity();
    for (Index i = 0; i < n; ++i) {
      acc = op.Add(acc, Lift(*reinterpret_cast<const T*>(starts[0] + i * stride)));
      *reinterpret_cast<T*>(starts[1] + i * out_stride) = Lower<T>(acc);
    }
  });
}

absl::StatusOr<ValuesAndIndices> ExtremeAlongOnDevice(const Tensor& input, int dim,
                                                      Extreme extreme, Index first_index,
                                                      const char* operation) {
  absl::StatusOr<const DeviceOps*> ops =
      internal::DeviceOpsWith({&input}, &DeviceOps::extreme_along, operation);
  if (!ops.ok()) return ops.status();
  if (absl::Status s = CheckReduction(input, dim, operation, Domain::kNumeric, true); !s.ok()) {
    return s;
  }
  const Shape reduced = internal::ReducedShape(input.shape(), dim);
  absl::StatusOr<Tensor> values =
      internal::NewOnDevice(**ops, input.device(), input.dtype(), reduced, operation);
  if (!values.ok()) return values.status();
  absl::StatusOr<Tensor> indices =
      internal::NewOnDevice(**ops, input.device(), DType::kInt64, reduced, operation);
  if (!indices.ok()) return indices.status();
  ValuesAndIndices result{*std::move(values), *std::move(indices)};
  // The backend is promised elements (another dimension may have none).
  if (result.values.num_elements() == 0) return result;
  absl::Status status =
      (*ops)->extreme_along(input, dim, extreme, first_index, result.values, result.indices);
  if (!status.ok()) return status;
  return result;
}

}  // namespace

absl::StatusOr<Tensor> SumAlong(const Tensor& input, int dim, Allocator& allocator) {
  if (!input.device().is_cpu()) [[unlikely]] {
    // The result lives beside the input; `allocator` is the CPU's.
    absl::StatusOr<const DeviceOps*> ops =
        internal::DeviceOpsWith({&input}, &DeviceOps::sum_along, "sum");
    if (!ops.ok()) return ops.status();
    if (absl::Status s = CheckReduction(input, dim, "sum", Domain::kNumeric, false); !s.ok()) {
      return s;
    }
    absl::StatusOr<Tensor> output = internal::NewOnDevice(
        **ops, input.device(), input.dtype(), internal::ReducedShape(input.shape(), dim), "sum");
    if (!output.ok()) return output.status();
    if (absl::Status s = (*ops)->sum_along(input, dim, *output); !s.ok()) return s;
    return output;
  }
  return Reduce(input, dim, "sum", Domain::kNumeric, false, allocator, [](auto tag, auto run) {
    return run(internal::SumOp<typename decltype(tag)::type>{});
  });
}

absl::StatusOr<Tensor> ProductAlong(const Tensor& input, int dim, Allocator& allocator) {
  return Reduce(input, dim, "prod", Domain::kNumeric, false, allocator, [](auto tag, auto run) {
    return run(internal::ProductOp<typename decltype(tag)::type>{});
  });
}

absl::StatusOr<Tensor> MeanAlong(const Tensor& input, int dim, Allocator& allocator) {
  return Reduce(input, dim, "mean", Domain::kFloating, true, allocator, [](auto tag, auto run) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloating<T>) return run(internal::MeanOp<T>{});
    return absl::OkStatus();  // unreachable: CheckFloating ran
  });
}

absl::StatusOr<Tensor> NormAlong(const Tensor& input, double p, int dim, Allocator& allocator) {
  if (!(p >= 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("norm: p must be at least 0 (or inf), got ", p));
  }
  return Reduce(input, dim, "norm", Domain::kFloating, false, allocator, [p](auto tag, auto run) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloating<T>) {
      return internal::DispatchNormKind(p, [&](auto kind) {
        return run(internal::NormOp<T, decltype(kind)::value>{p});
      });
    }
    return absl::OkStatus();  // unreachable: the domain is floating
  });
}

absl::StatusOr<Tensor> SpreadAlong(const Tensor& input, int dim, Spread spread, bool biased,
                                   Allocator& allocator) {
  const char* operation = spread == Spread::kVariance ? "var" : "std";
  absl::StatusOr<std::byte*> origin = CheckInput(input, dim, operation, Domain::kFloating, true);
  if (!origin.ok()) return origin.status();
  absl::StatusOr<Tensor> output =
      Tensor::Uninitialized(input.dtype(), internal::ReducedShape(input.shape(), dim), allocator);
  if (!output.ok()) return output.status();
  if (output->num_elements() == 0) return output;
  internal::DispatchFloating(input.dtype(), [&](auto tag) {
    SpreadLines<typename decltype(tag)::type>(input, *origin, dim, *output, spread, biased);
  });
  return output;
}

absl::StatusOr<ValuesAndIndices> ExtremeAlong(const Tensor& input, int dim, Extreme extreme,
                                              Index first_index, Allocator& allocator) {
  const char* operation = extreme == Extreme::kMax ? "max" : "min";
  if (!input.device().is_cpu()) [[unlikely]] {
    return ExtremeAlongOnDevice(input, dim, extreme, first_index, operation);
  }
  absl::StatusOr<std::byte*> origin = CheckInput(input, dim, operation, Domain::kNumeric, true);
  if (!origin.ok()) return origin.status();
  const Shape reduced = internal::ReducedShape(input.shape(), dim);
  absl::StatusOr<Tensor> values = Tensor::Uninitialized(input.dtype(), reduced, allocator);
  if (!values.ok()) return values.status();
  absl::StatusOr<Tensor> indices = Tensor::Uninitialized(DType::kInt64, reduced, allocator);
  if (!indices.ok()) return indices.status();
  ValuesAndIndices result{*std::move(values), *std::move(indices)};
  if (result.values.num_elements() == 0) return result;
  absl::Status status = internal::DispatchNumeric(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return extreme == Extreme::kMax
               ? ExtremeLines<Extreme::kMax, T>(input, *origin, dim, result, first_index, allocator)
               : ExtremeLines<Extreme::kMin, T>(input, *origin, dim, result, first_index, allocator);
  });
  if (!status.ok()) return status;
  return result;
}

absl::StatusOr<Tensor> ScanAlong(const Tensor& input, int dim, Scan scan, Allocator& allocator) {
  const char* operation = scan == Scan::kSum ? "cumsum" : "cumprod";
  absl::StatusOr<std::byte*> origin = CheckInput(input, dim, operation, Domain::kNumeric, false);
  if (!origin.ok()) return origin.status();
  absl::StatusOr<Tensor> output = Tensor::Uninitialized(input.dtype(), input.shape(), allocator);
  if (!output.ok()) return output.status();
  if (output->num_elements() == 0) return output;
  internal::DispatchNumeric(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (scan == Scan::kSum) {
      ScanLines<T>(internal::SumOp<T>{}, input, *origin, dim, *output);
    } else {
      ScanLines<T>(internal::ProductOp<T>{}, input, *origin, dim, *output);
    }
  });
  return output;
}

}  // namespace tensor
