// Reductions: whole-tensor sums and extremes as per-block partial results
// that the host combines, and reductions along one dimension, one line per
// thread (or per warp, for long contiguous lines: sums and extremes). The accumulators are
// the CPU's (tensor/internal/line_kernels.h): double for floating types;
// for integers the type itself with wraparound along a dimension, and
// double for a whole-tensor sum (tensor/reduce.cc). A contiguous
// whole-tensor sum reads packed (packed_walk.h).
#include <cstdint>
#include <cstring>
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

template <ElementType E>
constexpr bool kFloatingElement = E >= ElementType::kFloat16;

template <typename C>
__device__ inline bool IsNan(C c) {
  if constexpr (std::is_floating_point_v<C>) {
    return c != c;
  } else {
    return false;
  }
}

int ReductionBlocks(std::int64_t count) {
  const unsigned blocks = BlocksFor(count);
  return blocks < static_cast<unsigned>(kMaxReductionBlocks) ? static_cast<int>(blocks)
                                                             : kMaxReductionBlocks;
}

template <ElementType E>
__global__ void SumKernel(const StorageOf<E>* data, KernelStrides strides, KernelShape shape,
                          double* partials) {
  __shared__ double sums[kThreadsPerBlock];
  double total = 0;
  using P = Pack<StorageOf<E>>;
  if (Packable(shape, data, strides.strides[0], data, 1)) {
    const std::int64_t packs = shape.count / P::kLanes;
    const P* packed = reinterpret_cast<const P*>(data);
    for (std::int64_t i = FirstIndex(); i < packs; i += IndexStep()) {
      const P x = packed[i];
#pragma unroll
      for (int k = 0; k < P::kLanes; ++k) total += static_cast<double>(Element<E>::Widen(x.lane[k]));
    }
    for (std::int64_t i = packs * P::kLanes + FirstIndex(); i < shape.count; i += IndexStep()) {
      total += static_cast<double>(Element<E>::Widen(data[i]));
    }
  } else {
    for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
      total += static_cast<double>(Element<E>::Widen(data[OffsetOf(i, shape, strides)]));
    }
  }
  sums[threadIdx.x] = total;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) sums[threadIdx.x] += sums[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = sums[0];
}

// One thread's (or a tree node's) extreme so far.
template <typename C>
struct Candidate {
  C value;
  std::int64_t index;
  bool nan;
  bool found;
};

// The earlier candidate in the rule of ExtremeOfRun: the first NaN if
// either holds one, else the larger (smaller) value, else the first.
template <typename C>
__device__ inline Candidate<C> Merge(bool max, const Candidate<C>& a, const Candidate<C>& b) {
  if (!b.found) return a;
  if (!a.found) return b;
  if (a.nan || b.nan) {
    if (a.nan && b.nan) return a.index < b.index ? a : b;
    return a.nan ? a : b;
  }
  if (max ? b.value > a.value : b.value < a.value) return b;
  if (max ? a.value > b.value : a.value < b.value) return a;
  return a.index < b.index ? a : b;
}

template <ElementType E>
__global__ void ExtremeKernel(bool max, const StorageOf<E>* data, KernelStrides strides,
                              KernelShape shape, ExtremeCandidate* partials) {
  using C = ComputeOf<E>;
  __shared__ Candidate<C> candidates[kThreadsPerBlock];
  // Each thread visits its indices in increasing order, so within a
  // thread a strictly better value or a first NaN is all that replaces.
  Candidate<C> mine{C{}, 0, false, false};
  for (std::int64_t i = FirstIndex(); i < shape.count && !mine.nan; i += IndexStep()) {
    const C v = Element<E>::Widen(data[OffsetOf(i, shape, strides)]);
    const bool better = max ? v > mine.value : v < mine.value;
    if (!mine.found || IsNan(v) || better) mine = {v, i, IsNan(v), true};
  }
  candidates[threadIdx.x] = mine;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      candidates[threadIdx.x] =
          Merge(max, candidates[threadIdx.x], candidates[threadIdx.x + half]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const Candidate<C>& best = candidates[0];
    ExtremeCandidate out{0, 0, best.index, best.nan ? 1 : 0};
    if constexpr (kIntegerElement<E>) {
      out.integer = static_cast<std::int64_t>(best.value);
    } else {
      out.value = static_cast<double>(best.value);
    }
    partials[blockIdx.x] = out;
  }
}

// The accumulator of a sum along a dimension: double for floating types;
// for integers an unsigned type, where the wraparound is defined and gives
// the bits of the type's own wrapping sum.
template <ElementType E, bool kFloating = kFloatingElement<E>>
struct SumAccumulatorOf {
  using type = double;
};
template <ElementType E>
struct SumAccumulatorOf<E, false> {
  using type = std::conditional_t<(sizeof(StorageOf<E>) < sizeof(unsigned)), unsigned,
                                  std::make_unsigned_t<StorageOf<E>>>;
};
template <ElementType E>
using SumAccumulator = typename SumAccumulatorOf<E>::type;

// `lanes` threads (1, or a warp's 32) per line; with 32, each warp holds
// whole lines, since blocks are whole warps.
template <ElementType E>
__global__ void SumAlongKernel(const StorageOf<E>* input, LineWalk walk, int lanes,
                               StorageOf<E>* out, KernelStrides out_strides) {
  using A = SumAccumulator<E>;
  const std::int64_t items = walk.shape.count * lanes;
  for (std::int64_t t = FirstIndex(); t < items; t += IndexStep()) {
    const std::int64_t line = t / lanes;
    const int lane = static_cast<int>(t % lanes);
    std::int64_t in_offset, out_offset;
    OffsetsOf(line, walk.shape, walk.input, out_strides, &in_offset, &out_offset);
    A sum = 0;
    for (std::int64_t k = lane; k < walk.n; k += lanes) {
      sum += static_cast<A>(Element<E>::Widen(input[in_offset + k * walk.line_stride]));
    }
    if (lanes > 1) {
      for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    }
    if (lane == 0) {
      if constexpr (kFloatingElement<E>) {
        out[out_offset] = Element<E>::Narrow(sum);
      } else {
        out[out_offset] = static_cast<StorageOf<E>>(sum);
      }
    }
  }
}

// `value` from lane (this lane + offset) of the warp, for any type of at
// most 8 bytes (the half types' storage included).
template <typename T>
__device__ inline T ShuffleDown(T value, int offset) {
  static_assert(sizeof(T) <= sizeof(unsigned long long));
  unsigned long long bits = 0;
  memcpy(&bits, &value, sizeof(T));
  bits = __shfl_down_sync(0xffffffffu, bits, offset);
  T out;
  memcpy(&out, &bits, sizeof(T));
  return out;
}

// `lanes` threads (1, or a warp's 32) per line, as SumAlongKernel. Each
// lane scans its share of the line in increasing order; the warp then keeps
// the first NaN, else the best value, of equals the first.
template <ElementType E>
__global__ void ExtremeAlongKernel(bool max, const StorageOf<E>* input, LineWalk walk, int lanes,
                                   std::int64_t first_index, StorageOf<E>* values,
                                   KernelStrides value_strides, std::int64_t* indices,
                                   KernelStrides index_strides) {
  using C = ComputeOf<E>;
  const std::int64_t items = walk.shape.count * lanes;
  for (std::int64_t t = FirstIndex(); t < items; t += IndexStep()) {
    const std::int64_t j = t / lanes;
    const int lane = static_cast<int>(t % lanes);
    std::int64_t in_offset, value_offset;
    OffsetsOf(j, walk.shape, walk.input, value_strides, &in_offset, &value_offset);
    const StorageOf<E>* line = input + in_offset;
    // The element itself is kept, not its compute value: of 0 and -0 the
    // first, and a NaN's own bits. REQUIRES: lane < n (n >= 64 for a warp).
    std::int64_t at = lane;
    StorageOf<E> best = line[at * walk.line_stride];
    C best_value = Element<E>::Widen(best);
    for (std::int64_t k = at + lanes; k < walk.n && !IsNan(best_value); k += lanes) {
      const StorageOf<E> x = line[k * walk.line_stride];
      const C v = Element<E>::Widen(x);
      if (IsNan(v) || (max ? v > best_value : v < best_value)) {
        best = x;
        best_value = v;
        at = k;
      }
    }
    if (lanes > 1) {
      for (int offset = 16; offset > 0; offset /= 2) {
        const StorageOf<E> other = ShuffleDown(best, offset);
        const std::int64_t other_at = ShuffleDown(at, offset);
        const C other_value = Element<E>::Widen(other);
        const bool nan = IsNan(best_value), other_nan = IsNan(other_value);
        bool take;
        if (nan || other_nan) {
          take = other_nan && (!nan || other_at < at);
        } else if (max ? other_value > best_value : other_value < best_value) {
          take = true;
        } else if (max ? best_value > other_value : best_value < other_value) {
          take = false;
        } else {
          take = other_at < at;
        }
        if (take) {
          best = other;
          best_value = other_value;
          at = other_at;
        }
      }
    }
    if (lane == 0) {
      values[value_offset] = best;
      indices[OffsetOf(j, walk.shape, index_strides)] = at + first_index;
    }
  }
}

// A warp per line where lines are long and contiguous, so that its loads
// coalesce; otherwise neighbouring threads take neighbouring lines.
int LanesFor(const LineWalk& walk) { return walk.line_stride == 1 && walk.n >= 64 ? 32 : 1; }

}  // namespace

cudaError_t LaunchSumPartials(ElementType type, const void* data, const KernelStrides& strides,
                              const KernelShape& shape, double* partials, int* blocks) {
  *blocks = ReductionBlocks(shape.count);
  return Dispatch(type, [&](auto tag) {
    constexpr ElementType kE = decltype(tag)::value;
    SumKernel<kE><<<*blocks, kThreadsPerBlock>>>(static_cast<const StorageOf<kE>*>(data),
                                                 strides, shape, partials);
    return cudaGetLastError();
  });
}

cudaError_t LaunchExtremePartials(ElementType type, bool max, const void* data,
                                  const KernelStrides& strides, const KernelShape& shape,
                                  ExtremeCandidate* partials, int* blocks) {
  *blocks = ReductionBlocks(shape.count);
  return Dispatch(type, [&](auto tag) {
    constexpr ElementType kE = decltype(tag)::value;
    if constexpr (kE == ElementType::kBool) {
      return cudaErrorInvalidValue;
    } else {
      ExtremeKernel<kE><<<*blocks, kThreadsPerBlock>>>(
          max, static_cast<const StorageOf<kE>*>(data), strides, shape, partials);
      return cudaGetLastError();
    }
  });
}

cudaError_t LaunchSumAlong(ElementType type, const void* input, const LineWalk& walk, void* out,
                           const KernelStrides& out_strides) {
  const int lanes = LanesFor(walk);
  return Dispatch(type, [&](auto tag) {
    constexpr ElementType kE = decltype(tag)::value;
    if constexpr (kE == ElementType::kBool) {
      return cudaErrorInvalidValue;
    } else {
      SumAlongKernel<kE><<<BlocksFor(walk.shape.count * lanes), kThreadsPerBlock>>>(
          static_cast<const StorageOf<kE>*>(input), walk, lanes, static_cast<StorageOf<kE>*>(out),
          out_strides);
      return cudaGetLastError();
    }
  });
}

cudaError_t LaunchExtremeAlong(ElementType type, bool max, const void* input,
                               const LineWalk& walk, std::int64_t first_index, void* values,
                               const KernelStrides& value_strides, std::int64_t* indices,
                               const KernelStrides& index_strides) {
  const int lanes = LanesFor(walk);
  return Dispatch(type, [&](auto tag) {
    constexpr ElementType kE = decltype(tag)::value;
    if constexpr (kE == ElementType::kBool) {
      return cudaErrorInvalidValue;
    } else {
      ExtremeAlongKernel<kE><<<BlocksFor(walk.shape.count * lanes), kThreadsPerBlock>>>(
          max, static_cast<const StorageOf<kE>*>(input), walk, lanes, first_index,
          static_cast<StorageOf<kE>*>(values), value_strides, indices, index_strides);
      return cudaGetLastError();
    }
  });
}

}  // namespace tensor::cuda
