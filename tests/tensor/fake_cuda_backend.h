// A fake CUDA backend for tests on machines without a GPU: its memory is
// CPU memory that Storage records as cuda:0's, and each DeviceOps member
// records its call in `calls` and does the work with the CPU
// implementation on CPU views of the same bytes. Device tensors made
// through it can be read on the host, so a test sees what a device path
// computed, and every ownership check runs as it would on a GPU.
//
// Example:
//   static const DeviceOps kFake = MakeFakeCudaOps();
//   RegisterDeviceOps(DeviceType::kCuda, &kFake);
//   Tensor on_device = *ToDevice(host, Device::Cuda(0));  // CPU bytes, "cuda:0"
#ifndef TESTS_TENSOR_FAKE_CUDA_BACKEND_H_
#define TESTS_TENSOR_FAKE_CUDA_BACKEND_H_

#include <string>
#include <vector>

#include "tensor/blas.h"
#include "tensor/device.h"
#include "tensor/device_ops.h"
#include "tensor/elementwise.h"
#include "tensor/elementwise_compare.h"
#include "tensor/elementwise_unary.h"
#include "tensor/internal/line_kernels.h"
#include "tensor/tensor.h"

namespace tensor::testing {

// What the fake backend saw: the members called, in order, and the
// arguments of the last call that are not tensors.
struct Calls {
  std::vector<std::string> members;
  int allocations = 0;
  ElementOp element_op = ElementOp::kAssign;
  std::vector<double> values;
  UnaryFunction function = UnaryFunction::kAbs;
  internal::Extreme extreme = internal::Extreme::kMin;
  int dim = -1;
  Index first_index = -1;
  CompareOp compare_op = CompareOp::kLt;
  double value = 0;
  BlasOp blas_op = BlasOp::kMv;
  double beta = -1, alpha = -1;
  std::vector<Device> devices;  // of the tensor arguments, in order
};

// What the fake saw since a test last reset it (calls = Calls{}).
extern Calls calls;

// The fake's members; only cuda:0 exists. Register the result in storage
// that outlives its use (RegisterDeviceOps keeps the pointer).
DeviceOps MakeFakeCudaOps();

}  // namespace tensor::testing

#endif  // TESTS_TENSOR_FAKE_CUDA_BACKEND_H_
