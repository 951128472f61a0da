// DeepMind Lab's scalar arithmetic on integer tensors (ApplyScalarsInDouble
// in tensor/elementwise.h) over a contiguous run, at the processor's
// vector width: each element converted to double, combined in double, and
// truncated back, an error if a result does not fit.
//
// The combination must be monotonic in the element, as x + v, x - v, x * v
// and x / v in double are for a fixed v (conversion, rounding and
// truncation all are); the results that fit an integer type form an
// interval, so every result fits if those of the smallest and the largest
// element do. NaN results (v NaN, or 0 * inf) fail at the extremes too:
// with v infinite, the extremes give NaN or an infinity. Results are those
// of an element-by-element loop, bit for bit: the same expression, without
// fused multiply-adds.
//
// Example:
//   std::uint8_t frame[21168] = ...;
//   bool fits = InDoubleDense(frame, 21168, [](double x) { return x + 3; });
#ifndef TENSOR_INTERNAL_IN_DOUBLE_KERNELS_H_
#define TENSOR_INTERNAL_IN_DOUBLE_KERNELS_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tensor/internal/scalar_cast.h"
#include "tensor/internal/vector_width.h"
#include "tensor/layout.h"

namespace tensor::internal {

// x[i] = trunc(combine(x[i])) for the n > 0 elements of x, if every result
// fits T; false, writing nothing, if one does not.
template <typename T, typename Combine>
bool InDoubleDense(T* x, Index n, Combine combine) {
  const auto [lowest, highest] = AtVectorWidth(n, [x, n]() TENSOR_VECTOR_LOOP {
    T lo = x[0], hi = x[0];
    for (Index i = 1; i < n; ++i) {
      lo = std::min(lo, x[i]);
      hi = std::max(hi, x[i]);
    }
    return std::pair{lo, hi};
  });
  for (T extreme : {lowest, highest}) {
    if (!FloatFitsInteger<T>(combine(static_cast<double>(extreme)))) return false;
  }
  // Every result fits T, so converting it (which truncates toward zero)
  // through a 32-bit integer gives trunc's value; gcc vectorises double to
  // int32 and int32 to a narrower integer, but not double to one directly.
  using Wide = std::conditional_t<(sizeof(T) < sizeof(std::int32_t)), std::int32_t, T>;
  AtVectorWidth(n, [x, n, combine]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) {
      x[i] = static_cast<T>(static_cast<Wide>(combine(static_cast<double>(x[i]))));
    }
  });
  return true;
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_IN_DOUBLE_KERNELS_H_
