// Device-side element access shared by the .cu files: how each
// ElementType is stored, the type it is computed in (float for the half
// types, as on the CPU), and conversions between the two that give the
// CPU's bits, NaNs included. Only nvcc includes this.
//
// Conversion rules, bit for bit as the CPU (tensor/internal/scalar_cast.h):
//  - to bool: the value (widened, float for the half types) != 0;
//  - to float16/bfloat16: via float, rounded to nearest even, with the
//    NaN bit patterns of tensor/half.h;
//  - between float and double: rounded to nearest even, with the NaN bit
//    patterns of x86's cvtss2sd/cvtsd2ss, which the CPU compiles to;
//  - to anything else: a C++ conversion of the widened value.
// PTX's cvt promises no particular NaN bits, so NaNs are made by hand.
#ifndef TENSOR_CUDA_DEVICE_ELEMENT_H_
#define TENSOR_CUDA_DEVICE_ELEMENT_H_

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "tensor/cuda/element_type.h"

namespace tensor::cuda {

// Raw 16-bit storage of the half types, so that the host's and CUDA's
// half classes never meet.
struct HalfBits {
  std::uint16_t bits;
};
struct BFloat16Bits {
  std::uint16_t bits;
};

// cvt does not promise the host's NaN patterns, so NaNs are made here as
// tensor/half.h makes them: sign kept, quiet, payload from the top bits.
__device__ inline float HalfToFloat(HalfBits h) {
  if ((h.bits & 0x7c00u) == 0x7c00u && (h.bits & 0x3ffu) != 0) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h.bits & 0x8000u) << 16;
    return __uint_as_float(sign | 0x7f800000u | (static_cast<std::uint32_t>(h.bits & 0x3ffu) << 13));
  }
  return __half2float(__ushort_as_half(h.bits));
}

__device__ inline HalfBits FloatToHalf(float f) {
  if (isnan(f)) {
    const std::uint16_t sign = static_cast<std::uint16_t>((__float_as_uint(f) >> 16) & 0x8000u);
    return {static_cast<std::uint16_t>(sign | 0x7e00u)};
  }
  return {__half_as_ushort(__float2half_rn(f))};
}

// x86 keeps a NaN's sign and the top of its payload, and sets the quiet
// bit.
__device__ inline float DoubleToFloat(double d) {
  if (isnan(d)) {
    const auto bits = static_cast<std::uint64_t>(__double_as_longlong(d));
    return __uint_as_float((static_cast<std::uint32_t>(bits >> 32) & 0x80000000u) | 0x7fc00000u |
                           (static_cast<std::uint32_t>(bits >> 29) & 0x003fffffu));
  }
  return static_cast<float>(d);
}

__device__ inline double FloatToDouble(float f) {
  if (isnan(f)) {
    const std::uint32_t bits = __float_as_uint(f);
    return __longlong_as_double(static_cast<long long>(
        (static_cast<std::uint64_t>(bits & 0x80000000u) << 32) | 0x7ff8000000000000ull |
        (static_cast<std::uint64_t>(bits & 0x003fffffu) << 29)));
  }
  return static_cast<double>(f);
}

// The widened value as a float, as static_cast<float> on the host.
template <typename W>
__device__ inline float ToFloat(W w) {
  if constexpr (std::is_same_v<W, double>) {
    return DoubleToFloat(w);
  } else {
    return static_cast<float>(w);
  }
}

__device__ inline float BFloat16ToFloat(BFloat16Bits b) {
  return __uint_as_float(static_cast<std::uint32_t>(b.bits) << 16);
}

__device__ inline BFloat16Bits FloatToBFloat16(float f) {
  if (isnan(f)) return {static_cast<std::uint16_t>((__float_as_uint(f) >> 16) | 0x0040u)};
  return {__bfloat16_as_ushort(__float2bfloat16_rn(f))};
}

// Per element type: how it is stored, the type it is computed in, and the
// conversions between the two.
template <ElementType E>
struct Element;

template <>
struct Element<ElementType::kBool> {
  using Storage = std::uint8_t;  // read as a byte: any nonzero byte is true
  using Wide = bool;
  __device__ static Wide Widen(Storage s) { return s != 0; }
  template <typename W>
  __device__ static Storage Narrow(W w) {
    return w != 0;
  }
};

template <typename T>
struct PlainElement {
  using Storage = T;
  using Wide = T;
  __device__ static Wide Widen(Storage s) { return s; }
  template <typename W>
  __device__ static Storage Narrow(W w) {
    return static_cast<T>(w);
  }
};

template <>
struct Element<ElementType::kUInt8> : PlainElement<std::uint8_t> {};
template <>
struct Element<ElementType::kInt8> : PlainElement<std::int8_t> {};
template <>
struct Element<ElementType::kInt16> : PlainElement<std::int16_t> {};
template <>
struct Element<ElementType::kInt32> : PlainElement<std::int32_t> {};
template <>
struct Element<ElementType::kInt64> : PlainElement<std::int64_t> {};

template <>
struct Element<ElementType::kFloat32> {
  using Storage = float;
  using Wide = float;
  __device__ static Wide Widen(Storage s) { return s; }
  template <typename W>
  __device__ static Storage Narrow(W w) {
    return ToFloat(w);
  }
};

template <>
struct Element<ElementType::kFloat64> {
  using Storage = double;
  using Wide = double;
  __device__ static Wide Widen(Storage s) { return s; }
  template <typename W>
  __device__ static Storage Narrow(W w) {
    if constexpr (std::is_same_v<W, float>) {
      return FloatToDouble(w);
    } else {
      return static_cast<double>(w);
    }
  }
};

template <>
struct Element<ElementType::kFloat16> {
  using Storage = HalfBits;
  using Wide = float;
  __device__ static Wide Widen(Storage s) { return HalfToFloat(s); }
  template <typename W>
  __device__ static Storage Narrow(W w) {
    return FloatToHalf(ToFloat(w));
  }
};

template <>
struct Element<ElementType::kBFloat16> {
  using Storage = BFloat16Bits;
  using Wide = float;
  __device__ static Wide Widen(Storage s) { return BFloat16ToFloat(s); }
  template <typename W>
  __device__ static Storage Narrow(W w) {
    return FloatToBFloat16(ToFloat(w));
  }
};

template <ElementType E>
using StorageOf = typename Element<E>::Storage;

template <ElementType E>
struct TypeTag {
  static constexpr ElementType value = E;
};

// Calls f(TypeTag<E>{}) for the runtime `type`.
template <typename F>
cudaError_t Dispatch(ElementType type, F&& f) {
  switch (type) {
    case ElementType::kBool: return f(TypeTag<ElementType::kBool>{});
    case ElementType::kUInt8: return f(TypeTag<ElementType::kUInt8>{});
    case ElementType::kInt8: return f(TypeTag<ElementType::kInt8>{});
    case ElementType::kInt16: return f(TypeTag<ElementType::kInt16>{});
    case ElementType::kInt32: return f(TypeTag<ElementType::kInt32>{});
    case ElementType::kInt64: return f(TypeTag<ElementType::kInt64>{});
    case ElementType::kFloat16: return f(TypeTag<ElementType::kFloat16>{});
    case ElementType::kBFloat16: return f(TypeTag<ElementType::kBFloat16>{});
    case ElementType::kFloat32: return f(TypeTag<ElementType::kFloat32>{});
    case ElementType::kFloat64: return f(TypeTag<ElementType::kFloat64>{});
  }
  return cudaErrorInvalidValue;
}

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_DEVICE_ELEMENT_H_
