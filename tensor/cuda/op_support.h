// What every operation of the CUDA backend does around its kernels: find
// the one device of its operands, stage temporaries there, tell whether
// two tensors overlap, and wait for the device.
//
// Example (inside an operation):
//   absl::StatusOr<int> device = CommonDevice({&dst, &src}, "cadd");
//   if (!device.ok()) return device.status();
//   return OnDevice(*device, [&]() -> absl::Status { ...; return Synchronize(); });
#ifndef TENSOR_CUDA_OP_SUPPORT_H_
#define TENSOR_CUDA_OP_SUPPORT_H_

#include <cstddef>
#include <initializer_list>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/cuda/element_type.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

namespace tensor::cuda {

inline ElementType ElementTypeOf(DType dtype) { return static_cast<ElementType>(dtype); }

// The index of the one CUDA device that holds every tensor, once each is
// valid (its loan not revoked) and that device exists; otherwise the error,
// naming `operation` (and both devices where they differ).
absl::StatusOr<int> CommonDevice(std::initializer_list<const Tensor*> tensors,
                                 const char* operation);

// Waits for the current device's default stream, where every operation of
// this backend runs.
absl::Status Synchronize();

// An uninitialised contiguous tensor on CUDA device `device`.
absl::StatusOr<Tensor> NewOnCuda(DType dtype, absl::Span<const Index> shape, int device);

// Whether the bytes that two tensors with elements reach may overlap, by
// address (two loans may lend the same memory). The origins are their
// data().
bool MayShareBytes(const Tensor& a, std::byte* a_origin, const Tensor& b, std::byte* b_origin);

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_OP_SUPPORT_H_
