#include "tensor/internal/blas_matrix.h"

#include <algorithm>
#include <climits>

#include "tensor/convert.h"

namespace tensor::internal {
namespace {

Index ExtentOf(const Tensor& tensor, int dim) { return dim < 0 ? 1 : tensor.shape()[dim]; }

// The transpose flag and leading dimension of the matrices, if BLAS can
// take them as they are.
std::optional<BlasMatrix> DescribeInPlace(const Tensor& tensor, MatrixDims dims) {
  const Index rows = ExtentOf(tensor, dims.rows), cols = ExtentOf(tensor, dims.cols);
  const Strides& strides = tensor.layout().strides();
  // The stride of an extent-1 dimension is never followed, so any value
  // BLAS accepts will do.
  const Index row_stride = rows == 1 ? std::max<Index>(cols, 1) : strides[dims.rows];
  const Index col_stride = cols == 1 ? 1 : strides[dims.cols];
  BlasMatrix blas;
  if (col_stride == 1 && row_stride >= std::max<Index>(cols, 1) && row_stride <= INT_MAX) {
    blas.leading = static_cast<int>(row_stride);
  } else if (row_stride == 1 && col_stride >= std::max<Index>(rows, 1) && col_stride <= INT_MAX) {
    blas.transpose = CblasTrans;
    blas.leading = static_cast<int>(col_stride);
  } else {
    return std::nullopt;
  }
  blas.batch_stride = dims.batch < 0 ? 0 : strides[dims.batch];
  blas.data = *tensor.data();
  return blas;
}

}  // namespace

absl::StatusOr<BlasMatrix> DescribeMatrices(const Tensor& tensor, MatrixDims dims,
                                            Allocator& allocator, Tensor* keep) {
  if (std::optional<BlasMatrix> blas = DescribeInPlace(tensor, dims)) return *blas;
  absl::StatusOr<Tensor> compact = Clone(tensor, allocator);
  if (!compact.ok()) return compact.status();
  *keep = *std::move(compact);
  return *DescribeInPlace(*keep, dims);  // row-major, so always expressible
}

std::optional<BlasMatrix> DescribeDestination(const Tensor& tensor, MatrixDims dims) {
  return DescribeInPlace(tensor, dims);
}

}  // namespace tensor::internal
