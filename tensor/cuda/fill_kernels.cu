#include "tensor/cuda/fill_kernels.h"

#include <cstdint>

#include "tensor/cuda/strided_index.h"

namespace tensor::cuda {
namespace {

template <typename T>
__global__ void FillKernel(T* data, KernelStrides strides, KernelShape shape, T value) {
  for (std::int64_t i = FirstIndex(); i < shape.count; i += IndexStep()) {
    data[OffsetOf(i, shape, strides)] = value;
  }
}

template <typename T>
cudaError_t Launch(void* data, const KernelStrides& strides, const KernelShape& shape,
                   std::uint64_t bits) {
  FillKernel<T><<<BlocksFor(shape.count), kThreadsPerBlock>>>(static_cast<T*>(data), strides,
                                                              shape, static_cast<T>(bits));
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchFill(int element_size, void* data, const KernelStrides& strides,
                       const KernelShape& shape, std::uint64_t bits) {
  switch (element_size) {
    case 1: return Launch<std::uint8_t>(data, strides, shape, bits);
    case 2: return Launch<std::uint16_t>(data, strides, shape, bits);
    case 4: return Launch<std::uint32_t>(data, strides, shape, bits);
    case 8: return Launch<std::uint64_t>(data, strides, shape, bits);
  }
  return cudaErrorInvalidValue;
}

}  // namespace tensor::cuda
