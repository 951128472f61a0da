// Lines of a tensor along one dimension: the sets of elements whose indices
// differ only in that dimension. Reductions, scans and sorts along a
// dimension visit one line at a time, as do index, gather and scatter;
// plus the argument checks they share.
#ifndef TENSOR_INTERNAL_LINES_H_
#define TENSOR_INTERNAL_LINES_H_

#include <array>
#include <cstddef>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "tensor/dtype.h"
#include "tensor/internal/strided_loop.h"
#include "tensor/tensor.h"

namespace tensor::internal {

// `shape` with extent 1 at `dim`: the shape of a reduction's result.
inline Shape ReducedShape(absl::Span<const Index> shape, int dim) {
  Shape reduced(shape.begin(), shape.end());
  reduced[dim] = 1;
  return reduced;
}

// Row-major strides (in elements) of `shape`.
inline Strides RowMajorStrides(absl::Span<const Index> shape) {
  Strides strides(shape.size());
  Index stride = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

// Calls body(starts) with the address of the first element of every line
// along `dim`, one address per operand, in no particular order. Each
// operand's strides describe `shape` except at `dim`, where operands may
// differ in extent (a sort's input and a top-k's output).
// REQUIRES: shape[dim] > 0 for every operand, so that every address is
// inside its tensor.
template <int N, typename Body>
void ForEachLine(absl::Span<const Index> shape, int dim, const std::array<Operand, N>& operands,
                 Body&& body) {
  const Shape across = ReducedShape(shape, dim);
  ForEachRun(PlanLoop<N>(across, operands, Order::kAny), [&](auto p, Index n, auto s) {
    for (Index i = 0; i < n; ++i) {
      std::array<std::byte*, N> starts;
      for (int k = 0; k < N; ++k) starts[k] = p[k] + i * s[k];
      body(starts);
    }
    return true;
  });
}

// Whether `dim` has the smallest stride of `tensor`'s dimensions, so that
// walking along it line by line reads memory in order.
inline bool IsInnermost(const Tensor& tensor, int dim) {
  const Strides& strides = tensor.layout().strides();
  const Index own = strides[dim] < 0 ? -strides[dim] : strides[dim];
  for (int d = 0; d < tensor.rank(); ++d) {
    if (d == dim || tensor.shape()[d] == 1) continue;
    if ((strides[d] < 0 ? -strides[d] : strides[d]) < own) return false;
  }
  return true;
}

// Calls f(TypeTag<T>{}) for the element type T of `dtype`, which must not
// be bool: unlike DispatchDType, it never instantiates f for bool, which
// has no arithmetic. REQUIRES: dtype != kBool (CheckNumeric).
template <typename F>
decltype(auto) DispatchNumeric(DType dtype, F&& f) {
  return DispatchDType(dtype, [&](auto tag) -> decltype(auto) {
    if constexpr (std::is_same_v<typename decltype(tag)::type, bool>) {
      return f(TypeTag<double>{});  // never taken, by the REQUIRES
    } else {
      return f(tag);
    }
  });
}

// Calls f(TypeTag<T>{}) for the floating element type T of `dtype`.
// REQUIRES: a floating dtype (CheckFloating).
template <typename F>
decltype(auto) DispatchFloating(DType dtype, F&& f) {
  return DispatchDType(dtype, [&](auto tag) -> decltype(auto) {
    if constexpr (kIsFloating<typename decltype(tag)::type>) {
      return f(tag);
    } else {
      return f(TypeTag<double>{});  // never taken, by the REQUIRES
    }
  });
}

// OK if `dim` names a dimension of `tensor`.
inline absl::Status CheckDimension(const Tensor& tensor, int dim, const char* operation) {
  if (dim >= 0 && dim < tensor.rank()) return absl::OkStatus();
  return absl::OutOfRangeError(absl::StrCat(operation, ": dimension ", dim,
                                            " is out of range for shape ",
                                            tensor.layout().ShapeString()));
}

// "<operation>: not defined for BoolTensor".
inline absl::Status NotDefinedFor(DType dtype, const char* operation) {
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": not defined for ", DTypeTensorName(dtype)));
}

// OK unless `tensor` holds bools, which have no arithmetic.
inline absl::Status CheckNumeric(const Tensor& tensor, const char* operation) {
  if (tensor.dtype() == DType::kBool) return NotDefinedFor(tensor.dtype(), operation);
  return absl::OkStatus();
}

// OK if `tensor` holds a floating type: means, variances and norms are
// defined only there, as in Torch7.
inline absl::Status CheckFloating(const Tensor& tensor, const char* operation) {
  if (IsFloating(tensor.dtype())) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(operation, ": not defined for ",
                                                 DTypeTensorName(tensor.dtype()),
                                                 " (only for floating-point types)"));
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_LINES_H_
