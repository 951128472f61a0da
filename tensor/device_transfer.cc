#include "tensor/device_transfer.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/convert.h"
#include "tensor/device_ops.h"

namespace tensor {

absl::StatusOr<Tensor> ToDevice(const Tensor& tensor, Device device, Allocator& cpu_allocator) {
  // A revoked loan is reported before any memory is allocated for it.
  if (absl::Status s = tensor.CheckValid(); !s.ok()) return s;
  if (device.is_cpu() && tensor.device().is_cpu()) return Clone(tensor, cpu_allocator);
  // The backend of whichever side is not the CPU moves the bytes.
  const Device backend = device.is_cpu() ? tensor.device() : device;
  absl::StatusOr<const DeviceOps*> ops = DeviceOpsFor(backend, "to device");
  if (!ops.ok()) return ops.status();
  if ((*ops)->copy == nullptr || (*ops)->allocator == nullptr) {
    return absl::UnimplementedError(absl::StrCat(
        "to device: the backend for ", backend.ToString(), " cannot copy tensors"));
  }
  Allocator* allocator = &cpu_allocator;
  if (!device.is_cpu()) {
    absl::StatusOr<Allocator*> on_device = (*ops)->allocator(device.index);
    if (!on_device.ok()) return on_device.status();
    allocator = *on_device;
  }
  absl::StatusOr<Tensor> copy = Tensor::Uninitialized(tensor.dtype(), tensor.shape(), *allocator);
  if (!copy.ok()) return copy.status();
  if (absl::Status s = (*ops)->copy(*copy, tensor); !s.ok()) return s;
  return copy;
}

}  // namespace tensor
