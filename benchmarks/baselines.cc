#include "benchmarks/baselines.h"

#include <cblas.h>

#include <cstring>

#include "tensor/internal/vector_width.h"

namespace benchmarks {

using tensor::internal::AtVectorWidth;
using tensor::internal::Reads;

void FillPattern(double* a, Index n, int modulus) {
  for (Index i = 0; i < n; ++i) a[i] = static_cast<double>(i % modulus);
}

void FillPattern(float* a, Index n, int modulus) {
  for (Index i = 0; i < n; ++i) a[i] = static_cast<float>(i % modulus);
}

void FillSigns(double* a, Index n) {
  for (Index i = 0; i < n; ++i) a[i] = i % 3 == 0 ? -1.0 : 1.0;
}

// The contiguous raw loops run at the widest vector width this processor
// has, and on the vectors the core's kernels use for as many arrays: a
// baseline built for SSE2 alone would flatter the core on any newer processor.
void RawFill(double* a, Index n, double value) {
  AtVectorWidth(n, [a, n, value]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) a[i] = value;
  });
}

void RawAddScalar(double* a, Index n, double value) {
  AtVectorWidth(n, [a, n, value]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) a[i] += value;
  });
}

void RawAdd(double* a, const double* b, Index n) {
  AtVectorWidth<Reads::kSeveralArrays>(n, [a, b, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) a[i] += b[i];
  });
}

void RawMul(double* a, const double* b, Index n) {
  AtVectorWidth<Reads::kSeveralArrays>(n, [a, b, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) a[i] *= b[i];
  });
}

void StreamCopy(double* c, const double* a, Index n) {
  AtVectorWidth(n, [c, a, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) c[i] = a[i];
  });
}

void StreamScale(double* b, const double* c, double q, Index n) {
  AtVectorWidth(n, [b, c, q, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) b[i] = q * c[i];
  });
}

void StreamAdd(double* c, const double* a, const double* b, Index n) {
  AtVectorWidth<Reads::kSeveralArrays>(n, [c, a, b, n]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) c[i] = a[i] + b[i];
  });
}

void StreamTriad(double* a, const double* b, const double* c, double q, Index n) {
  AtVectorWidth<Reads::kSeveralArrays>(n, [a, b, c, q, n]() TENSOR_VECTOR_LOOP {
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
