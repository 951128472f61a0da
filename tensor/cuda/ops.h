// The CUDA backend's operations: the members of tensor::DeviceOps
// (tensor/device_ops.h) that backend.cc registers for DeviceType::kCuda.
//
// Callers use the core's entry points (tensor::ApplyScalars, Sum,
// CompareScalar, AddProduct, ...), which check ranks, shapes, dtypes and
// scalar values as for the CPU and allocate results on the device before
// they call these. Each of these then checks validity (Tensor::data(): a
// loan may have been revoked) and that all operands share one CUDA device,
// runs there on the default stream, takes any strided layout, and waits
// for the device before it returns. Semantics are the CPU's (see
// ops_kernels.h): only the order of floating-point sums may differ.
//
// Example (what the core does for a tensor on cuda:0):
//   absl::Status s = tensor::cuda::ops::ApplyUnary(gpu_logits, UnaryFunction::kSigmoid);
#ifndef TENSOR_CUDA_OPS_H_
#define TENSOR_CUDA_OPS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "tensor/blas.h"
#include "tensor/elementwise.h"
#include "tensor/elementwise_compare.h"
#include "tensor/elementwise_unary.h"
#include "tensor/internal/line_kernels.h"
#include "tensor/tensor.h"

namespace tensor::cuda::ops {

// DeviceOps::apply_scalars.
absl::Status ApplyScalars(const Tensor& tensor, ElementOp op, absl::Span<const double> values);

// DeviceOps::apply_components: fails, changing nothing, for an integer
// division by a zero element of src.
absl::Status ApplyComponents(const Tensor& dst, ElementOp op, const Tensor& src);

// DeviceOps::apply_unary.
absl::Status ApplyUnary(const Tensor& tensor, UnaryFunction function);

// DeviceOps::sum: accumulated in double per block, the blocks' sums added
// on the host.
absl::StatusOr<double> Sum(const Tensor& tensor);

// DeviceOps::extreme.
absl::StatusOr<double> ExtremeOf(const Tensor& tensor, internal::Extreme extreme);

// DeviceOps::sum_along.
absl::Status SumAlong(const Tensor& input, int dim, const Tensor& out);

// DeviceOps::extreme_along.
absl::Status ExtremeAlong(const Tensor& input, int dim, internal::Extreme extreme,
                          Index first_index, const Tensor& values, const Tensor& indices);

// DeviceOps::compare_scalar.
absl::Status CompareScalar(const Tensor& x, CompareOp op, double value, const Tensor& out);

// DeviceOps::compare_tensor.
absl::Status CompareTensor(const Tensor& x, CompareOp op, const Tensor& y, const Tensor& out);

// DeviceOps::add_product, on cuBLAS: mm, bmm, addmm and baddbmm for
// float16, bfloat16 (both with float accumulation), float32 and float64;
// other products and dtypes fail with Unimplemented.
absl::Status AddProduct(BlasOp op, const Tensor& out, double beta, const Tensor& add,
                        double alpha, const Tensor& lhs, const Tensor& rhs);

}  // namespace tensor::cuda::ops

#endif  // TENSOR_CUDA_OPS_H_
