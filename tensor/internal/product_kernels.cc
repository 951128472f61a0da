#include "tensor/internal/product_kernels.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include <cblas.h>

#include "absl/status/statusor.h"
#include "tensor/elementwise.h"
#include "tensor/internal/blas_matrix.h"
#include "tensor/internal/product_sum.h"
#include "tensor/internal/vector_width.h"

namespace tensor::internal {
namespace {

// Where each tensor of a product keeps its batch, rows and columns: the
// product is C[o] = A[m] . B[m] for (n x k) A and (k x p) B.
struct ProductDims {
  MatrixDims c, a, b;
};

ProductDims DimsOf(ProductKind kind) {
  constexpr MatrixDims kMatrix{-1, 0, 1}, kColumn{-1, 0, -1}, kRow{-1, -1, 0}, kBatch{0, 1, 2};
  switch (kind) {
    case ProductKind::kMatrix: return {kMatrix, kMatrix, kMatrix};
    case ProductKind::kVector: return {kColumn, kMatrix, kColumn};
    case ProductKind::kOuter: return {kMatrix, kColumn, kRow};
    case ProductKind::kBatch: return {kBatch, kBatch, kBatch};
    case ProductKind::kBatchSum: break;
  }
  return {kMatrix, kBatch, kBatch};
}

Index ExtentOf(const Tensor& t, int dim) { return dim < 0 ? 1 : t.shape()[dim]; }
Index StrideOf(const Tensor& t, int dim) { return dim < 0 ? 0 : t.layout().strides()[dim]; }

bool IsSameView(const Tensor& a, const Tensor& b) {
  return a.storage() == b.storage() && a.layout() == b.layout();
}

// target = add, when the kernel will read it (beta nonzero). For ger,
// which has no beta, also target *= beta, and target = 0 for beta 0.
absl::Status LoadAddend(const Tensor& target, double beta, const Tensor& add, bool apply_beta) {
  if (beta == 0) {
    return apply_beta ? ApplyScalars(target, ElementOp::kAssign, {0.0}) : absl::OkStatus();
  }
  if (!IsSameView(target, add)) {
    if (absl::Status s = ApplyComponents(target, ElementOp::kAssign, add); !s.ok()) return s;
  }
  if (apply_beta && beta != 1) return ApplyScalars(target, ElementOp::kMul, {beta});
  return absl::OkStatus();
}

CBLAS_TRANSPOSE Flip(CBLAS_TRANSPOSE t) { return t == CblasNoTrans ? CblasTrans : CblasNoTrans; }

template <typename T>
T* At(const BlasMatrix& m, Index batch) {
  return reinterpret_cast<T*>(m.data) + batch * m.batch_stride;
}

void Gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, float alpha, const float* a,
          int lda, const float* b, int ldb, float beta, float* c, int ldc) {
  cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void Gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, double alpha,
          const double* a, int lda, const double* b, int ldb, double beta, double* c, int ldc) {
  cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void Gemv(CBLAS_TRANSPOSE ta, int m, int n, float alpha, const float* a, int lda, const float* x,
          int incx, float beta, float* y, int incy) {
  cblas_sgemv(CblasRowMajor, ta, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
void Gemv(CBLAS_TRANSPOSE ta, int m, int n, double alpha, const double* a, int lda, const double* x,
          int incx, double beta, double* y, int incy) {
  cblas_dgemv(CblasRowMajor, ta, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
void Ger(int m, int n, float alpha, const float* x, int incx, const float* y, int incy, float* a,
         int lda) {
  cblas_sger(CblasRowMajor, m, n, alpha, x, incx, y, incy, a, lda);
}
void Ger(int m, int n, double alpha, const double* x, int incx, const double* y, int incy,
         double* a, int lda) {
  cblas_dger(CblasRowMajor, m, n, alpha, x, incx, y, incy, a, lda);
}

// The operands of one product and where their matrices lie.
struct ProductOperands {
  const Tensor& c;
  const Tensor& a;
  const Tensor& b;
  ProductDims dims;
};

// gemm for every matrix of the batch (kMatrix, kBatch), or summed into
// one (kBatchSum). A destination with unit row stride (a transposed view)
// is computed as C' = B' . A'.
template <typename T>
absl::Status BlasMatrices(bool sum, const ProductOperands& p, double beta, const Tensor& add,
                          double alpha, Allocator& allocator) {
  Tensor keep_a, keep_b;
  absl::StatusOr<BlasMatrix> a = DescribeMatrices(p.a, p.dims.a, allocator, &keep_a);
  if (!a.ok()) return a.status();
  absl::StatusOr<BlasMatrix> b = DescribeMatrices(p.b, p.dims.b, allocator, &keep_b);
  if (!b.ok()) return b.status();
  const BlasMatrix c = *DescribeDestination(p.c, p.dims.c);
  if (absl::Status s = LoadAddend(p.c, beta, add, false); !s.ok()) return s;
  const int n = static_cast<int>(ExtentOf(p.a, p.dims.a.rows));
  const int k = static_cast<int>(ExtentOf(p.a, p.dims.a.cols));
  const int cols = static_cast<int>(ExtentOf(p.b, p.dims.b.cols));
  for (Index m = 0; m < ExtentOf(p.a, p.dims.a.batch); ++m) {
    T* out = At<T>(c, sum ? 0 : m);
    const T step_beta = static_cast<T>(sum && m > 0 ? 1 : beta);
    if (c.transpose == CblasNoTrans) {
      Gemm(a->transpose, b->transpose, n, cols, k, static_cast<T>(alpha), At<T>(*a, m), a->leading,
           At<T>(*b, m), b->leading, step_beta, out, c.leading);
    } else {
      Gemm(Flip(b->transpose), Flip(a->transpose), cols, n, k, static_cast<T>(alpha), At<T>(*b, m),
           b->leading, At<T>(*a, m), a->leading, step_beta, out, c.leading);
    }
  }
  return absl::OkStatus();
}

// The most columns NarrowGemv takes.
constexpr int kNarrowestBlasColumns = 8;

// y = alpha * A x + beta * y for an (n x K) A whose rows are contiguous:
// an image's pixels times its channels' weights. OpenBLAS takes one dot
// product of K elements a row there: a 7,056 x 3 double gemv took 4.31 µs
// in it and takes 1.37 here. As BLAS, it reads no y for beta 0.
template <int K, typename T>
void NarrowGemv(Index n, T alpha, const T* a, Index lda, const T* x, Index incx, T beta, T* y,
                Index incy) {
  struct Weights {
    T w[K];
  } weights;
  for (int q = 0; q < K; ++q) weights.w[q] = x[q * incx];
  if (lda == K && incy == 1 && beta == 0) {  // a whole image, strides the compiler knows
    AtVectorWidth<Reads::kSeveralArrays>(n, [=]() TENSOR_VECTOR_LOOP {
      // y is a separate tensor (or BLAS would have been handed it): told
      // so, and with the sum unrolled, the compiler vectorises 6 columns
      // too (twice as fast).
      const T* __restrict in = a;
      T* __restrict out = y;
      for (Index i = 0; i < n; ++i) {
        T sum = in[i * K] * weights.w[0];
#pragma GCC unroll 8
        for (int q = 1; q < K; ++q) sum += in[i * K + q] * weights.w[q];
        out[i] = alpha * sum;
      }
    });
    return;
  }
  AtVectorWidth<Reads::kSeveralArrays>(n, [=]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) {
      T sum = a[i * lda] * weights.w[0];
      for (int q = 1; q < K; ++q) sum += a[i * lda + q] * weights.w[q];
      y[i * incy] = beta == 0 ? alpha * sum : alpha * sum + beta * y[i * incy];
    }
  });
}

template <typename T, int K = 1>
void NarrowGemvOf(int k, Index n, T alpha, const T* a, Index lda, const T* x, Index incx, T beta,
                  T* y, Index incy) {
  if constexpr (K < kNarrowestBlasColumns) {
    if (k != K) return NarrowGemvOf<T, K + 1>(k, n, alpha, a, lda, x, incx, beta, y, incy);
  }
  NarrowGemv<K>(n, alpha, a, lda, x, incx, beta, y, incy);
}

// gemv. A column vector describes as a one-column matrix whose leading
// dimension is the vector's increment.
template <typename T>
absl::Status BlasVector(const ProductOperands& p, double beta, const Tensor& add, double alpha,
                        Allocator& allocator) {
  Tensor keep_a, keep_x;
  absl::StatusOr<BlasMatrix> a = DescribeMatrices(p.a, p.dims.a, allocator, &keep_a);
  if (!a.ok()) return a.status();
  absl::StatusOr<BlasMatrix> x = DescribeMatrices(p.b, p.dims.b, allocator, &keep_x);
  if (!x.ok()) return x.status();
  const BlasMatrix y = *DescribeDestination(p.c, p.dims.c);
  if (absl::Status s = LoadAddend(p.c, beta, add, false); !s.ok()) return s;
  const int n = static_cast<int>(p.a.shape()[0]), k = static_cast<int>(p.a.shape()[1]);
  if (a->transpose == CblasNoTrans && k >= 1 && k <= kNarrowestBlasColumns) {
    NarrowGemvOf<T>(k, n, static_cast<T>(alpha), At<T>(*a, 0), a->leading, At<T>(*x, 0),
                    x->leading, static_cast<T>(beta), At<T>(y, 0), y.leading);
    return absl::OkStatus();
  }
  // The stored matrix of a transposed description is k x n.
  const bool trans = a->transpose == CblasTrans;
  Gemv(a->transpose, trans ? k : n, trans ? n : k, static_cast<T>(alpha), At<T>(*a, 0), a->leading,
       At<T>(*x, 0), x->leading, static_cast<T>(beta), At<T>(y, 0), y.leading);
  return absl::OkStatus();
}

// ger, after c = beta * add. Both vectors describe as columns. A
// destination with unit row stride takes the outer product the other way
// round.
template <typename T>
absl::Status BlasOuter(const ProductOperands& p, double beta, const Tensor& add, double alpha,
                       Allocator& allocator) {
  constexpr MatrixDims kColumn{-1, 0, -1};
  Tensor keep_x, keep_y;
  absl::StatusOr<BlasMatrix> x = DescribeMatrices(p.a, kColumn, allocator, &keep_x);
  if (!x.ok()) return x.status();
  absl::StatusOr<BlasMatrix> y = DescribeMatrices(p.b, kColumn, allocator, &keep_y);
  if (!y.ok()) return y.status();
  const BlasMatrix c = *DescribeDestination(p.c, p.dims.c);
  if (absl::Status s = LoadAddend(p.c, beta, add, true); !s.ok()) return s;
  const int n = static_cast<int>(p.a.shape()[0]), cols = static_cast<int>(p.b.shape()[0]);
  if (c.transpose == CblasNoTrans) {
    Ger(n, cols, static_cast<T>(alpha), At<T>(*x, 0), x->leading, At<T>(*y, 0), y->leading,
        At<T>(c, 0), c.leading);
  } else {
    Ger(cols, n, static_cast<T>(alpha), At<T>(*y, 0), y->leading, At<T>(*x, 0), x->leading,
        At<T>(c, 0), c.leading);
  }
  return absl::OkStatus();
}

template <typename T>
ProductSum<T> ScalarOf(double value) {  // REQUIRES: a value of T
  if constexpr (kIsInteger<T>) {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
  } else {
    return static_cast<ProductSum<T>>(value);
  }
}

// Row i of C[o] accumulates a[m][i][q] * (row q of B[m]) over q (and over
// m for a batch sum), so B and C are read along rows.
template <typename T>
void LoopMatrices(bool sum, const ProductOperands& p, double beta, double alpha) {
  using Acc = ProductSum<T>;
  const ProductDims& d = p.dims;
  const Index batches = ExtentOf(p.c, d.c.batch), n = ExtentOf(p.c, d.c.rows);
  const Index cols = ExtentOf(p.c, d.c.cols), k = ExtentOf(p.a, d.a.cols);
  const Index cs[] = {StrideOf(p.c, d.c.batch), StrideOf(p.c, d.c.rows), StrideOf(p.c, d.c.cols)};
  const Index as[] = {StrideOf(p.a, d.a.batch), StrideOf(p.a, d.a.rows), StrideOf(p.a, d.a.cols)};
  const Index bs[] = {StrideOf(p.b, d.b.batch), StrideOf(p.b, d.b.rows), StrideOf(p.b, d.b.cols)};
  T* c = reinterpret_cast<T*>(*p.c.data());
  const T* a = reinterpret_cast<const T*>(*p.a.data());
  const T* b = reinterpret_cast<const T*>(*p.b.data());
  const Acc alpha_acc = ScalarOf<T>(alpha), beta_acc = ScalarOf<T>(beta);
  std::vector<Acc> row(cols);
  for (Index o = 0; o < batches; ++o) {
    const Index first = sum ? 0 : o, last = sum ? ExtentOf(p.a, d.a.batch) : o + 1;
    for (Index i = 0; i < n; ++i) {
      std::fill(row.begin(), row.end(), Acc{0});
      for (Index m = first; m < last; ++m) {
        for (Index q = 0; q < k; ++q) {
          const Acc factor = ToProductSum(a[m * as[0] + i * as[1] + q * as[2]]);
          const T* b_row = b + m * bs[0] + q * bs[1];
          for (Index j = 0; j < cols; ++j) row[j] += factor * ToProductSum(b_row[j * bs[2]]);
        }
      }
      T* c_row = c + o * cs[0] + i * cs[1];
      for (Index j = 0; j < cols; ++j) {
        Acc value = alpha_acc * row[j];
        if (beta != 0) value += beta_acc * ToProductSum(c_row[j * cs[2]]);
        c_row[j * cs[2]] = static_cast<T>(value);
      }
    }
  }
}

}  // namespace

bool KernelCanWrite(ProductKind kind, const Tensor& out) {
  if (out.dtype() != DType::kFloat32 && out.dtype() != DType::kFloat64) return true;
  return DescribeDestination(out, DimsOf(kind).c).has_value();
}

absl::Status ProductKernel(ProductKind kind, const Tensor& target, double beta, const Tensor& add,
                           double alpha, const Tensor& lhs, const Tensor& rhs,
                           Allocator& allocator) {
  const ProductOperands p{target, lhs, rhs, DimsOf(kind)};
  const bool sum = kind == ProductKind::kBatchSum;
  return DispatchDType(target.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      switch (kind) {
        case ProductKind::kVector: return BlasVector<T>(p, beta, add, alpha, allocator);
        case ProductKind::kOuter: return BlasOuter<T>(p, beta, add, alpha, allocator);
        default: return BlasMatrices<T>(sum, p, beta, add, alpha, allocator);
      }
    } else if constexpr (std::is_same_v<T, bool>) {
      return absl::InvalidArgumentError("matrix products are not defined for bool tensors");
    } else {
      if (absl::Status s = LoadAddend(target, beta, add, false); !s.ok()) return s;
      LoopMatrices<T>(sum, p, beta, alpha);
      return absl::OkStatus();
    }
  });
}

}  // namespace tensor::internal
