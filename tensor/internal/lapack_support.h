// What the LAPACK operations (tensor/lapack.h) share: argument checks, the
// column-major work matrices LAPACK computes in, workspace buffers and the
// reading of LAPACK's `info`.
#ifndef TENSOR_INTERNAL_LAPACK_SUPPORT_H_
#define TENSOR_INTERNAL_LAPACK_SUPPORT_H_

#include <type_traits>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor::internal {

// Fails unless `matrix`, called `name` in the errors of `operation`, is a
// valid CPU float32 or float64 tensor of rank 2 whose extents are at least
// 1 and fit LAPACK's int.
absl::Status CheckLapackMatrix(const Tensor& matrix, const char* operation, const char* name);

// CheckLapackMatrix, and square.
absl::Status CheckSquareMatrix(const Tensor& matrix, const char* operation, const char* name);

// The right-hand side `b` of A X = B as a matrix (a vector is one column).
// Fails unless it is a valid tensor of rank 1 or 2 with `a`'s dtype and row
// count, not empty. REQUIRES: `a` passed CheckLapackMatrix.
absl::StatusOr<Tensor> RightHandSide(const Tensor& b, const Tensor& a, const char* operation,
                                     const char* b_name = "B", const char* a_name = "A");

// A matrix in column-major order with leading dimension `rows`, as LAPACK
// takes one. `view` is the rows x cols tensor over it (strides {1, rows}):
// cloning it gives the row-major result.
struct FortranMatrix {
  Tensor view;
  int rows = 0;
  int cols = 0;

  template <typename T>
  T* data() const {
    return reinterpret_cast<T*>(*view.data());
  }
};

// A new zero-filled one.
absl::StatusOr<FortranMatrix> NewFortranMatrix(DType dtype, Index rows, Index cols,
                                               Allocator& allocator);

// A new one holding `matrix` in its first rows; `rows` (at least the
// matrix's, which is the default) adds rows of zeros below.
absl::StatusOr<FortranMatrix> FortranCopy(const Tensor& matrix, Allocator& allocator,
                                          Index rows = 0);

// Fails if an element is NaN or infinite: the iterative routines (eigen-
// and singular values) may then fail to converge or return garbage.
absl::Status CheckFinite(const FortranMatrix& matrix, const char* operation, const char* name);

// A new rank-1 buffer of `count` (at least 1) elements.
absl::StatusOr<Tensor> NewBuffer(DType dtype, Index count, Allocator& allocator);

// The workspace size a query (lwork = -1) answered in `work[0]`, rounded
// up; fails if it does not fit LAPACK's int.
absl::StatusOr<int> QueriedWorkspace(double answer, const char* operation);

// The elements of a buffer from NewBuffer.
template <typename T>
T* DataOf(const Tensor& buffer) {
  return reinterpret_cast<T*>(*buffer.data());
}

// Runs `routine(work, lwork)` twice: as a workspace query (lwork = -1),
// then with a workspace of the size it asked for. Returns LAPACK's info.
template <typename T, typename Routine>
absl::StatusOr<int> WithWorkspace(const char* operation, DType dtype, Allocator& allocator,
                                  Routine routine) {
  T answer = 0;
  if (const int info = routine(&answer, -1); info != 0) return info;
  absl::StatusOr<int> lwork = QueriedWorkspace(answer, operation);
  if (!lwork.ok()) return lwork.status();
  absl::StatusOr<Tensor> work = NewBuffer(dtype, *lwork, allocator);
  if (!work.ok()) return work.status();
  return routine(DataOf<T>(*work), *lwork);
}

// The error for info < 0: an argument LAPACK found illegal, which the
// checks before the call should have made impossible.
absl::Status IllegalArgument(const char* operation, const char* routine, int info);

// Sets the triangle strictly opposite the kept one (the upper if
// `keep_upper`) of the n x n column-major `data` to zero (`mirror` false)
// or to the transpose of the kept one (true).
template <typename T>
void FillOtherTriangle(T* data, int n, bool keep_upper, bool mirror) {
  for (Index j = 0; j < n; ++j) {
    for (Index i = 0; i < n; ++i) {
      const bool other = keep_upper ? i > j : i < j;
      if (other) data[i + j * n] = mirror ? data[j + i * n] : T{0};
    }
  }
}

// Calls f(T{}) with T float for float32 and double otherwise.
// REQUIRES: `dtype` passed CheckLapackMatrix.
template <typename F>
auto DispatchLapack(DType dtype, F&& f) {
  if (dtype == DType::kFloat32) return f(float{});
  return f(double{});
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_LAPACK_SUPPORT_H_
