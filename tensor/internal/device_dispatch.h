// The steps every core entry point takes before handing tensors on a
// device to its backend (tensor/device_ops.h): one device for all
// operands, valid storage, a backend with the operation, and results
// allocated on that device.
//
// Example (inside an entry point, after `if (!x.device().is_cpu())`):
//   absl::StatusOr<const DeviceOps*> ops =
//       internal::DeviceOpsWith({&x, &y}, &DeviceOps::compare_tensor, "lt");
//   absl::StatusOr<Tensor> mask =
//       internal::NewOnDevice(**ops, x.device(), DType::kUInt8, x.shape(), "lt");
#ifndef TENSOR_INTERNAL_DEVICE_DISPATCH_H_
#define TENSOR_INTERNAL_DEVICE_DISPATCH_H_

#include <initializer_list>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "tensor/device_ops.h"
#include "tensor/tensor.h"

namespace tensor::internal {

// The ops of the operands' device, once they all share one device (not the
// CPU) and are valid; else the error naming `operation`.
absl::StatusOr<const DeviceOps*> DeviceOpsOf(absl::Span<const Tensor* const> operands,
                                             const char* operation);

// "<operation>: not available on cuda:0".
absl::Status NotAvailableOn(Device device, const char* operation);

// DeviceOpsOf, and an error unless the backend implements `member`.
template <typename Member>
absl::StatusOr<const DeviceOps*> DeviceOpsWith(std::initializer_list<const Tensor*> operands,
                                               Member DeviceOps::*member, const char* operation) {
  absl::StatusOr<const DeviceOps*> ops = DeviceOpsOf(operands, operation);
  if (ops.ok() && (*ops)->*member == nullptr) {
    return NotAvailableOn((*operands.begin())->device(), operation);
  }
  return ops;
}

// An uninitialised owned tensor on `device`, from the backend's allocator.
absl::StatusOr<Tensor> NewOnDevice(const DeviceOps& ops, Device device, DType dtype,
                                   absl::Span<const Index> shape, const char* operation);

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_DEVICE_DISPATCH_H_
