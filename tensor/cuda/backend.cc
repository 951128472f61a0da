// Registers the CUDA backend's DeviceOps when this library is linked in
// (alwayslink): the core's entry points then reach tensors on CUDA devices
// through it.
#include "tensor/cuda/allocator.h"
#include "tensor/cuda/copy.h"
#include "tensor/cuda/ops.h"
#include "tensor/cuda/pinned_allocator.h"
#include "tensor/device_ops.h"

namespace tensor::cuda {
namespace {

constexpr DeviceOps kCudaOps = {
    .allocator = &CudaAllocator,
    .copy = &CopyInLayoutOrder,
    .apply_scalars = &ops::ApplyScalars,
    .apply_components = &ops::ApplyComponents,
    .apply_unary = &ops::ApplyUnary,
    .sum = &ops::Sum,
    .extreme = &ops::ExtremeOf,
    .sum_along = &ops::SumAlong,
    .extreme_along = &ops::ExtremeAlong,
    .compare_scalar = &ops::CompareScalar,
    .compare_tensor = &ops::CompareTensor,
    .add_product = &ops::AddProduct,
    .pinned_host_allocator = &PinnedHostAllocator,
};

[[maybe_unused]] const bool kRegistered = RegisterDeviceOps(DeviceType::kCuda, &kCudaOps);

}  // namespace
}  // namespace tensor::cuda
