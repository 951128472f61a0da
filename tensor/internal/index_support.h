// Helpers shared by the index operations of index.h (index.cc, gather.cc):
// checks, and reading index tensors.
#ifndef TENSOR_INTERNAL_INDEX_SUPPORT_H_
#define TENSOR_INTERNAL_INDEX_SUPPORT_H_

#include <cstddef>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

namespace tensor::internal {

// Fails unless 0 <= dim < tensor.rank().
absl::Status CheckDim(const Tensor& tensor, int dim, const char* operation);

// Fails unless `value` is a value of tensor's dtype.
absl::Status CheckFillValue(const Tensor& tensor, double value, const char* operation);

// Every value of the int64 tensor `indices`, in row-major order, made
// 0-based, after checking that each lies in [index_base, index_base +
// extent). OutOfRange names the first that does not; the copy is the
// point: checked values cannot change under the writes that follow.
// REQUIRES: index_base >= 0.
absl::StatusOr<std::vector<Index>> ReadIndices(const Tensor& indices, Index extent,
                                               Index index_base, const char* operation);

// `source`, or a copy of it if it shares memory with `destination`, so
// that writes cannot change what is still to be read.
absl::StatusOr<Tensor> Unaliased(const Tensor& destination, const Tensor& source);

template <typename T>
T* At(std::byte* p) {
  return reinterpret_cast<T*>(p);
}

// REQUIRES: CheckFillValue passed.
template <typename T>
T ValueAs(double value) {
  return static_cast<T>(static_cast<ComputeType<T>>(value));
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_INDEX_SUPPORT_H_
