#include "tensor/matmul.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cblas.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/blas.h"
#include "tensor/convert.h"
#include "tensor/device_ops.h"
#include "tensor/internal/device_dispatch.h"
#include "tensor/internal/blas_matrix.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/work_meter.h"

namespace tensor {
namespace {

template <typename T>
absl::Status BlasProduct(const Tensor& lhs, const Tensor& rhs, const Tensor& result,
                         Allocator& allocator) {
  Tensor keep_a, keep_b;
  absl::StatusOr<internal::BlasMatrix> a = internal::DescribeMatrices(lhs, {}, allocator, &keep_a);
  if (!a.ok()) return a.status();
  absl::StatusOr<internal::BlasMatrix> b = internal::DescribeMatrices(rhs, {}, allocator, &keep_b);
  if (!b.ok()) return b.status();
  const int m = static_cast<int>(lhs.shape()[0]);
  const int k = static_cast<int>(lhs.shape()[1]);
  const int n = static_cast<int>(rhs.shape()[1]);
  T* c = reinterpret_cast<T*>(*result.data());
  const T* a_data = reinterpret_cast<const T*>(a->data);
  const T* b_data = reinterpret_cast<const T*>(b->data);
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, a->transpose, b->transpose, m, n, k, 1.0f, a_data,
                a->leading, b_data, b->leading, 0.0f, c, n);
  } else {
    cblas_dgemm(CblasRowMajor, a->transpose, b->transpose, m, n, k, 1.0, a_data,
                a->leading, b_data, b->leading, 0.0, c, n);
  }
  return absl::OkStatus();
}

// Row i of the result accumulates a[i][p] * (row p of b), so both b and
// the result are read along rows. Sums wrap in 64 bits, then to T.
template <typename T>
void IntegerProduct(const Tensor& lhs, const Tensor& rhs, const Tensor& result) {
  const Index m = lhs.shape()[0], k = lhs.shape()[1], n = rhs.shape()[1];
  const Strides& as = lhs.layout().strides();
  const Strides& bs = rhs.layout().strides();
  const T* a = reinterpret_cast<const T*>(*lhs.data());
  const T* b = reinterpret_cast<const T*>(*rhs.data());
  T* c = reinterpret_cast<T*>(*result.data());
  std::vector<std::uint64_t> row(n);
  for (Index i = 0; i < m; ++i) {
    std::fill(row.begin(), row.end(), 0);
    for (Index p = 0; p < k; ++p) {
      const auto factor = static_cast<std::uint64_t>(static_cast<std::int64_t>(a[i * as[0] + p * as[1]]));
      for (Index j = 0; j < n; ++j) {
        row[j] += factor * static_cast<std::uint64_t>(static_cast<std::int64_t>(b[p * bs[0] + j * bs[1]]));
      }
    }
    for (Index j = 0; j < n; ++j) c[i * n + j] = static_cast<T>(row[j]);
  }
}

absl::Status CheckOperands(const Tensor& lhs, const Tensor& rhs) {
  // The phrases (LHS, RHS, Incorrect matrix dimensions) are DeepMind Lab's.
  for (const auto& [operand, side, name] :
       {std::tuple{&lhs, "LHS", "left"}, std::tuple{&rhs, "RHS", "right"}}) {
    if (operand->rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("mmul: ", side, " is not a matrix: the ", name, " operand has shape ",
                       operand->layout().ShapeString()));
    }
  }
  if (lhs.shape()[1] != rhs.shape()[0]) {
    return absl::InvalidArgumentError(absl::StrCat(
        "mmul: Incorrect matrix dimensions: incompatible shapes ", lhs.layout().ShapeString(),
        " x ", rhs.layout().ShapeString(), " (the left's columns must equal the right's rows)"));
  }
  if (absl::Status s = internal::CheckSameDType(lhs, rhs, "mmul"); !s.ok()) return s;
  if (lhs.dtype() == DType::kBool) {
    return absl::InvalidArgumentError("mmul: matrix products are not defined for bool tensors");
  }
  for (Index extent : {lhs.shape()[0], lhs.shape()[1], rhs.shape()[1]}) {
    if (extent > INT_MAX) {
      return absl::InvalidArgumentError(
          absl::StrCat("mmul: extent ", extent, " is too large for BLAS"));
    }
  }
  return absl::OkStatus();
}

// lhs . rhs by the backend of their device, into a result allocated there
// (`allocator` is the CPU's).
absl::StatusOr<Tensor> MatMulOnDevice(const Tensor& lhs, const Tensor& rhs) {
  absl::StatusOr<const DeviceOps*> ops =
      internal::DeviceOpsWith({&lhs, &rhs}, &DeviceOps::add_product, "mmul");
  if (!ops.ok()) return ops.status();
  if (absl::Status s = CheckOperands(lhs, rhs); !s.ok()) return s;
  absl::StatusOr<Tensor> result = internal::NewOnDevice(
      **ops, lhs.device(), lhs.dtype(), {lhs.shape()[0], rhs.shape()[1]}, "mmul");
  if (!result.ok()) return result.status();
  // beta 0: the backend never reads the uninitialised result.
  absl::Status status = (*ops)->add_product(BlasOp::kMm, *result, 0, *result, 1, lhs, rhs);
  if (!status.ok()) return status;
  return result;
}

}  // namespace

absl::StatusOr<Tensor> MatMul(const Tensor& lhs, const Tensor& rhs, Allocator& allocator) {
  if (!lhs.device().is_cpu() || !rhs.device().is_cpu()) [[unlikely]] {
    return MatMulOnDevice(lhs, rhs);
  }
  if (absl::StatusOr<std::byte*> d = internal::CpuData(lhs, "mmul"); !d.ok()) return d.status();
  if (absl::StatusOr<std::byte*> d = internal::CpuData(rhs, "mmul"); !d.ok()) return d.status();
  if (absl::Status s = CheckOperands(lhs, rhs); !s.ok()) return s;
  if (absl::Status s = ChargeWork(ProductOfWork(lhs.shape()[0], lhs.shape()[1], rhs.shape()[1]));
      !s.ok()) {
    return absl::ResourceExhaustedError(absl::StrCat("mmul: ", s.message()));
  }
  const DType dtype = lhs.dtype();
  if (dtype == DType::kFloat16 || dtype == DType::kBFloat16) {
    absl::StatusOr<Tensor> a = Convert(lhs, DType::kFloat32);
    if (!a.ok()) return a.status();
    absl::StatusOr<Tensor> b = Convert(rhs, DType::kFloat32);
    if (!b.ok()) return b.status();
    absl::StatusOr<Tensor> product = MatMul(*a, *b);
    if (!product.ok()) return product.status();
    return Convert(*product, dtype, allocator);
  }
  const Shape shape = {lhs.shape()[0], rhs.shape()[1]};
  // An empty sum is zero. Otherwise every element is written (BLAS with
  // beta = 0 never reads C), so zero-filling would be wasted work.
  if (lhs.shape()[1] == 0 || shape[0] == 0 || shape[1] == 0) {
    return Tensor::Zeros(dtype, shape, allocator);
  }
  absl::StatusOr<Tensor> result = Tensor::Uninitialized(dtype, shape, allocator);
  if (!result.ok()) return result.status();
  absl::Status status = DispatchDType(dtype, [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      return BlasProduct<T>(lhs, rhs, *result, allocator);
    } else if constexpr (kIsInteger<T>) {
      IntegerProduct<T>(lhs, rhs, *result);
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return result;
}

}  // namespace tensor
