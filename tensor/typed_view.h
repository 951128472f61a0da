// TypedView<T>: a Tensor known to hold elements of type T.
//
// Reads and writes single elements with bounds and validity checks, and
// moves whole tensors to and from std::vector in row-major order.
//
// Example:
//   absl::StatusOr<Tensor> t = MakeTensor<float>({2, 2}, {1, 2, 3, 4});
//   absl::StatusOr<TypedView<float>> view = TypedView<float>::Of(*t);
//   view->Set({1, 0}, 7.0f);
//   absl::StatusOr<std::vector<float>> all = view->ToVector();  // {1, 2, 7, 4}
#ifndef TENSOR_TYPED_VIEW_H_
#define TENSOR_TYPED_VIEW_H_

#include <cstring>
#include <exception>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

namespace tensor {

template <typename T>
class TypedView {
 public:
  // Fails unless `tensor` holds elements of type T.
  static absl::StatusOr<TypedView> Of(Tensor tensor) {
    if (tensor.dtype() != DTypeOf<T>()) {
      return absl::InvalidArgumentError(absl::StrCat("expected a ", DTypeName(DTypeOf<T>()),
                                                     " tensor, got ", DTypeName(tensor.dtype())));
    }
    return TypedView(std::move(tensor));
  }

  const Tensor& tensor() const { return tensor_; }

  absl::StatusOr<T> Get(absl::Span<const Index> index) const {
    absl::StatusOr<T*> element = Address(index);
    if (!element.ok()) return element.status();
    return **element;
  }

  absl::Status Set(absl::Span<const Index> index, T value) const {
    absl::StatusOr<T*> element = Address(index);
    if (!element.ok()) return element.status();
    **element = value;
    return absl::OkStatus();
  }

  // Every element in row-major order.
  absl::StatusOr<std::vector<T>> ToVector() const {
    absl::StatusOr<std::byte*> data = tensor_.data();
    if (!data.ok()) return data.status();
    if (!tensor_.device().is_cpu()) return NotOnCpu();
    std::vector<T> values;
    // An expanded view can name far more elements than memory holds.
    try {
      values.reserve(tensor_.num_elements());
    } catch (const std::exception&) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "cannot hold ", tensor_.num_elements(), " elements of ", DTypeName(tensor_.dtype())));
    }
    if (tensor_.num_elements() == 0) return values;
    const T* origin = reinterpret_cast<const T*>(*data);
    const Layout& layout = tensor_.layout();
    Shape index(layout.rank(), 0);
    for (Index n = 0; n < layout.num_elements(); ++n) {
      Index offset = 0;
      for (int d = 0; d < layout.rank(); ++d) offset += index[d] * layout.strides()[d];
      values.push_back(origin[offset]);
      for (int d = layout.rank() - 1; d >= 0 && ++index[d] == layout.shape()[d]; --d) {
        index[d] = 0;
      }
    }
    return values;
  }

 private:
  explicit TypedView(Tensor tensor) : tensor_(std::move(tensor)) {}

  static absl::Status NotOnCpu() {
    return absl::FailedPreconditionError("element access needs a CPU tensor");
  }

  absl::StatusOr<T*> Address(absl::Span<const Index> index) const {
    absl::StatusOr<std::byte*> data = tensor_.data();
    if (!data.ok()) return data.status();
    if (!tensor_.device().is_cpu()) return NotOnCpu();
    absl::StatusOr<Index> offset = tensor_.layout().OffsetOf(index);
    if (!offset.ok()) return offset.status();
    return reinterpret_cast<T*>(*data) + (*offset - tensor_.layout().offset());
  }

  Tensor tensor_;
};

// A new owned row-major tensor of `shape` holding `values`. Fails if the
// counts differ.
template <typename T>
absl::StatusOr<Tensor> MakeTensor(absl::Span<const Index> shape, absl::Span<const T> values) {
  absl::StatusOr<Tensor> tensor = Tensor::Uninitialized(DTypeOf<T>(), shape);
  if (!tensor.ok()) return tensor.status();
  if (tensor->num_elements() != static_cast<Index>(values.size())) {
    return absl::InvalidArgumentError(absl::StrCat("shape ", ShapeToString(shape), " holds ",
                                                   tensor->num_elements(), " elements, but ",
                                                   values.size(), " values were given"));
  }
  if (!values.empty()) std::memcpy(*tensor->data(), values.data(), values.size() * sizeof(T));
  return tensor;
}

template <typename T>
absl::StatusOr<Tensor> MakeTensor(absl::Span<const Index> shape, std::initializer_list<T> values) {
  return MakeTensor<T>(shape, absl::Span<const T>(values.begin(), values.size()));
}

}  // namespace tensor

#endif  // TENSOR_TYPED_VIEW_H_
