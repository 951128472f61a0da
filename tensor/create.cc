#include "tensor/create.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/convert.h"
#include "tensor/internal/copy.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/row_major_fill.h"
#include "tensor/internal/scalar_cast.h"

namespace tensor {
namespace {

using internal::ConvertUnchecked;
using internal::CpuData;
using internal::FillRowMajor;
using internal::WritableData;

absl::Status FloatingOnly(const char* operation, DType dtype) {
  if (IsFloating(dtype)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": not defined for ", DTypeTensorName(dtype)));
}

absl::Status NeedsRank(const Tensor& tensor, int rank, const char* operation) {
  if (tensor.rank() == rank) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(operation, ": the tensor must have rank ", rank,
                                                 ", got shape ", tensor.layout().ShapeString()));
}

// Integer ranges count in 128 bits: from + i * step stays exact for any
// int64 bounds and any count below 2^53.
template <typename T>
absl::Status CheckIntegerRange(double from, double step, Index count) {
  const char* type = DTypeTensorName(DTypeOf<T>());
  if (!internal::ScalarRepresentable<T>(from)) {
    return absl::InvalidArgumentError(absl::StrCat("range: ", type, " cannot hold ", from));
  }
  if (std::trunc(step) != step || !internal::FloatFitsInteger<std::int64_t>(step)) {
    return absl::InvalidArgumentError(
        absl::StrCat("range: a ", type, " range needs a whole step, got ", step));
  }
  const __int128 last = static_cast<__int128>(from) +
                        static_cast<__int128>(count - 1) * static_cast<__int128>(step);
  if (last < static_cast<__int128>(std::numeric_limits<T>::min()) ||
      last > static_cast<__int128>(std::numeric_limits<T>::max())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "range: ", type, " cannot hold ", static_cast<double>(last), ", the last value"));
  }
  return absl::OkStatus();
}

// Element i of the n becomes value_at(v) for v the i-th of n equally
// spaced values from `first` to `last`.
template <typename ValueAt>
absl::Status FillSpaced(const Tensor& tensor, double first, double last, const char* operation,
                        ValueAt value_at) {
  absl::StatusOr<std::byte*> origin = WritableData(tensor, operation);
  if (!origin.ok()) return origin.status();
  if (absl::Status s = FloatingOnly(operation, tensor.dtype()); !s.ok()) return s;
  if (!std::isfinite(first) || !std::isfinite(last)) {
    return absl::InvalidArgumentError(
        absl::StrCat(operation, ": the bounds must be finite, got ", first, " and ", last));
  }
  const Index n = tensor.num_elements();
  if (n == 1 && first != last) {
    return absl::InvalidArgumentError(
        absl::StrCat(operation, ": one point needs equal bounds, got ", first, " and ", last));
  }
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    FillRowMajor<T>(tensor, *origin, [&](Index i) {
      // std::lerp is exact at both ends and cannot overflow in between.
      const double t = n == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(n - 1);
      return ConvertUnchecked<T>(value_at(std::lerp(first, last, t)));
    });
  });
  return absl::OkStatus();
}

// A row-major copy of a matrix that keeps the elements whose column minus
// row satisfies `keep`, and zeroes the others.
template <typename Keep>
absl::StatusOr<Tensor> Triangle(const Tensor& tensor, const char* operation, Allocator& allocator,
                                Keep keep) {
  if (absl::Status s = NeedsRank(tensor, 2, operation); !s.ok()) return s;
  if (absl::StatusOr<std::byte*> valid = CpuData(tensor, operation); !valid.ok()) {
    return valid.status();
  }
  absl::StatusOr<Tensor> matrix = Clone(tensor, allocator);
  if (!matrix.ok()) return matrix.status();
  const Index rows = matrix->shape()[0], columns = matrix->shape()[1];
  // Without elements there may still be 2^62 rows to walk, each empty.
  if (matrix->num_elements() == 0) return matrix;
  DispatchDType(matrix->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = reinterpret_cast<T*>(*matrix->data());
    for (Index i = 0; i < rows; ++i) {
      for (Index j = 0; j < columns; ++j) {
        if (!keep(j - i)) data[i * columns + j] = ConvertUnchecked<T>(0.0);
      }
    }
  });
  return matrix;
}

}  // namespace

absl::StatusOr<Index> RangeCount(double from, double to, double step) {
  if (!std::isfinite(from) || !std::isfinite(to)) {
    return absl::InvalidArgumentError(
        absl::StrCat("range: the bounds must be finite, got ", from, " and ", to));
  }
  if (!std::isfinite(step) || step == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("range: the step must be finite and nonzero, got ", step));
  }
  if ((step > 0 && to < from) || (step < 0 && to > from)) {
    return absl::InvalidArgumentError(absl::StrCat("range: a step of ", step,
                                                   " never goes from ", from, " to ", to));
  }
  const double steps = std::floor((to - from) / step);
  if (!(steps < 0x1p53)) {
    return absl::OutOfRangeError(absl::StrCat("range: from ", from, " to ", to, " by ", step,
                                              " has too many elements"));
  }
  return static_cast<Index>(steps) + 1;
}

absl::Status FillRange(const Tensor& tensor, double from, double step) {
  absl::StatusOr<std::byte*> origin = WritableData(tensor, "range");
  if (!origin.ok()) return origin.status();
  const Index n = tensor.num_elements();
  if (n == 0) return absl::OkStatus();
  return DispatchDType(tensor.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (kIsInteger<T>) {
      if (absl::Status s = CheckIntegerRange<T>(from, step, n); !s.ok()) return s;
      const auto first = static_cast<__int128>(from), delta = static_cast<__int128>(step);
      FillRowMajor<T>(tensor, *origin, [&](Index i) { return static_cast<T>(first + i * delta); });
    } else {
      FillRowMajor<T>(tensor, *origin, [&](Index i) {
        return ConvertUnchecked<T>(from + static_cast<double>(i) * step);
      });
    }
    return absl::OkStatus();
  });
}

absl::Status FillLinspace(const Tensor& tensor, double first, double last) {
  return FillSpaced(tensor, first, last, "linspace", [](double v) { return v; });
}

absl::Status FillLogspace(const Tensor& tensor, double first, double last) {
  return FillSpaced(tensor, first, last, "logspace", [](double v) { return std::pow(10.0, v); });
}

absl::Status FillEye(const Tensor& tensor) {
  if (absl::Status s = NeedsRank(tensor, 2, "eye"); !s.ok()) return s;
  absl::StatusOr<std::byte*> origin = WritableData(tensor, "eye");
  if (!origin.ok()) return origin.status();
  const Index columns = tensor.shape()[1];
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    FillRowMajor<T>(tensor, *origin, [columns](Index i) {
      return ConvertUnchecked<T>(i / columns == i % columns ? 1.0 : 0.0);
    });
  });
  return absl::OkStatus();
}

absl::StatusOr<Tensor> Diag(const Tensor& tensor, Index k, Allocator& allocator) {
  if (absl::StatusOr<std::byte*> valid = CpuData(tensor, "diag"); !valid.ok()) {
    return valid.status();
  }
  if (tensor.rank() == 1) {
    const Index n = tensor.shape()[0];
    Index size;
    // |k| without negating INT64_MIN.
    if (k < -(Index{1} << 62) || k > (Index{1} << 62) ||
        __builtin_add_overflow(n, k < 0 ? -k : k, &size)) {
      return absl::OutOfRangeError(absl::StrCat("diag: diagonal ", k, " is too far out"));
    }
    absl::StatusOr<Tensor> matrix = Tensor::Zeros(tensor.dtype(), {size, size}, allocator);
    if (!matrix.ok()) return matrix.status();
    absl::StatusOr<Layout> diagonal =
        Layout::Create({n}, {size + 1}, k >= 0 ? k : -k * size);
    if (!diagonal.ok()) return diagonal.status();
    absl::StatusOr<Tensor> view = matrix->WithLayout(*diagonal);
    if (!view.ok()) return view.status();
    if (absl::Status s = internal::CopyElements(*view, tensor); !s.ok()) return s;
    return matrix;
  }
  if (tensor.rank() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "diag: the tensor must be a vector or a matrix, got shape ", tensor.layout().ShapeString()));
  }
  const Index rows = tensor.shape()[0], columns = tensor.shape()[1];
  if (k >= columns || k <= -rows) {
    return absl::OutOfRangeError(absl::StrCat("diag: diagonal ", k, " of shape ",
                                              tensor.layout().ShapeString(), " is empty"));
  }
  const Index length = k >= 0 ? std::min(rows, columns - k) : std::min(rows + k, columns);
  const Strides& strides = tensor.layout().strides();
  Index step;
  if (__builtin_add_overflow(strides[0], strides[1], &step)) {
    return absl::OutOfRangeError("diag: the diagonal's stride overflows");
  }
  const Index start = tensor.layout().offset() + (k >= 0 ? k * strides[1] : -k * strides[0]);
  absl::StatusOr<Layout> diagonal = Layout::Create({length}, {step}, start);
  if (!diagonal.ok()) return diagonal.status();
  absl::StatusOr<Tensor> view = tensor.WithLayout(*diagonal);
  if (!view.ok()) return view.status();
  return Clone(*view, allocator);
}

absl::StatusOr<Tensor> Tril(const Tensor& tensor, Index k, Allocator& allocator) {
  return Triangle(tensor, "tril", allocator, [k](Index above) { return above <= k; });
}

absl::StatusOr<Tensor> Triu(const Tensor& tensor, Index k, Allocator& allocator) {
  return Triangle(tensor, "triu", allocator, [k](Index above) { return above >= k; });
}

absl::StatusOr<Tensor> Cat(absl::Span<const Tensor> inputs, std::optional<int> dim,
                           Allocator& allocator) {
  if (inputs.empty()) return absl::InvalidArgumentError("cat: no tensors to join");
  std::vector<const Tensor*> parts;
  for (const Tensor& input : inputs) {
    if (absl::StatusOr<std::byte*> valid = CpuData(input, "cat"); !valid.ok()) {
      return valid.status();
    }
    if (input.rank() > 0) parts.push_back(&input);
  }
  if (parts.empty()) return Tensor::Zeros(inputs[0].dtype(), {}, allocator);
  const Tensor& first = *parts[0];
  const int d = dim.value_or(first.rank() - 1);
  if (d < 0 || d >= first.rank()) {
    return absl::OutOfRangeError(absl::StrCat("cat: dimension ", d, " is out of range for shape ",
                                              first.layout().ShapeString()));
  }
  Shape shape = first.shape();
  shape[d] = 0;
  for (const Tensor* part : parts) {
    if (part->dtype() != first.dtype()) {
      return absl::InvalidArgumentError(absl::StrCat("cat: cannot join ",
                                                     DTypeTensorName(first.dtype()), " and ",
                                                     DTypeTensorName(part->dtype()),
                                                     "; the types must be equal"));
    }
    bool fits = part->rank() == first.rank();
    for (int i = 0; fits && i < first.rank(); ++i) fits = i == d || part->shape()[i] == shape[i];
    if (!fits) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cat: cannot join shapes ", first.layout().ShapeString(), " and ",
          part->layout().ShapeString(), " along dimension ", d,
          part->rank() == first.rank() ? "; the other extents must be equal"
                                       : "; the ranks differ"));
    }
    if (__builtin_add_overflow(shape[d], part->shape()[d], &shape[d])) {
      return absl::OutOfRangeError("cat: the joined extent overflows");
    }
  }
  absl::StatusOr<Tensor> result = Tensor::Uninitialized(first.dtype(), shape, allocator);
  if (!result.ok()) return result;
  Index start = 0;
  for (const Tensor* part : parts) {
    absl::StatusOr<Tensor> slot = result->Narrow(d, start, part->shape()[d]);
    if (!slot.ok()) return slot.status();
    if (absl::Status s = internal::CopyElements(*slot, *part); !s.ok()) return s;
    start += part->shape()[d];
  }
  return result;
}

absl::StatusOr<Tensor> RepeatTensor(const Tensor& tensor, absl::Span<const Index> repeats,
                                    Allocator& allocator) {
  if (absl::StatusOr<std::byte*> valid = CpuData(tensor, "repeatTensor"); !valid.ok()) {
    return valid.status();
  }
  if (tensor.rank() == 0) {
    return absl::InvalidArgumentError("repeatTensor: the tensor is empty");
  }
  const int rank = static_cast<int>(repeats.size());
  if (rank < tensor.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("repeatTensor: ", rank,
                                                   " repeats for shape ",
                                                   tensor.layout().ShapeString(),
                                                   "; give one per dimension at least"));
  }
  // The source with leading extent-1 dimensions up to the repeats' rank.
  const int added = rank - tensor.rank();
  Shape shape(rank);
  Shape source_extent(rank, 1);
  Strides source_stride(rank, 0);
  for (int i = 0; i < rank; ++i) {
    if (repeats[i] < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("repeatTensor: repeat ", repeats[i], " must be at least 1"));
    }
    if (i >= added) {
      source_extent[i] = tensor.shape()[i - added];
      source_stride[i] = tensor.layout().strides()[i - added];
    }
    if (__builtin_mul_overflow(source_extent[i], repeats[i], &shape[i])) {
      return absl::OutOfRangeError("repeatTensor: the result's shape overflows");
    }
  }
  absl::StatusOr<Tensor> result = Tensor::Uninitialized(tensor.dtype(), shape, allocator);
  if (!result.ok()) return result;
  // Both as (repeat, extent) pairs per dimension: the result tiles, the
  // source repeats with stride 0, and one copy fills every tile.
  Shape tiled_shape;
  Strides tiled_result, tiled_source;
  for (int i = 0; i < rank; ++i) {
    const Index stride = result->layout().strides()[i];
    tiled_shape.insert(tiled_shape.end(), {repeats[i], source_extent[i]});
    tiled_result.insert(tiled_result.end(), {stride * source_extent[i], stride});
    tiled_source.insert(tiled_source.end(), {0, source_stride[i]});
  }
  absl::StatusOr<Layout> result_layout = Layout::Create(tiled_shape, tiled_result, 0);
  if (!result_layout.ok()) return result_layout.status();
  absl::StatusOr<Layout> source_layout =
      Layout::Create(tiled_shape, tiled_source, tensor.layout().offset());
  if (!source_layout.ok()) return source_layout.status();
  absl::StatusOr<Tensor> tiles = result->WithLayout(*result_layout);
  if (!tiles.ok()) return tiles.status();
  absl::StatusOr<Tensor> source = tensor.WithLayout(*source_layout);
  if (!source.ok()) return source.status();
  if (absl::Status s = internal::CopyElements(*tiles, *source); !s.ok()) return s;
  return result;
}

}  // namespace tensor
