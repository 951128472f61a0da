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

// A copy whose destination is contiguous along the walk's last dimension
// and whose source is contiguous along another (a transpose, or a planar
// image made interleaved). The plain walk reads or writes one of the two
// with a stride, a separate memory transaction per element; this one
// stages square tiles in shared memory so that both sides move whole lines.
struct TiledWalk {
  std::int64_t dst_line;    // extent of the dimension along which dst is contiguous
  std::int64_t src_line;    // extent of the dimension along which src is contiguous
  std::int64_t dst_stride;  // dst's stride along src's line dimension
  std::int64_t src_stride;  // src's stride along dst's line dimension
  KernelShape rest;         // the other dimensions, a tile grid each
  KernelStrides dst_rest, src_rest;
};

constexpr int kTile = 32;     // a warp's width: one warp per tile line
constexpr int kTileRows = 8;  // lines a block's warps take per pass
// Below this on either line a tile is mostly idle threads.
constexpr std::int64_t kMinTiledLine = 16;

template <typename T>
__global__ void TiledCopyKernel(T* dst, const T* src, TiledWalk walk) {
  // One column of padding: the write pass reads a tile column, which would
  // otherwise fall in a single shared-memory bank.
  __shared__ T tile[kTile][kTile + 1];
  const std::int64_t src_tiles = (walk.src_line + kTile - 1) / kTile;
  const std::int64_t dst_tiles = (walk.dst_line + kTile - 1) / kTile;
  const std::int64_t tiles = walk.rest.count * src_tiles * dst_tiles;
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::int64_t src0 = t % src_tiles * kTile;  // first position along src's line
    const std::int64_t dst0 = t / src_tiles % dst_tiles * kTile;
    std::int64_t dst_base, src_base;
    OffsetsOf(t / (src_tiles * dst_tiles), walk.rest, walk.dst_rest, walk.src_rest, &dst_base,
              &src_base);
    // Each warp reads part of one of src's lines...
    for (int r = threadIdx.y; r < kTile; r += kTileRows) {
      const std::int64_t along_dst = dst0 + r, along_src = src0 + threadIdx.x;
      if (along_dst < walk.dst_line && along_src < walk.src_line) {
        tile[r][threadIdx.x] = src[src_base + along_dst * walk.src_stride + along_src];
      }
    }
    __syncthreads();
    // ...and writes part of one of dst's.
    for (int r = threadIdx.y; r < kTile; r += kTileRows) {
      const std::int64_t along_src = src0 + r, along_dst = dst0 + threadIdx.x;
      if (along_dst < walk.dst_line && along_src < walk.src_line) {
        dst[dst_base + along_src * walk.dst_stride + along_dst] = tile[threadIdx.x][r];
      }
    }
    __syncthreads();  // before the next tile overwrites this one
  }
}

// The tiled walk for this copy, if it has that shape and both lines are
// long enough to fill tiles.
bool PlanTiledWalk(const KernelStrides& dst_strides, const KernelStrides& src_strides,
                   const KernelShape& shape, TiledWalk* walk) {
  const int last = shape.rank - 1;
  if (shape.rank < 2 || dst_strides.strides[last] != 1 || src_strides.strides[last] == 1) {
    return false;
  }
  int src_dim = -1;
  for (int d = 0; d < last; ++d) {
    if (src_strides.strides[d] == 1) src_dim = d;
  }
  if (src_dim < 0 || shape.extents[last] < kMinTiledLine ||
      shape.extents[src_dim] < kMinTiledLine) {
    return false;
  }
  walk->dst_line = shape.extents[last];
  walk->src_line = shape.extents[src_dim];
  walk->dst_stride = dst_strides.strides[src_dim];
  walk->src_stride = src_strides.strides[last];
  walk->rest.rank = 0;
  walk->rest.count = 1;
  for (int d = 0; d < last; ++d) {
    if (d == src_dim) continue;
    const int r = walk->rest.rank++;
    walk->rest.extents[r] = shape.extents[d];
    walk->rest.count *= shape.extents[d];
    walk->dst_rest.strides[r] = dst_strides.strides[d];
    walk->src_rest.strides[r] = src_strides.strides[d];
  }
  return true;
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
    case ElementType::kUInt8:
      return {0, 255};
    case ElementType::kInt8:
      return {-128, 127};
    case ElementType::kInt16:
      return {-32768, 32767};
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
          static_cast<StorageOf<kTo>*>(dst), dst_strides, static_cast<const StorageOf<kFrom>*>(src),
          src_strides, shape);
      return cudaGetLastError();
    });
  });
}

cudaError_t LaunchStridedCopy(int element_size, void* dst, const KernelStrides& dst_strides,
                              const void* src, const KernelStrides& src_strides,
                              const KernelShape& shape) {
  TiledWalk tiled;
  const bool tiles = PlanTiledWalk(dst_strides, src_strides, shape, &tiled);
  auto launch = [&](auto* typed_dst) {
    using T = std::remove_pointer_t<decltype(typed_dst)>;
    if (tiles) {
      constexpr std::int64_t kMaxTileBlocks = 1 << 16;
      const std::int64_t count = tiled.rest.count * ((tiled.src_line + kTile - 1) / kTile) *
                                 ((tiled.dst_line + kTile - 1) / kTile);
      TiledCopyKernel<T><<<static_cast<unsigned>(count < kMaxTileBlocks ? count : kMaxTileBlocks),
                           dim3(kTile, kTileRows)>>>(typed_dst, static_cast<const T*>(src), tiled);
      return cudaGetLastError();
    }
    StridedCopyKernel<T><<<BlocksFor(shape.count), kThreadsPerBlock>>>(
        typed_dst, dst_strides, static_cast<const T*>(src), src_strides, shape);
    return cudaGetLastError();
  };
  switch (element_size) {
    case 1:
      return launch(static_cast<std::uint8_t*>(dst));
    case 2:
      return launch(static_cast<std::uint16_t*>(dst));
    case 4:
      return launch(static_cast<std::uint32_t*>(dst));
    case 8:
      return launch(static_cast<std::uint64_t*>(dst));
  }
  return cudaErrorInvalidValue;
}

}  // namespace tensor::cuda
