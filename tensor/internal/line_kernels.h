// The inner loops of reductions: one run of elements, contiguous or
// strided, folded into an accumulator or searched for its extreme.
//
// Floating types accumulate in double. Integers accumulate in their own
// type with wraparound (in the unsigned type, where overflow is defined),
// which gives the same bits as any wider accumulator truncated at the end.
#ifndef TENSOR_INTERNAL_LINE_KERNELS_H_
#define TENSOR_INTERNAL_LINE_KERNELS_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tensor/dtype.h"
#include "tensor/internal/vector_width.h"
#include "tensor/layout.h"

namespace tensor::internal {

template <typename T>
using Accumulator = std::conditional_t<kIsFloating<T>, double, T>;

template <typename T>
Accumulator<T> Lift(T x) {
  if constexpr (kIsFloating<T>) {
    return static_cast<double>(static_cast<ComputeType<T>>(x));
  } else {
    return x;
  }
}

template <typename T>
T Lower(Accumulator<T> a) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    return T(static_cast<float>(a));
  } else {
    return static_cast<T>(a);
  }
}

// Unsigned, and at least as wide as unsigned int, so that arithmetic on it
// neither overflows nor promotes to a signed int.
template <typename T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                    std::make_unsigned_t<T>>;

template <typename A>
A AddOf(A a, A b) {
  if constexpr (std::is_integral_v<A>) {
    return static_cast<A>(static_cast<WrapType<A>>(a) + static_cast<WrapType<A>>(b));
  } else {
    return a + b;
  }
}

template <typename A>
A MulOf(A a, A b) {
  if constexpr (std::is_integral_v<A>) {
    return static_cast<A>(static_cast<WrapType<A>>(a) * static_cast<WrapType<A>>(b));
  } else {
    return a * b;
  }
}

// Accumulating operations: Add folds in one lifted element, Merge joins
// two partial accumulators, Finish turns the accumulator of n elements
// into the result. kPlainFinish: Finish returns its argument.
template <typename T>
struct SumOp {
  using A = Accumulator<T>;
  static constexpr bool kPlainFinish = true;
  A Identity() const { return A(0); }
  A Add(A acc, A x) const { return AddOf(acc, x); }
  A Merge(A a, A b) const { return AddOf(a, b); }
  A Finish(A acc, Index) const { return acc; }
};

template <typename T>
struct ProductOp {
  using A = Accumulator<T>;
  static constexpr bool kPlainFinish = true;
  A Identity() const { return A(1); }
  A Add(A acc, A x) const { return MulOf(acc, x); }
  A Merge(A a, A b) const { return MulOf(a, b); }
  A Finish(A acc, Index) const { return acc; }
};

// REQUIRES: a floating T, and n > 0 at Finish.
template <typename T>
struct MeanOp : SumOp<T> {
  static constexpr bool kPlainFinish = false;
  double Finish(double acc, Index n) const { return acc / static_cast<double>(n); }
};

// The p-norm, with the common exponents as their own loops.
enum class NormKind {
  kNonZero,  // p = 0: the count of nonzero elements
  kAbs,      // p = 1
  kSquare,   // p = 2
  kMax,      // p = inf: the largest magnitude
  kPower,    // any other p > 0
};

inline NormKind NormKindOf(double p) {
  if (p == 0) return NormKind::kNonZero;
  if (p == 1) return NormKind::kAbs;
  if (p == 2) return NormKind::kSquare;
  if (std::isinf(p)) return NormKind::kMax;
  return NormKind::kPower;
}

// REQUIRES: a floating T.
template <typename T, NormKind kKind>
struct NormOp {
  using A = double;
  static constexpr bool kPlainFinish = false;
  double p;
  double Identity() const { return 0; }
  double Add(double acc, double x) const {
    if constexpr (kKind == NormKind::kNonZero) return acc + (x != 0 ? 1 : 0);
    if constexpr (kKind == NormKind::kAbs) return acc + std::abs(x);
    if constexpr (kKind == NormKind::kSquare) return acc + x * x;
    if constexpr (kKind == NormKind::kMax) return Merge(acc, std::abs(x));
    if constexpr (kKind == NormKind::kPower) return acc + std::pow(std::abs(x), p);
  }
  double Merge(double a, double b) const {
    // The largest magnitude; a NaN, once met, stays.
    if constexpr (kKind == NormKind::kMax) return (b > a || b != b) && a == a ? b : a;
    return a + b;
  }
  double Finish(double acc, Index) const {
    if constexpr (kKind == NormKind::kSquare) return std::sqrt(acc);
    if constexpr (kKind == NormKind::kPower) return std::pow(acc, 1 / p);
    return acc;
  }
};

// Calls f(std::integral_constant<NormKind, kind>) for p's kind.
template <typename F>
decltype(auto) DispatchNormKind(double p, F&& f) {
  switch (NormKindOf(p)) {
    case NormKind::kNonZero: return f(std::integral_constant<NormKind, NormKind::kNonZero>{});
    case NormKind::kAbs: return f(std::integral_constant<NormKind, NormKind::kAbs>{});
    case NormKind::kSquare: return f(std::integral_constant<NormKind, NormKind::kSquare>{});
    case NormKind::kMax: return f(std::integral_constant<NormKind, NormKind::kMax>{});
    case NormKind::kPower: break;
  }
  return f(std::integral_constant<NormKind, NormKind::kPower>{});
}

// Independent accumulators break the dependency chain of one running
// value, so the operations overlap in the pipeline and vectorise.
constexpr int kPartials = 8;

// op's partial accumulators merged, in the order k = 0, 1, ..., kPartials - 1.
template <typename Op, typename A>
[[gnu::always_inline]] inline A MergePartials(const Op& op, const A (&partial)[kPartials]) {
  A total = partial[0];
  for (int k = 1; k < kPartials; ++k) total = op.Merge(total, partial[k]);
  return total;
}

// op's accumulator over the n elements at p, `stride` bytes apart.
// Element i goes to partial i % kPartials (the tail's to partial 0), at
// every vector width: the partials are the vector lanes, so the sum of a
// given tensor has the same bits on every processor.
template <typename T, typename Op>
typename Op::A AccumulateRun(const Op& op, const std::byte* p, Index n, Index stride) {
  using A = typename Op::A;
  if (stride == static_cast<Index>(sizeof(T))) {
    const T* x = reinterpret_cast<const T*>(p);
    return AtVectorWidth(n, [op, x, n]() TENSOR_VECTOR_LOOP {
      A partial[kPartials];
      for (A& a : partial) a = op.Identity();
      Index i = 0;
      for (; i + kPartials <= n; i += kPartials) {
        for (int k = 0; k < kPartials; ++k) partial[k] = op.Add(partial[k], Lift(x[i + k]));
      }
      for (; i < n; ++i) partial[0] = op.Add(partial[0], Lift(x[i]));
      return MergePartials(op, partial);
    });
  }
  A partial[kPartials];
  for (A& a : partial) a = op.Identity();
  Index i = 0;
  for (; i + kPartials <= n; i += kPartials) {
    for (int k = 0; k < kPartials; ++k) {
      partial[k] = op.Add(partial[k], Lift(*reinterpret_cast<const T*>(p + (i + k) * stride)));
    }
  }
  for (; i < n; ++i) partial[0] = op.Add(partial[0], Lift(*reinterpret_cast<const T*>(p + i * stride)));
  return MergePartials(op, partial);
}

enum class Extreme { kMax, kMin };

template <typename T>
bool IsNan(T x) {
  if constexpr (kIsFloating<T>) {
    return std::isnan(static_cast<ComputeType<T>>(x));
  } else {
    return false;
  }
}

// Whether x replaces the extreme so far, v: a strictly greater (smaller)
// value, or a NaN where v is none, so that NaN propagates and ties keep
// the first.
template <Extreme kExtreme, typename T>
bool Beats(T x, T v) {
  const auto a = static_cast<ComputeType<T>>(x);
  const auto b = static_cast<ComputeType<T>>(v);
  const bool better = kExtreme == Extreme::kMax ? a > b : a < b;
  if constexpr (kIsFloating<T>) {
    return better || (a != a && b == b);
  } else {
    return better;
  }
}

// The extreme value of the n elements at p, `stride` bytes apart, with
// independent partial extremes and no branches; and whether one is NaN.
// REQUIRES: n > 0.
template <Extreme kExtreme, typename T>
std::pair<ComputeType<T>, bool> ExtremeValueOfRun(const std::byte* p, Index n, Index stride) {
  auto at = [&](Index i) { return *reinterpret_cast<const T*>(p + i * stride); };
  using C = ComputeType<T>;
  struct Partials {
    C value[kPartials];
    bool nan = false;
    Index next = 0;  // the first element not yet seen
  };
  Partials partials;
  for (C& v : partials.value) v = static_cast<C>(at(0));
  if (stride == static_cast<Index>(sizeof(T))) {
    const T* x = reinterpret_cast<const T*>(p);
    partials = AtVectorWidth(n, [x, n, partials]() TENSOR_VECTOR_LOOP {
      // Plain arrays, and NaNs looked for in a loop of their own: with a
      // struct's members, or a NaN test beside the comparison, the compiler
      // leaves the loop scalar (2.5 times as slow).
      C value[kPartials];
      for (int k = 0; k < kPartials; ++k) value[k] = partials.value[k];
      Index i = 0;
      for (; i + kPartials <= n; i += kPartials) {
        for (int k = 0; k < kPartials; ++k) {
          const C v = static_cast<C>(x[i + k]);
          const bool better = kExtreme == Extreme::kMax ? v > value[k] : v < value[k];
          value[k] = better ? v : value[k];
        }
      }
      Partials out;
      for (int k = 0; k < kPartials; ++k) out.value[k] = value[k];
      if constexpr (kIsFloating<T>) {
        // v - v is NaN for a NaN and for an infinity; only then look closer.
        C spread[kPartials] = {};
        for (Index j = 0; j < i; j += kPartials) {
          for (int k = 0; k < kPartials; ++k) {
            const C v = static_cast<C>(x[j + k]);
            spread[k] += v - v;
          }
        }
        bool suspect = false;
        for (C d : spread) suspect |= d != 0;
        for (Index j = 0; suspect && j < i; ++j) out.nan |= IsNan(x[j]);
      }
      out.next = i;
      return out;
    });
  }
  C (&partial)[kPartials] = partials.value;
  bool nan = partials.nan;
  for (Index i = partials.next; i < n; ++i) {
    const C v = static_cast<C>(at(i));
    const bool better = kExtreme == Extreme::kMax ? v > partial[0] : v < partial[0];
    partial[0] = better ? v : partial[0];
    if constexpr (kIsFloating<T>) nan |= v != v;
  }
  C best = partial[0];
  for (int k = 1; k < kPartials; ++k) {
    const bool better = kExtreme == Extreme::kMax ? partial[k] > best : partial[k] < best;
    best = better ? partial[k] : best;
  }
  return {best, nan};
}

// The extreme of the n elements at p, `stride` bytes apart, and its
// position: the first NaN if there is one, else the first extreme. The
// value first, then its first position: two cheap passes rather than one
// loop that carries an index through every comparison.
// REQUIRES: n > 0.
template <Extreme kExtreme, typename T>
std::pair<T, Index> ExtremeOfRun(const std::byte* p, Index n, Index stride) {
  auto at = [&](Index i) { return *reinterpret_cast<const T*>(p + i * stride); };
  using C = ComputeType<T>;
  const auto [best, nan] = ExtremeValueOfRun<kExtreme, T>(p, n, stride);
  Index found = 0;
  if (nan) {
    while (!IsNan(at(found))) ++found;
  } else {
    while (static_cast<C>(at(found)) != best) ++found;
  }
  // The element itself, not `best`: of 0 and -0 it is the first.
  return {at(found), found};
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_LINE_KERNELS_H_
