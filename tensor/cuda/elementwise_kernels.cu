// Arithmetic with scalars and between tensors, and the unary functions,
// with the CPU's rules (tensor/elementwise.cc, tensor/elementwise_unary.cc):
// integer arithmetic in an unsigned type, where overflow wraps; INT_MIN /
// -1 wraps to INT_MIN; the half types compute in float.
#include <cstdint>
#include <type_traits>

#include "tensor/cuda/device_element.h"
#include "tensor/cuda/ops_kernels.h"
#include "tensor/cuda/packed_walk.h"
#include "tensor/cuda/strided_index.h"

namespace tensor::cuda {
namespace {

template <ElementType E>
using ComputeOf = typename Element<E>::Wide;

template <ElementType E>
constexpr bool kIntegerElement = E >= ElementType::kUInt8 && E <= ElementType::kInt64;

// Unsigned and at least as wide as unsigned int, so that arithmetic on it
// neither overflows nor promotes to a signed int (as elementwise.cc).
template <typename T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                    std::make_unsigned_t<T>>;

// A scalar argument in the compute type C, as static_cast<C> on the host
// (DoubleToFloat keeps x86's NaN bits).
template <typename C>
__device__ inline C FromDouble(double v) {
  if constexpr (std::is_same_v<C, float>) {
    return DoubleToFloat(v);
  } else {
    return static_cast<C>(v);
  }
}

// x op v, as Combine in elementwise.cc. REQUIRES: v != 0 for integer
// kDiv; only kAssign for bool.
template <ElementType E>
__device__ inline StorageOf<E> Combine(ArithmeticOp op, StorageOf<E> x, ComputeOf<E> v) {
  using El = Element<E>;
  using C = ComputeOf<E>;
  if (op == ArithmeticOp::kAssign) return El::Narrow(v);
  if constexpr (kIntegerElement<E>) {
    using U = WrapType<C>;
    const U a = static_cast<U>(x), b = static_cast<U>(v);
    switch (op) {
      case ArithmeticOp::kAdd: return static_cast<C>(a + b);
      case ArithmeticOp::kSub: return static_cast<C>(a - b);
      case ArithmeticOp::kMul: return static_cast<C>(a * b);
      default: break;
    }
    // INT_MIN / -1 overflows; negating in unsigned wraps it to INT_MIN.
    if (std::is_signed_v<C> && v == static_cast<C>(-1)) return static_cast<C>(U{0} - a);
    return static_cast<C>(x / v);
  } else if constexpr (E == ElementType::kBool) {
    return x;  // arithmetic on bool is refused before launch
  } else {
    const C a = El::Widen(x);
    switch (op) {
      case ArithmeticOp::kAdd: return El::Narrow(a + v);
      case ArithmeticOp::kSub: return El::Narrow(a - v);
      case ArithmeticOp::kMul: return El::Narrow(a * v);
      default: break;
    }
    return El::Narrow(a / v);
  }
}

template <ElementType E>
__global__ void ScalarKernel(ArithmeticOp op, StorageOf<E>* data, KernelStrides strides,
                             const double* values, KernelStrides value_strides,
                             KernelShape shape) {
  for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
    std::int64_t offset, value_offset;
    OffsetsOf(i, shape, strides, value_strides, &offset, &value_offset);
    data[offset] = Combine<E>(op, data[offset], FromDouble<ComputeOf<E>>(values[value_offset]));
  }
}

template <ElementType E>
__global__ void ComponentKernel(ArithmeticOp op, StorageOf<E>* dst, KernelStrides dst_strides,
                                const StorageOf<E>* src, KernelStrides src_strides,
                                KernelShape shape) {
  for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
    std::int64_t d, s;
    OffsetsOf(i, shape, dst_strides, src_strides, &d, &s);
    dst[d] = Combine<E>(op, dst[d], Element<E>::Widen(src[s]));
  }
}

// data[i] op v for the one value *value, over `count` packable elements
// (packed_walk.h). Each lane is Combine: the strided kernel's bits.
template <ElementType E>
__global__ void PackedScalarKernel(ArithmeticOp op, StorageOf<E>* data, const double* value,
                                   std::int64_t count) {
  using P = Pack<StorageOf<E>>;
  const ComputeOf<E> v = FromDouble<ComputeOf<E>>(*value);
  const std::int64_t packs = count / P::kLanes;
  P* packed = reinterpret_cast<P*>(data);
  for (std::int64_t i = FirstIndex(); i < packs; i += IndexStep()) {
    P x = packed[i];
#pragma unroll
    for (int k = 0; k < P::kLanes; ++k) x.lane[k] = Combine<E>(op, x.lane[k], v);
    packed[i] = x;
  }
  for (std::int64_t i = packs * P::kLanes + FirstIndex(); i < count; i += IndexStep()) {
    data[i] = Combine<E>(op, data[i], v);
  }
}

// dst[i] op src[i] over `count` packable elements.
template <ElementType E>
__global__ void PackedComponentKernel(ArithmeticOp op, StorageOf<E>* dst,
                                      const StorageOf<E>* src, std::int64_t count) {
  using P = Pack<StorageOf<E>>;
  const std::int64_t packs = count / P::kLanes;
  P* packed_dst = reinterpret_cast<P*>(dst);
  const P* packed_src = reinterpret_cast<const P*>(src);
  for (std::int64_t i = FirstIndex(); i < packs; i += IndexStep()) {
    P x = packed_dst[i];
    const P y = packed_src[i];
#pragma unroll
    for (int k = 0; k < P::kLanes; ++k) {
      x.lane[k] = Combine<E>(op, x.lane[k], Element<E>::Widen(y.lane[k]));
    }
    packed_dst[i] = x;
  }
  for (std::int64_t i = packs * P::kLanes + FirstIndex(); i < count; i += IndexStep()) {
    dst[i] = Combine<E>(op, dst[i], Element<E>::Widen(src[i]));
  }
}

template <ElementType E>
__global__ void FindZeroKernel(const StorageOf<E>* data, KernelStrides strides, KernelShape shape,
                               int* found) {
  for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
    if (Element<E>::Widen(data[OffsetOf(i, shape, strides)]) == 0) {
      *found = 1;
      return;
    }
  }
}

// f(x) in the floating compute type C, as EvaluateFloating in
// elementwise_unary.cc: the same formulas, in CUDA's correctly rounded
// (div, sqrt) or few-ulp (the rest) functions.
template <typename C>
__device__ inline C EvaluateFloating(UnaryOp f, C x) {
  switch (f) {
    case UnaryOp::kAbs: return fabs(x);
    case UnaryOp::kSign: return x > 0 ? C{1} : x < 0 ? C{-1} : C{0};  // NaN too, as Torch7
    case UnaryOp::kNeg: return -x;
    case UnaryOp::kCinv: return C{1} / x;
    case UnaryOp::kAcos: return acos(x);
    case UnaryOp::kAsin: return asin(x);
    case UnaryOp::kAtan: return atan(x);
    case UnaryOp::kCos: return cos(x);
    case UnaryOp::kCosh: return cosh(x);
    case UnaryOp::kSin: return sin(x);
    case UnaryOp::kSinh: return sinh(x);
    case UnaryOp::kTan: return tan(x);
    case UnaryOp::kTanh: return tanh(x);
    case UnaryOp::kExp: return exp(x);
    case UnaryOp::kLog: return log(x);
    case UnaryOp::kLog1p: return log1p(x);
    case UnaryOp::kSqrt: return sqrt(x);
    case UnaryOp::kRsqrt: return C{1} / sqrt(x);  // not rsqrt(): the CPU rounds twice
    case UnaryOp::kSigmoid: return C{1} / (C{1} + exp(-x));
    case UnaryOp::kTrunc: return trunc(x);
    case UnaryOp::kFrac: break;
  }
  return x - trunc(x);
}

// f(x) for the integer type T, as EvaluateInteger in elementwise_unary.cc.
// REQUIRES: f is abs, sign, neg or frac.
template <typename T>
__device__ inline T EvaluateInteger(UnaryOp f, T x) {
  using U = WrapType<T>;
  switch (f) {
    case UnaryOp::kAbs:
      if constexpr (std::is_unsigned_v<T>) {
        return x;
      } else {
        return x < 0 ? static_cast<T>(U{0} - static_cast<U>(x)) : x;
      }
    case UnaryOp::kSign:
      if constexpr (std::is_unsigned_v<T>) {
        return static_cast<T>(x > 0);
      } else {
        return static_cast<T>((x > 0) - (x < 0));
      }
    case UnaryOp::kNeg: return static_cast<T>(U{0} - static_cast<U>(x));
    default: break;
  }
  return T{0};  // frac
}

template <ElementType E>
__global__ void UnaryKernel(UnaryOp f, StorageOf<E>* data, KernelStrides strides,
                            KernelShape shape) {
  using El = Element<E>;
  for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
    StorageOf<E>& x = data[OffsetOf(i, shape, strides)];
    if constexpr (kIntegerElement<E>) {
      x = EvaluateInteger(f, x);
    } else {
      x = El::Narrow(EvaluateFloating(f, El::Widen(x)));
    }
  }
}

bool DefinedForIntegers(UnaryOp f) {
  return f == UnaryOp::kAbs || f == UnaryOp::kSign || f == UnaryOp::kNeg ||
         f == UnaryOp::kTrunc || f == UnaryOp::kFrac;
}

}  // namespace

cudaError_t LaunchScalarOp(ElementType type, ArithmeticOp op, void* data,
                           const KernelStrides& strides, const double* values,
                           const KernelStrides& value_strides, const KernelShape& shape) {
  return Dispatch(type, [&](auto tag) {
    constexpr ElementType kE = decltype(tag)::value;
    // One value (stride 0) for every element; several vary along the walk.
    if (Packable(shape, data, strides.strides[0], data, 1) && value_strides.strides[0] == 0) {
      PackedScalarKernel<kE><<<PackedBlocksFor<StorageOf<kE>>(shape.count), kThreadsPerBlock>>>(
          op, static_cast<StorageOf<kE>*>(data), values, shape.count);
    } else {
      ScalarKernel<kE><<<BlocksFor(shape.count), kThreadsPerBlock>>>(
          op, static_cast<StorageOf<kE>*>(data), strides, values, value_strides, shape);
    }
    return cudaGetLastError();
  });
}

cudaError_t LaunchComponentOp(ElementType type, ArithmeticOp op, void* dst,
                              const KernelStrides& dst_strides, const void* src,
                              const KernelStrides& src_strides, const KernelShape& shape) {
  return Dispatch(type, [&](auto tag) {
    constexpr ElementType kE = decltype(tag)::value;
    if constexpr (kE == ElementType::kBool) {
      return cudaErrorInvalidValue;
    } else {
      if (Packable(shape, dst, dst_strides.strides[0], src, src_strides.strides[0])) {
        PackedComponentKernel<kE><<<PackedBlocksFor<StorageOf<kE>>(shape.count), kThreadsPerBlock>>>(
            op, static_cast<StorageOf<kE>*>(dst), static_cast<const StorageOf<kE>*>(src),
            shape.count);
      } else {
        ComponentKernel<kE><<<BlocksFor(shape.count), kThreadsPerBlock>>>(
            op, static_cast<StorageOf<kE>*>(dst), dst_strides,
            static_cast<const StorageOf<kE>*>(src), src_strides, shape);
      }
      return cudaGetLastError();
    }
  });
}

cudaError_t LaunchFindZero(ElementType type, const void* data, const KernelStrides& strides,
                           const KernelShape& shape, int* found) {
  return Dispatch(type, [&](auto tag) {
    constexpr ElementType kE = decltype(tag)::value;
    if constexpr (!kIntegerElement<kE>) {
      // Only integer division needs the check.
      return cudaErrorInvalidValue;
    } else {
      FindZeroKernel<kE><<<BlocksFor(shape.count), kThreadsPerBlock>>>(
          static_cast<const StorageOf<kE>*>(data), strides, shape, found);
      return cudaGetLastError();
    }
  });
}

cudaError_t LaunchUnary(ElementType type, UnaryOp function, void* data,
                        const KernelStrides& strides, const KernelShape& shape) {
  return Dispatch(type, [&](auto tag) {
    constexpr ElementType kE = decltype(tag)::value;
    if constexpr (kE == ElementType::kBool) {
      return cudaErrorInvalidValue;
    } else {
      if constexpr (kIntegerElement<kE>) {
        if (!DefinedForIntegers(function)) return cudaErrorInvalidValue;
        if (function == UnaryOp::kNeg && kE == ElementType::kUInt8) return cudaErrorInvalidValue;
        if (function == UnaryOp::kTrunc) return cudaSuccess;  // integers are whole already
      }
      UnaryKernel<kE><<<BlocksFor(shape.count), kThreadsPerBlock>>>(
          function, static_cast<StorageOf<kE>*>(data), strides, shape);
      return cudaGetLastError();
    }
  });
}

}  // namespace tensor::cuda
