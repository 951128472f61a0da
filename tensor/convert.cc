#include "tensor/convert.h"

#include "tensor/internal/copy.h"
#include "tensor/internal/kernel_support.h"

namespace tensor {

absl::StatusOr<Tensor> Convert(const Tensor& tensor, DType dtype, Allocator& allocator) {
  if (absl::StatusOr<std::byte*> data = internal::CpuData(tensor, "convert"); !data.ok()) {
    return data.status();
  }
  absl::StatusOr<Tensor> result = Tensor::Uninitialized(dtype, tensor.shape(), allocator);
  if (!result.ok()) return result.status();
  if (absl::Status copied = internal::CopyElements(*result, tensor); !copied.ok()) return copied;
  return result;
}

absl::StatusOr<Tensor> Clone(const Tensor& tensor, Allocator& allocator) {
  return Convert(tensor, tensor.dtype(), allocator);
}

}  // namespace tensor
