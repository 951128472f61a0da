// Element copy between two same-shaped tensors, converting dtypes.
#ifndef TENSOR_INTERNAL_COPY_H_
#define TENSOR_INTERNAL_COPY_H_

#include "absl/status/status.h"
#include "tensor/tensor.h"

namespace tensor::internal {

// dst[i] = src[i] for every index, converting as convert.h documents.
// Checks every value before writing any.
// REQUIRES: equal shapes; both valid CPU tensors; dst writable; no aliasing.
absl::Status CopyElements(const Tensor& dst, const Tensor& src);

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_COPY_H_
