#include "tensor/resize.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/convert.h"
#include "tensor/internal/kernel_support.h"

namespace tensor {

absl::StatusOr<Tensor> Resize(const Tensor& tensor, absl::Span<const Index> shape,
                              Allocator& allocator) {
  if (absl::Status valid = internal::CpuData(tensor, "resize").status(); !valid.ok()) {
    return valid;
  }
  if (absl::Span<const Index>(tensor.shape()) == shape) return tensor;
  if (!tensor.owns_storage()) {
    return absl::FailedPreconditionError(
        absl::StrCat("resize: the tensor's memory was lent by ", tensor.storage()->loan()->lender(),
                     ", so its size cannot change; resize a clone instead"));
  }
  absl::StatusOr<Layout> layout = Layout::Contiguous(shape);
  if (!layout.ok()) return layout.status();
  const std::size_t item = tensor.item_size();
  std::size_t bytes;
  if (__builtin_mul_overflow(static_cast<std::size_t>(layout->num_elements()), item, &bytes)) {
    return absl::OutOfRangeError(absl::StrCat("resize: shape ", layout->ShapeString(), " of ",
                                              DTypeName(tensor.dtype()),
                                              " needs more than 2^64 bytes"));
  }
  const std::shared_ptr<Storage>& storage = tensor.storage();
  // Decided before anything below copies the tensor (and so the pointer).
  const bool keep_storage =
      storage != nullptr && storage.use_count() == 1 && storage->bytes() >= bytes;
  const Index kept = std::min(tensor.num_elements(), layout->num_elements());
  // The kept elements, row-major and dense from `from`.
  Tensor rows = tensor;
  if (kept > 0 && !tensor.layout().IsContiguous()) {
    absl::StatusOr<Tensor> copy = Clone(tensor, allocator);
    if (!copy.ok()) return copy.status();
    rows = *std::move(copy);
  }
  absl::StatusOr<std::byte*> from = rows.data();
  if (!from.ok()) return from.status();
  const std::size_t kept_bytes = static_cast<std::size_t>(kept) * item;
  if (keep_storage) {
    absl::StatusOr<std::byte*> base = storage->data();
    if (!base.ok()) return base.status();
    // The old elements may overlap their new place.
    if (kept_bytes > 0) std::memmove(*base, *from, kept_bytes);
    if (bytes > kept_bytes) std::memset(*base + kept_bytes, 0, bytes - kept_bytes);
    return Tensor::FromStorage(tensor.dtype(), *std::move(layout), storage);
  }
  absl::StatusOr<Tensor> result = Tensor::Zeros(tensor.dtype(), shape, allocator);
  if (!result.ok()) return result.status();
  if (kept_bytes > 0) {
    absl::StatusOr<std::byte*> to = result->data();
    if (!to.ok()) return to.status();
    std::memcpy(*to, *from, kept_bytes);
  }
  return result;
}

}  // namespace tensor
