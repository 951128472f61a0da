// The type in which sums of products (matrix products, convolutions)
// accumulate, shared so that every such kernel rounds and wraps alike.
#ifndef TENSOR_INTERNAL_PRODUCT_SUM_H_
#define TENSOR_INTERNAL_PRODUCT_SUM_H_

#include <cstdint>
#include <type_traits>

#include "tensor/dtype.h"

namespace tensor::internal {

// Integers sum in uint64, where overflow wraps as it would in T; the half
// types in float; others in T.
template <typename T>
using ProductSum = std::conditional_t<kIsInteger<T>, std::uint64_t, ComputeType<T>>;

// `value` as a ProductSum<T>; negative integers wrap.
template <typename T>
ProductSum<T> ToProductSum(T value) {
  if constexpr (kIsInteger<T>) {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
  } else {
    return static_cast<ComputeType<T>>(value);
  }
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_PRODUCT_SUM_H_
