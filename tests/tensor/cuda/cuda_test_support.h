// Helpers shared by the CUDA backend's tests.
//
// CudaTest skips a test, saying why, on a machine without a usable CUDA
// device; everything else here compares a CUDA result with what the CPU
// core computes for the same input, byte for byte.
#ifndef TESTS_TENSOR_CUDA_CUDA_TEST_SUPPORT_H_
#define TESTS_TENSOR_CUDA_CUDA_TEST_SUPPORT_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/cuda/allocator.h"
#include "tensor/cuda/copy.h"
#include "tensor/cuda/runtime.h"
#include "tensor/device_transfer.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/tensor.h"
#include "tests/tensor/op_test_support.h"

namespace tensor::cuda::testing {

// Skips the test, with the reason, unless a CUDA device is usable.
class CudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (DeviceCount() > 0) return;
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    cudaGetLastError();
    GTEST_SKIP() << "no CUDA device: "
                 << (error == cudaSuccess ? "cudaGetDeviceCount found none"
                                          : cudaGetErrorString(error));
  }

  static Allocator& Gpu(int device = 0) { return **CudaAllocator(device); }
};

using ::tensor::testing::Must;

// A new row-major CPU tensor of `dtype` holding `values`, each converted
// by the CPU copy from float64, so it must fit `dtype`.
inline Tensor CpuTensor(DType dtype, absl::Span<const Index> shape,
                        const std::vector<double>& values,
                        std::source_location where = std::source_location::current()) {
  Tensor doubles = Must(Tensor::Uninitialized(DType::kFloat64, shape), where);
  if (doubles.num_elements() > 0) {
    std::memcpy(Must(doubles.data(), where), values.data(), values.size() * sizeof(double));
  }
  Tensor typed = Must(Tensor::Uninitialized(dtype, shape), where);
  const absl::Status s = ApplyComponents(typed, ElementOp::kAssign, doubles);
  if (!s.ok()) ADD_FAILURE_AT(where.file_name(), where.line()) << s;
  return typed;
}

// 0, 1, ..., n-1 times `step`, plus `start`.
inline std::vector<double> Iota(Index n, double start = 0, double step = 1) {
  std::vector<double> values(n);
  for (Index i = 0; i < n; ++i) values[i] = start + step * static_cast<double>(i);
  return values;
}

// The bytes of `t`'s elements in row-major order, from any device.
inline std::vector<unsigned char> HostBytes(
    const Tensor& t, std::source_location where = std::source_location::current()) {
  const Tensor host = Must(ToDevice(t, Device::Cpu()), where);
  const std::size_t bytes = static_cast<std::size_t>(host.num_elements()) * host.item_size();
  std::vector<unsigned char> out(bytes);
  if (bytes > 0) std::memcpy(out.data(), Must(host.data(), where), bytes);
  return out;
}

// A contiguous tensor over device memory lent under a revocable loan. The
// memory itself belongs to this object.
class LentCudaTensor {
 public:
  LentCudaTensor(DType dtype, absl::Span<const Index> shape, std::string lender)
      : loan_(Loan::Create(std::move(lender))) {
    const Layout layout = Must(Layout::Contiguous(shape));
    bytes_ = static_cast<std::size_t>(layout.num_elements()) * DTypeSize(dtype);
    data_ = Must((*CudaAllocator(0))->Allocate(bytes_, /*zeroed=*/true));
    tensor_ = Must(Tensor::Lend(dtype, layout, data_, bytes_, loan_, Device::Cuda(0)));
  }
  ~LentCudaTensor() {
    if (data_ != nullptr) (*CudaAllocator(0))->Deallocate(data_, bytes_);
  }
  LentCudaTensor(const LentCudaTensor&) = delete;
  LentCudaTensor& operator=(const LentCudaTensor&) = delete;

  const Tensor& tensor() const { return tensor_; }
  const std::shared_ptr<Loan>& loan() const { return loan_; }

 private:
  std::shared_ptr<Loan> loan_;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  Tensor tensor_;
};

}  // namespace tensor::cuda::testing

#endif  // TESTS_TENSOR_CUDA_CUDA_TEST_SUPPORT_H_
