// Copy: moving elements between the CPU and CUDA devices.
//
// Copy works for any pair of devices and any layouts, and converts
// between dtypes exactly as the CPU copy does (ApplyComponents with
// ElementOp::kAssign): a float truncates toward zero into an integer, a
// value the destination type cannot hold is an error, and every value is
// checked before anything is written.
//
// Conversions run on a GPU: a host-to-device copy moves the source's bytes
// as they are and converts on the device, and a device-to-host copy
// converts on the device before the bytes cross. A non-contiguous side is
// compacted on its own device first, so the transfer is one cudaMemcpy.
// Two contiguous tensors of one dtype are always one cudaMemcpy.
//
// Every call finishes its device work before it returns.
//
// An owned copy on another device is tensor::ToDevice
// (tensor/device_transfer.h), which reaches Copy through the backend's
// DeviceOps.
//
// Example:
//   absl::Status s = tensor::cuda::Copy(frame_as_floats_on_cpu, gpu_frame);
//   absl::Status t = tensor::cuda::CopyInLayoutOrder(gpu_flat, cpu_image);
#ifndef TENSOR_CUDA_COPY_H_
#define TENSOR_CUDA_COPY_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor::cuda {

// dst[i] = src[i] for every index, converting src's dtype to dst's. Fails
// if either tensor is invalid (a revoked loan), the shapes differ, two
// elements of dst share memory, a device does not exist, or a value does
// not fit dst's dtype. src may overlap dst.
absl::Status Copy(const Tensor& dst, const Tensor& src);

// Copy for tensors of equal element counts whatever their shapes, pairing
// their elements in layout (row-major) order: DeviceOps::copy.
absl::Status CopyInLayoutOrder(const Tensor& dst, const Tensor& src);

// `src` under `dst`'s shape, its elements in layout order: src itself for
// an equal shape, a view of a contiguous src, else a contiguous copy on
// src's device. REQUIRES: equal element counts.
absl::StatusOr<Tensor> InShapeOf(const Tensor& dst, const Tensor& src);

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_COPY_H_
