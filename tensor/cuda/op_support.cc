#include "tensor/cuda/op_support.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tensor/cuda/allocator.h"
#include "tensor/cuda/runtime.h"
#include "tensor/device_ops.h"

namespace tensor::cuda {

static_assert(static_cast<int>(ElementType::kBool) == static_cast<int>(DType::kBool) &&
                  static_cast<int>(ElementType::kInt64) == static_cast<int>(DType::kInt64) &&
                  static_cast<int>(ElementType::kFloat16) == static_cast<int>(DType::kFloat16) &&
                  static_cast<int>(ElementType::kFloat64) == static_cast<int>(DType::kFloat64),
              "ElementType must number the types as DType does");

absl::StatusOr<int> CommonDevice(std::initializer_list<const Tensor*> tensors,
                                 const char* operation) {
  for (const Tensor* t : tensors) {
    if (absl::StatusOr<std::byte*> data = t->data(); !data.ok()) return data.status();
  }
  if (absl::Status s = CheckSameDevice(tensors, operation); !s.ok()) return s;
  const Device device = (*tensors.begin())->device();
  if (device.type != DeviceType::kCuda) {
    return absl::InvalidArgumentError(absl::StrCat(
        operation, ": the CUDA backend was given a tensor on ", device.ToString()));
  }
  if (absl::Status s = CheckDevice(device.index); !s.ok()) return s;
  return device.index;
}

absl::Status Synchronize() {
  return CudaStatus(cudaStreamSynchronize(0), "cudaStreamSynchronize");
}

absl::StatusOr<Tensor> NewOnCuda(DType dtype, absl::Span<const Index> shape, int device) {
  absl::StatusOr<Allocator*> allocator = CudaAllocator(device);
  if (!allocator.ok()) return allocator.status();
  return Tensor::Uninitialized(dtype, shape, **allocator);
}

bool MayShareBytes(const Tensor& a, std::byte* a_origin, const Tensor& b, std::byte* b_origin) {
  auto range = [](const Tensor& t, std::byte* origin) {
    const OffsetRange reach = t.layout().Reach();
    const Index item = static_cast<Index>(t.item_size());
    const auto address = reinterpret_cast<std::uintptr_t>(origin);
    const Index offset = t.layout().offset();
    return std::pair<std::uintptr_t, std::uintptr_t>(
        address + (reach.lowest - offset) * item, address + (reach.highest - offset + 1) * item);
  };
  const auto [a_begin, a_end] = range(a, a_origin);
  const auto [b_begin, b_end] = range(b, b_origin);
  return std::max(a_begin, b_begin) < std::min(a_end, b_end);
}

}  // namespace tensor::cuda
