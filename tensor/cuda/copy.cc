#include "tensor/cuda/copy.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/allocator.h"
#include "tensor/cuda/allocator.h"
#include "tensor/cuda/copy_kernels.h"
#include "tensor/cuda/kernel_plan.h"
#include "tensor/cuda/op_support.h"
#include "tensor/cuda/runtime.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/internal/kernel_support.h"

namespace tensor::cuda {
namespace {

constexpr const char* kName = "copy";

absl::StatusOr<Allocator*> AllocatorFor(Device device) {
  if (device.is_cpu()) return &CpuAllocator();
  return CudaAllocator(device.index);
}

// Fails, naming the value, if some element of src does not fit dst's
// dtype. Runs on the current device.
absl::Status CheckConvertible(DType to, const Tensor& src, std::byte* src_origin, int device) {
  absl::StatusOr<Allocator*> allocator = CudaAllocator(device);
  if (!allocator.ok()) return allocator.status();
  absl::StatusOr<Tensor> record = Tensor::Zeros(
      DType::kUInt8, {static_cast<Index>(sizeof(ConversionFailure))}, **allocator);
  if (!record.ok()) return record.status();
  absl::StatusOr<std::byte*> record_data = record->data();
  if (!record_data.ok()) return record_data.status();
  auto* failure = reinterpret_cast<ConversionFailure*>(*record_data);
  const std::size_t item = src.item_size();
  absl::Status launched = ForEachKernelBlock<1>(
      src.shape(), {&src.layout().strides()}, [&](const KernelBlock<1>& block) {
        return CudaStatus(LaunchConversionCheck(ElementTypeOf(to), ElementTypeOf(src.dtype()),
                                                src_origin + block.offsets[0] * item,
                                                block.strides[0], block.shape, failure),
                          "the conversion check kernel");
      });
  if (!launched.ok()) return launched;
  ConversionFailure result;
  if (absl::Status s = CudaStatus(
          cudaMemcpyAsync(&result, failure, sizeof(result), cudaMemcpyDeviceToHost, 0),
          "cudaMemcpyAsync");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = Synchronize(); !s.ok()) return s;
  if (result.failed == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("copy: the value ", result.value,
                                                 " cannot be held by ", DTypeName(to),
                                                 "; nothing was copied"));
}

// Copy between two tensors of one shape, with elements, on one CUDA device.
absl::Status CopyOnCuda(const Tensor& dst, const Tensor& src) {
  absl::StatusOr<std::byte*> dst_origin = dst.data();
  if (!dst_origin.ok()) return dst_origin.status();
  absl::StatusOr<std::byte*> src_origin = src.data();
  if (!src_origin.ok()) return src_origin.status();
  const int device = dst.device().index;
  return OnDevice(device, [&]() -> absl::Status {
    if (MayShareBytes(dst, *dst_origin, src, *src_origin)) {
      // A kernel's threads read and write in no particular order, so
      // overlapping memory is read into a copy first.
      absl::StatusOr<Allocator*> allocator = CudaAllocator(device);
      if (!allocator.ok()) return allocator.status();
      absl::StatusOr<Tensor> staged = Tensor::Uninitialized(src.dtype(), src.shape(), **allocator);
      if (!staged.ok()) return staged.status();
      if (absl::Status s = CopyOnCuda(*staged, src); !s.ok()) return s;
      return CopyOnCuda(dst, *staged);
    }
    const bool same_dtype = dst.dtype() == src.dtype();
    if (same_dtype && dst.layout().IsContiguous() && src.layout().IsContiguous()) {
      const std::size_t bytes = dst.num_elements() * dst.item_size();
      if (absl::Status s = CudaStatus(cudaMemcpyAsync(*dst_origin, *src_origin, bytes,
                                                      cudaMemcpyDeviceToDevice, 0),
                                      "cudaMemcpyAsync");
          !s.ok()) {
        return s;
      }
      return Synchronize();
    }
    const ElementType to = ElementTypeOf(dst.dtype()), from = ElementTypeOf(src.dtype());
    if (NeedsConversionCheck(to, from)) {
      if (absl::Status s = CheckConvertible(dst.dtype(), src, *src_origin, device); !s.ok()) {
        return s;
      }
    }
    const std::size_t dst_item = dst.item_size(), src_item = src.item_size();
    absl::Status launched = ForEachKernelBlock<2>(
        dst.shape(), {&dst.layout().strides(), &src.layout().strides()},
        [&](const KernelBlock<2>& block) {
          std::byte* out = *dst_origin + block.offsets[0] * dst_item;
          const std::byte* in = *src_origin + block.offsets[1] * src_item;
          const cudaError_t error =
              same_dtype ? LaunchStridedCopy(static_cast<int>(dst_item), out, block.strides[0],
                                             in, block.strides[1], block.shape)
                         : LaunchConvertingCopy(to, out, block.strides[0], from, in,
                                                block.strides[1], block.shape);
          return CudaStatus(error, "the copy kernel");
        });
    if (!launched.ok()) return launched;
    return Synchronize();
  });
}

// Copy between two tensors of one shape, with elements, on one device.
absl::Status CopyOnDevice(const Tensor& dst, const Tensor& src) {
  if (dst.device().is_cpu()) return ApplyComponents(dst, ElementOp::kAssign, src);
  return CopyOnCuda(dst, src);
}

// t itself if contiguous, else a contiguous copy of it on its device.
absl::StatusOr<Tensor> Compacted(const Tensor& t) {
  if (t.layout().IsContiguous()) return t;
  absl::StatusOr<Allocator*> allocator = AllocatorFor(t.device());
  if (!allocator.ok()) return allocator.status();
  absl::StatusOr<Tensor> compact = Tensor::Uninitialized(t.dtype(), t.shape(), **allocator);
  if (!compact.ok()) return compact.status();
  if (absl::Status s = CopyOnDevice(*compact, t); !s.ok()) return s;
  return compact;
}

// One cudaMemcpy between two contiguous tensors of one dtype and shape,
// with elements, on different devices.
absl::Status Transfer(const Tensor& dst, const Tensor& src) {
  absl::StatusOr<std::byte*> dst_data = dst.data();
  if (!dst_data.ok()) return dst_data.status();
  absl::StatusOr<std::byte*> src_data = src.data();
  if (!src_data.ok()) return src_data.status();
  const std::size_t bytes = dst.num_elements() * dst.item_size();
  const Device to = dst.device(), from = src.device();
  // Issued from a CUDA side's device, whose default stream orders it.
  return OnDevice(to.is_cpu() ? from.index : to.index, [&]() -> absl::Status {
    cudaError_t error;
    if (from.is_cpu()) {
      error = cudaMemcpyAsync(*dst_data, *src_data, bytes, cudaMemcpyHostToDevice, 0);
    } else if (to.is_cpu()) {
      error = cudaMemcpyAsync(*dst_data, *src_data, bytes, cudaMemcpyDeviceToHost, 0);
    } else {
      error = cudaMemcpyPeerAsync(*dst_data, to.index, *src_data, from.index, bytes, 0);
    }
    if (absl::Status s = CudaStatus(error, "cudaMemcpyAsync"); !s.ok()) return s;
    return Synchronize();
  });
}

absl::Status CheckDeviceOf(const Tensor& t) {
  return t.device().is_cpu() ? absl::OkStatus() : CheckDevice(t.device().index);
}

}  // namespace

absl::Status Copy(const Tensor& dst, const Tensor& src) {
  if (absl::Status s = dst.CheckValid(); !s.ok()) return s;
  if (absl::Status s = src.CheckValid(); !s.ok()) return s;
  if (absl::Status s = internal::CheckSameCount(dst, src, kName); !s.ok()) return s;
  if (dst.shape() != src.shape()) {
    return absl::InvalidArgumentError(
        absl::StrCat(kName, ": the tensors have shapes ", dst.layout().ShapeString(), " and ",
                     src.layout().ShapeString(), "; they must have the same shape"));
  }
  if (absl::Status s = internal::CheckWritable(dst, kName); !s.ok()) return s;
  if (absl::Status s = CheckDeviceOf(dst); !s.ok()) return s;
  if (absl::Status s = CheckDeviceOf(src); !s.ok()) return s;
  if (dst.num_elements() == 0) return absl::OkStatus();
  if (dst.device() == src.device()) return CopyOnDevice(dst, src);
  if (dst.device().is_cpu() && dst.dtype() != src.dtype()) {
    // Convert on the GPU, where it is cheap, before the bytes cross.
    absl::StatusOr<Allocator*> allocator = CudaAllocator(src.device().index);
    if (!allocator.ok()) return allocator.status();
    absl::StatusOr<Tensor> converted =
        Tensor::Uninitialized(dst.dtype(), src.shape(), **allocator);
    if (!converted.ok()) return converted.status();
    if (absl::Status s = CopyOnCuda(*converted, src); !s.ok()) return s;
    return Copy(dst, *converted);
  }
  absl::StatusOr<Tensor> source = Compacted(src);
  if (!source.ok()) return source.status();
  if (dst.dtype() == src.dtype() && dst.layout().IsContiguous()) return Transfer(dst, *source);
  // The bytes cross as they are into a contiguous buffer beside dst; the
  // conversion or scatter into dst's layout happens there.
  absl::StatusOr<Allocator*> allocator = AllocatorFor(dst.device());
  if (!allocator.ok()) return allocator.status();
  absl::StatusOr<Tensor> staged = Tensor::Uninitialized(src.dtype(), src.shape(), **allocator);
  if (!staged.ok()) return staged.status();
  if (absl::Status s = Transfer(*staged, *source); !s.ok()) return s;
  return CopyOnDevice(dst, *staged);
}

absl::StatusOr<Tensor> InShapeOf(const Tensor& dst, const Tensor& src) {
  if (src.shape() == dst.shape()) return src;
  absl::StatusOr<Tensor> contiguous = Compacted(src);
  if (!contiguous.ok()) return contiguous.status();
  return contiguous->Reshape(dst.shape());
}

absl::Status CopyInLayoutOrder(const Tensor& dst, const Tensor& src) {
  if (absl::Status s = internal::CheckSameCount(dst, src, kName); !s.ok()) return s;
  absl::StatusOr<Tensor> source = InShapeOf(dst, src);
  if (!source.ok()) return source.status();
  return Copy(dst, *source);
}

}  // namespace tensor::cuda
