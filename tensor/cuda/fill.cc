#include "tensor/cuda/fill.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/cuda/fill_kernels.h"
#include "tensor/cuda/kernel_plan.h"
#include "tensor/cuda/runtime.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/internal/scalar_cast.h"

namespace tensor::cuda {

absl::Status Fill(const Tensor& t, double value) {
  if (t.device().is_cpu()) return ApplyScalars(t, ElementOp::kAssign, {value});
  constexpr const char* kName = "fill";
  absl::StatusOr<std::byte*> origin = t.data();
  if (!origin.ok()) return origin.status();
  if (absl::Status s = CheckDevice(t.device().index); !s.ok()) return s;
  // The element's bytes, converted as the CPU fill converts: to the
  // type's compute type first (float for the half types), then to it.
  std::uint64_t bits = 0;
  absl::Status representable = DispatchDType(t.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if (!internal::ScalarRepresentable<T>(value)) {
      return absl::InvalidArgumentError(
          absl::StrCat(kName, ": ", value, " is not a value of ", DTypeName(t.dtype())));
    }
    const T element = static_cast<T>(static_cast<ComputeType<T>>(value));
    std::memcpy(&bits, &element, sizeof(T));
    return absl::OkStatus();
  });
  if (!representable.ok()) return representable;
  if (t.num_elements() == 0) return absl::OkStatus();
  const std::size_t item = t.item_size();
  return OnDevice(t.device().index, [&]() -> absl::Status {
    absl::Status launched = ForEachKernelBlock<1>(
        t.shape(), {&t.layout().strides()}, [&](const KernelBlock<1>& block) {
          return CudaStatus(LaunchFill(static_cast<int>(item), *origin + block.offsets[0] * item,
                                       block.strides[0], block.shape, bits),
                            "the fill kernel");
        });
    if (!launched.ok()) return launched;
    return CudaStatus(cudaStreamSynchronize(0), "cudaStreamSynchronize");
  });
}

}  // namespace tensor::cuda
