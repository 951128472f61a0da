// Runtime: the few CUDA runtime facts the backend needs, as absl::Status.
//
// A machine without a GPU (or without a driver) is an ordinary state for
// this library, not an error: DeviceCount() is then 0, and anything that
// needs a device says which one and why there is none.
//
// Example:
//   if (tensor::cuda::DeviceCount() == 0) return;  // CPU only
//   absl::Status ok = tensor::cuda::CheckDevice(0);
//   absl::Status s = tensor::cuda::OnDevice(0, [] {
//     return tensor::cuda::CudaStatus(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
//   });
#ifndef TENSOR_CUDA_RUNTIME_H_
#define TENSOR_CUDA_RUNTIME_H_

#include <cuda_runtime_api.h>

#include <utility>

#include "absl/status/status.h"

namespace tensor::cuda {

// The number of CUDA devices this process can use; 0 when there is no
// device or no usable driver.
int DeviceCount();

// OK for cudaSuccess; otherwise a status whose message names `what` (the
// call that failed) and CUDA's own description of `error`.
absl::Status CudaStatus(cudaError_t error, const char* what);

// OK if `index` names a device this process can use; otherwise an error
// naming the index, the device count and, with no device, the reason.
absl::Status CheckDevice(int index);

// Runs `f` (returning absl::Status) with `device` current on this thread,
// then makes the previously current device current again.
// REQUIRES: CheckDevice(device) is OK.
template <typename F>
absl::Status OnDevice(int device, F&& f) {
  int previous = 0;
  if (absl::Status s = CudaStatus(cudaGetDevice(&previous), "cudaGetDevice"); !s.ok()) return s;
  if (previous == device) return std::forward<F>(f)();
  if (absl::Status s = CudaStatus(cudaSetDevice(device), "cudaSetDevice"); !s.ok()) return s;
  absl::Status result = std::forward<F>(f)();
  absl::Status restored = CudaStatus(cudaSetDevice(previous), "cudaSetDevice");
  return result.ok() ? restored : result;
}

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_RUNTIME_H_
