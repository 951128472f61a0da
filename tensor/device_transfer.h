// ToDevice: a tensor copied to another device, through the backend that
// device's type registered (device_ops.h).
//
// Example:
//   absl::StatusOr<Tensor> on_gpu = ToDevice(frame, Device::Cuda(0));
//   absl::StatusOr<Tensor> back = ToDevice(*on_gpu, Device::Cpu());
#ifndef TENSOR_DEVICE_TRANSFER_H_
#define TENSOR_DEVICE_TRANSFER_H_

#include "absl/status/statusor.h"
#include "tensor/allocator.h"
#include "tensor/device.h"
#include "tensor/tensor.h"

namespace tensor {

// An owned, contiguous copy of `tensor` (same dtype and shape) on
// `device`, even when it is already there: CPU memory comes from
// `cpu_allocator`, device memory from that device's allocator. Fails
// without a backend for a device involved, or for a device index that
// does not exist.
absl::StatusOr<Tensor> ToDevice(const Tensor& tensor, Device device,
                                Allocator& cpu_allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_DEVICE_TRANSFER_H_
