#include "benchmarks/cases.h"

#include <cstddef>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/matmul.h"
#include "tensor/reduce.h"

namespace benchmarks {
namespace {

using tensor::DType;
using tensor::ElementOp;
using tensor::Tensor;

constexpr double kFillValue = 3.0;
constexpr double kAddValue = 1.0;
// Different moduli for the two operands, the source's prime, so that a
// kernel reading the wrong element shows up as a wrong value.
constexpr int kDstModulus = 1000;
constexpr int kSrcModulus = 997;

bool HasSource(ElementKind kind) {
  return kind == ElementKind::kCAdd || kind == ElementKind::kCMul || kind == ElementKind::kCopy;
}

template <typename T>
absl::StatusOr<T*> ElementsOf(const Tensor& tensor) {
  absl::StatusOr<std::byte*> data = tensor.data();
  if (!data.ok()) return data.status();
  return reinterpret_cast<T*>(*data);
}

// OK if identical, else an error naming the first element that differs.
template <typename T>
absl::Status Compare(const char* what, const T* ours, const T* expected, Index n) {
  for (Index i = 0; i < n; ++i) {
    if (ours[i] != expected[i]) {
      return absl::InternalError(absl::StrCat(what, ": element ", i, " of ", n, " is ", ours[i],
                                              ", the baseline says ", expected[i]));
    }
  }
  return absl::OkStatus();
}

}  // namespace

const char* ElementKindName(ElementKind kind) {
  switch (kind) {
    case ElementKind::kFill: return "fill";
    case ElementKind::kAddScalar: return "add";
    case ElementKind::kCAdd: return "cadd";
    case ElementKind::kCMul: return "cmul";
    case ElementKind::kCopy: return "copy";
    case ElementKind::kSum: return "sum";
  }
  return "?";
}

const char* BaselineName(ElementKind kind, bool transposed) {
  if (transposed) return "naive_transposed_loop";
  switch (kind) {
    case ElementKind::kCopy: return "memcpy";
    case ElementKind::kSum: return "naive_loop";
    default: return "raw_loop";
  }
}

ElementCase::ElementCase(ElementKind kind, Index elements, Index side)
    : kind_(kind),
      elements_(elements),
      side_(side),
      raw_dst_(elements),
      raw_src_(HasSource(kind) ? elements : 0) {}

absl::StatusOr<std::unique_ptr<ElementCase>> ElementCase::Contiguous(ElementKind kind, Index n) {
  std::unique_ptr<ElementCase> result(new ElementCase(kind, n, 0));
  if (absl::Status status = result->Init(false); !status.ok()) return status;
  return result;
}

absl::StatusOr<std::unique_ptr<ElementCase>> ElementCase::Transposed(ElementKind kind,
                                                                     Index side) {
  std::unique_ptr<ElementCase> result(new ElementCase(kind, side * side, side));
  if (absl::Status status = result->Init(true); !status.ok()) return status;
  return result;
}

absl::Status ElementCase::Init(bool transposed) {
  const tensor::Shape shape =
      transposed ? tensor::Shape{side_, side_} : tensor::Shape{elements_};
  absl::StatusOr<Tensor> dst = Tensor::Zeros(DType::kFloat64, shape);
  if (!dst.ok()) return dst.status();
  dst_storage_ = *dst;
  dst_ = dst_storage_;
  if (transposed && !HasSource(kind_)) {
    absl::StatusOr<Tensor> view = dst_storage_.Transpose(0, 1);
    if (!view.ok()) return view.status();
    dst_ = *view;
  }
  absl::StatusOr<double*> dst_elements = ElementsOf<double>(dst_storage_);
  if (!dst_elements.ok()) return dst_elements.status();
  ours_dst_ = *dst_elements;

  if (HasSource(kind_)) {
    absl::StatusOr<Tensor> src = Tensor::Zeros(DType::kFloat64, shape);
    if (!src.ok()) return src.status();
    absl::StatusOr<double*> src_elements = ElementsOf<double>(*src);
    if (!src_elements.ok()) return src_elements.status();
    ours_src_ = *src_elements;
    src_ = *src;
    if (transposed) {
      absl::StatusOr<Tensor> view = src->Transpose(0, 1);
      if (!view.ok()) return view.status();
      src_ = *view;
    }
  }
  Reset();
  return absl::OkStatus();
}

void ElementCase::Reset() {
  FillPattern(ours_dst_, elements_, kDstModulus);
  FillPattern(raw_dst_.data(), elements_, kDstModulus);
  if (!HasSource(kind_)) return;
  if (kind_ == ElementKind::kCMul) {
    FillSigns(ours_src_, elements_);
    FillSigns(raw_src_.data(), elements_);
  } else {
    FillPattern(ours_src_, elements_, kSrcModulus);
    FillPattern(raw_src_.data(), elements_, kSrcModulus);
  }
}

absl::Status ElementCase::RunOurs() {
  switch (kind_) {
    case ElementKind::kFill: return ApplyScalars(dst_, ElementOp::kAssign, {kFillValue});
    case ElementKind::kAddScalar: return ApplyScalars(dst_, ElementOp::kAdd, {kAddValue});
    case ElementKind::kCAdd: return ApplyComponents(dst_, ElementOp::kAdd, src_);
    case ElementKind::kCMul: return ApplyComponents(dst_, ElementOp::kMul, src_);
    case ElementKind::kCopy: return ApplyComponents(dst_, ElementOp::kAssign, src_);
    case ElementKind::kSum: {
      absl::StatusOr<double> sum = Sum(dst_);
      if (!sum.ok()) return sum.status();
      ours_sum_ = *sum;
      return absl::OkStatus();
    }
  }
  return absl::InternalError("unknown element kind");
}

void ElementCase::RunBaseline() {
  double* a = raw_dst_.data();
  const double* b = raw_src_.data();
  const Index n = elements_;
  const Index side = side_;
  switch (kind_) {
    case ElementKind::kFill:
      side ? RawFillTransposed(a, side, kFillValue) : RawFill(a, n, kFillValue);
      break;
    case ElementKind::kAddScalar:
      side ? RawAddScalarTransposed(a, side, kAddValue) : RawAddScalar(a, n, kAddValue);
      break;
    case ElementKind::kCAdd: side ? RawAddTransposed(a, b, side) : RawAdd(a, b, n); break;
    case ElementKind::kCMul: side ? RawMulTransposed(a, b, side) : RawMul(a, b, n); break;
    case ElementKind::kCopy: side ? RawCopyTransposed(a, b, side) : RawCopy(a, b, n); break;
    case ElementKind::kSum:
      baseline_sum_ = side ? RawNaiveSumTransposed(a, side) : RawNaiveSum(a, n);
      break;
  }
}

absl::Status ElementCase::Verify() {
  Reset();
  absl::Status status = RunOurs();
  if (status.ok()) {
    RunBaseline();
    status = kind_ == ElementKind::kSum
                 ? Compare("sum", &ours_sum_, &baseline_sum_, 1)
                 : Compare(ElementKindName(kind_), ours_dst_, raw_dst_.data(), elements_);
  }
  Reset();
  return status;
}

double ElementCase::bytes() const {
  // Reads plus writes of 8-byte elements per element.
  int accesses = 0;
  switch (kind_) {
    case ElementKind::kFill: accesses = 1; break;
    case ElementKind::kAddScalar: accesses = 2; break;
    case ElementKind::kCAdd: accesses = 3; break;
    case ElementKind::kCMul: accesses = 3; break;
    case ElementKind::kCopy: accesses = 2; break;
    case ElementKind::kSum: accesses = 1; break;
  }
  return static_cast<double>(accesses) * sizeof(double) * elements_;
}

template <typename T>
MatMulCase<T>::MatMulCase(Index n) : n_(n), raw_a_(n * n), raw_b_(n * n), raw_c_(n * n) {}

template <typename T>
absl::StatusOr<std::unique_ptr<MatMulCase<T>>> MatMulCase<T>::Create(Index n) {
  std::unique_ptr<MatMulCase> result(new MatMulCase(n));
  for (auto [tensor, raw, modulus] : {std::tuple{&result->a_, result->raw_a_.data(), 7},
                                      std::tuple{&result->b_, result->raw_b_.data(), 5}}) {
    absl::StatusOr<Tensor> zeros = Tensor::Zeros(tensor::DTypeOf<T>(), {n, n});
    if (!zeros.ok()) return zeros.status();
    absl::StatusOr<T*> elements = ElementsOf<T>(*zeros);
    if (!elements.ok()) return elements.status();
    FillPattern(*elements, n * n, modulus);
    FillPattern(raw, n * n, modulus);
    *tensor = *zeros;
  }
  return result;
}

template <typename T>
absl::Status MatMulCase<T>::RunOurs() {
  return MatMul(a_, b_).status();
}

template <typename T>
void MatMulCase<T>::RunBaseline() {
  RawGemm(raw_a_.data(), raw_b_.data(), raw_c_.data(), n_);
}

template <typename T>
absl::Status MatMulCase<T>::Verify() {
  absl::StatusOr<Tensor> product = MatMul(a_, b_);
  if (!product.ok()) return product.status();
  if (product->dtype() != a_.dtype() || product->shape() != a_.shape() ||
      !product->layout().IsContiguous()) {
    return absl::InternalError(absl::StrCat("mmul: result is ", DTypeName(product->dtype()), " ",
                                            tensor::ShapeToString(product->shape()),
                                            product->layout().IsContiguous() ? "" : " strided",
                                            ", expected a row-major ", DTypeName(a_.dtype()),
                                            " ", tensor::ShapeToString(a_.shape())));
  }
  absl::StatusOr<T*> elements = ElementsOf<T>(*product);
  if (!elements.ok()) return elements.status();
  RunBaseline();
  return Compare("mmul", *elements, raw_c_.data(), n_ * n_);
}

template class MatMulCase<float>;
template class MatMulCase<double>;

}  // namespace benchmarks
