// ops::Sum, ExtremeOf, SumAlong and ExtremeAlong: host side. The whole-
// tensor reductions leave one partial result per block on the device; the
// host combines the few hundred of them in block order.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/cuda/kernel_plan.h"
#include "tensor/cuda/op_support.h"
#include "tensor/cuda/ops.h"
#include "tensor/cuda/ops_kernels.h"
#include "tensor/cuda/runtime.h"

namespace tensor::cuda::ops {
namespace {

using internal::Extreme;

// Copies the first `count` partial results back (which waits for the
// kernel that wrote them).
template <typename P>
absl::Status FetchPartials(const P* device_partials, int count, std::vector<P>& host) {
  host.resize(count);
  return CudaStatus(
      cudaMemcpy(host.data(), device_partials, count * sizeof(P), cudaMemcpyDeviceToHost),
      "cudaMemcpy");
}

// Whether candidate b replaces a, the extreme so far: ExtremeOfRun's rule
// (the first NaN, else the first largest or smallest), for candidates of
// any order.
bool Replaces(bool floating, bool max, const ExtremeCandidate& a, const ExtremeCandidate& b) {
  if (a.nan || b.nan) return a.nan && b.nan ? b.index < a.index : b.nan != 0;
  if (floating) {
    if (a.value != b.value) return max ? b.value > a.value : b.value < a.value;
  } else if (a.integer != b.integer) {
    return max ? b.integer > a.integer : b.integer < a.integer;
  }
  return b.index < a.index;
}

// The walk of the lines along `dim`, for `out` (extent 1 at dim): each
// block of ForEachKernelBlock over out's shape, with the input's strides
// first, becomes a LineWalk.
LineWalk LineWalkOf(const Tensor& input, int dim, const KernelShape& shape,
                    const KernelStrides& input_strides) {
  return {shape, input_strides, input.layout().strides()[dim], input.shape()[dim]};
}

}  // namespace

absl::StatusOr<double> Sum(const Tensor& tensor) {
  absl::StatusOr<int> device = CommonDevice({&tensor}, "sum");
  if (!device.ok()) return device.status();
  absl::StatusOr<std::byte*> origin = tensor.data();
  if (!origin.ok()) return origin.status();
  if (tensor.num_elements() == 0) return 0.0;
  double total = 0;
  absl::Status status = OnDevice(*device, [&]() -> absl::Status {
    absl::StatusOr<Tensor> partials = NewOnCuda(DType::kFloat64, {kMaxReductionBlocks}, *device);
    if (!partials.ok()) return partials.status();
    const double* device_partials = reinterpret_cast<const double*>(*partials->data());
    std::vector<double> host;
    const std::size_t item = tensor.item_size();
    return ForEachKernelBlock<1>(
        tensor.shape(), {&tensor.layout().strides()}, [&](const KernelBlock<1>& block) {
          int blocks = 0;
          if (absl::Status s = CudaStatus(
                  LaunchSumPartials(ElementTypeOf(tensor.dtype()),
                                    *origin + block.offsets[0] * item, block.strides[0],
                                    block.shape, reinterpret_cast<double*>(*partials->data()),
                                    &blocks),
                  "the sum kernel");
              !s.ok()) {
            return s;
          }
          if (absl::Status s = FetchPartials(device_partials, blocks, host); !s.ok()) return s;
          for (double partial : host) total += partial;
          return absl::OkStatus();
        });
  });
  if (!status.ok()) return status;
  return total;
}

absl::StatusOr<double> ExtremeOf(const Tensor& tensor, Extreme extreme) {
  const char* name = extreme == Extreme::kMax ? "max" : "min";
  absl::StatusOr<int> device = CommonDevice({&tensor}, name);
  if (!device.ok()) return device.status();
  absl::StatusOr<std::byte*> origin = tensor.data();
  if (!origin.ok()) return origin.status();
  if (tensor.num_elements() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": the tensor ", tensor.layout().ShapeString(), " has no elements"));
  }
  const bool floating = IsFloating(tensor.dtype());
  const bool max = extreme == Extreme::kMax;
  bool found = false;
  ExtremeCandidate best{};
  absl::Status status = OnDevice(*device, [&]() -> absl::Status {
    absl::StatusOr<Tensor> partials = NewOnCuda(
        DType::kUInt8, {static_cast<Index>(kMaxReductionBlocks * sizeof(ExtremeCandidate))},
        *device);
    if (!partials.ok()) return partials.status();
    auto* device_partials = reinterpret_cast<ExtremeCandidate*>(*partials->data());
    std::vector<ExtremeCandidate> host;
    const std::size_t item = tensor.item_size();
    // Blocks of the walk come in row-major order; `base` makes their
    // indices global so that the first among equals wins across them.
    Index base = 0;
    return ForEachKernelBlock<1>(
        tensor.shape(), {&tensor.layout().strides()}, [&](const KernelBlock<1>& block) {
          int blocks = 0;
          if (absl::Status s = CudaStatus(
                  LaunchExtremePartials(ElementTypeOf(tensor.dtype()), max,
                                        *origin + block.offsets[0] * item, block.strides[0],
                                        block.shape, device_partials, &blocks),
                  "the extreme kernel");
              !s.ok()) {
            return s;
          }
          if (absl::Status s = FetchPartials(device_partials, blocks, host); !s.ok()) return s;
          for (ExtremeCandidate candidate : host) {
            candidate.index += base;
            if (!found || Replaces(floating, max, best, candidate)) best = candidate;
            found = true;
          }
          base += block.shape.count;
          return absl::OkStatus();
        });
  });
  if (!status.ok()) return status;
  return floating ? best.value : static_cast<double>(best.integer);
}

absl::Status SumAlong(const Tensor& input, int dim, const Tensor& out) {
  absl::StatusOr<int> device = CommonDevice({&input, &out}, "sum");
  if (!device.ok()) return device.status();
  absl::StatusOr<std::byte*> in_origin = input.data();
  if (!in_origin.ok()) return in_origin.status();
  absl::StatusOr<std::byte*> out_origin = out.data();
  if (!out_origin.ok()) return out_origin.status();
  if (out.num_elements() == 0) return absl::OkStatus();
  return OnDevice(*device, [&]() -> absl::Status {
    const std::size_t item = input.item_size();
    absl::Status launched = ForEachKernelBlock<2>(
        out.shape(), {&input.layout().strides(), &out.layout().strides()},
        [&](const KernelBlock<2>& block) {
          return CudaStatus(
              LaunchSumAlong(ElementTypeOf(input.dtype()), *in_origin + block.offsets[0] * item,
                             LineWalkOf(input, dim, block.shape, block.strides[0]),
                             *out_origin + block.offsets[1] * item, block.strides[1]),
              "the sum-along kernel");
        });
    if (!launched.ok()) return launched;
    return Synchronize();
  });
}

absl::Status ExtremeAlong(const Tensor& input, int dim, Extreme extreme, Index first_index,
                          const Tensor& values, const Tensor& indices) {
  const char* name = extreme == Extreme::kMax ? "max" : "min";
  absl::StatusOr<int> device = CommonDevice({&input, &values, &indices}, name);
  if (!device.ok()) return device.status();
  absl::StatusOr<std::byte*> in_origin = input.data();
  if (!in_origin.ok()) return in_origin.status();
  absl::StatusOr<std::byte*> value_origin = values.data();
  if (!value_origin.ok()) return value_origin.status();
  absl::StatusOr<std::byte*> index_origin = indices.data();
  if (!index_origin.ok()) return index_origin.status();
  if (values.num_elements() == 0) return absl::OkStatus();
  if (input.shape()[dim] == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": the dimension to reduce has no elements (shape ",
                     input.layout().ShapeString(), ")"));
  }
  return OnDevice(*device, [&]() -> absl::Status {
    const std::size_t item = input.item_size();
    absl::Status launched = ForEachKernelBlock<3>(
        values.shape(),
        {&input.layout().strides(), &values.layout().strides(), &indices.layout().strides()},
        [&](const KernelBlock<3>& block) {
          return CudaStatus(
              LaunchExtremeAlong(
                  ElementTypeOf(input.dtype()), extreme == Extreme::kMax,
                  *in_origin + block.offsets[0] * item,
                  LineWalkOf(input, dim, block.shape, block.strides[0]), first_index,
                  *value_origin + block.offsets[1] * item, block.strides[1],
                  reinterpret_cast<std::int64_t*>(*index_origin) + block.offsets[2],
                  block.strides[2]),
              "the extreme-along kernel");
        });
    if (!launched.ok()) return launched;
    return Synchronize();
  });
}

}  // namespace tensor::cuda::ops
