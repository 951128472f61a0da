// ops::ApplyScalars, ApplyComponents and ApplyUnary: host side.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/cuda/copy.h"
#include "tensor/cuda/kernel_plan.h"
#include "tensor/cuda/op_support.h"
#include "tensor/cuda/ops.h"
#include "tensor/cuda/ops_kernels.h"
#include "tensor/cuda/runtime.h"

namespace tensor::cuda::ops {
namespace {

static_assert(static_cast<int>(ArithmeticOp::kDiv) == static_cast<int>(ElementOp::kDiv) &&
                  static_cast<int>(ArithmeticOp::kAdd) == static_cast<int>(ElementOp::kAdd),
              "ArithmeticOp must number the ops as ElementOp does");
static_assert(static_cast<int>(UnaryOp::kFrac) == static_cast<int>(UnaryFunction::kFrac) &&
                  static_cast<int>(UnaryOp::kCinv) == static_cast<int>(UnaryFunction::kCinv) &&
                  static_cast<int>(UnaryOp::kSigmoid) == static_cast<int>(UnaryFunction::kSigmoid),
              "UnaryOp must number the functions as UnaryFunction does");

bool IsInteger(DType dtype) { return dtype >= DType::kUInt8 && dtype <= DType::kInt64; }

// Fails if some element of `divisor` (on the current device) is zero.
absl::Status CheckNoZero(const Tensor& divisor, std::byte* origin, int device) {
  absl::StatusOr<Tensor> flag = NewOnCuda(DType::kInt32, {1}, device);
  if (!flag.ok()) return flag.status();
  int* found = reinterpret_cast<int*>(*flag->data());
  if (absl::Status s = CudaStatus(cudaMemsetAsync(found, 0, sizeof(int), 0), "cudaMemsetAsync");
      !s.ok()) {
    return s;
  }
  const std::size_t item = divisor.item_size();
  absl::Status launched = ForEachKernelBlock<1>(
      divisor.shape(), {&divisor.layout().strides()}, [&](const KernelBlock<1>& block) {
        return CudaStatus(LaunchFindZero(ElementTypeOf(divisor.dtype()),
                                         origin + block.offsets[0] * item, block.strides[0],
                                         block.shape, found),
                          "the zero check kernel");
      });
  if (!launched.ok()) return launched;
  int result = 0;
  if (absl::Status s = CudaStatus(cudaMemcpy(&result, found, sizeof(int), cudaMemcpyDeviceToHost),
                                  "cudaMemcpy");
      !s.ok()) {
    return s;
  }
  if (result == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      "cdiv: integer division by zero (the divisor has a zero element); nothing was changed");
}

}  // namespace

absl::Status ApplyScalars(const Tensor& tensor, ElementOp op, absl::Span<const double> values) {
  const char* name = ElementOpName(op);
  absl::StatusOr<int> device = CommonDevice({&tensor}, name);
  if (!device.ok()) return device.status();
  absl::StatusOr<std::byte*> origin = tensor.data();
  if (!origin.ok()) return origin.status();
  if (tensor.num_elements() == 0) return absl::OkStatus();
  return OnDevice(*device, [&]() -> absl::Status {
    // The values go to the device once; the kernel reads value j through
    // strides that are 0 except, for one value per entry, 1 along the last
    // dimension.
    absl::StatusOr<Tensor> staged =
        NewOnCuda(DType::kFloat64, {static_cast<Index>(values.size())}, *device);
    if (!staged.ok()) return staged.status();
    double* device_values = reinterpret_cast<double*>(*staged->data());
    if (absl::Status s = CudaStatus(
            cudaMemcpyAsync(device_values, values.data(),
                            values.size() * sizeof(double), cudaMemcpyHostToDevice, 0),
            "cudaMemcpyAsync");
        !s.ok()) {
      return s;
    }
    Strides value_strides(tensor.rank(), 0);
    if (values.size() > 1) value_strides.back() = 1;
    const std::size_t item = tensor.item_size();
    absl::Status launched = ForEachKernelBlock<2>(
        tensor.shape(), {&tensor.layout().strides(), &value_strides},
        [&](const KernelBlock<2>& block) {
          return CudaStatus(
              LaunchScalarOp(ElementTypeOf(tensor.dtype()), static_cast<ArithmeticOp>(op),
                             *origin + block.offsets[0] * item, block.strides[0],
                             device_values + block.offsets[1], block.strides[1], block.shape),
              "the scalar arithmetic kernel");
        });
    if (!launched.ok()) return launched;
    return Synchronize();
  });
}

absl::Status ApplyComponents(const Tensor& dst, ElementOp op, const Tensor& src) {
  static constexpr const char* kNames[] = {"copy", "cadd", "csub", "cmul", "cdiv"};
  const char* name = kNames[static_cast<int>(op)];
  absl::StatusOr<int> device = CommonDevice({&dst, &src}, name);
  if (!device.ok()) return device.status();
  if (op == ElementOp::kAssign) return CopyInLayoutOrder(dst, src);
  if (dst.num_elements() == 0) return absl::OkStatus();
  return OnDevice(*device, [&]() -> absl::Status {
    absl::StatusOr<Tensor> source = InShapeOf(dst, src);
    if (!source.ok()) return source.status();
    absl::StatusOr<std::byte*> dst_origin = dst.data();
    if (!dst_origin.ok()) return dst_origin.status();
    absl::StatusOr<std::byte*> src_origin = source->data();
    if (!src_origin.ok()) return src_origin.status();
    // Threads write dst in no particular order: a source that shares bytes
    // with dst other than element for element is read into a copy first.
    const bool element_for_element =
        source->layout() == dst.layout() && *src_origin == *dst_origin;
    if (!element_for_element && MayShareBytes(dst, *dst_origin, *source, *src_origin)) {
      absl::StatusOr<Tensor> aside = NewOnCuda(source->dtype(), source->shape(), *device);
      if (!aside.ok()) return aside.status();
      if (absl::Status s = Copy(*aside, *source); !s.ok()) return s;
      source = *std::move(aside);
      src_origin = source->data();
      if (!src_origin.ok()) return src_origin.status();
    }
    if (op == ElementOp::kDiv && IsInteger(dst.dtype())) {
      if (absl::Status s = CheckNoZero(*source, *src_origin, *device); !s.ok()) return s;
    }
    const std::size_t item = dst.item_size();
    absl::Status launched = ForEachKernelBlock<2>(
        dst.shape(), {&dst.layout().strides(), &source->layout().strides()},
        [&](const KernelBlock<2>& block) {
          return CudaStatus(LaunchComponentOp(ElementTypeOf(dst.dtype()),
                                              static_cast<ArithmeticOp>(op),
                                              *dst_origin + block.offsets[0] * item,
                                              block.strides[0],
                                              *src_origin + block.offsets[1] * item,
                                              block.strides[1], block.shape),
                            "the component arithmetic kernel");
        });
    if (!launched.ok()) return launched;
    return Synchronize();
  });
}

absl::Status ApplyUnary(const Tensor& tensor, UnaryFunction function) {
  const char* name = UnaryFunctionName(function);
  absl::StatusOr<int> device = CommonDevice({&tensor}, name);
  if (!device.ok()) return device.status();
  absl::StatusOr<std::byte*> origin = tensor.data();
  if (!origin.ok()) return origin.status();
  if (tensor.num_elements() == 0) return absl::OkStatus();
  return OnDevice(*device, [&]() -> absl::Status {
    const std::size_t item = tensor.item_size();
    absl::Status launched = ForEachKernelBlock<1>(
        tensor.shape(), {&tensor.layout().strides()}, [&](const KernelBlock<1>& block) {
          const cudaError_t error =
              LaunchUnary(ElementTypeOf(tensor.dtype()), static_cast<UnaryOp>(function),
                          *origin + block.offsets[0] * item, block.strides[0], block.shape);
          if (error == cudaErrorInvalidValue) {
            // The core refuses these before dispatch; a direct caller learns why.
            return absl::InvalidArgumentError(
                absl::StrCat(name, ": not defined for ", DTypeName(tensor.dtype())));
          }
          return CudaStatus(error, "the unary function kernel");
        });
    if (!launched.ok()) return launched;
    return Synchronize();
  });
}

}  // namespace tensor::cuda::ops
