// Torch7's BLAS products, written into an existing tensor:
//
//   out = beta * add + alpha * (lhs . rhs)
//
// where the product is, per operation (Torch7's names and operands):
//   mm, addmm       mat1 (n x k) . mat2 (k x p)             -> (n x p)
//   mv, addmv       mat (n x k) . vec (k)                   -> (n)
//   ger, addr       vec1 (n) outer vec2 (p)                 -> (n x p)
//   bmm, baddbmm    batch1 (b x n x k) . batch2 (b x k x p) -> (b x n x p),
//                   one product per matrix of the batch
//   addbmm          the same products summed over the batch -> (n x p)
// The plain products (mm, mv, ger, bmm) are the others with beta 0 and
// alpha 1; Product() calls them so.
//
// float32 and float64 go to OpenBLAS (gemm, gemv, ger). Transposed and
// narrowed operands and destinations are passed as BLAS transpose flags and
// leading dimensions, not copied; only layouts BLAS cannot express (stride
// 0, negative or gapped inner strides) are compacted into a temporary.
// A destination that overlaps lhs or rhs (BLAS forbids it) is computed in
// a temporary and copied in. Integer types use a plain loop whose sums
// wrap as two's complement arithmetic does; float16 and bfloat16 loop in
// float. bool is an error.
//
// As in BLAS, beta 0 does not read `add` (its NaNs included), and alpha 0
// or an empty inner dimension does not read lhs or rhs: then out is
// beta * add. Every check runs before the first write, so a failed call
// leaves `out` as it was.
//
// Example:
//   // y = 0.5 * y + 2 * (w . x)
//   absl::Status s = AddProduct(BlasOp::kAddmv, y, 0.5, y, 2, w, x);
#ifndef TENSOR_BLAS_H_
#define TENSOR_BLAS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor {

enum class BlasOp { kMm, kMv, kGer, kBmm, kAddmm, kAddmv, kAddr, kBaddbmm, kAddbmm };

// "mm", "mv", ..., "addbmm": Torch7's name, which messages start with.
const char* BlasOpName(BlasOp op);

// The shape of the product of lhs and rhs under `op`. Fails unless their
// ranks, inner extents and dtypes fit (bool is refused) and every extent
// fits BLAS's int.
absl::StatusOr<Shape> BlasResultShape(BlasOp op, const Tensor& lhs, const Tensor& rhs);

// out = beta * add + alpha * (lhs . rhs), as above. out and add must have
// the result's shape and everyone lhs's dtype; out must be writable (no
// two elements sharing memory). add may be out itself or overlap any
// operand. For integer tensors, beta and alpha must be values of the type.
// Temporaries come from `allocator`.
absl::Status AddProduct(BlasOp op, const Tensor& out, double beta, const Tensor& add, double alpha,
                        const Tensor& lhs, const Tensor& rhs,
                        Allocator& allocator = CpuAllocator());

// out = lhs . rhs: AddProduct with beta 0 and alpha 1.
absl::Status Product(BlasOp op, const Tensor& out, const Tensor& lhs, const Tensor& rhs,
                     Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_BLAS_H_
