// Cases: one tensor-core operation and its baseline, set up over identical
// data: once as tensors for the core, once as raw arrays for the baseline.
// Both benchmark binaries time these, so they measure the same thing.
//
// Example:
//   absl::StatusOr<std::unique_ptr<ElementCase>> cadd =
//       ElementCase::Contiguous(ElementKind::kCAdd, 1 << 20);
//   absl::Status same = (*cadd)->Verify();   // ours == baseline
//   absl::Status status = (*cadd)->RunOurs();  // ApplyComponents(a, kAdd, b)
//   (*cadd)->RunBaseline();                    // a[i] += b[i]
#ifndef BENCHMARKS_CASES_H_
#define BENCHMARKS_CASES_H_

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "benchmarks/baselines.h"
#include "tensor/tensor.h"

namespace benchmarks {

enum class ElementKind { kFill, kAddScalar, kCAdd, kCMul, kCopy, kSum };

inline constexpr ElementKind kAllElementKinds[] = {
    ElementKind::kFill, ElementKind::kAddScalar, ElementKind::kCAdd,
    ElementKind::kCMul, ElementKind::kCopy,      ElementKind::kSum,
};

// "fill", "add", "cadd", "cmul", "copy", "sum".
const char* ElementKindName(ElementKind kind);

// What an ElementCase's baseline is: "raw_loop", "memcpy", "naive_loop"
// (sum) or "naive_transposed_loop".
const char* BaselineName(ElementKind kind, bool transposed);

// One float64 element-wise operation or sum.
class ElementCase {
 public:
  // Over `n` contiguous elements.
  static absl::StatusOr<std::unique_ptr<ElementCase>> Contiguous(ElementKind kind, Index n);

  // Over a side x side matrix seen through its transposed view: fill, add
  // and sum work on the view; cadd, cmul and copy write a row-major
  // destination from a transposed source.
  static absl::StatusOr<std::unique_ptr<ElementCase>> Transposed(ElementKind kind, Index side);

  // One call of the core: ApplyScalars, ApplyComponents or Sum.
  absl::Status RunOurs();
  // The same work by the plain loop of baselines.h.
  void RunBaseline();

  // Restores the starting data, runs each side once and compares the
  // results, which must be identical (the data make every sum exact).
  absl::Status Verify();

  ElementKind kind() const { return kind_; }
  Index elements() const { return elements_; }
  // Bytes one call must read plus write.
  double bytes() const;

 private:
  ElementCase(ElementKind kind, Index elements, Index side);
  absl::Status Init(bool transposed);
  void Reset();

  ElementKind kind_;
  Index elements_;
  Index side_;  // 0 for a contiguous case
  tensor::Tensor dst_storage_;  // row-major owner of what dst_ views
  tensor::Tensor dst_;          // what ours writes, or sums
  tensor::Tensor src_;          // cadd, cmul and copy read this
  double* ours_dst_ = nullptr;  // dst_storage_'s elements
  double* ours_src_ = nullptr;  // the row-major storage under src_
  AlignedBuffer<double> raw_dst_;
  AlignedBuffer<double> raw_src_;
  double ours_sum_ = 0;
  double baseline_sum_ = 0;
};

// An n x n matrix product of float or double.
template <typename T>
class MatMulCase {
 public:
  static absl::StatusOr<std::unique_ptr<MatMulCase>> Create(Index n);

  // MatMul, including the allocation of its result.
  absl::Status RunOurs();
  // cblas gemm into a result allocated once.
  void RunBaseline();

  // Runs each once and compares the products, which must be identical
  // (small integer operands make every order of summation exact).
  absl::Status Verify();

  Index n() const { return n_; }
  double flops() const { return 2.0 * n_ * n_ * n_; }

 private:
  explicit MatMulCase(Index n);

  Index n_;
  tensor::Tensor a_;
  tensor::Tensor b_;
  AlignedBuffer<T> raw_a_;
  AlignedBuffer<T> raw_b_;
  AlignedBuffer<T> raw_c_;
};

extern template class MatMulCase<float>;
extern template class MatMulCase<double>;

}  // namespace benchmarks

#endif  // BENCHMARKS_CASES_H_
