#include "tensor/reduce.h"

#include <cstddef>
#include <utility>

#include "absl/status/status.h"
#include "tensor/device_ops.h"
#include "tensor/internal/device_dispatch.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/pairing.h"
#include "tensor/internal/strided_loop.h"
#include "tensor/internal/vector_width.h"

namespace tensor {
namespace {

using internal::ForEachRun;
using internal::OperandOf;
using internal::Order;
using internal::PlanLoop;

// Independent accumulators break the dependency chain of one running sum,
// so the adds overlap in the pipeline and vectorise.
constexpr int kAccumulators = 8;

// The sum of term(i) for i in [0, n), in double: term(i) goes to partial
// i % kAccumulators (the tail's to the total), and the partials are the
// vector lanes, so the result has the same bits at every vector width.
template <typename Term>
[[gnu::always_inline]] inline double SumTerms(Index n, Term term) {
  double partial[kAccumulators] = {};
  Index i = 0;
  for (; i + kAccumulators <= n; i += kAccumulators) {
    for (int k = 0; k < kAccumulators; ++k) partial[k] += term(i + k);
  }
  double total = 0;
  for (; i < n; ++i) total += term(i);
  for (int k = 0; k < kAccumulators; ++k) total += partial[k];
  return total;
}

template <typename T>
double AsDouble(const std::byte* p) {
  return static_cast<double>(static_cast<ComputeType<T>>(*reinterpret_cast<const T*>(p)));
}

// Sums term(value) over every element of `tensor`.
template <typename Term>
absl::StatusOr<double> SumOver(const Tensor& tensor, const char* operation, Term term) {
  absl::StatusOr<std::byte*> origin = internal::CpuData(tensor, operation);
  if (!origin.ok()) return origin.status();
  return DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    double total = 0;
    ForEachRun(PlanLoop<1>(tensor.shape(), {OperandOf(tensor, *origin)}, Order::kAny),
               [&](auto p, Index n, auto s) {
                 if (s[0] == sizeof(T)) {
                   const T* x = reinterpret_cast<const T*>(p[0]);
                   total += internal::AtVectorWidth(n, [x, n, term]() TENSOR_VECTOR_LOOP {
                     return SumTerms(n, [x, term](Index i) TENSOR_VECTOR_LOOP {
                       return term(static_cast<double>(static_cast<ComputeType<T>>(x[i])));
                     });
                   });
                 } else {
                   total += SumTerms(n, [&](Index i) { return term(AsDouble<T>(p[0] + i * s[0])); });
                 }
                 return true;
               });
    return total;
  });
}

}  // namespace

absl::StatusOr<double> Sum(const Tensor& tensor) {
  if (!tensor.device().is_cpu()) [[unlikely]] {
    absl::StatusOr<const DeviceOps*> ops =
        internal::DeviceOpsWith({&tensor}, &DeviceOps::sum, "sum");
    if (!ops.ok()) return ops.status();
    return (*ops)->sum(tensor);
  }
  return SumOver(tensor, "sum", [](double x) { return x; });
}

absl::StatusOr<double> LengthSquared(const Tensor& tensor) {
  return SumOver(tensor, "lengthSquared", [](double x) { return x * x; });
}

absl::StatusOr<double> Product(const Tensor& tensor) {
  absl::StatusOr<std::byte*> origin = internal::CpuData(tensor, "product");
  if (!origin.ok()) return origin.status();
  return DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    double product = 1;
    ForEachRun(PlanLoop<1>(tensor.shape(), {OperandOf(tensor, *origin)}, Order::kAny),
               [&](auto p, Index n, auto s) {
                 for (Index i = 0; i < n; ++i) product *= AsDouble<T>(p[0] + i * s[0]);
                 return true;
               });
    return product;
  });
}

absl::StatusOr<double> Dot(const Tensor& lhs, const Tensor& rhs) {
  absl::StatusOr<std::byte*> lhs_origin = internal::CpuData(lhs, "dot");
  if (!lhs_origin.ok()) return lhs_origin.status();
  absl::StatusOr<std::byte*> rhs_origin = internal::CpuData(rhs, "dot");
  if (!rhs_origin.ok()) return rhs_origin.status();
  if (absl::Status s = internal::CheckSameDType(lhs, rhs, "dot"); !s.ok()) return s;
  if (absl::Status s = internal::CheckSameCount(lhs, rhs, "dot"); !s.ok()) return s;
  absl::StatusOr<std::pair<Tensor, Tensor>> pair =
      internal::PairInLayoutOrder(lhs, rhs, /*b_before_a=*/false);
  if (!pair.ok()) return pair.status();
  // Plain references, not a structured binding: the lambdas below capture
  // them, which clang 14 (the fuzz build's compiler) does not allow for bindings.
  const Tensor& a = pair->first;
  const Tensor& b = pair->second;
  absl::StatusOr<std::byte*> a_origin = a.data();
  absl::StatusOr<std::byte*> b_origin = b.data();
  if (!a_origin.ok()) return a_origin.status();
  if (!b_origin.ok()) return b_origin.status();
  return DispatchDType(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    double total = 0;
    ForEachRun(PlanLoop<2>(a.shape(), {OperandOf(a, *a_origin), OperandOf(b, *b_origin)},
                           Order::kAny),
               [&](auto p, Index n, auto s) {
                 total += SumTerms(n, [&](Index i) {
                   return AsDouble<T>(p[0] + i * s[0]) * AsDouble<T>(p[1] + i * s[1]);
                 });
                 return true;
               });
    return total;
  });
}

}  // namespace tensor
