// DeviceOps: how the core's operations reach tensors on a device other
// than the CPU.
//
// The core runs every operation on the CPU. A backend for another device
// type (tensor/cuda, linked in only by --config=cuda builds) registers a
// table of the operations it implements when its library loads; the core's
// entry points (ApplyScalars, ApplyUnary, Sum, SumAlong, CompareScalar,
// Product, ...) hand device tensors to it, so callers use one API for both.
// Without a backend, or for an operation the backend lacks, the entry
// point fails with an error naming the operation and the device. Mixing
// devices in one call is an error naming both.
//
// Every member may be null (not available on that device). Each gets
// tensors on the backend's own device type, after the core has checked
// ranks, shapes and dtypes as it does for the CPU, and results already
// allocated on the operands' device with `allocator`; it must check
// validity (Tensor::data()) and that all operands share one device index.
//
// Example (a backend):
//   const DeviceOps kCudaOps = {.allocator = &CudaAllocatorOf, .copy = &Copy, ...};
//   const bool registered = RegisterDeviceOps(DeviceType::kCuda, &kCudaOps);
// Example (the core):
//   absl::StatusOr<const DeviceOps*> ops = DeviceOpsFor(t.device(), "exp");
#ifndef TENSOR_DEVICE_OPS_H_
#define TENSOR_DEVICE_OPS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "tensor/allocator.h"
#include "tensor/device.h"
#include "tensor/layout.h"

namespace tensor {

class Tensor;
enum class ElementOp;
enum class UnaryFunction;
enum class CompareOp;
enum class BlasOp;
namespace internal {
enum class Extreme;
}  // namespace internal

struct DeviceOps {
  // The allocator of device `index`; an error for an index with no device.
  absl::StatusOr<Allocator*> (*allocator)(int index) = nullptr;

  // dst = src element by element in layout order, converting dtypes, where
  // at least one of them is on this device type and the other on it or on
  // the CPU. Same element count.
  absl::Status (*copy)(const Tensor& dst, const Tensor& src) = nullptr;

  // tensor op= value (one value, or one per entry of the last dimension),
  // as tensor::ApplyScalars; kAssign is fill.
  absl::Status (*apply_scalars)(const Tensor& tensor, ElementOp op,
                                absl::Span<const double> values) = nullptr;

  // dst op= src, as tensor::ApplyComponents for op != kAssign (kAssign is
  // `copy`): same dtype, same element count.
  absl::Status (*apply_components)(const Tensor& dst, ElementOp op, const Tensor& src) = nullptr;

  // tensor = f(tensor), as tensor::ApplyUnary.
  absl::Status (*apply_unary)(const Tensor& tensor, UnaryFunction function) = nullptr;

  // The sum of all elements, as tensor::Sum.
  absl::StatusOr<double> (*sum)(const Tensor& tensor) = nullptr;

  // The largest (smallest) element, as tensor::ExtremeOf. Not empty.
  absl::StatusOr<double> (*extreme)(const Tensor& tensor, internal::Extreme extreme) = nullptr;

  // out = the sum of input along `dim`; out has input's shape with extent 1
  // at `dim`, input's dtype.
  absl::Status (*sum_along)(const Tensor& input, int dim, const Tensor& out) = nullptr;

  // values, indices = the extreme of input along `dim` and its position
  // (the first among equals) plus first_index; both have input's shape with
  // extent 1 at `dim`, values input's dtype, indices int64. Not empty.
  absl::Status (*extreme_along)(const Tensor& input, int dim, internal::Extreme extreme,
                                Index first_index, const Tensor& values,
                                const Tensor& indices) = nullptr;

  // out = (x op value) as 0/1 in out (uint8, x's shape).
  absl::Status (*compare_scalar)(const Tensor& x, CompareOp op, double value,
                                 const Tensor& out) = nullptr;

  // out = (x op y) as 0/1 in out (uint8, x's shape); y has x's dtype and
  // element count.
  absl::Status (*compare_tensor)(const Tensor& x, CompareOp op, const Tensor& y,
                                 const Tensor& out) = nullptr;

  // out = beta * add + alpha * (lhs . rhs), as tensor::AddProduct, with
  // shapes and dtypes already checked.
  absl::Status (*add_product)(BlasOp op, const Tensor& out, double beta, const Tensor& add,
                              double alpha, const Tensor& lhs, const Tensor& rhs) = nullptr;

  // An allocator of page-locked host memory (device() is the CPU) from
  // which `copy` moves bytes to and from this device type without staging
  // them through the driver's own buffer; an error when the backend cannot
  // provide one.
  absl::StatusOr<Allocator*> (*pinned_host_allocator)() = nullptr;
};

// Makes `ops` the operations of device type `type` (not kCpu), replacing
// any before. Returns true, so a backend can register from a static
// initialiser. REQUIRES: `ops` outlives every use.
bool RegisterDeviceOps(DeviceType type, const DeviceOps* ops);

// The operations of `device`'s type; an error naming `operation` and the
// device if no backend for it is linked into this build.
absl::StatusOr<const DeviceOps*> DeviceOpsFor(Device device, const char* operation);

// OK if every tensor is on one device; else an error naming `operation`
// and two of the devices.
absl::Status CheckSameDevice(absl::Span<const Tensor* const> tensors, const char* operation);

}  // namespace tensor

#endif  // TENSOR_DEVICE_OPS_H_
