#include "tensor/internal/index_support.h"

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/convert.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/scalar_cast.h"

namespace tensor::internal {
namespace {

// "[2, 1]": a row-major position within `shape`, counting from `base`.
std::string PositionString(const Shape& shape, Index flat, Index base) {
  Shape position(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    position[d] = flat % shape[d] + base;
    flat /= shape[d];
  }
  return ShapeToString(position);
}

}  // namespace

absl::Status CheckDim(const Tensor& tensor, int dim, const char* operation) {
  if (dim < 0 || dim >= tensor.rank()) {
    return absl::OutOfRangeError(absl::StrCat(operation, ": dimension ", dim,
                                              " (counting from 0) is out of range for shape ",
                                              tensor.layout().ShapeString()));
  }
  return absl::OkStatus();
}

absl::Status CheckFillValue(const Tensor& tensor, double value, const char* operation) {
  const bool representable = DispatchDType(tensor.dtype(), [&](auto tag) {
    return internal::ScalarRepresentable<typename decltype(tag)::type>(value);
  });
  if (representable) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": ", value, " is not a value of ", DTypeName(tensor.dtype())));
}

absl::StatusOr<std::vector<Index>> ReadIndices(const Tensor& indices, Index extent,
                                               Index index_base, const char* operation) {
  if (indices.dtype() != DType::kInt64) {
    return absl::InvalidArgumentError(absl::StrCat(
        operation, ": the indices must be int64 (", DTypeTensorName(DType::kInt64), "), got ",
        DTypeName(indices.dtype()), " (", DTypeTensorName(indices.dtype()), ")"));
  }
  absl::StatusOr<std::byte*> origin = CpuData(indices, operation);
  if (!origin.ok()) return origin.status();
  std::vector<Index> values;
  // The copy is the point: checked values cannot change under the writes.
  try {
    values.reserve(indices.num_elements());
  } catch (const std::exception&) {
    return absl::ResourceExhaustedError(
        absl::StrCat(operation, ": no memory for ", indices.num_elements(), " indices"));
  }
  if (indices.num_elements() == 0) return values;
  const Layout& layout = indices.layout();
  const auto* first = reinterpret_cast<const std::int64_t*>(*origin);
  Shape position(layout.rank(), 0);
  Index offset = 0;
  for (Index n = 0; n < layout.num_elements(); ++n) {
    const std::int64_t value = first[offset];
    // Compared before subtracting: value - base could overflow.
    if (value < index_base || value - index_base >= extent) {
      return absl::OutOfRangeError(absl::StrCat(
          operation, ": index ", value, " at ", PositionString(layout.shape(), n, index_base),
          " of the indices is out of range ",
          extent == 0 ? std::string("(the indexed dimension is empty)")
                      : absl::StrCat("[", index_base, ", ", index_base + extent - 1, "]")));
    }
    values.push_back(value - index_base);
    for (int d = layout.rank() - 1; d >= 0; --d) {
      offset += layout.strides()[d];
      if (++position[d] < layout.shape()[d]) break;
      offset -= layout.strides()[d] * layout.shape()[d];
      position[d] = 0;
    }
  }
  return values;
}

absl::StatusOr<Tensor> Unaliased(const Tensor& destination, const Tensor& source) {
  if (internal::MayAlias(destination, source)) return Clone(source);
  return source;
}

}  // namespace tensor::internal
