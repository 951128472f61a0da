// Kernel plans: from tensor layouts to KernelShape walks.
//
// Operands of one shape are walked together in row-major order. Extent-1
// dimensions are dropped and neighbours merged where every operand's
// strides allow it, so a contiguous tensor becomes one dimension and a
// transposed matrix stays two. A walk that still has more than
// kMaxKernelRank dimensions is split into blocks over its leading ones.
//
// Example:
//   ForEachKernelBlock<2>(dst.shape(), {&dst.layout().strides(), &src.layout().strides()},
//       [&](const KernelBlock<2>& block) { return Launch(block); });
#ifndef TENSOR_CUDA_KERNEL_PLAN_H_
#define TENSOR_CUDA_KERNEL_PLAN_H_

#include <algorithm>
#include <array>
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "tensor/cuda/kernel_shape.h"
#include "tensor/layout.h"

namespace tensor::cuda {

// One kernel's share of a walk: its shape, each operand's strides, and
// each operand's offset (in elements) from that operand's origin.
template <int N>
struct KernelBlock {
  KernelShape shape;
  std::array<KernelStrides, N> strides;
  std::array<Index, N> offsets = {};
};

// A coalesced walk: extents[i] with strides[k][i] for operand k.
template <int N>
struct CoalescedWalk {
  absl::InlinedVector<Index, 6> extents;
  std::array<absl::InlinedVector<Index, 6>, N> strides;
};

// The walk over `shape` with each operand's strides, coalesced.
// REQUIRES: every strides has shape's rank; shape has elements.
template <int N>
CoalescedWalk<N> Coalesce(const Shape& shape, const std::array<const Strides*, N>& strides) {
  CoalescedWalk<N> walk;
  // Built innermost first, then reversed.
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] == 1) continue;
    bool merges = !walk.extents.empty();
    for (int k = 0; k < N && merges; ++k) {
      merges = (*strides[k])[d] == walk.strides[k].back() * walk.extents.back();
    }
    if (merges) {
      walk.extents.back() *= shape[d];
      continue;
    }
    walk.extents.push_back(shape[d]);
    for (int k = 0; k < N; ++k) walk.strides[k].push_back((*strides[k])[d]);
  }
  std::reverse(walk.extents.begin(), walk.extents.end());
  for (int k = 0; k < N; ++k) std::reverse(walk.strides[k].begin(), walk.strides[k].end());
  return walk;
}

// Calls f(const KernelBlock<N>&) -> absl::Status for each block of the
// walk over `shape`, stopping at the first error.
// REQUIRES: as Coalesce.
template <int N, typename F>
absl::Status ForEachKernelBlock(const Shape& shape, const std::array<const Strides*, N>& strides,
                                F&& f) {
  const CoalescedWalk<N> walk = Coalesce<N>(shape, strides);
  const int rank = static_cast<int>(walk.extents.size());
  const int outer = rank > kMaxKernelRank ? rank - kMaxKernelRank : 0;
  KernelBlock<N> block;
  block.shape.rank = rank - outer;
  block.shape.count = 1;
  for (int i = outer; i < rank; ++i) {
    block.shape.extents[i - outer] = walk.extents[i];
    block.shape.count *= walk.extents[i];
    for (int k = 0; k < N; ++k) block.strides[k].strides[i - outer] = walk.strides[k][i];
  }
  // An odometer over the outer dimensions; a single pass when there are
  // none.
  absl::InlinedVector<Index, 6> position(outer, 0);
  while (true) {
    if (absl::Status s = f(block); !s.ok()) return s;
    int d = outer - 1;
    for (; d >= 0; --d) {
      for (int k = 0; k < N; ++k) block.offsets[k] += walk.strides[k][d];
      if (++position[d] < walk.extents[d]) break;
      for (int k = 0; k < N; ++k) block.offsets[k] -= walk.strides[k][d] * walk.extents[d];
      position[d] = 0;
    }
    if (d < 0) return absl::OkStatus();
  }
}

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_KERNEL_PLAN_H_
