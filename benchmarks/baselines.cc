#include "benchmarks/baselines.h"

#include <cblas.h>

#include <cstring>

#include "tensor/internal/vector_width.h"

namespace benchmarks {

namespace {

using tensor::internal::VectorWidth;

RawWidth WidestRawWidth() {
  switch (tensor::internal::SupportedVectorWidth()) {
    case VectorWidth::kAvx512: return RawWidth::kAvx512;
    case VectorWidth::kAvx2: return RawWidth::kAvx2;
    case VectorWidth::kBaseline: break;
  }
  return RawWidth::kSse2;
}

RawWidth raw_width = WidestRawWidth();

// Runs `body` (a TENSOR_VECTOR_LOOP lambda) compiled for the current raw
// width. The copies are the same target-attributed templates the core
// uses (tensor/internal/vector_width.h), but which one runs is ours.
template <typename F>
auto AtRawWidth(F body) {
#if defined(__x86_64__)
  switch (raw_width) {
    case RawWidth::kAvx2: return tensor::internal::RunAtAvx2(body);
    case RawWidth::kAvx512: return tensor::internal::RunAtAvx512(body);
    case RawWidth::kAvx512On256: return tensor::internal::RunAtAvx512On256Bits(body);
    case RawWidth::kSse2: break;
  }
#endif
  return tensor::internal::RunAtBaseline(body);
}

}  // namespace

std::vector<RawWidth> RawWidths() {
  std::vector<RawWidth> widths = {RawWidth::kSse2};
  const VectorWidth supported = tensor::internal::SupportedVectorWidth();
  if (supported >= VectorWidth::kAvx2) widths.push_back(RawWidth::kAvx2);
  if (supported >= VectorWidth::kAvx512) {
    widths.push_back(RawWidth::kAvx512On256);
    widths.push_back(RawWidth::kAvx512);
  }
  return widths;
}

const char* RawWidthName(RawWidth width) {
  switch (width) {
    case RawWidth::kSse2: return "sse2";
    case RawWidth::kAvx2: return "avx2";
    case RawWidth::kAvx512: return "avx512";
    case RawWidth::kAvx512On256: return "avx512/256";
  }
  return "?";
}

void SetRawWidth(RawWidth width) { raw_width = width; }
RawWidth CurrentRawWidth() { return raw_width; }

void FillPattern(double* a, Index n, int modulus) {
  for (Index i = 0; i < n; ++i) a[i] = static_cast<double>(i % modulus);
}

void FillPattern(float* a, Index n, int modulus) {
  for (Index i = 0; i < n; ++i) a[i] = static_cast<float>(i % modulus);
}

void FillSigns(double* a, Index n) {
  for (Index i = 0; i < n; ++i) a[i] = i % 3 == 0 ? -1.0 : 1.0;
}

// The contiguous raw loops run at the raw width the benchmark set: the
// summary times each width and holds the core to the fastest.
void RawFill(double* a, Index n, double value) {
  AtRawWidth([a, n, value]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) a[i] = value;
  });
}

void RawAddScalar(double* a, Index n, double value) {
  AtRawWidth([a, n, value]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) a[i] += value;
  });
}

void RawAdd(double* a, const double* b, Index n) {
  AtRawWidth([a, b, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) a[i] += b[i];
  });
}

void RawMul(double* a, const double* b, Index n) {
  AtRawWidth([a, b, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) a[i] *= b[i];
  });
}

void StreamCopy(double* c, const double* a, Index n) {
  AtRawWidth([c, a, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) c[i] = a[i];
  });
}

void StreamScale(double* b, const double* c, double q, Index n) {
  AtRawWidth([b, c, q, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) b[i] = q * c[i];
  });
}

void StreamAdd(double* c, const double* a, const double* b, Index n) {
  AtRawWidth([c, a, b, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) c[i] = a[i] + b[i];
  });
}

void StreamTriad(double* a, const double* b, const double* c, double q, Index n) {
  AtRawWidth([a, b, c, q, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) a[i] = b[i] + q * c[i];
  });
}

void RawCopy(double* dst, const double* src, Index n) {
  std::memcpy(dst, src, n * sizeof(double));
}

double RawNaiveSum(const double* a, Index n) {
  double sum = 0;
  for (Index i = 0; i < n; ++i) sum += a[i];
  return sum;
}

void RawFillTransposed(double* a, Index side, double value) {
  for (Index i = 0; i < side; ++i) {
    for (Index j = 0; j < side; ++j) a[j * side + i] = value;
  }
}

void RawAddScalarTransposed(double* a, Index side, double value) {
  for (Index i = 0; i < side; ++i) {
    for (Index j = 0; j < side; ++j) a[j * side + i] += value;
  }
}

void RawAddTransposed(double* a, const double* b, Index side) {
  for (Index i = 0; i < side; ++i) {
    for (Index j = 0; j < side; ++j) a[i * side + j] += b[j * side + i];
  }
}

void RawMulTransposed(double* a, const double* b, Index side) {
  for (Index i = 0; i < side; ++i) {
    for (Index j = 0; j < side; ++j) a[i * side + j] *= b[j * side + i];
  }
}

void RawCopyTransposed(double* dst, const double* src, Index side) {
  for (Index i = 0; i < side; ++i) {
    for (Index j = 0; j < side; ++j) dst[i * side + j] = src[j * side + i];
  }
}

double RawNaiveSumTransposed(const double* a, Index side) {
  double sum = 0;
  for (Index i = 0; i < side; ++i) {
    for (Index j = 0; j < side; ++j) sum += a[j * side + i];
  }
  return sum;
}

void RawGemm(const float* a, const float* b, float* c, Index n) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
}

void RawGemm(const double* a, const double* b, double* c, Index n) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
}

int BlasThreads() { return openblas_get_num_threads(); }

}  // namespace benchmarks
