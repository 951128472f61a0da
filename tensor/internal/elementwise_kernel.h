// Machinery shared by the element-wise functions of elementwise_*.cc and
// elementwise_compare.cc: operand checks and alignment, and the in-place
// map that walks a destination with up to two operands.
//
// Not for use outside tensor/: the public entry points are in
// elementwise_unary.h, elementwise_binary.h, elementwise_ternary.h and
// elementwise_compare.h.
//
// Example (inside a kernel):
//   absl::StatusOr<Tensor> y = AlignOperand(x, other);     // x's shape
//   MapInPlace<float, 2>(x.shape(), {OperandOf(x, *x_origin), OperandOf(*y, *y_origin)},
//                        [](float a, float b) { return a < b ? b : a; });
#ifndef TENSOR_INTERNAL_ELEMENTWISE_KERNEL_H_
#define TENSOR_INTERNAL_ELEMENTWISE_KERNEL_H_

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/strided_loop.h"
#include "tensor/internal/vector_width.h"
#include "tensor/tensor.h"

namespace tensor::internal {

// Integer arithmetic is done in an unsigned type at least as wide as
// unsigned int, where overflow wraps instead of being undefined (as in
// elementwise.cc).
template <typename T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                    std::make_unsigned_t<T>>;

// "exp: not defined for Int32Tensor; ..." for a function of floating
// types only.
absl::Status NotForIntegers(const char* operation, DType dtype);

// "neg: not defined for BoolTensor".
absl::Status NotDefinedFor(const char* operation, DType dtype);

// "fmod: 0.5 is not a value of int32".
absl::Status NotAValueOf(const char* operation, double value, DType dtype);

// OK if `operand`, an operand of `operation` besides the destination
// `dst`, is a valid CPU tensor of dst's dtype and element count.
absl::Status CheckOperand(const Tensor& dst, const Tensor& operand, const char* operation);

// CheckOperand without validity and device: the part the device dispatch
// shares.
absl::Status CheckOperandMatches(const Tensor& dst, const Tensor& operand, const char* operation);

// `operand` under dst's shape, pairing the elements of both in layout
// order, and safe to read while dst is written element by element: a
// non-contiguous operand of another shape, or one that overlaps dst in any
// other way than element for element, is copied first.
// REQUIRES: CheckOperand(dst, operand, ...) is OK.
absl::StatusOr<Tensor> AlignOperand(const Tensor& dst, const Tensor& operand);

// x = f(x, a...) for every element of `shape`, where operand 0 (x) is the
// destination and the others (a...) are read; all hold T. Dense runs get
// a plain indexed loop, which -O3 vectorises at the active vector width
// when f allows it.
template <typename T, int N, typename F>
void MapInPlace(absl::Span<const Index> shape, const std::array<internal::Operand, N>& operands,
                F f) {
  const internal::LoopPlan<N> plan = internal::PlanLoop<N>(shape, operands, internal::Order::kAny);
  internal::ForEachRun(plan, [&f](auto p, Index n, auto s) {
    bool dense = true;
    for (int i = 0; i < N; ++i) dense &= s[i] == static_cast<Index>(sizeof(T));
    T* x = reinterpret_cast<T*>(p[0]);
    if constexpr (N == 1) {
      if (dense) {
        internal::AtVectorWidth(n, [x, n, f]() TENSOR_VECTOR_LOOP {
          for (Index i = 0; i < n; ++i) x[i] = f(x[i]);
        });
      } else {
        for (Index i = 0; i < n; ++i) {
          T* e = reinterpret_cast<T*>(p[0] + i * s[0]);
          *e = f(*e);
        }
      }
    } else if constexpr (N == 2) {
      const T* a = reinterpret_cast<const T*>(p[1]);
      if (dense) {
        internal::AtVectorWidth<internal::Reads::kSeveralArrays>(
            n, [x, a, n, f]() TENSOR_VECTOR_LOOP {
              for (Index i = 0; i < n; ++i) x[i] = f(x[i], a[i]);
            });
      } else {
        for (Index i = 0; i < n; ++i) {
          T* e = reinterpret_cast<T*>(p[0] + i * s[0]);
          *e = f(*e, *reinterpret_cast<const T*>(p[1] + i * s[1]));
        }
      }
    } else {
      static_assert(N == 3);
      const T* a = reinterpret_cast<const T*>(p[1]);
      const T* b = reinterpret_cast<const T*>(p[2]);
      if (dense) {
        internal::AtVectorWidth<internal::Reads::kSeveralArrays>(
            n, [x, a, b, n, f]() TENSOR_VECTOR_LOOP {
              for (Index i = 0; i < n; ++i) x[i] = f(x[i], a[i], b[i]);
            });
      } else {
        for (Index i = 0; i < n; ++i) {
          T* e = reinterpret_cast<T*>(p[0] + i * s[0]);
          *e = f(*e, *reinterpret_cast<const T*>(p[1] + i * s[1]),
                 *reinterpret_cast<const T*>(p[2] + i * s[2]));
        }
      }
    }
    return true;
  });
}

// Whether pred(x) holds for some element x of `tensor` (a valid CPU tensor
// whose origin is `origin`): for checks of the data before any write.
template <typename T, typename Pred>
bool AnyElement(const Tensor& tensor, std::byte* origin, Pred pred) {
  const internal::LoopPlan<1> plan = internal::PlanLoop<1>(
      tensor.shape(), {internal::OperandOf(tensor, origin)}, internal::Order::kAny);
  return !internal::ForEachRun(plan, [&pred](auto p, Index n, auto s) {
    for (Index i = 0; i < n; ++i) {
      if (pred(*reinterpret_cast<const T*>(p[0] + i * s[0]))) return false;
    }
    return true;
  });
}

// x converted to its compute type (float for the half types), and back.
template <typename T>
ComputeType<T> Up(T x) {
  return static_cast<ComputeType<T>>(x);
}
template <typename T>
T Down(ComputeType<T> x) {
  return static_cast<T>(x);
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_ELEMENTWISE_KERNEL_H_
