// Checked conversions between numbers and element types.
//
// Converting a value that the target type cannot hold is undefined
// behaviour in C++ (float to int) or silently wrong (int to narrower int),
// so every conversion here is checked first.
#ifndef TENSOR_INTERNAL_SCALAR_CAST_H_
#define TENSOR_INTERNAL_SCALAR_CAST_H_

#include <cmath>
#include <limits>
#include <type_traits>

#include "tensor/dtype.h"

namespace tensor::internal {

// The value as a plain arithmetic type (float for the half types).
template <typename T>
ComputeType<T> Widen(T value) {
  return static_cast<ComputeType<T>>(value);
}

// Whether the integer type To holds `value` after truncation toward zero.
template <typename To>
bool FloatFitsInteger(double value) {
  const double truncated = std::trunc(value);  // NaN stays NaN and fails below
  // Both bounds are powers of two (or zero), so exact in double.
  constexpr double lowest = static_cast<double>(std::numeric_limits<To>::min());
  constexpr double past_highest =
      2.0 * static_cast<double>(std::numeric_limits<To>::max() / 2 + 1);
  return truncated >= lowest && truncated < past_highest;
}

// Whether converting `value` to To loses nothing but precision:
// floating targets take anything (overflow gives inf); bool takes anything
// (nonzero is true); integers take values whose truncation fits.
template <typename To, typename From>
bool Convertible(From value) {
  if constexpr (kIsFloating<To> || std::is_same_v<To, bool>) {
    return true;
  } else if constexpr (kIsFloating<From>) {
    return FloatFitsInteger<To>(static_cast<double>(Widen(value)));
  } else if constexpr (std::is_same_v<From, bool>) {
    return true;
  } else {
    return std::in_range<To>(value);
  }
}

// REQUIRES: Convertible<To>(value).
template <typename To, typename From>
To ConvertUnchecked(From value) {
  if constexpr (std::is_same_v<To, From>) {
    return value;
  } else if constexpr (std::is_same_v<To, bool>) {
    return Widen(value) != 0;
  } else if constexpr (std::is_same_v<To, Float16> || std::is_same_v<To, BFloat16>) {
    return To(static_cast<float>(Widen(value)));
  } else {
    return static_cast<To>(Widen(value));
  }
}

// Whether a scalar argument (a Lua number) is exactly a value of T:
// integers must be whole and in range, bool takes 0 and 1.
template <typename T>
bool ScalarRepresentable(double value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value == 0 || value == 1;
  } else if constexpr (kIsFloating<T>) {
    return true;
  } else {
    return std::trunc(value) == value && FloatFitsInteger<T>(value);
  }
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_SCALAR_CAST_H_
