#include "tensor/cuda/runtime.h"

#include "absl/strings/str_cat.h"

namespace tensor::cuda {
namespace {

// cudaGetDeviceCount's error when it fails, cudaSuccess otherwise.
cudaError_t DeviceCountError(int* count) {
  *count = 0;
  const cudaError_t error = cudaGetDeviceCount(count);
  if (error != cudaSuccess) {
    *count = 0;
    // A failed runtime call also sets the thread's last error; clear it so
    // that a later kernel launch check does not report this one.
    cudaGetLastError();
  }
  return error;
}

absl::StatusCode CodeOf(cudaError_t error) {
  switch (error) {
    case cudaErrorMemoryAllocation:
      return absl::StatusCode::kResourceExhausted;
    case cudaErrorInvalidValue:
    case cudaErrorInvalidDevice:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
      return absl::StatusCode::kInvalidArgument;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
      return absl::StatusCode::kFailedPrecondition;
    default:
      return absl::StatusCode::kInternal;
  }
}

}  // namespace

int DeviceCount() {
  int count = 0;
  DeviceCountError(&count);
  return count;
}

absl::Status CudaStatus(cudaError_t error, const char* what) {
  if (error == cudaSuccess) [[likely]] {
    return absl::OkStatus();
  }
  return absl::Status(CodeOf(error), absl::StrCat(what, " failed: ", cudaGetErrorString(error),
                                                  " (", cudaGetErrorName(error), ")"));
}

absl::Status CheckDevice(int index) {
  int count = 0;
  const cudaError_t error = DeviceCountError(&count);
  if (index >= 0 && index < count) return absl::OkStatus();
  if (index < 0) {
    return absl::InvalidArgumentError(absl::StrCat("CUDA device ", index,
                                                   " does not exist: device indices start at 0 "
                                                   "(this process sees ",
                                                   count, " CUDA devices)"));
  }
  if (count == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "CUDA device ", index, " is not available: this process sees 0 CUDA devices (",
        error == cudaSuccess ? "none is installed" : cudaGetErrorString(error), ")"));
  }
  return absl::InvalidArgumentError(absl::StrCat("CUDA device ", index,
                                                 " does not exist: this process sees ", count,
                                                 " CUDA devices, numbered 0 to ", count - 1));
}

}  // namespace tensor::cuda
