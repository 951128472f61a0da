// ops::AddProduct on cuBLAS.
//
// cuBLAS is column-major and our tensors are row-major, so out = lhs . rhs
// is computed as out^T = rhs^T . lhs^T: a row-major matrix with unit column
// stride is, to cuBLAS, its own transpose with leading dimension its row
// stride, and one with unit row stride (a transposed view) is the matrix
// itself, passed with CUBLAS_OP_T. Layouts neither covers (negative, zero
// or gapped inner strides) are compacted first; a destination cuBLAS
// cannot write, or one that overlaps an operand, is computed in a
// temporary and copied in. Every product is strided-batched GemmEx calls
// (a batch of one for mm and addmm, one per batch for addbmm; vectors are
// one-column or one-row matrices), with float accumulation for the half
// types and no TF32. cuBLAS has no integer GEMM: integer types run a
// kernel of ours (product_kernels.cu) that reads and writes any layout.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/cuda/copy.h"
#include "tensor/cuda/fill.h"
#include "tensor/cuda/op_support.h"
#include "tensor/cuda/ops.h"
#include "tensor/cuda/ops_kernels.h"
#include "tensor/cuda/runtime.h"

namespace tensor::cuda::ops {
namespace {

absl::Status CublasStatus(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return absl::OkStatus();
  const std::string message =
      absl::StrCat(what, " failed: ", cublasGetStatusString(status), " (", cublasGetStatusName(status), ")");
  switch (status) {
    case CUBLAS_STATUS_ALLOC_FAILED: return absl::ResourceExhaustedError(message);
    case CUBLAS_STATUS_NOT_INITIALIZED: return absl::FailedPreconditionError(message);
    case CUBLAS_STATUS_INVALID_VALUE: return absl::InvalidArgumentError(message);
    default: return absl::InternalError(message);
  }
}

// Serialises creating handles and calling cuBLAS with them: one handle
// per device is shared by every thread, and cuBLAS does not promise that
// concurrent calls on one handle are safe.
std::mutex& CublasMutex() {
  static auto* mutex = new std::mutex;
  return *mutex;
}

// The handle of the current device `device`, created on first use and
// never destroyed (destroying it at exit could outlive the driver).
// REQUIRES: CublasMutex() held.
absl::StatusOr<cublasHandle_t> HandleOf(int device) {
  static auto* handles = new std::vector<cublasHandle_t>;
  if (static_cast<std::size_t>(device) >= handles->size()) handles->resize(device + 1, nullptr);
  cublasHandle_t& handle = (*handles)[device];
  if (handle == nullptr) {
    if (absl::Status s = CublasStatus(cublasCreate(&handle), "cublasCreate"); !s.ok()) {
      handle = nullptr;
      return s;
    }
  }
  return handle;
}

// How cuBLAS reads one row-major matrix (rows x cols, with these element
// strides) as the transpose it needs (see the top of this file).
struct GemmOperand {
  cublasOperation_t op;
  std::int64_t ld;
};

std::optional<GemmOperand> ColumnMajorView(Index rows, Index cols, Index row_stride,
                                           Index col_stride) {
  const Index wide = std::max<Index>(1, cols), tall = std::max<Index>(1, rows);
  if ((col_stride == 1 || cols == 1) && (rows == 1 || row_stride >= wide) &&
      (rows == 1 ? wide : row_stride) <= INT_MAX) {
    return GemmOperand{CUBLAS_OP_N, rows == 1 ? wide : row_stride};
  }
  if ((row_stride == 1 || rows == 1) && (cols == 1 || col_stride >= tall) &&
      (cols == 1 ? tall : col_stride) <= INT_MAX) {
    return GemmOperand{CUBLAS_OP_T, cols == 1 ? tall : col_stride};
  }
  return std::nullopt;
}

// One operand of a batch of products: its matrices' view and the stride
// between them.
struct BatchOperand {
  Tensor tensor;  // what cuBLAS reads: the operand or a contiguous copy
  GemmOperand view;
  std::int64_t batch_stride;
};

// `t` (rank 2, or rank 3 with the batch first) as cuBLAS can read it.
std::optional<BatchOperand> ViewOf(const Tensor& t) {
  const int r = t.rank() - 2;
  const Index batch_stride = r == 1 ? t.layout().strides()[0] : 0;
  if (batch_stride < 0) return std::nullopt;
  std::optional<GemmOperand> view = ColumnMajorView(
      t.shape()[r], t.shape()[r + 1], t.layout().strides()[r], t.layout().strides()[r + 1]);
  if (!view) return std::nullopt;
  return BatchOperand{t, *view, batch_stride};
}

// ViewOf(t), compacting t on `device` first where cuBLAS cannot read it.
absl::StatusOr<BatchOperand> ReadableOf(const Tensor& t, int device) {
  if (std::optional<BatchOperand> view = ViewOf(t)) return *std::move(view);
  absl::StatusOr<Tensor> compact = NewOnCuda(t.dtype(), t.shape(), device);
  if (!compact.ok()) return compact.status();
  if (absl::Status s = Copy(*compact, t); !s.ok()) return s;
  return *ViewOf(*compact);
}

bool SameView(const Tensor& a, const Tensor& b) {
  return a.storage() == b.storage() && a.layout() == b.layout();
}

// out = beta * add without reading lhs or rhs; beta 0 does not read add.
absl::Status Scale(const Tensor& out, double beta, const Tensor& add) {
  if (beta == 0) return Fill(out, 0);
  if (!SameView(add, out)) {
    if (absl::Status s = Copy(out, add); !s.ok()) return s;
  }
  return beta == 1 ? absl::OkStatus() : ops::ApplyScalars(out, ElementOp::kMul, {beta});
}

struct GemmTypes {
  cudaDataType_t data;
  cublasComputeType_t compute;
};

std::optional<GemmTypes> GemmTypesOf(DType dtype) {
  switch (dtype) {
    case DType::kFloat16: return GemmTypes{CUDA_R_16F, CUBLAS_COMPUTE_32F};
    case DType::kBFloat16: return GemmTypes{CUDA_R_16BF, CUBLAS_COMPUTE_32F};
    case DType::kFloat32: return GemmTypes{CUDA_R_32F, CUBLAS_COMPUTE_32F};
    case DType::kFloat64: return GemmTypes{CUDA_R_64F, CUBLAS_COMPUTE_64F};
    default: return std::nullopt;
  }
}

// target = beta * target + alpha * lhs . rhs, where cuBLAS can write
// target (ViewOf gives CUBLAS_OP_N) and it overlaps neither operand.
absl::Status Gemm(int device, const GemmTypes& types, const BatchOperand& target, double beta,
                  double alpha, const BatchOperand& lhs, const BatchOperand& rhs) {
  const int r = target.tensor.rank() - 2;
  const int batches = r == 1 ? static_cast<int>(target.tensor.shape()[0]) : 1;
  const int n = static_cast<int>(target.tensor.shape()[r]);
  const int p = static_cast<int>(target.tensor.shape()[r + 1]);
  const int k = static_cast<int>(lhs.tensor.shape()[r + 1]);
  absl::StatusOr<std::byte*> c = target.tensor.data();
  if (!c.ok()) return c.status();
  absl::StatusOr<std::byte*> a = lhs.tensor.data();
  if (!a.ok()) return a.status();
  absl::StatusOr<std::byte*> b = rhs.tensor.data();
  if (!b.ok()) return b.status();
  // The scalars have the compute type.
  const double alpha64 = alpha, beta64 = beta;
  const float alpha32 = static_cast<float>(alpha), beta32 = static_cast<float>(beta);
  const bool wide = types.compute == CUBLAS_COMPUTE_64F;
  const void* alpha_arg = wide ? static_cast<const void*>(&alpha64) : &alpha32;
  const void* beta_arg = wide ? static_cast<const void*>(&beta64) : &beta32;
  std::lock_guard<std::mutex> lock(CublasMutex());
  absl::StatusOr<cublasHandle_t> handle = HandleOf(device);
  if (!handle.ok()) return handle.status();
  // out^T (p x n) = rhs^T (p x k) . lhs^T (k x n).
  return CublasStatus(
      cublasGemmStridedBatchedEx(*handle, rhs.view.op, lhs.view.op, p, n, k, alpha_arg, *b,
                                 types.data, static_cast<int>(rhs.view.ld), rhs.batch_stride, *a,
                                 types.data, static_cast<int>(lhs.view.ld), lhs.batch_stride,
                                 beta_arg, *c, types.data, static_cast<int>(target.view.ld),
                                 target.batch_stride, batches, types.compute, CUBLAS_GEMM_DEFAULT),
      "cublasGemmStridedBatchedEx");
}

// A rank-2 matrix (or rank-3 batch of them) as the integer kernel walks it.
MatrixStrides StridesOf(const Tensor& t) {
  const int r = t.rank() - 2;
  const auto& strides = t.layout().strides();
  return {r == 1 ? strides[0] : 0, strides[r], strides[r + 1]};
}

// The integer kernel into `target`, which overlaps neither operand; add
// is already in it where beta reads it.
absl::Status IntegerGemm(const Tensor& target, double beta, double alpha, const Tensor& lhs,
                         const Tensor& rhs) {
  const int r = target.rank() - 2;
  absl::StatusOr<std::byte*> c = target.data();
  if (!c.ok()) return c.status();
  absl::StatusOr<std::byte*> a = lhs.data();
  if (!a.ok()) return a.status();
  absl::StatusOr<std::byte*> b = rhs.data();
  if (!b.ok()) return b.status();
  // As the CPU's kernel takes them: values of the type, sign-extended.
  const auto as_sum = [](double v) {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
  };
  return CudaStatus(
      LaunchIntegerProduct(ElementTypeOf(target.dtype()), *c, StridesOf(target), *a,
                           StridesOf(lhs), *b, StridesOf(rhs), r == 1 ? target.shape()[0] : 1,
                           target.shape()[r], target.shape()[r + 1], lhs.shape()[r + 1],
                           as_sum(alpha), as_sum(beta), beta != 0),
      "the integer product kernel");
}

// out = beta * add + alpha * lhs . rhs for matrices (rank 2) or batches of
// them (rank 3), with `device` current: on cuBLAS for the floating types
// (`types`), else on the integer kernel.
absl::Status MatrixProduct(int device, const std::optional<GemmTypes>& types, const Tensor& out,
                           double beta, const Tensor& add, double alpha, const Tensor& lhs,
                           const Tensor& rhs) {
  if (out.num_elements() == 0) return absl::OkStatus();
  const int r = lhs.rank() - 2;
  if (alpha == 0 || lhs.shape()[r + 1] == 0) return Scale(out, beta, add);
  absl::StatusOr<std::byte*> out_origin = out.data();
  if (!out_origin.ok()) return out_origin.status();
  bool overlaps = false;
  for (const Tensor* operand : {&lhs, &rhs}) {
    absl::StatusOr<std::byte*> origin = operand->data();
    if (!origin.ok()) return origin.status();
    overlaps |= MayShareBytes(out, *out_origin, *operand, *origin);
  }
  // The integer kernel writes any layout; cuBLAS only what ViewOf takes.
  std::optional<BatchOperand> target;
  if (!overlaps) target = types ? ViewOf(out) : std::optional(BatchOperand{out, {}, 0});
  if (types && target && target->view.op != CUBLAS_OP_N) target.reset();
  if (!target) {
    absl::StatusOr<Tensor> temporary = NewOnCuda(out.dtype(), out.shape(), device);
    if (!temporary.ok()) return temporary.status();
    target = BatchOperand{*temporary, {}, 0};
    if (types) target = ViewOf(*temporary);
  }
  // beta scales what is in the target: add, copied there unless it is
  // the target already. beta 0 reads nothing.
  if (beta != 0 && !SameView(add, target->tensor)) {
    if (absl::Status s = Copy(target->tensor, add); !s.ok()) return s;
  }
  if (types) {
    absl::StatusOr<BatchOperand> a = ReadableOf(lhs, device);
    if (!a.ok()) return a.status();
    absl::StatusOr<BatchOperand> b = ReadableOf(rhs, device);
    if (!b.ok()) return b.status();
    if (absl::Status s = Gemm(device, *types, *target, beta, alpha, *a, *b); !s.ok()) return s;
  } else if (absl::Status s = IntegerGemm(target->tensor, beta, alpha, lhs, rhs); !s.ok()) {
    return s;
  }
  if (absl::Status s = Synchronize(); !s.ok()) return s;
  return SameView(target->tensor, out) ? absl::OkStatus() : Copy(out, target->tensor);
}

// addbmm: out = beta * add + alpha * sum_b lhs[b] . rhs[b], one product
// per batch accumulated in a temporary, since out may overlap an operand
// that later batches still read.
absl::Status SumOfProducts(int device, const std::optional<GemmTypes>& types, const Tensor& out,
                           double beta,
                           const Tensor& add, double alpha, const Tensor& lhs,
                           const Tensor& rhs) {
  const Index batches = lhs.shape()[0];
  if (batches == 0 || out.num_elements() == 0) return Scale(out, beta, add);
  absl::StatusOr<Tensor> sum = NewOnCuda(out.dtype(), out.shape(), device);
  if (!sum.ok()) return sum.status();
  for (Index b = 0; b < batches; ++b) {
    absl::StatusOr<Tensor> left = lhs.Select(0, b);
    if (!left.ok()) return left.status();
    absl::StatusOr<Tensor> right = rhs.Select(0, b);
    if (!right.ok()) return right.status();
    const bool first = b == 0;
    if (absl::Status s = MatrixProduct(device, types, *sum, first ? beta : 1, first ? add : *sum,
                                       alpha, *left, *right);
        !s.ok()) {
      return s;
    }
  }
  return Copy(out, *sum);
}

// `v` (rank 1) as a one-column matrix, or with `row` a one-row one: a view.
absl::StatusOr<Tensor> AsMatrix(const Tensor& v, bool row = false) {
  return v.Unsqueeze(row ? 0 : 1);
}

}  // namespace

// Every product is a matrix product: mv and addmv with the vectors as
// columns, ger and addr as (column . row) with an inner extent of 1.
absl::Status AddProduct(BlasOp op, const Tensor& out, double beta, const Tensor& add,
                        double alpha, const Tensor& lhs, const Tensor& rhs) {
  const char* name = BlasOpName(op);
  absl::StatusOr<int> device = CommonDevice({&out, &add, &lhs, &rhs}, name);
  if (!device.ok()) return device.status();
  // None for the integer types: cuBLAS has no integer GEMM.
  const std::optional<GemmTypes> types = GemmTypesOf(out.dtype());
  return OnDevice(*device, [&]() -> absl::Status {
    switch (op) {
      case BlasOp::kMm:
      case BlasOp::kAddmm:
      case BlasOp::kBmm:
      case BlasOp::kBaddbmm:
        return MatrixProduct(*device, types, out, beta, add, alpha, lhs, rhs);
      case BlasOp::kAddbmm:
        return SumOfProducts(*device, types, out, beta, add, alpha, lhs, rhs);
      case BlasOp::kMv:
      case BlasOp::kAddmv: {
        absl::StatusOr<Tensor> out_column = AsMatrix(out);
        if (!out_column.ok()) return out_column.status();
        absl::StatusOr<Tensor> add_column = AsMatrix(add);
        if (!add_column.ok()) return add_column.status();
        absl::StatusOr<Tensor> rhs_column = AsMatrix(rhs);
        if (!rhs_column.ok()) return rhs_column.status();
        return MatrixProduct(*device, types, *out_column, beta, *add_column, alpha, lhs,
                             *rhs_column);
      }
      case BlasOp::kGer:
      case BlasOp::kAddr: {
        absl::StatusOr<Tensor> lhs_column = AsMatrix(lhs);
        if (!lhs_column.ok()) return lhs_column.status();
        absl::StatusOr<Tensor> rhs_row = AsMatrix(rhs, /*row=*/true);
        if (!rhs_row.ok()) return rhs_row.status();
        return MatrixProduct(*device, types, out, beta, add, alpha, *lhs_column, *rhs_row);
      }
    }
    return absl::InternalError(absl::StrCat(name, ": unknown product"));
  });
}

}  // namespace tensor::cuda::ops
