// Comparisons into uint8 masks, with the CPU's rules
// (tensor/elementwise_compare.cc): integers against a bound of their own
// type, floating values in double against the number as given, and two
// tensors in their compute type.
#include <cstdint>

#include "tensor/cuda/device_element.h"
#include "tensor/cuda/ops_kernels.h"
#include "tensor/cuda/strided_index.h"

namespace tensor::cuda {
namespace {

template <ElementType E>
constexpr bool kIntegerElement = E >= ElementType::kUInt8 && E <= ElementType::kInt64;

template <typename A>
__device__ inline std::uint8_t Holds(ComparisonOp op, A a, A b) {
  switch (op) {
    case ComparisonOp::kLt: return a < b;
    case ComparisonOp::kLe: return a <= b;
    case ComparisonOp::kGt: return a > b;
    case ComparisonOp::kGe: return a >= b;
    case ComparisonOp::kEq: return a == b;
    case ComparisonOp::kNe: break;
  }
  return a != b;
}

template <ElementType E>
__global__ void CompareScalarKernel(ComparisonOp op, std::uint8_t* mask,
                                    KernelStrides mask_strides, const StorageOf<E>* x,
                                    KernelStrides x_strides, double value,
                                    std::int64_t integer_bound, KernelShape shape) {
  using C = typename Element<E>::Wide;
  for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
    std::int64_t m, o;
    OffsetsOf(i, shape, mask_strides, x_strides, &m, &o);
    const C v = Element<E>::Widen(x[o]);
    if constexpr (kIntegerElement<E>) {
      mask[m] = Holds<C>(op, v, static_cast<C>(integer_bound));
    } else {
      mask[m] = Holds<double>(op, static_cast<double>(v), value);
    }
  }
}

template <ElementType E>
__global__ void CompareTensorsKernel(ComparisonOp op, std::uint8_t* mask,
                                     KernelStrides mask_strides, const StorageOf<E>* x,
                                     KernelStrides x_strides, const StorageOf<E>* y,
                                     KernelStrides y_strides, KernelShape shape) {
  using El = Element<E>;
  for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
    std::int64_t m, o;
    OffsetsOf(i, shape, mask_strides, x_strides, &m, &o);
    mask[m] = Holds(op, El::Widen(x[o]), El::Widen(y[OffsetOf(i, shape, y_strides)]));
  }
}

}  // namespace

cudaError_t LaunchCompareScalar(ElementType type, ComparisonOp op, std::uint8_t* mask,
                                const KernelStrides& mask_strides, const void* x,
                                const KernelStrides& x_strides, double value,
                                std::int64_t integer_bound, const KernelShape& shape) {
  return Dispatch(type, [&](auto tag) {
    constexpr ElementType kE = decltype(tag)::value;
    if constexpr (kE == ElementType::kBool) {
      return cudaErrorInvalidValue;
    } else {
      CompareScalarKernel<kE><<<BlocksFor(shape.count), kThreadsPerBlock>>>(
          op, mask, mask_strides, static_cast<const StorageOf<kE>*>(x), x_strides, value,
          integer_bound, shape);
      return cudaGetLastError();
    }
  });
}

cudaError_t LaunchCompareTensors(ElementType type, ComparisonOp op, std::uint8_t* mask,
                                 const KernelStrides& mask_strides, const void* x,
                                 const KernelStrides& x_strides, const void* y,
                                 const KernelStrides& y_strides, const KernelShape& shape) {
  return Dispatch(type, [&](auto tag) {
    constexpr ElementType kE = decltype(tag)::value;
    if constexpr (kE == ElementType::kBool) {
      return cudaErrorInvalidValue;
    } else {
      CompareTensorsKernel<kE><<<BlocksFor(shape.count), kThreadsPerBlock>>>(
          op, mask, mask_strides, static_cast<const StorageOf<kE>*>(x), x_strides,
          static_cast<const StorageOf<kE>*>(y), y_strides, shape);
      return cudaGetLastError();
    }
  });
}

}  // namespace tensor::cuda
