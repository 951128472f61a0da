// Element conversion on the device, bit for bit as the CPU copy does it
// (tensor/internal/scalar_cast.h, ConvertUnchecked and Convertible), with
// the conversions of device_element.h; a float converted to an integer
// truncates toward zero once the check has passed.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tensor/cuda/copy_kernels.h"
#include "tensor/cuda/device_element.h"
#include "tensor/cuda/strided_index.h"

namespace tensor::cuda {
namespace {

// The bounds of the integer type T. Static members, because device code
// may read a constant but may not call numeric_limits' host functions.
template <typename T>
struct Bounds {
  // Every integer type here fits in int64.
  static constexpr std::int64_t kLowest = std::numeric_limits<T>::min();
  static constexpr std::int64_t kHighest = std::numeric_limits<T>::max();
  // As FloatFitsInteger: both are powers of two (or zero), so exact.
  static constexpr double kFloatLowest = static_cast<double>(kLowest);
  static constexpr double kFloatPastHighest = 2.0 * static_cast<double>(kHighest / 2 + 1);
};

// Whether `value` (widened from the source type) converts to the integer
// type To.
template <typename To, typename Wide>
__device__ inline bool Fits(Wide value) {
  if constexpr (std::is_same_v<Wide, bool>) {
    return true;
  } else if constexpr (std::is_floating_point_v<Wide>) {
    // NaN fails both comparisons.
    const double truncated = trunc(static_cast<double>(value));
    return truncated >= Bounds<To>::kFloatLowest && truncated < Bounds<To>::kFloatPastHighest;
  } else {
    const auto wide = static_cast<std::int64_t>(value);
    return wide >= Bounds<To>::kLowest && wide <= Bounds<To>::kHighest;
  }
}

template <ElementType To, ElementType From>
__global__ void CheckKernel(const StorageOf<From>* src, KernelStrides src_strides,
                            KernelShape shape, ConversionFailure* failure) {
  using Target = typename Element<To>::Storage;
  for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
    const auto value = Element<From>::Widen(src[OffsetOf(i, shape, src_strides)]);
    if (!Fits<Target>(value)) {
      // The first thread to fail reports its value.
      if (atomicExch(&failure->failed, 1) == 0) failure->value = static_cast<double>(value);
      return;
    }
  }
}

template <ElementType To, ElementType From>
__global__ void ConvertKernel(StorageOf<To>* dst, KernelStrides dst_strides,
                              const StorageOf<From>* src, KernelStrides src_strides,
                              KernelShape shape) {
  for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
    std::int64_t dst_offset, src_offset;
    OffsetsOf(i, shape, dst_strides, src_strides, &dst_offset, &src_offset);
    dst[dst_offset] = Element<To>::Narrow(Element<From>::Widen(src[src_offset]));
  }
}

template <typename T>
__global__ void StridedCopyKernel(T* dst, KernelStrides dst_strides, const T* src,
                                  KernelStrides src_strides, KernelShape shape) {
  for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
    std::int64_t dst_offset, src_offset;
    OffsetsOf(i, shape, dst_strides, src_strides, &dst_offset, &src_offset);
    dst[dst_offset] = src[src_offset];
  }
}

bool IsInteger(ElementType type) {
  return type >= ElementType::kUInt8 && type <= ElementType::kInt64;
}

// The range of an integer type, as int64.
struct Range {
  std::int64_t lowest, highest;
};
Range RangeOf(ElementType type) {
  switch (type) {
    case ElementType::kUInt8: return {0, 255};
    case ElementType::kInt8: return {-128, 127};
    case ElementType::kInt16: return {-32768, 32767};
    case ElementType::kInt32:
      return {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
    default:
      return {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  }
}

}  // namespace

bool NeedsConversionCheck(ElementType to, ElementType from) {
  if (!IsInteger(to) || from == ElementType::kBool) return false;
  if (!IsInteger(from)) return true;  // a floating type
  const Range t = RangeOf(to), f = RangeOf(from);
  return f.lowest < t.lowest || f.highest > t.highest;
}

cudaError_t LaunchConversionCheck(ElementType to, ElementType from, const void* src,
                                  const KernelStrides& src_strides, const KernelShape& shape,
                                  ConversionFailure* failure) {
  return Dispatch(to, [&](auto to_tag) {
    return Dispatch(from, [&](auto from_tag) {
      constexpr ElementType kTo = decltype(to_tag)::value;
      constexpr ElementType kFrom = decltype(from_tag)::value;
      // Only integer targets can fail; the others are never launched, so
      // they are not instantiated either.
      if constexpr (kTo >= ElementType::kUInt8 && kTo <= ElementType::kInt64 &&
                    kFrom != ElementType::kBool) {
        CheckKernel<kTo, kFrom><<<BlocksFor(shape.count), kThreadsPerBlock>>>(
            static_cast<const StorageOf<kFrom>*>(src), src_strides, shape, failure);
        return cudaGetLastError();
      } else {
        return cudaSuccess;
      }
    });
  });
}

cudaError_t LaunchConvertingCopy(ElementType to, void* dst, const KernelStrides& dst_strides,
                                 ElementType from, const void* src,
                                 const KernelStrides& src_strides, const KernelShape& shape) {
  return Dispatch(to, [&](auto to_tag) {
    return Dispatch(from, [&](auto from_tag) {
      constexpr ElementType kTo = decltype(to_tag)::value;
      constexpr ElementType kFrom = decltype(from_tag)::value;
      ConvertKernel<kTo, kFrom><<<BlocksFor(shape.count), kThreadsPerBlock>>>(
          static_cast<StorageOf<kTo>*>(dst), dst_strides,
          static_cast<const StorageOf<kFrom>*>(src), src_strides, shape);
      return cudaGetLastError();
    });
  });
}

cudaError_t LaunchStridedCopy(int element_size, void* dst, const KernelStrides& dst_strides,
                              const void* src, const KernelStrides& src_strides,
                              const KernelShape& shape) {
  auto launch = [&](auto* typed_dst) {
    using T = std::remove_pointer_t<decltype(typed_dst)>;
    StridedCopyKernel<T><<<BlocksFor(shape.count), kThreadsPerBlock>>>(
        typed_dst, dst_strides, static_cast<const T*>(src), src_strides, shape);
    return cudaGetLastError();
  };
  switch (element_size) {
    case 1: return launch(static_cast<std::uint8_t*>(dst));
    case 2: return launch(static_cast<std::uint16_t*>(dst));
    case 4: return launch(static_cast<std::uint32_t*>(dst));
    case 8: return launch(static_cast<std::uint64_t*>(dst));
  }
  return cudaErrorInvalidValue;
}

}  // namespace tensor::cuda
