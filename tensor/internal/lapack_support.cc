#include "tensor/internal/lapack_support.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/internal/copy.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/work_meter.h"

namespace tensor::internal {
namespace {

absl::Status CheckRank(const Tensor& matrix, const char* operation, const char* name,
                       int lowest_rank) {
  if (matrix.rank() == 2 || matrix.rank() == lowest_rank) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      operation, ": ", name, " must be ", lowest_rank == 1 ? "a vector or a matrix" : "a matrix",
      ", got shape ", matrix.layout().ShapeString()));
}

absl::Status CheckExtents(const Tensor& matrix, const char* operation, const char* name) {
  for (const Index extent : matrix.shape()) {
    if (extent == 0) {
      return absl::InvalidArgumentError(absl::StrCat(operation, ": ", name, " is empty (shape ",
                                                     matrix.layout().ShapeString(), ")"));
    }
    if (extent > INT_MAX) {
      return absl::InvalidArgumentError(absl::StrCat(operation, ": ", name, " has extent ", extent,
                                                     ", more than LAPACK's int can hold"));
    }
  }
  return absl::OkStatus();
}

template <typename T>
bool AllFinite(const T* data, Index count) {
  for (Index i = 0; i < count; ++i) {
    if (!std::isfinite(data[i])) return false;
  }
  return true;
}

}  // namespace

absl::Status CheckLapackMatrix(const Tensor& matrix, const char* operation, const char* name) {
  if (absl::StatusOr<std::byte*> d = CpuData(matrix, operation); !d.ok()) return d.status();
  if (matrix.dtype() != DType::kFloat32 && matrix.dtype() != DType::kFloat64) {
    return absl::InvalidArgumentError(
        absl::StrCat(operation, ": not defined for ", DTypeTensorName(matrix.dtype()),
                     " (only FloatTensor and DoubleTensor)"));
  }
  if (absl::Status s = CheckRank(matrix, operation, name, 2); !s.ok()) return s;
  return CheckExtents(matrix, operation, name);
}

absl::Status CheckSquareMatrix(const Tensor& matrix, const char* operation, const char* name) {
  if (absl::Status s = CheckLapackMatrix(matrix, operation, name); !s.ok()) return s;
  if (matrix.shape()[0] != matrix.shape()[1]) {
    return absl::InvalidArgumentError(absl::StrCat(operation, ": ", name,
                                                   " must be square, got shape ",
                                                   matrix.layout().ShapeString()));
  }
  return absl::OkStatus();
}

absl::StatusOr<Tensor> RightHandSide(const Tensor& b, const Tensor& a, const char* operation,
                                     const char* b_name, const char* a_name) {
  if (absl::StatusOr<std::byte*> d = CpuData(b, operation); !d.ok()) return d.status();
  if (b.dtype() != a.dtype()) {
    return absl::InvalidArgumentError(absl::StrCat(operation, ": ", b_name, " is ",
                                                   DTypeTensorName(b.dtype()), " and ", a_name,
                                                   " is ", DTypeTensorName(a.dtype()),
                                                   "; they must have the same type"));
  }
  if (absl::Status s = CheckRank(b, operation, b_name, 1); !s.ok()) return s;
  if (absl::Status s = CheckExtents(b, operation, b_name); !s.ok()) return s;
  if (b.shape()[0] != a.shape()[0]) {
    return absl::InvalidArgumentError(absl::StrCat(
        operation, ": ", b_name, " has ", b.shape()[0], " rows and ", a_name, " has ",
        a.shape()[0], " (shapes ", b.layout().ShapeString(), " and ", a.layout().ShapeString(),
        "); they must match"));
  }
  if (b.rank() == 1) return b.Unsqueeze(1);
  return b;
}

absl::StatusOr<FortranMatrix> NewFortranMatrix(DType dtype, Index rows, Index cols,
                                               Allocator& allocator) {
  // Row-major cols x rows storage is column-major rows x cols.
  absl::StatusOr<Tensor> storage = Tensor::Zeros(dtype, {cols, rows}, allocator);
  if (!storage.ok()) return storage.status();
  absl::StatusOr<Tensor> view = storage->Transpose(0, 1);
  if (!view.ok()) return view.status();
  return FortranMatrix{*std::move(view), static_cast<int>(rows), static_cast<int>(cols)};
}

absl::StatusOr<FortranMatrix> FortranCopy(const Tensor& matrix, Allocator& allocator,
                                          Index rows) {
  // Every LAPACK routine here costs about rows * columns * min(rows,
  // columns) operations on the copy it works in.
  const Index m = std::max(rows, matrix.shape()[0]), n = matrix.shape()[1];
  if (absl::Status s = ChargeWork(ProductOfWork(m, n, std::min(m, n))); !s.ok()) {
    return absl::ResourceExhaustedError(s.message());
  }
  absl::StatusOr<FortranMatrix> copy = NewFortranMatrix(
      matrix.dtype(), std::max(rows, matrix.shape()[0]), matrix.shape()[1], allocator);
  if (!copy.ok()) return copy.status();
  absl::StatusOr<Tensor> top = copy->view.Narrow(0, 0, matrix.shape()[0]);
  if (!top.ok()) return top.status();
  if (absl::Status s = CopyElements(*top, matrix); !s.ok()) return s;
  return copy;
}

absl::Status CheckFinite(const FortranMatrix& matrix, const char* operation, const char* name) {
  const Index count = Index{matrix.rows} * matrix.cols;
  const bool finite = DispatchLapack(matrix.view.dtype(), [&](auto zero) {
    return AllFinite(matrix.data<decltype(zero)>(), count);
  });
  if (finite) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": ", name, " has an element that is NaN or infinite"));
}

absl::StatusOr<Tensor> NewBuffer(DType dtype, Index count, Allocator& allocator) {
  return Tensor::Uninitialized(dtype, {std::max<Index>(count, 1)}, allocator);
}

absl::StatusOr<int> QueriedWorkspace(double answer, const char* operation) {
  const double size = std::ceil(answer);
  if (!(size <= INT_MAX)) {
    return absl::ResourceExhaustedError(absl::StrCat(
        operation, ": LAPACK asks for a workspace of ", size, " elements, more than its int holds"));
  }
  return std::max(1, static_cast<int>(size));
}

absl::Status IllegalArgument(const char* operation, const char* routine, int info) {
  return absl::InternalError(absl::StrCat(operation, ": LAPACK's ", routine, " rejected argument ",
                                          -info, " (a bug in the checks before the call)"));
}

}  // namespace tensor::internal
