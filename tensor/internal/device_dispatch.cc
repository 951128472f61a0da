#include "tensor/internal/device_dispatch.h"

#include "absl/strings/str_cat.h"

namespace tensor::internal {

absl::StatusOr<const DeviceOps*> DeviceOpsOf(absl::Span<const Tensor* const> operands,
                                             const char* operation) {
  if (absl::Status s = CheckSameDevice(operands, operation); !s.ok()) return s;
  // Validity first, as CpuData does on the CPU: a revoked loan reports
  // itself before any complaint about its shape.
  for (const Tensor* t : operands) {
    if (absl::Status s = t->CheckValid(); !s.ok()) return s;
  }
  return DeviceOpsFor(operands.front()->device(), operation);
}

absl::Status NotAvailableOn(Device device, const char* operation) {
  return absl::UnimplementedError(
      absl::StrCat(operation, ": not available on ", device.ToString()));
}

absl::StatusOr<Tensor> NewOnDevice(const DeviceOps& ops, Device device, DType dtype,
                                   absl::Span<const Index> shape, const char* operation) {
  if (ops.allocator == nullptr) return NotAvailableOn(device, operation);
  absl::StatusOr<Allocator*> allocator = ops.allocator(device.index);
  if (!allocator.ok()) return allocator.status();
  return Tensor::Uninitialized(dtype, shape, **allocator);
}

}  // namespace tensor::internal
