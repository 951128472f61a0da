// IndexSelect, IndexCopy, IndexAdd and IndexFill of index.h.
#include "tensor/index.h"

#include <cstddef>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/internal/index_support.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/lines.h"
#include "tensor/internal/strided_loop.h"

namespace tensor {
namespace {

using internal::At;
using internal::CheckDim;
using internal::CheckFillValue;
using internal::CpuData;
using internal::ForEachLine;
using internal::OperandOf;
using internal::ReadIndices;
using internal::Unaliased;
using internal::ValueAs;

// x + y in T's arithmetic; integers wrap (in an unsigned type at least as
// wide as unsigned int, where overflow is defined).
template <typename T>
T WrappingSum(T x, T y) {
  if constexpr (kIsInteger<T>) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
  } else {
    return static_cast<T>(static_cast<ComputeType<T>>(x) + static_cast<ComputeType<T>>(y));
  }
}

absl::Status CheckVector(const Tensor& indices, const char* operation) {
  if (indices.rank() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(operation,
                                                   ": the indices must be a vector (rank 1), "
                                                   "got shape ",
                                                   indices.layout().ShapeString()));
  }
  return absl::OkStatus();
}

// Checks shared by IndexCopy and IndexAdd; returns the 0-based indices.
absl::StatusOr<std::vector<Index>> CheckIndexWrite(const Tensor& tensor, int dim,
                                                   const Tensor& indices, Index index_base,
                                                   const Tensor& source, bool add,
                                                   const char* operation) {
  if (absl::Status s = CpuData(tensor, operation).status(); !s.ok()) return s;
  if (absl::Status s = CpuData(source, operation).status(); !s.ok()) return s;
  if (absl::Status s = CheckDim(tensor, dim, operation); !s.ok()) return s;
  if (absl::Status s = CheckVector(indices, operation); !s.ok()) return s;
  if (absl::Status s = internal::CheckSameDType(tensor, source, operation); !s.ok()) return s;
  Shape expected = tensor.shape();
  expected[dim] = indices.num_elements();
  if (source.shape() != expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        operation, ": the source has shape ", source.layout().ShapeString(), ", expected ",
        ShapeToString(expected), " (one entry per index along the indexed dimension)"));
  }
  if (add && tensor.dtype() == DType::kBool) {
    return absl::InvalidArgumentError("indexAdd: arithmetic is not defined for bool tensors");
  }
  if (absl::Status s = internal::CheckWritable(tensor, operation); !s.ok()) return s;
  return ReadIndices(indices, tensor.shape()[dim], index_base, operation);
}

template <bool kAdd>
absl::Status IndexWrite(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                        const Tensor& given_source) {
  const char* operation = kAdd ? "indexAdd" : "indexCopy";
  absl::StatusOr<std::vector<Index>> rows =
      CheckIndexWrite(tensor, dim, indices, index_base, given_source, kAdd, operation);
  if (!rows.ok()) return rows.status();
  if (rows->empty() || tensor.num_elements() == 0) return absl::OkStatus();
  absl::StatusOr<Tensor> source = Unaliased(tensor, given_source);
  if (!source.ok()) return source.status();
  absl::StatusOr<std::byte*> t_origin = tensor.data();
  absl::StatusOr<std::byte*> s_origin = source->data();
  if (!t_origin.ok()) return t_origin.status();
  if (!s_origin.ok()) return s_origin.status();
  const Index t_step = tensor.layout().strides()[dim];
  const Index s_step = source->layout().strides()[dim];
  const std::vector<Index>& index = *rows;
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    ForEachLine<2>(tensor.shape(), dim,
                   {OperandOf(tensor, *t_origin), OperandOf(*source, *s_origin)},
                   [&](const auto& starts) {
                     T* t = At<T>(starts[0]);
                     const T* from = At<T>(starts[1]);
                     for (size_t k = 0; k < index.size(); ++k) {
                       T& x = t[index[k] * t_step];
                       const T y = from[static_cast<Index>(k) * s_step];
                       if constexpr (kAdd) {
                         x = WrappingSum(x, y);
                       } else {
                         x = y;
                       }
                     }
                   });
  });
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Tensor> IndexSelect(const Tensor& source, int dim, const Tensor& indices,
                                   Index index_base, Allocator& allocator) {
  absl::StatusOr<std::byte*> s_origin = CpuData(source, "index");
  if (!s_origin.ok()) return s_origin.status();
  if (absl::Status s = CheckDim(source, dim, "index"); !s.ok()) return s;
  if (absl::Status s = CheckVector(indices, "index"); !s.ok()) return s;
  absl::StatusOr<std::vector<Index>> rows =
      ReadIndices(indices, source.shape()[dim], index_base, "index");
  if (!rows.ok()) return rows.status();
  Shape shape = source.shape();
  shape[dim] = static_cast<Index>(rows->size());
  absl::StatusOr<Tensor> result = Tensor::Uninitialized(source.dtype(), shape, allocator);
  if (!result.ok() || result->num_elements() == 0) return result;
  absl::StatusOr<std::byte*> r_origin = result->data();
  if (!r_origin.ok()) return r_origin.status();
  const Index r_step = result->layout().strides()[dim];
  const Index s_step = source.layout().strides()[dim];
  const std::vector<Index>& index = *rows;
  DispatchDType(source.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    ForEachLine<2>(shape, dim, {OperandOf(*result, *r_origin), OperandOf(source, *s_origin)},
                   [&](const auto& starts) {
                     T* to = At<T>(starts[0]);
                     const T* from = At<T>(starts[1]);
                     for (size_t k = 0; k < index.size(); ++k) {
                       to[static_cast<Index>(k) * r_step] = from[index[k] * s_step];
                     }
                   });
  });
  return result;
}

absl::Status IndexCopy(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                       const Tensor& source) {
  return IndexWrite<false>(tensor, dim, indices, index_base, source);
}

absl::Status IndexAdd(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                      const Tensor& source) {
  return IndexWrite<true>(tensor, dim, indices, index_base, source);
}

absl::Status IndexFill(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                       double value) {
  absl::StatusOr<std::byte*> origin = CpuData(tensor, "indexFill");
  if (!origin.ok()) return origin.status();
  if (absl::Status s = CheckDim(tensor, dim, "indexFill"); !s.ok()) return s;
  if (absl::Status s = CheckVector(indices, "indexFill"); !s.ok()) return s;
  if (absl::Status s = CheckFillValue(tensor, value, "indexFill"); !s.ok()) return s;
  if (absl::Status s = internal::CheckWritable(tensor, "indexFill"); !s.ok()) return s;
  absl::StatusOr<std::vector<Index>> rows =
      ReadIndices(indices, tensor.shape()[dim], index_base, "indexFill");
  if (!rows.ok()) return rows.status();
  if (rows->empty() || tensor.num_elements() == 0) return absl::OkStatus();
  const Index step = tensor.layout().strides()[dim];
  const std::vector<Index>& index = *rows;
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = ValueAs<T>(value);
    ForEachLine<1>(tensor.shape(), dim, {OperandOf(tensor, *origin)}, [&](const auto& starts) {
      T* t = At<T>(starts[0]);
      for (Index k : index) t[k * step] = v;
    });
  });
  return absl::OkStatus();
}

}  // namespace tensor
