#include "tensor/blas.h"

#include <climits>
#include <initializer_list>
#include <string>
#include <tuple>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/elementwise.h"
#include "tensor/device_ops.h"
#include "tensor/internal/device_dispatch.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/product_kernels.h"
#include "tensor/internal/scalar_cast.h"
#include "tensor/work_meter.h"

namespace tensor {
namespace {

using internal::ProductKind;

// Torch7's names for an operation's operands, for messages.
struct OpInfo {
  const char* name;
  ProductKind kind;
  const char* lhs;
  const char* rhs;
  const char* add;  // the term beta scales; "the result" for plain products
};

OpInfo InfoOf(BlasOp op) {
  switch (op) {
    case BlasOp::kMm: return {"mm", ProductKind::kMatrix, "mat1", "mat2", "the result"};
    case BlasOp::kMv: return {"mv", ProductKind::kVector, "mat", "vec", "the result"};
    case BlasOp::kGer: return {"ger", ProductKind::kOuter, "vec1", "vec2", "the result"};
    case BlasOp::kBmm: return {"bmm", ProductKind::kBatch, "batch1", "batch2", "the result"};
    case BlasOp::kAddmm: return {"addmm", ProductKind::kMatrix, "mat1", "mat2", "M"};
    case BlasOp::kAddmv: return {"addmv", ProductKind::kVector, "mat", "vec2", "vec1"};
    case BlasOp::kAddr: return {"addr", ProductKind::kOuter, "vec1", "vec2", "mat"};
    case BlasOp::kBaddbmm: return {"baddbmm", ProductKind::kBatch, "batch1", "batch2", "M"};
    case BlasOp::kAddbmm: break;
  }
  return {"addbmm", ProductKind::kBatchSum, "batch1", "batch2", "M"};
}

// The ranks of lhs and rhs.
std::pair<int, int> RanksOf(ProductKind kind) {
  switch (kind) {
    case ProductKind::kMatrix: return {2, 2};
    case ProductKind::kVector: return {2, 1};
    case ProductKind::kOuter: return {1, 1};
    case ProductKind::kBatch:
    case ProductKind::kBatchSum: break;
  }
  return {3, 3};
}

const char* RankName(int rank) {
  switch (rank) {
    case 1: return "a vector (rank 1)";
    case 2: return "a matrix (rank 2)";
  }
  return "a batch of matrices (rank 3)";
}

std::string Described(const char* name, const Tensor& t) {
  return absl::StrCat(name, " ", t.layout().ShapeString());
}

// Fails unless lhs and rhs have the ranks and matching inner extents of
// the product.
absl::Status CheckOperandShapes(const OpInfo& info, const Tensor& lhs, const Tensor& rhs) {
  const auto [lhs_rank, rhs_rank] = RanksOf(info.kind);
  for (const auto& [operand, name, rank] :
       {std::tuple{&lhs, info.lhs, lhs_rank}, std::tuple{&rhs, info.rhs, rhs_rank}}) {
    if (operand->rank() != rank) {
      return absl::InvalidArgumentError(absl::StrCat(info.name, ": ", name, " must be ",
                                                     RankName(rank), ", got shape ",
                                                     operand->layout().ShapeString()));
    }
  }
  const Shape& a = lhs.shape();
  const Shape& b = rhs.shape();
  // Built only for a message: this runs on every call.
  auto operands = [&] {
    return absl::StrCat(info.name, ": ", Described(info.lhs, lhs), " and ",
                        Described(info.rhs, rhs));
  };
  switch (info.kind) {
    case ProductKind::kMatrix:
    case ProductKind::kVector:
      if (a[1] != b[0]) {
        return absl::InvalidArgumentError(absl::StrCat(
            operands(), " do not fit: ", info.lhs, " has ", a[1], " columns, ", info.rhs, " ", b[0],
            info.kind == ProductKind::kMatrix ? " rows" : " entries"));
      }
      break;
    case ProductKind::kOuter: break;
    case ProductKind::kBatch:
    case ProductKind::kBatchSum:
      if (a[0] != b[0]) {
        return absl::InvalidArgumentError(
            absl::StrCat(operands(), " hold ", a[0], " and ", b[0], " matrices"));
      }
      if (a[2] != b[1]) {
        return absl::InvalidArgumentError(
            absl::StrCat(operands(), " do not fit: the matrices of ", info.lhs, " have ", a[2],
                         " columns, those of ", info.rhs, " ", b[1], " rows"));
      }
      break;
  }
  return absl::OkStatus();
}

Shape ResultShape(ProductKind kind, const Shape& a, const Shape& b) {
  switch (kind) {
    case ProductKind::kMatrix: return {a[0], b[1]};
    case ProductKind::kVector: return {a[0]};
    case ProductKind::kOuter: return {a[0], b[0]};
    case ProductKind::kBatch: return {a[0], a[1], b[2]};
    case ProductKind::kBatchSum: break;
  }
  return {a[1], b[2]};
}

absl::Status CheckShape(const OpInfo& info, const char* name, const Tensor& t, const Shape& shape) {
  if (t.shape() == shape) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(info.name, ": ", Described(name, t),
                                                 " does not match the product's shape ",
                                                 ShapeToString(shape)));
}

// Whether alpha * (lhs . rhs) is zero without reading lhs or rhs.
bool ProductVanishes(ProductKind kind, double alpha, const Tensor& lhs) {
  if (alpha == 0) return true;
  switch (kind) {
    case ProductKind::kMatrix:
    case ProductKind::kVector: return lhs.shape()[1] == 0;
    case ProductKind::kOuter: return false;
    case ProductKind::kBatch:
    case ProductKind::kBatchSum: break;
  }
  return lhs.shape()[0] == 0 || lhs.shape()[2] == 0;
}

// out = beta * add, where beta 0 does not read add.
absl::Status Scale(const Tensor& out, double beta, const Tensor& add) {
  if (beta == 0) return ApplyScalars(out, ElementOp::kAssign, {0.0});
  const bool same = add.storage() == out.storage() && add.layout() == out.layout();
  if (absl::Status s = same ? absl::OkStatus() : ApplyComponents(out, ElementOp::kAssign, add);
      !s.ok()) {
    return s;
  }
  return beta == 1 ? absl::OkStatus() : ApplyScalars(out, ElementOp::kMul, {beta});
}

absl::Status CheckScalars(const OpInfo& info, DType dtype, double beta, double alpha) {
  return DispatchDType(dtype, [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    for (const auto& [value, name] : {std::pair{beta, "beta"}, std::pair{alpha, "alpha"}}) {
      if (!internal::ScalarRepresentable<T>(value)) {
        return absl::InvalidArgumentError(absl::StrCat(info.name, ": ", name, " ", value,
                                                       " is not a value of ", DTypeName(dtype)));
      }
    }
    return absl::OkStatus();
  });
}

}  // namespace

const char* BlasOpName(BlasOp op) { return InfoOf(op).name; }

absl::StatusOr<Shape> BlasResultShape(BlasOp op, const Tensor& lhs, const Tensor& rhs) {
  const OpInfo info = InfoOf(op);
  if (absl::Status s = CheckOperandShapes(info, lhs, rhs); !s.ok()) return s;
  if (absl::Status s = internal::CheckSameDType(lhs, rhs, info.name); !s.ok()) return s;
  if (lhs.dtype() == DType::kBool) {
    return absl::InvalidArgumentError(
        absl::StrCat(info.name, ": matrix products are not defined for bool tensors"));
  }
  for (const Tensor* operand : {&lhs, &rhs}) {
    for (Index extent : operand->shape()) {
      if (extent > INT_MAX) {
        return absl::InvalidArgumentError(
            absl::StrCat(info.name, ": extent ", extent, " is too large for BLAS"));
      }
    }
  }
  return ResultShape(info.kind, lhs.shape(), rhs.shape());
}

namespace {

// AddProduct's checks besides validity, shared by the CPU path and the
// device dispatch: the product's shape.
absl::StatusOr<Shape> CheckProduct(BlasOp op, const Tensor& out, double beta, const Tensor& add,
                                   double alpha, const Tensor& lhs, const Tensor& rhs) {
  const OpInfo info = InfoOf(op);
  absl::StatusOr<Shape> shape = BlasResultShape(op, lhs, rhs);
  if (!shape.ok()) return shape.status();
  if (absl::Status s = CheckShape(info, "the result", out, *shape); !s.ok()) return s;
  if (absl::Status s = CheckShape(info, info.add, add, *shape); !s.ok()) return s;
  for (const Tensor* t : {&out, &add}) {
    if (absl::Status s = internal::CheckSameDType(*t, lhs, info.name); !s.ok()) return s;
  }
  if (absl::Status s = internal::CheckWritable(out, info.name); !s.ok()) return s;
  if (absl::Status s = CheckScalars(info, lhs.dtype(), beta, alpha); !s.ok()) return s;
  return shape;
}

}  // namespace

absl::Status AddProduct(BlasOp op, const Tensor& out, double beta, const Tensor& add, double alpha,
                        const Tensor& lhs, const Tensor& rhs, Allocator& allocator) {
  const OpInfo info = InfoOf(op);
  if (!out.device().is_cpu() || !add.device().is_cpu() || !lhs.device().is_cpu() ||
      !rhs.device().is_cpu()) [[unlikely]] {
    absl::StatusOr<const DeviceOps*> ops =
        internal::DeviceOpsWith({&out, &add, &lhs, &rhs}, &DeviceOps::add_product, info.name);
    if (!ops.ok()) return ops.status();
    if (absl::StatusOr<Shape> shape = CheckProduct(op, out, beta, add, alpha, lhs, rhs);
        !shape.ok()) {
      return shape.status();
    }
    return (*ops)->add_product(op, out, beta, add, alpha, lhs, rhs);
  }
  for (const Tensor* t : {&out, &add, &lhs, &rhs}) {
    if (absl::StatusOr<std::byte*> d = internal::CpuData(*t, info.name); !d.ok()) {
      return d.status();
    }
  }
  absl::StatusOr<Shape> shape = CheckProduct(op, out, beta, add, alpha, lhs, rhs);
  if (!shape.ok()) return shape.status();
  // One unit per multiply-add: the result's elements times the length of
  // the sums (lhs's last extent; an outer product has none), and a
  // batch-summed product once more per batch.
  const Index inner = info.kind == internal::ProductKind::kOuter ? 1 : lhs.shape().back();
  const Index batches = info.kind == internal::ProductKind::kBatchSum ? lhs.shape()[0] : 1;
  if (absl::Status s = ChargeWork(ProductOfWork(out.num_elements(), inner, batches)); !s.ok()) {
    return absl::ResourceExhaustedError(absl::StrCat(info.name, ": ", s.message()));
  }

  if (out.num_elements() == 0) return absl::OkStatus();
  if (ProductVanishes(info.kind, alpha, lhs)) return Scale(out, beta, add);
  // BLAS forbids a destination that overlaps an operand, and takes only
  // some layouts: otherwise compute in a temporary and copy it in.
  const bool direct = !internal::MayAlias(out, lhs) && !internal::MayAlias(out, rhs) &&
                      internal::KernelCanWrite(info.kind, out);
  if (direct) return internal::ProductKernel(info.kind, out, beta, add, alpha, lhs, rhs, allocator);
  absl::StatusOr<Tensor> target = Tensor::Uninitialized(out.dtype(), *shape, allocator);
  if (!target.ok()) return target.status();
  absl::Status status =
      internal::ProductKernel(info.kind, *target, beta, add, alpha, lhs, rhs, allocator);
  if (!status.ok()) return status;
  return ApplyComponents(out, ElementOp::kAssign, *target);
}

absl::Status Product(BlasOp op, const Tensor& out, const Tensor& lhs, const Tensor& rhs,
                     Allocator& allocator) {
  return AddProduct(op, out, 0, out, 1, lhs, rhs, allocator);
}

}  // namespace tensor
