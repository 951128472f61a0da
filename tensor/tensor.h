// Tensor: the type-erased tensor, a dtype + shared storage + layout.
//
// This is what the Lua binding and the engine hold. Copies are cheap and
// share storage; views share storage and, for lent memory, its validity.
// Every operation, views included, checks validity first: a tensor over a
// revoked loan yields the loan's error and never touches the memory.
//
// Example:
//   absl::StatusOr<Tensor> m = Tensor::Zeros(DType::kFloat64, {3, 2});
//   absl::StatusOr<Tensor> column = m->Select(1, 0);   // shares m's storage
//   ScopedLoan loan("engine frame");
//   absl::StatusOr<Tensor> frame = Tensor::Lend(
//       DType::kUInt8, *Layout::Contiguous({h, w, 3}), pixels, h * w * 3,
//       loan.token());
#ifndef TENSOR_TENSOR_H_
#define TENSOR_TENSOR_H_

#include <cstddef>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "tensor/allocator.h"
#include "tensor/dtype.h"
#include "tensor/layout.h"
#include "tensor/loan.h"
#include "tensor/storage.h"

namespace tensor {

class Tensor {
 public:
  // An empty float64 tensor: rank 0, no elements, no storage.
  Tensor() = default;

  // A new owned, row-major, zero-filled tensor.
  static absl::StatusOr<Tensor> Zeros(DType dtype, absl::Span<const Index> shape,
                                      Allocator& allocator = CpuAllocator());

  // Like Zeros, but the elements are left unset: for results that are
  // written in full at once.
  static absl::StatusOr<Tensor> Uninitialized(DType dtype, absl::Span<const Index> shape,
                                              Allocator& allocator = CpuAllocator());

  // A tensor over memory lent by someone else; see loan.h. Fails if the
  // layout reaches outside the `bytes` bytes at `data`.
  static absl::StatusOr<Tensor> Lend(DType dtype, Layout layout, void* data, std::size_t bytes,
                                     std::shared_ptr<Loan> loan, Device device = Device::Cpu());

  // A tensor over existing storage. Fails if the layout reaches outside it.
  static absl::StatusOr<Tensor> FromStorage(DType dtype, Layout layout,
                                            std::shared_ptr<Storage> storage);

  DType dtype() const { return dtype_; }
  std::size_t item_size() const { return DTypeSize(dtype_); }
  const Layout& layout() const { return layout_; }
  const Shape& shape() const { return layout_.shape(); }
  int rank() const { return layout_.rank(); }
  Index num_elements() const { return layout_.num_elements(); }
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  Device device() const { return storage_ ? storage_->device() : Device::Cpu(); }

  // Whether the storage is owned (so the tensor can never become invalid).
  bool owns_storage() const { return storage_ == nullptr || storage_->owned(); }

  // OK unless the storage is lent and the loan has ended.
  absl::Status CheckValid() const {
    return storage_ == nullptr ? absl::OkStatus() : storage_->CheckValid();
  }

  // The address of element [0, ..., 0] (the layout's offset), after the
  // validity check. Strides may lead below it. Null for a tensor with no
  // storage.
  absl::StatusOr<std::byte*> data() const {
    if (storage_ == nullptr) return nullptr;
    absl::StatusOr<std::byte*> base = storage_->data();
    // Without elements the offset need not lie in the storage, and nothing
    // is ever read through the pointer.
    if (!base.ok() || layout_.num_elements() == 0) return base;
    return *base + layout_.offset() * static_cast<Index>(item_size());
  }

  // Views: each shares storage and validity with this tensor. See layout.h
  // for what each does.
  absl::StatusOr<Tensor> Select(int dim, Index index) const;
  absl::StatusOr<Tensor> Narrow(int dim, Index start, Index length) const;
  absl::StatusOr<Tensor> Transpose(int dim0, int dim1) const;
  absl::StatusOr<Tensor> Permute(absl::Span<const int> order) const;
  absl::StatusOr<Tensor> Reverse(int dim) const;
  absl::StatusOr<Tensor> Reshape(absl::Span<const Index> shape) const;
  absl::StatusOr<Tensor> Expand(absl::Span<const Index> shape) const;
  absl::StatusOr<Tensor> Unfold(int dim, Index size, Index step) const;
  absl::StatusOr<Tensor> Squeeze() const;
  absl::StatusOr<Tensor> Squeeze(int dim) const;
  absl::StatusOr<Tensor> Unsqueeze(int dim) const;

  // This tensor's storage and dtype under another layout, which must stay
  // within the storage.
  absl::StatusOr<Tensor> WithLayout(Layout layout) const;

 private:
  Tensor(DType dtype, std::shared_ptr<Storage> storage, Layout layout)
      : dtype_(dtype), storage_(std::move(storage)), layout_(std::move(layout)) {}

  static absl::StatusOr<Tensor> Allocate(DType dtype, absl::Span<const Index> shape,
                                         Allocator& allocator, bool zeroed);
  absl::StatusOr<Tensor> View(absl::StatusOr<Layout> layout) const;

  DType dtype_ = DType::kFloat64;
  std::shared_ptr<Storage> storage_;
  Layout layout_;
};

}  // namespace tensor

#endif  // TENSOR_TENSOR_H_
