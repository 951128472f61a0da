// Decompositions: symeig, eig, svd, qr. See lapack.h.
#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/convert.h"
#include "tensor/internal/lapack_prototypes.h"
#include "tensor/internal/lapack_support.h"
#include "tensor/lapack.h"

namespace tensor {
namespace {

using internal::CheckFinite;
using internal::DataOf;
using internal::DispatchLapack;
using internal::FortranCopy;
using internal::FortranMatrix;
using internal::IllegalArgument;
using internal::NewBuffer;
using internal::NewFortranMatrix;
using internal::WithWorkspace;

absl::Status NotConverged(const char* operation, const char* what, int info) {
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": LAPACK's ", what, " did not converge (info ", info, ")"));
}

template <typename T>
absl::StatusOr<Eigensystem> SymeigOf(const Tensor& a, bool vectors, Triangle triangle,
                                     Allocator& allocator) {
  absl::StatusOr<FortranMatrix> work_matrix = FortranCopy(a, allocator);
  if (!work_matrix.ok()) return work_matrix.status();
  const int n = work_matrix->rows;
  // syev reads one triangle; mirroring it first makes the finiteness check
  // ignore the other, as LAPACK does.
  const bool upper = triangle == Triangle::kUpper;
  internal::FillOtherTriangle(work_matrix->data<T>(), n, upper, /*mirror=*/true);
  if (absl::Status s = CheckFinite(*work_matrix, "symeig", "A"); !s.ok()) return s;
  absl::StatusOr<Tensor> values = NewBuffer(a.dtype(), n, allocator);
  if (!values.ok()) return values.status();
  absl::StatusOr<int> info = WithWorkspace<T>("symeig", a.dtype(), allocator, [&](T* w, int lw) {
    return internal::lapack::Syev<T>(vectors ? 'V' : 'N', upper ? 'U' : 'L', n,
                                     work_matrix->data<T>(), n, DataOf<T>(*values), w, lw);
  });
  if (!info.ok()) return info.status();
  if (*info < 0) return IllegalArgument("symeig", "syev", *info);
  if (*info > 0) return NotConverged("symeig", "symmetric eigenvalue iteration (syev)", *info);
  Eigensystem result{*std::move(values), Tensor()};
  if (vectors) {
    absl::StatusOr<Tensor> v = Clone(work_matrix->view, allocator);
    if (!v.ok()) return v.status();
    result.vectors = *std::move(v);
  }
  return result;
}

template <typename T>
absl::StatusOr<Eigensystem> EigOf(const Tensor& a, bool vectors, Allocator& allocator) {
  absl::StatusOr<FortranMatrix> work_matrix = FortranCopy(a, allocator);
  if (!work_matrix.ok()) return work_matrix.status();
  if (absl::Status s = CheckFinite(*work_matrix, "eig", "A"); !s.ok()) return s;
  const int n = work_matrix->rows;
  // Column 1 the real parts, column 2 the imaginary ones: cloned, the
  // n x 2 result.
  absl::StatusOr<FortranMatrix> values = NewFortranMatrix(a.dtype(), n, 2, allocator);
  if (!values.ok()) return values.status();
  FortranMatrix right;
  if (vectors) {
    absl::StatusOr<FortranMatrix> v = NewFortranMatrix(a.dtype(), n, n, allocator);
    if (!v.ok()) return v.status();
    right = *std::move(v);
  }
  T* real = values->data<T>();
  absl::StatusOr<int> info = WithWorkspace<T>("eig", a.dtype(), allocator, [&](T* w, int lw) {
    return internal::lapack::Geev<T>(vectors ? 'V' : 'N', n, work_matrix->data<T>(), n, real,
                                     real + n, vectors ? right.data<T>() : nullptr,
                                     vectors ? n : 1, w, lw);
  });
  if (!info.ok()) return info.status();
  if (*info < 0) return IllegalArgument("eig", "geev", *info);
  if (*info > 0) return NotConverged("eig", "QR iteration for the eigenvalues (geev)", *info);
  absl::StatusOr<Tensor> e = Clone(values->view, allocator);
  if (!e.ok()) return e.status();
  Eigensystem result{*std::move(e), Tensor()};
  if (vectors) {
    absl::StatusOr<Tensor> v = Clone(right.view, allocator);
    if (!v.ok()) return v.status();
    result.vectors = *std::move(v);
  }
  return result;
}

template <typename T>
absl::StatusOr<SvdFactors> SvdOf(const Tensor& a, bool all, Allocator& allocator) {
  absl::StatusOr<FortranMatrix> work_matrix = FortranCopy(a, allocator);
  if (!work_matrix.ok()) return work_matrix.status();
  if (absl::Status s = CheckFinite(*work_matrix, "svd", "A"); !s.ok()) return s;
  const int m = work_matrix->rows, n = work_matrix->cols, p = std::min(m, n);
  absl::StatusOr<Tensor> s = NewBuffer(a.dtype(), p, allocator);
  if (!s.ok()) return s.status();
  absl::StatusOr<FortranMatrix> u = NewFortranMatrix(a.dtype(), m, all ? m : p, allocator);
  if (!u.ok()) return u.status();
  absl::StatusOr<FortranMatrix> vt = NewFortranMatrix(a.dtype(), all ? n : p, n, allocator);
  if (!vt.ok()) return vt.status();
  absl::StatusOr<Tensor> iwork = NewBuffer(DType::kInt32, Index{8} * p, allocator);
  if (!iwork.ok()) return iwork.status();
  absl::StatusOr<int> info = WithWorkspace<T>("svd", a.dtype(), allocator, [&](T* w, int lw) {
    return internal::lapack::Gesdd<T>(all ? 'A' : 'S', m, n, work_matrix->data<T>(), m,
                                      DataOf<T>(*s), u->data<T>(), m, vt->data<T>(), vt->rows,
                                      w, lw, DataOf<int>(*iwork));
  });
  if (!info.ok()) return info.status();
  if (*info < 0) return IllegalArgument("svd", "gesdd", *info);
  if (*info > 0) return NotConverged("svd", "singular value iteration (gesdd)", *info);
  absl::StatusOr<Tensor> u_result = Clone(u->view, allocator);
  if (!u_result.ok()) return u_result.status();
  absl::StatusOr<Tensor> v_view = vt->view.Transpose(0, 1);
  if (!v_view.ok()) return v_view.status();
  absl::StatusOr<Tensor> v_result = Clone(*v_view, allocator);
  if (!v_result.ok()) return v_result.status();
  return SvdFactors{*std::move(u_result), *std::move(s), *std::move(v_result)};
}

template <typename T>
absl::StatusOr<QrFactors> QrOf(const Tensor& a, Allocator& allocator) {
  absl::StatusOr<FortranMatrix> work_matrix = FortranCopy(a, allocator);
  if (!work_matrix.ok()) return work_matrix.status();
  const int m = work_matrix->rows, n = work_matrix->cols, k = std::min(m, n);
  T* data = work_matrix->data<T>();
  absl::StatusOr<Tensor> tau = NewBuffer(a.dtype(), k, allocator);
  if (!tau.ok()) return tau.status();
  absl::StatusOr<int> info = WithWorkspace<T>("qr", a.dtype(), allocator, [&](T* w, int lw) {
    return internal::lapack::Geqrf<T>(m, n, data, m, DataOf<T>(*tau), w, lw);
  });
  if (!info.ok()) return info.status();
  if (*info != 0) return IllegalArgument("qr", "geqrf", *info);
  // R is on and above the diagonal of the first k rows; orgqr then
  // overwrites the first k columns with Q.
  absl::StatusOr<Tensor> r = Tensor::Zeros(a.dtype(), {k, n}, allocator);
  if (!r.ok()) return r.status();
  T* r_data = DataOf<T>(*r);
  for (Index i = 0; i < k; ++i) {
    for (Index j = i; j < n; ++j) r_data[i * n + j] = data[i + j * m];
  }
  info = WithWorkspace<T>("qr", a.dtype(), allocator, [&](T* w, int lw) {
    return internal::lapack::Orgqr<T>(m, k, k, data, m, DataOf<T>(*tau), w, lw);
  });
  if (!info.ok()) return info.status();
  if (*info != 0) return IllegalArgument("qr", "orgqr", *info);
  absl::StatusOr<Tensor> q_view = work_matrix->view.Narrow(1, 0, k);
  if (!q_view.ok()) return q_view.status();
  absl::StatusOr<Tensor> q = Clone(*q_view, allocator);
  if (!q.ok()) return q.status();
  return QrFactors{*std::move(q), *std::move(r)};
}

}  // namespace

absl::StatusOr<Eigensystem> Symeig(const Tensor& a, bool vectors, Triangle triangle,
                                   Allocator& allocator) {
  if (absl::Status s = internal::CheckSquareMatrix(a, "symeig", "A"); !s.ok()) return s;
  return DispatchLapack(a.dtype(), [&](auto zero) {
    return SymeigOf<decltype(zero)>(a, vectors, triangle, allocator);
  });
}

absl::StatusOr<Eigensystem> Eig(const Tensor& a, bool vectors, Allocator& allocator) {
  if (absl::Status s = internal::CheckSquareMatrix(a, "eig", "A"); !s.ok()) return s;
  return DispatchLapack(a.dtype(), [&](auto zero) {
    return EigOf<decltype(zero)>(a, vectors, allocator);
  });
}

absl::StatusOr<SvdFactors> Svd(const Tensor& a, bool all, Allocator& allocator) {
  if (absl::Status s = internal::CheckLapackMatrix(a, "svd", "A"); !s.ok()) return s;
  return DispatchLapack(a.dtype(), [&](auto zero) {
    return SvdOf<decltype(zero)>(a, all, allocator);
  });
}

absl::StatusOr<QrFactors> Qr(const Tensor& a, Allocator& allocator) {
  if (absl::Status s = internal::CheckLapackMatrix(a, "qr", "A"); !s.ok()) return s;
  return DispatchLapack(a.dtype(), [&](auto zero) { return QrOf<decltype(zero)>(a, allocator); });
}

}  // namespace tensor
