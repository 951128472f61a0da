// Linear systems and inverses: gesv, trtrs, gels, inverse, potrf, pstrf, potrs,
// potri. See lapack.h.
#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/convert.h"
#include "tensor/internal/lapack_prototypes.h"
#include "tensor/internal/lapack_support.h"
#include "tensor/lapack.h"

namespace tensor {
namespace {

using internal::DataOf;
using internal::DispatchLapack;
using internal::FillOtherTriangle;
using internal::FortranCopy;
using internal::FortranMatrix;
using internal::IllegalArgument;
using internal::NewBuffer;
using internal::WithWorkspace;

// The error for a zero pivot or diagonal element `info` (1-based) of the
// triangular `factor`.
absl::Status Singular(const char* operation, const char* factor, int info) {
  return absl::InvalidArgumentError(absl::StrCat(operation, ": the matrix is singular (", factor,
                                                 "(", info, ",", info, ") is exactly zero)"));
}

char UploChar(Triangle triangle) { return triangle == Triangle::kUpper ? 'U' : 'L'; }

template <typename T>
absl::StatusOr<LuSolution> GesvOf(const Tensor& b, const Tensor& a, Allocator& allocator) {
  absl::StatusOr<FortranMatrix> lu = FortranCopy(a, allocator);
  if (!lu.ok()) return lu.status();
  absl::StatusOr<FortranMatrix> x = FortranCopy(b, allocator);
  if (!x.ok()) return x.status();
  absl::StatusOr<Tensor> pivots = NewBuffer(DType::kInt32, lu->rows, allocator);
  if (!pivots.ok()) return pivots.status();
  const int n = lu->rows;
  const int info = internal::lapack::Gesv<T>(n, x->cols, lu->data<T>(), n,
                                             DataOf<int>(*pivots),
                                             x->data<T>(), n);
  if (info < 0) return IllegalArgument("gesv", "gesv", info);
  if (info > 0) return Singular("gesv", "U", info);
  absl::StatusOr<Tensor> solution = Clone(x->view, allocator);
  if (!solution.ok()) return solution.status();
  absl::StatusOr<Tensor> factors = Clone(lu->view, allocator);
  if (!factors.ok()) return factors.status();
  return LuSolution{*std::move(solution), *std::move(factors)};
}

template <typename T>
absl::StatusOr<Tensor> TrtrsOf(const Tensor& b, const Tensor& a, TriangularSystem system,
                               Allocator& allocator) {
  absl::StatusOr<FortranMatrix> triangular = FortranCopy(a, allocator);
  if (!triangular.ok()) return triangular.status();
  absl::StatusOr<FortranMatrix> x = FortranCopy(b, allocator);
  if (!x.ok()) return x.status();
  const int n = triangular->rows;
  const int info = internal::lapack::Trtrs<T>(
      UploChar(system.triangle), system.transpose ? 'T' : 'N', system.unit_diagonal ? 'U' : 'N',
      n, x->cols, triangular->data<T>(), n, x->data<T>(), n);
  if (info < 0) return IllegalArgument("trtrs", "trtrs", info);
  if (info > 0) return Singular("trtrs", "A", info);
  return Clone(x->view, allocator);
}

template <typename T>
absl::StatusOr<LeastSquares> GelsOf(const Tensor& b, const Tensor& a, Allocator& allocator) {
  const Index m = a.shape()[0], n = a.shape()[1];
  absl::StatusOr<FortranMatrix> factored = FortranCopy(a, allocator);
  if (!factored.ok()) return factored.status();
  // LAPACK returns the n rows of X where B's m rows were: the buffer needs
  // max(m, n) rows.
  absl::StatusOr<FortranMatrix> x = FortranCopy(b, allocator, std::max(m, n));
  if (!x.ok()) return x.status();
  absl::StatusOr<int> info = WithWorkspace<T>("gels", a.dtype(), allocator, [&](T* w, int lw) {
    return internal::lapack::Gels<T>(factored->rows, factored->cols, x->cols,
                                     factored->data<T>(), factored->rows, x->data<T>(), x->rows,
                                     w, lw);
  });
  if (!info.ok()) return info.status();
  if (*info < 0) return IllegalArgument("gels", "gels", *info);
  if (*info > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("gels: A does not have full rank (element (", *info, ",", *info,
                     ") of its triangular factor is exactly zero)"));
  }
  absl::StatusOr<Tensor> solution = Clone(x->view, allocator);
  if (!solution.ok()) return solution.status();
  absl::StatusOr<Tensor> factors = Clone(factored->view, allocator);
  if (!factors.ok()) return factors.status();
  return LeastSquares{*std::move(solution), *std::move(factors)};
}

template <typename T>
absl::StatusOr<Tensor> InverseOf(const Tensor& a, Allocator& allocator) {
  absl::StatusOr<FortranMatrix> inverse = FortranCopy(a, allocator);
  if (!inverse.ok()) return inverse.status();
  const int n = inverse->rows;
  absl::StatusOr<Tensor> pivots = NewBuffer(DType::kInt32, n, allocator);
  if (!pivots.ok()) return pivots.status();
  int* pivot_data = DataOf<int>(*pivots);
  const int info = internal::lapack::Getrf<T>(n, n, inverse->data<T>(), n, pivot_data);
  if (info < 0) return IllegalArgument("inverse", "getrf", info);
  if (info > 0) return Singular("inverse", "U", info);
  absl::StatusOr<int> inverted =
      WithWorkspace<T>("inverse", a.dtype(), allocator, [&](T* w, int lw) {
        return internal::lapack::Getri<T>(n, inverse->data<T>(), n, pivot_data, w, lw);
      });
  if (!inverted.ok()) return inverted.status();
  if (*inverted < 0) return IllegalArgument("inverse", "getri", *inverted);
  if (*inverted > 0) return Singular("inverse", "U", *inverted);
  return Clone(inverse->view, allocator);
}

template <typename T>
absl::StatusOr<Tensor> PotrfOf(const Tensor& a, Triangle triangle, Allocator& allocator) {
  absl::StatusOr<FortranMatrix> factor = FortranCopy(a, allocator);
  if (!factor.ok()) return factor.status();
  const int n = factor->rows;
  const int info = internal::lapack::Potrf<T>(UploChar(triangle), n, factor->data<T>(), n);
  if (info < 0) return IllegalArgument("potrf", "potrf", info);
  if (info > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("potrf: the matrix is not positive definite (its leading minor of order ",
                     info, " is not)"));
  }
  // LAPACK leaves A's values in the triangle it did not use.
  FillOtherTriangle(factor->data<T>(), n, triangle == Triangle::kUpper, /*mirror=*/false);
  return Clone(factor->view, allocator);
}

template <typename T>
absl::StatusOr<PivotedCholesky> PstrfOf(const Tensor& a, Triangle triangle, double tolerance,
                                        Allocator& allocator) {
  absl::StatusOr<FortranMatrix> factor = FortranCopy(a, allocator);
  if (!factor.ok()) return factor.status();
  const int n = factor->rows;
  absl::StatusOr<Tensor> pivots = NewBuffer(DType::kInt32, n, allocator);
  if (!pivots.ok()) return pivots.status();
  absl::StatusOr<Tensor> work = NewBuffer(a.dtype(), 2 * static_cast<Index>(n), allocator);
  if (!work.ok()) return work.status();
  int rank = 0;
  const int info =
      internal::lapack::Pstrf<T>(UploChar(triangle), n, factor->data<T>(), n, DataOf<int>(*pivots),
                                 &rank, static_cast<T>(tolerance), DataOf<T>(*work));
  if (info < 0) return IllegalArgument("pstrf", "pstrf", info);
  if (info > 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "pstrf: the matrix is not positive definite (its rank is ", rank, ", not ", n, ")"));
  }
  FillOtherTriangle(factor->data<T>(), n, triangle == Triangle::kUpper, /*mirror=*/false);
  absl::StatusOr<Tensor> result = Clone(factor->view, allocator);
  if (!result.ok()) return result.status();
  return PivotedCholesky{*std::move(result), *std::move(pivots)};
}

// The first zero on the diagonal of the n x n column-major `data`,
// 1-based, or 0 if there is none.
template <typename T>
int ZeroOnDiagonal(const T* data, int n) {
  for (int i = 0; i < n; ++i) {
    if (data[i + Index{i} * n] == T{0}) return i + 1;
  }
  return 0;
}

template <typename T>
absl::StatusOr<Tensor> PotrsOf(const Tensor& b, const Tensor& chol, Triangle triangle,
                               Allocator& allocator) {
  absl::StatusOr<FortranMatrix> factor = FortranCopy(chol, allocator);
  if (!factor.ok()) return factor.status();
  const int n = factor->rows;
  // potrs divides by the diagonal without looking: a zero would give
  // infinities, not an error.
  if (const int zero = ZeroOnDiagonal(factor->data<T>(), n); zero > 0) {
    return Singular("potrs", "chol", zero);
  }
  absl::StatusOr<FortranMatrix> x = FortranCopy(b, allocator);
  if (!x.ok()) return x.status();
  const int info = internal::lapack::Potrs<T>(UploChar(triangle), n, x->cols, factor->data<T>(),
                                              n, x->data<T>(), n);
  if (info < 0) return IllegalArgument("potrs", "potrs", info);
  return Clone(x->view, allocator);
}

template <typename T>
absl::StatusOr<Tensor> PotriOf(const Tensor& chol, Triangle triangle, Allocator& allocator) {
  absl::StatusOr<FortranMatrix> inverse = FortranCopy(chol, allocator);
  if (!inverse.ok()) return inverse.status();
  const int n = inverse->rows;
  const int info = internal::lapack::Potri<T>(UploChar(triangle), n, inverse->data<T>(), n);
  if (info < 0) return IllegalArgument("potri", "potri", info);
  if (info > 0) return Singular("potri", "chol", info);
  // LAPACK computes one triangle of the symmetric inverse.
  FillOtherTriangle(inverse->data<T>(), n, triangle == Triangle::kUpper, /*mirror=*/true);
  return Clone(inverse->view, allocator);
}

}  // namespace

absl::StatusOr<LuSolution> Gesv(const Tensor& b, const Tensor& a, Allocator& allocator) {
  if (absl::Status s = internal::CheckSquareMatrix(a, "gesv", "A"); !s.ok()) return s;
  absl::StatusOr<Tensor> rhs = internal::RightHandSide(b, a, "gesv");
  if (!rhs.ok()) return rhs.status();
  return DispatchLapack(a.dtype(), [&](auto zero) {
    return GesvOf<decltype(zero)>(*rhs, a, allocator);
  });
}

absl::StatusOr<Tensor> Trtrs(const Tensor& b, const Tensor& a, TriangularSystem system,
                             Allocator& allocator) {
  if (absl::Status s = internal::CheckSquareMatrix(a, "trtrs", "A"); !s.ok()) return s;
  absl::StatusOr<Tensor> rhs = internal::RightHandSide(b, a, "trtrs");
  if (!rhs.ok()) return rhs.status();
  return DispatchLapack(a.dtype(), [&](auto zero) {
    return TrtrsOf<decltype(zero)>(*rhs, a, system, allocator);
  });
}

absl::StatusOr<LeastSquares> Gels(const Tensor& b, const Tensor& a, Allocator& allocator) {
  if (absl::Status s = internal::CheckLapackMatrix(a, "gels", "A"); !s.ok()) return s;
  absl::StatusOr<Tensor> rhs = internal::RightHandSide(b, a, "gels");
  if (!rhs.ok()) return rhs.status();
  return DispatchLapack(a.dtype(), [&](auto zero) {
    return GelsOf<decltype(zero)>(*rhs, a, allocator);
  });
}

absl::StatusOr<Tensor> Inverse(const Tensor& a, Allocator& allocator) {
  if (absl::Status s = internal::CheckSquareMatrix(a, "inverse", "the matrix"); !s.ok()) {
    return s;
  }
  return DispatchLapack(a.dtype(), [&](auto zero) {
    return InverseOf<decltype(zero)>(a, allocator);
  });
}

absl::StatusOr<Tensor> Potrf(const Tensor& a, Triangle triangle, Allocator& allocator) {
  if (absl::Status s = internal::CheckSquareMatrix(a, "potrf", "A"); !s.ok()) return s;
  return DispatchLapack(a.dtype(), [&](auto zero) {
    return PotrfOf<decltype(zero)>(a, triangle, allocator);
  });
}

absl::StatusOr<PivotedCholesky> Pstrf(const Tensor& a, Triangle triangle, double tolerance,
                                      Allocator& allocator) {
  if (absl::Status s = internal::CheckSquareMatrix(a, "pstrf", "A"); !s.ok()) return s;
  return DispatchLapack(a.dtype(), [&](auto zero) {
    return PstrfOf<decltype(zero)>(a, triangle, tolerance, allocator);
  });
}

absl::StatusOr<Tensor> Potrs(const Tensor& b, const Tensor& chol, Triangle triangle,
                             Allocator& allocator) {
  if (absl::Status s = internal::CheckSquareMatrix(chol, "potrs", "chol"); !s.ok()) return s;
  absl::StatusOr<Tensor> rhs = internal::RightHandSide(b, chol, "potrs", "B", "chol");
  if (!rhs.ok()) return rhs.status();
  return DispatchLapack(chol.dtype(), [&](auto zero) {
    return PotrsOf<decltype(zero)>(*rhs, chol, triangle, allocator);
  });
}

absl::StatusOr<Tensor> Potri(const Tensor& chol, Triangle triangle, Allocator& allocator) {
  if (absl::Status s = internal::CheckSquareMatrix(chol, "potri", "chol"); !s.ok()) return s;
  return DispatchLapack(chol.dtype(), [&](auto zero) {
    return PotriOf<decltype(zero)>(chol, triangle, allocator);
  });
}

}  // namespace tensor
