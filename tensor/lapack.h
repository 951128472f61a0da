// Linear algebra through LAPACK (OpenBLAS): solving systems, inverses,
// Cholesky, eigen-, singular value and QR decompositions. The functions
// and their conventions are Torch7's (torch.gesv, torch.symeig, ...).
//
// float32 and float64 only; other dtypes are an error naming the type.
// Inputs are never modified: each is copied into the column-major buffer
// LAPACK works in (any layout, transposed or reversed views included), and
// every result is a new owned row-major tensor from `allocator`.
//
// Every check runs before LAPACK does: ranks, shapes, dtypes, validity,
// empty matrices, extents beyond LAPACK's 32-bit int, and for symeig, eig
// and svd NaN or infinite elements (on which their iterations may fail or
// return garbage; the direct solvers just carry NaN into the result).
// Numeric failures are errors too: a singular matrix, one that is not
// positive definite, an exactly rank-deficient one for gels, an eigen- or
// singular value iteration that does not converge.
//
// "A" is the matrix of coefficients, "B" the right-hand side: a matrix, or
// a vector taken as one column (the solution then has one column, as in
// Torch7).
//
// Example:
//   absl::StatusOr<LuSolution> x = Gesv(b, a);  // a . x->solution = b
//   absl::StatusOr<Tensor> inverse = Inverse(a);
#ifndef TENSOR_LAPACK_H_
#define TENSOR_LAPACK_H_

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor {

// Which triangle of a square matrix is read or written.
enum class Triangle { kUpper, kLower };

struct LuSolution {
  Tensor solution;  // n x k: A X = B
  Tensor lu;        // n x n: the unit lower L below the diagonal, U on and above
};

// gesv: solves A X = B for square A (n x n) and B (n x k or n).
absl::StatusOr<LuSolution> Gesv(const Tensor& b, const Tensor& a,
                                Allocator& allocator = CpuAllocator());

struct TriangularSystem {
  Triangle triangle = Triangle::kUpper;  // the only part of A that is read
  bool transpose = false;                // solve A^T X = B
  bool unit_diagonal = false;            // take A's diagonal to be ones
};

// trtrs: solves the triangular system A X = B (or A^T X = B).
absl::StatusOr<Tensor> Trtrs(const Tensor& b, const Tensor& a, TriangularSystem system = {},
                             Allocator& allocator = CpuAllocator());

struct LeastSquares {
  // max(m, n) x k. For m >= n: rows 1..n hold the X minimising ||A X - B||,
  // and the norm of each column's rows n+1..m is that column's residual.
  // For m < n: the X of least norm with A X = B.
  Tensor solution;
  Tensor factored;  // m x n: A's QR (m >= n) or LQ (m < n) factors, as LAPACK left them
};

// gels: least squares (or least norm) for A (m x n) of full rank.
absl::StatusOr<LeastSquares> Gels(const Tensor& b, const Tensor& a,
                                  Allocator& allocator = CpuAllocator());

// The inverse of a square, non-singular matrix.
absl::StatusOr<Tensor> Inverse(const Tensor& a, Allocator& allocator = CpuAllocator());

// potrf: the Cholesky factor of a symmetric positive definite A, reading
// only `triangle` of A: U with A = U^T U (kUpper) or L with A = L L^T
// (kLower). The other triangle of the result is zero.
absl::StatusOr<Tensor> Potrf(const Tensor& a, Triangle triangle = Triangle::kUpper,
                             Allocator& allocator = CpuAllocator());

// pstrf: the Cholesky factorisation with complete pivoting of a symmetric
// positive semidefinite A, reading only `triangle` of A: U and the
// permutation P with P^T A P = U^T U (kUpper), or L with P^T A P = L L^T
// (kLower). pivots (int32, n) is P as LAPACK gives it: P[pivots[k], k] = 1,
// 1-based. A whose rank LAPACK finds below n (within `tolerance`; < 0:
// LAPACK's default, n * eps * max of the diagonal) is an error, as Torch7
// makes it.
struct PivotedCholesky {
  Tensor factor;
  Tensor pivots;
};
absl::StatusOr<PivotedCholesky> Pstrf(const Tensor& a, Triangle triangle = Triangle::kUpper,
                                      double tolerance = -1,
                                      Allocator& allocator = CpuAllocator());

// potrs: solves A X = B given A's Cholesky factor `chol` as potrf makes it.
absl::StatusOr<Tensor> Potrs(const Tensor& b, const Tensor& chol,
                             Triangle triangle = Triangle::kUpper,
                             Allocator& allocator = CpuAllocator());

// potri: the inverse of A (in full, symmetric) given its Cholesky factor.
absl::StatusOr<Tensor> Potri(const Tensor& chol, Triangle triangle = Triangle::kUpper,
                             Allocator& allocator = CpuAllocator());

struct Eigensystem {
  // symeig: n eigenvalues in ascending order. eig: n x 2, the real and
  // imaginary parts, in LAPACK's order (a complex pair is adjacent, the
  // one with positive imaginary part first).
  Tensor values;
  // n x n, column j the eigenvector of value j; an empty tensor unless
  // vectors were asked for. For eig, a complex pair j, j+1 has vectors
  // column j +- i column j+1 (LAPACK's convention).
  Tensor vectors;
};

// symeig: eigenvalues (and vectors) of the symmetric matrix whose
// `triangle` A holds; A = V diag(e) V^T with V orthogonal.
absl::StatusOr<Eigensystem> Symeig(const Tensor& a, bool vectors = false,
                                   Triangle triangle = Triangle::kUpper,
                                   Allocator& allocator = CpuAllocator());

// eig: eigenvalues (and right eigenvectors) of a general square matrix;
// A V = V diag(e) for the real eigenvalues.
absl::StatusOr<Eigensystem> Eig(const Tensor& a, bool vectors = false,
                                Allocator& allocator = CpuAllocator());

struct SvdFactors {
  Tensor u;  // m x p: orthonormal columns
  Tensor s;  // p: the singular values, descending
  Tensor v;  // n x q: orthonormal columns; A = U diag(S) V^T
};

// svd: the singular value decomposition of A (m x n). Reduced
// (`all` false, Torch's 'S'): p = q = min(m, n). Full ('A'): U is m x m
// and V is n x n, and only their first min(m, n) columns meet S.
absl::StatusOr<SvdFactors> Svd(const Tensor& a, bool all = false,
                               Allocator& allocator = CpuAllocator());

struct QrFactors {
  Tensor q;  // m x k, orthonormal columns, k = min(m, n)
  Tensor r;  // k x n, upper triangular; A = Q R
};

// qr: the reduced QR decomposition of A (m x n).
absl::StatusOr<QrFactors> Qr(const Tensor& a, Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_LAPACK_H_
