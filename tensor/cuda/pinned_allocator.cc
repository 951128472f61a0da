#include "tensor/cuda/pinned_allocator.h"

#include <cuda_runtime_api.h>

#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/cuda/runtime.h"

namespace tensor::cuda {
namespace {

class PinnedAllocator final : public Allocator {
 public:
  Device device() const override { return Device::Cpu(); }

  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    void* data = nullptr;
    // cudaHostAlloc refuses 0 bytes; an empty tensor still needs a block
    // to own.
    const cudaError_t error = cudaHostAlloc(&data, bytes == 0 ? 1 : bytes, cudaHostAllocDefault);
    if (error != cudaSuccess) {
      cudaGetLastError();
      return absl::ResourceExhaustedError(absl::StrCat("cannot allocate ", bytes,
                                                       " bytes of page-locked host memory: ",
                                                       cudaGetErrorString(error)));
    }
    if (zeroed) std::memset(data, 0, bytes);
    return data;
  }

  // NB: Deallocate cannot report an error; a failing cudaFreeHost means
  // the driver is already broken, and the next CUDA call says so.
  void Deallocate(void* data, std::size_t) override { cudaFreeHost(data); }
};

}  // namespace

absl::StatusOr<Allocator*> PinnedHostAllocator() {
  if (absl::Status s = CheckDevice(0); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("page-locked host memory: ", s.message()));
  }
  static PinnedAllocator* const allocator = new PinnedAllocator();
  return allocator;
}

}  // namespace tensor::cuda
