#include "tensor/device_ops.h"

#include <array>
#include <atomic>

#include "absl/strings/str_cat.h"
#include "tensor/tensor.h"

namespace tensor {
namespace {

constexpr std::size_t kDeviceTypes = static_cast<std::size_t>(DeviceType::kCuda) + 1;

// Written by static initialisers, read by any thread.
std::array<std::atomic<const DeviceOps*>, kDeviceTypes>& Registry() {
  static std::array<std::atomic<const DeviceOps*>, kDeviceTypes> registry{};
  return registry;
}

}  // namespace

bool RegisterDeviceOps(DeviceType type, const DeviceOps* ops) {
  Registry()[static_cast<std::size_t>(type)].store(ops, std::memory_order_release);
  return true;
}

absl::StatusOr<const DeviceOps*> DeviceOpsFor(Device device, const char* operation) {
  const DeviceOps* ops = device.is_cpu()
                             ? nullptr
                             : Registry()[static_cast<std::size_t>(device.type)].load(
                                   std::memory_order_acquire);
  if (ops == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        operation, ": the tensor is on ", device.ToString(),
        ", and this build has no backend for that device (build with --config=cuda)"));
  }
  return ops;
}

absl::Status CheckSameDevice(absl::Span<const Tensor* const> tensors, const char* operation) {
  for (const Tensor* t : tensors) {
    if (t->device() != tensors.front()->device()) {
      return absl::InvalidArgumentError(absl::StrCat(
          operation, ": the tensors are on different devices, ",
          tensors.front()->device().ToString(), " and ", t->device().ToString(),
          "; copy one of them first"));
    }
  }
  return absl::OkStatus();
}

}  // namespace tensor
