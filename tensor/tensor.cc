#include "tensor/tensor.h"

#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/work_meter.h"

namespace tensor {
namespace {

// Fails unless every offset `layout` reaches holds a whole element of
// `item_size` bytes inside `bytes`.
absl::Status CheckFits(const Layout& layout, std::size_t item_size, std::size_t bytes) {
  if (layout.num_elements() == 0) return absl::OkStatus();
  const OffsetRange reach = layout.Reach();
  const Index capacity = static_cast<Index>(bytes / item_size);
  if (reach.lowest < 0 || reach.highest >= capacity) {
    return absl::OutOfRangeError(absl::StrCat(
        "layout of shape ", layout.ShapeString(), " reaches elements [", reach.lowest, ", ",
        reach.highest, "] but the storage holds ", capacity));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Tensor> Tensor::Allocate(DType dtype, absl::Span<const Index> shape,
                                        Allocator& allocator, bool zeroed) {
  absl::StatusOr<Layout> layout = Layout::Contiguous(shape);
  if (!layout.ok()) return layout.status();
  std::size_t bytes;
  if (__builtin_mul_overflow(static_cast<std::size_t>(layout->num_elements()), DTypeSize(dtype),
                             &bytes) ||
      bytes > static_cast<std::size_t>(INT64_MAX)) {
    return absl::OutOfRangeError(absl::StrCat("shape ", layout->ShapeString(), " of ",
                                              DTypeName(dtype), " needs more than 2^63 bytes"));
  }
  // Zeroing writes every element: work like a kernel's (work_meter.h).
  // Uninitialised results are charged by the kernel that fills them.
  if (zeroed) {
    if (absl::Status charged = ChargeWork(layout->num_elements()); !charged.ok()) {
      return absl::ResourceExhaustedError(
          absl::StrCat("creating ", layout->ShapeString(), ": ", charged.message()));
    }
  }
  absl::StatusOr<std::shared_ptr<Storage>> storage = Storage::Allocate(bytes, allocator, zeroed);
  if (!storage.ok()) return storage.status();
  return Tensor(dtype, *std::move(storage), *std::move(layout));
}

absl::StatusOr<Tensor> Tensor::Zeros(DType dtype, absl::Span<const Index> shape,
                                     Allocator& allocator) {
  return Allocate(dtype, shape, allocator, /*zeroed=*/true);
}

absl::StatusOr<Tensor> Tensor::Uninitialized(DType dtype, absl::Span<const Index> shape,
                                             Allocator& allocator) {
  return Allocate(dtype, shape, allocator, /*zeroed=*/false);
}

absl::StatusOr<Tensor> Tensor::Lend(DType dtype, Layout layout, void* data, std::size_t bytes,
                                    std::shared_ptr<Loan> loan, Device device) {
  absl::StatusOr<std::shared_ptr<Storage>> storage =
      Storage::Lend(data, bytes, std::move(loan), device);
  if (!storage.ok()) return storage.status();
  return FromStorage(dtype, std::move(layout), *std::move(storage));
}

absl::StatusOr<Tensor> Tensor::FromStorage(DType dtype, Layout layout,
                                           std::shared_ptr<Storage> storage) {
  if (storage == nullptr) return absl::InvalidArgumentError("a tensor needs storage");
  if (absl::Status fits = CheckFits(layout, DTypeSize(dtype), storage->bytes()); !fits.ok()) {
    return fits;
  }
  return Tensor(dtype, std::move(storage), std::move(layout));
}

absl::StatusOr<Tensor> Tensor::WithLayout(Layout layout) const {
  if (absl::Status valid = CheckValid(); !valid.ok()) return valid;
  if (storage_ == nullptr) {
    if (layout.num_elements() != 0) {
      return absl::OutOfRangeError("a tensor without storage has no elements to view");
    }
    return Tensor(dtype_, nullptr, std::move(layout));
  }
  return FromStorage(dtype_, std::move(layout), storage_);
}

absl::StatusOr<Tensor> Tensor::View(absl::StatusOr<Layout> layout) const {
  if (absl::Status valid = CheckValid(); !valid.ok()) return valid;
  if (!layout.ok()) return layout.status();
  // A view reaches only offsets its source reaches, so it needs no bounds
  // check against the storage.
  return Tensor(dtype_, storage_, *std::move(layout));
}

absl::StatusOr<Tensor> Tensor::Select(int dim, Index index) const {
  return View(layout_.Select(dim, index));
}
absl::StatusOr<Tensor> Tensor::Narrow(int dim, Index start, Index length) const {
  return View(layout_.Narrow(dim, start, length));
}
absl::StatusOr<Tensor> Tensor::Transpose(int dim0, int dim1) const {
  return View(layout_.Transpose(dim0, dim1));
}
absl::StatusOr<Tensor> Tensor::Permute(absl::Span<const int> order) const {
  return View(layout_.Permute(order));
}
absl::StatusOr<Tensor> Tensor::Reverse(int dim) const { return View(layout_.Reverse(dim)); }
absl::StatusOr<Tensor> Tensor::Reshape(absl::Span<const Index> shape) const {
  return View(layout_.Reshape(shape));
}
absl::StatusOr<Tensor> Tensor::Expand(absl::Span<const Index> shape) const {
  return View(layout_.Expand(shape));
}
absl::StatusOr<Tensor> Tensor::Unfold(int dim, Index size, Index step) const {
  return View(layout_.Unfold(dim, size, step));
}
absl::StatusOr<Tensor> Tensor::Squeeze() const { return View(layout_.Squeeze()); }
absl::StatusOr<Tensor> Tensor::Squeeze(int dim) const { return View(layout_.Squeeze(dim)); }
absl::StatusOr<Tensor> Tensor::Unsqueeze(int dim) const { return View(layout_.Unsqueeze(dim)); }

}  // namespace tensor
