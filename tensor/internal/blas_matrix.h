// How strided matrices are handed to BLAS without copies.
//
// BLAS takes a row-major matrix as a pointer, a leading dimension (the row
// stride) and a transpose flag. So a matrix with unit column stride is
// passed as it is, and one with unit row stride (a transposed view) as the
// transpose of a row-major matrix. Only layouts BLAS cannot express (stride
// 0, negative or gapped inner strides) are compacted into a copy.
//
// Example:
//   Tensor keep;
//   absl::StatusOr<BlasMatrix> a = DescribeMatrices(lhs, {}, allocator, &keep);
//   cblas_dgemm(CblasRowMajor, a->transpose, ..., a->data, a->leading, ...);
#ifndef TENSOR_INTERNAL_BLAS_MATRIX_H_
#define TENSOR_INTERNAL_BLAS_MATRIX_H_

#include <cstddef>
#include <optional>

#include <cblas.h>

#include "absl/status/statusor.h"
#include "tensor/allocator.h"
#include "tensor/tensor.h"

namespace tensor::internal {

// Which dimensions of a tensor hold the batch, the rows and the columns of
// its matrices; -1 for one that is absent (extent 1). A vector (n) is the
// column {-1, 0, -1} or the row {-1, -1, 0}; a matrix is {-1, 0, 1}.
struct MatrixDims {
  int batch = -1, rows = 0, cols = 1;
};

// One matrix, or a batch of equally laid out matrices, as BLAS sees it.
struct BlasMatrix {
  CBLAS_TRANSPOSE transpose = CblasNoTrans;
  int leading = 1;         // lda: elements between rows of the stored matrix
  Index batch_stride = 0;  // elements between the matrices of a batch
  std::byte* data = nullptr;
};

// Describes the matrices `dims` picks out of `tensor` without copying when
// BLAS can take their layout, else as a compacted copy from `allocator`,
// which is put in *keep (so the description is valid while *keep lives).
// REQUIRES: a valid CPU tensor with at least one element, extents that fit
// in int.
absl::StatusOr<BlasMatrix> DescribeMatrices(const Tensor& tensor, MatrixDims dims,
                                            Allocator& allocator, Tensor* keep);

// Describes them for BLAS to write into, or nothing if BLAS cannot express
// their layout. Never copies.
// REQUIRES: as DescribeMatrices.
std::optional<BlasMatrix> DescribeDestination(const Tensor& tensor, MatrixDims dims);

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_BLAS_MATRIX_H_
