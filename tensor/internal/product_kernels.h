// The kernels behind tensor/blas.h, after its checks: OpenBLAS calls for
// float32 and float64, a strided loop for the other types.
//
// Every product is seen as a batch of matrix products C[o] = A[m] . B[m]
// over rank-3 views (batch, rows, columns): a vector is a one-column
// matrix, an outer product has an inner extent of 1, and a plain matrix a
// batch of one.
#ifndef TENSOR_INTERNAL_PRODUCT_KERNELS_H_
#define TENSOR_INTERNAL_PRODUCT_KERNELS_H_

#include "absl/status/status.h"
#include "tensor/allocator.h"
#include "tensor/tensor.h"

namespace tensor::internal {

enum class ProductKind {
  kMatrix,    // (n x k) . (k x p) -> (n x p)
  kVector,    // (n x k) . (k) -> (n)
  kOuter,     // (n) outer (p) -> (n x p)
  kBatch,     // (b x n x k) . (b x k x p) -> (b x n x p)
  kBatchSum,  // the same, summed over the batch -> (n x p)
};

// Whether the kernel can write a product of `kind` straight into `out`
// (given that out overlaps no operand): always for the loop, and for
// float32 and float64 when BLAS can express out's layout.
// REQUIRES: `out` valid, writable, with the product's shape and elements.
bool KernelCanWrite(ProductKind kind, const Tensor& out);

// target = beta * add + alpha * (lhs . rhs); float32 and float64 through
// BLAS, other types (not bool) in a loop. Makes its temporaries (compacted
// operands) before it writes. Reads no add when beta is 0.
// REQUIRES: the arguments checked as AddProduct checks them; target has
// elements, overlaps neither lhs nor rhs, and KernelCanWrite(kind,
// target); alpha is nonzero and neither the inner extent nor the batch is
// empty.
absl::Status ProductKernel(ProductKind kind, const Tensor& target, double beta, const Tensor& add,
                           double alpha, const Tensor& lhs, const Tensor& rhs,
                           Allocator& allocator);

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_PRODUCT_KERNELS_H_
