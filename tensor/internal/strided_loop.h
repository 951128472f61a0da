// Walks up to a few same-shaped operands in lockstep, one run at a time.
//
// A plan coalesces dimensions that are contiguous with one another in every
// operand, so a contiguous tensor is one run and a transposed matrix is
// `rows` runs. When the order of visits does not matter (element-wise
// kernels, sums), the plan may also reorder dimensions by the first
// operand's strides and flip its negative strides, which keeps the inner
// loop unit-stride wherever the first operand allows.
//
// Strides in a plan are in bytes, so operands may differ in dtype.
#ifndef TENSOR_INTERNAL_STRIDED_LOOP_H_
#define TENSOR_INTERNAL_STRIDED_LOOP_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdlib>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "tensor/layout.h"

namespace tensor::internal {

struct Operand {
  std::byte* origin = nullptr;  // element [0, ..., 0]
  const Strides* strides = nullptr;
  Index item_size = 0;
};

template <int N>
struct LoopPlan {
  // Outermost first. Empty when there is nothing to visit.
  absl::InlinedVector<Index, 6> extents;
  std::array<absl::InlinedVector<Index, 6>, N> byte_strides;
  std::array<std::byte*, N> origins{};

  int rank() const { return static_cast<int>(extents.size()); }
  Index inner_extent() const { return extents.back(); }
  Index inner_stride(int operand) const { return byte_strides[operand].back(); }
};

enum class Order { kRowMajor, kAny };

// Whether `strides` lay `shape` out densely in row-major order.
inline bool IsRowMajor(absl::Span<const Index> shape, const Strides& strides) {
  Index expected = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= shape[d];
  }
  return true;
}

template <int N>
LoopPlan<N> PlanLoop(absl::Span<const Index> shape, const std::array<Operand, N>& operands,
                     Order order) {
  LoopPlan<N> plan;
  for (int i = 0; i < N; ++i) plan.origins[i] = operands[i].origin;
  Index count = shape.empty() ? 0 : 1;
  for (Index extent : shape) count *= extent;
  if (count == 0) return plan;

  // The common case, every operand dense and row-major: one run.
  bool all_row_major = true;
  for (int i = 0; i < N; ++i) all_row_major &= IsRowMajor(shape, *operands[i].strides);
  if (all_row_major) {
    plan.extents.push_back(count);
    for (int i = 0; i < N; ++i) plan.byte_strides[i].push_back(operands[i].item_size);
    return plan;
  }

  // Drop extent-1 dimensions; they do not move any pointer.
  absl::InlinedVector<int, 6> dims;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (shape[d] != 1) dims.push_back(d);
  }
  auto stride = [&](int operand, int dim) {
    return (*operands[operand].strides)[dim] * operands[operand].item_size;
  };
  if (order == Order::kAny) {
    // Flip dimensions the first operand walks backwards, then sort so its
    // smallest stride is innermost.
    for (int d : dims) {
      if (stride(0, d) < 0) {
        for (int i = 0; i < N; ++i) plan.origins[i] += stride(i, d) * (shape[d] - 1);
      }
    }
    // Insertion sort: stable, and unlike std::stable_sort it never
    // allocates, which matters for small tensors.
    for (size_t i = 1; i < dims.size(); ++i) {
      for (size_t j = i; j > 0 && std::abs(stride(0, dims[j - 1])) < std::abs(stride(0, dims[j]));
           --j) {
        std::swap(dims[j - 1], dims[j]);
      }
    }
  }
  for (int d : dims) {
    const bool flip = order == Order::kAny && stride(0, d) < 0;
    plan.extents.push_back(shape[d]);
    for (int i = 0; i < N; ++i) plan.byte_strides[i].push_back(flip ? -stride(i, d) : stride(i, d));
  }
  if (plan.extents.empty()) {  // one element
    plan.extents.push_back(1);
    for (int i = 0; i < N; ++i) plan.byte_strides[i].push_back(operands[i].item_size);
    return plan;
  }
  // Merge each dimension into the next inner one where every operand steps
  // from one to the other without a gap.
  int out = plan.rank() - 1;
  for (int d = plan.rank() - 2; d >= 0; --d) {
    bool mergeable = true;
    for (int i = 0; i < N; ++i) {
      mergeable &= plan.byte_strides[i][d] == plan.byte_strides[i][out] * plan.extents[out];
    }
    if (mergeable) {
      plan.extents[out] *= plan.extents[d];
    } else {
      --out;
      plan.extents[out] = plan.extents[d];
      for (int i = 0; i < N; ++i) plan.byte_strides[i][out] = plan.byte_strides[i][d];
    }
  }
  plan.extents.erase(plan.extents.begin(), plan.extents.begin() + out);
  for (int i = 0; i < N; ++i) {
    plan.byte_strides[i].erase(plan.byte_strides[i].begin(), plan.byte_strides[i].begin() + out);
  }
  return plan;
}

// Calls body(pointers, count, inner_byte_strides) for each innermost run.
// The body returns false to stop the walk; ForEachRun then returns false.
template <int N, typename Body>
bool ForEachRun(const LoopPlan<N>& plan, Body&& body) {
  if (plan.extents.empty()) return true;
  const int outer = plan.rank() - 1;
  std::array<Index, N> inner;
  for (int i = 0; i < N; ++i) inner[i] = plan.inner_stride(i);
  std::array<std::byte*, N> pointers = plan.origins;
  absl::InlinedVector<Index, 6> index(outer, 0);
  while (true) {
    if (!body(pointers, plan.inner_extent(), inner)) return false;
    int d = outer - 1;
    for (; d >= 0; --d) {
      for (int i = 0; i < N; ++i) pointers[i] += plan.byte_strides[i][d];
      if (++index[d] < plan.extents[d]) break;
      for (int i = 0; i < N; ++i) pointers[i] -= plan.byte_strides[i][d] * plan.extents[d];
      index[d] = 0;
    }
    if (d < 0) return true;
  }
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_STRIDED_LOOP_H_
