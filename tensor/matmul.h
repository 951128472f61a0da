// Matrix product.
//
// float32 and float64 go to OpenBLAS (cblas_sgemm / cblas_dgemm). A
// transposed or narrowed operand is passed as a BLAS transpose flag and
// leading dimension, not copied; only layouts BLAS cannot express (stride 0,
// negative or non-unit inner strides) are compacted first. float16 and
// bfloat16 go through float32. Integer types use a plain loop that
// accumulates in 64 bits and wraps to the result type.
//
// Example:
//   absl::StatusOr<Tensor> y = MatMul(weights, x);  // (m x k) . (k x n)
#ifndef TENSOR_MATMUL_H_
#define TENSOR_MATMUL_H_

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor {

// A new owned m x n tensor of the operands' dtype, its storage from
// `allocator`. Fails unless both are rank 2 with matching inner extents and
// equal dtypes, or for bool.
absl::StatusOr<Tensor> MatMul(const Tensor& lhs, const Tensor& rhs,
                              Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_MATMUL_H_
