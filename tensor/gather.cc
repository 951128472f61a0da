// Gather, Scatter and ScatterFill of index.h.
#include <cstddef>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/index.h"
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
using internal::RowMajorStrides;
using internal::Unaliased;
using internal::ValueAs;

// Gather and scatter pair `other` with `tensor` in every dimension but `dim`.
absl::Status CheckAlongside(const Tensor& tensor, int dim, const Tensor& other, const char* what,
                            const char* operation) {
  bool agree = other.rank() == tensor.rank();
  for (int d = 0; agree && d < tensor.rank(); ++d) {
    agree = d == dim || other.shape()[d] == tensor.shape()[d];
  }
  if (agree) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": ", what, " has shape ", other.layout().ShapeString(),
                   "; it needs the rank of shape ", tensor.layout().ShapeString(),
                   " and its extents in every dimension but the indexed one"));
}

// Checks shared by Gather and Scatter; returns the 0-based indices.
absl::StatusOr<std::vector<Index>> CheckGatherIndices(const Tensor& tensor, int dim,
                                                      const Tensor& indices, Index index_base,
                                                      const char* operation) {
  if (absl::Status s = CpuData(tensor, operation).status(); !s.ok()) return s;
  if (absl::Status s = CpuData(indices, operation).status(); !s.ok()) return s;
  if (absl::Status s = CheckDim(tensor, dim, operation); !s.ok()) return s;
  if (absl::Status s = CheckAlongside(tensor, dim, indices, "the indices", operation); !s.ok()) {
    return s;
  }
  return ReadIndices(indices, tensor.shape()[dim], index_base, operation);
}

// The 0-based indices, which ReadIndices left row-major (`strides` from
// RowMajorStrides of indices' shape), as a loop operand.
internal::Operand IndexOperand(std::vector<Index>& values, const Strides& strides) {
  return {reinterpret_cast<std::byte*>(values.data()), &strides, static_cast<Index>(sizeof(Index))};
}

}  // namespace

absl::StatusOr<Tensor> Gather(const Tensor& source, int dim, const Tensor& indices,
                              Index index_base, Allocator& allocator) {
  absl::StatusOr<std::vector<Index>> values =
      CheckGatherIndices(source, dim, indices, index_base, "gather");
  if (!values.ok()) return values.status();
  absl::StatusOr<Tensor> result = Tensor::Uninitialized(source.dtype(), indices.shape(), allocator);
  if (!result.ok() || result->num_elements() == 0) return result;
  absl::StatusOr<std::byte*> r_origin = result->data();
  absl::StatusOr<std::byte*> s_origin = source.data();
  if (!r_origin.ok()) return r_origin.status();
  if (!s_origin.ok()) return s_origin.status();
  const Strides i_strides = RowMajorStrides(indices.shape());
  const Index r_step = result->layout().strides()[dim];
  const Index s_step = source.layout().strides()[dim];
  const Index i_step = i_strides[dim];
  const Index count = indices.shape()[dim];
  DispatchDType(source.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    ForEachLine<3>(indices.shape(), dim,
                   {OperandOf(*result, *r_origin), OperandOf(source, *s_origin),
                    IndexOperand(*values, i_strides)},
                   [&](const auto& starts) {
                     T* to = At<T>(starts[0]);
                     const T* from = At<T>(starts[1]);
                     const Index* at = At<Index>(starts[2]);
                     for (Index k = 0; k < count; ++k) {
                       to[k * r_step] = from[at[k * i_step] * s_step];
                     }
                   });
  });
  return result;
}

absl::Status Scatter(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                     const Tensor& given_source) {
  absl::StatusOr<std::vector<Index>> values =
      CheckGatherIndices(tensor, dim, indices, index_base, "scatter");
  if (!values.ok()) return values.status();
  if (absl::Status s = CpuData(given_source, "scatter").status(); !s.ok()) return s;
  if (absl::Status s = internal::CheckSameDType(tensor, given_source, "scatter"); !s.ok()) return s;
  if (absl::Status s = CheckAlongside(tensor, dim, given_source, "the source", "scatter");
      !s.ok()) {
    return s;
  }
  if (given_source.shape()[dim] < indices.shape()[dim]) {
    return absl::InvalidArgumentError(absl::StrCat(
        "scatter: the source has ", given_source.shape()[dim],
        " entries along the scattered dimension, fewer than the indices' ", indices.shape()[dim]));
  }
  if (absl::Status s = internal::CheckWritable(tensor, "scatter"); !s.ok()) return s;
  if (indices.num_elements() == 0) return absl::OkStatus();
  absl::StatusOr<Tensor> source = Unaliased(tensor, given_source);
  if (!source.ok()) return source.status();
  absl::StatusOr<std::byte*> t_origin = tensor.data();
  absl::StatusOr<std::byte*> s_origin = source->data();
  if (!t_origin.ok()) return t_origin.status();
  if (!s_origin.ok()) return s_origin.status();
  const Strides i_strides = RowMajorStrides(indices.shape());
  const Index t_step = tensor.layout().strides()[dim];
  const Index s_step = source->layout().strides()[dim];
  const Index i_step = i_strides[dim];
  const Index count = indices.shape()[dim];
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    ForEachLine<3>(indices.shape(), dim,
                   {OperandOf(tensor, *t_origin), OperandOf(*source, *s_origin),
                    IndexOperand(*values, i_strides)},
                   [&](const auto& starts) {
                     T* to = At<T>(starts[0]);
                     const T* from = At<T>(starts[1]);
                     const Index* at = At<Index>(starts[2]);
                     for (Index k = 0; k < count; ++k) {
                       to[at[k * i_step] * t_step] = from[k * s_step];
                     }
                   });
  });
  return absl::OkStatus();
}

absl::Status ScatterFill(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                         double value) {
  absl::StatusOr<std::vector<Index>> values =
      CheckGatherIndices(tensor, dim, indices, index_base, "scatter");
  if (!values.ok()) return values.status();
  if (absl::Status s = CheckFillValue(tensor, value, "scatter"); !s.ok()) return s;
  if (absl::Status s = internal::CheckWritable(tensor, "scatter"); !s.ok()) return s;
  if (indices.num_elements() == 0) return absl::OkStatus();
  absl::StatusOr<std::byte*> t_origin = tensor.data();
  if (!t_origin.ok()) return t_origin.status();
  const Strides i_strides = RowMajorStrides(indices.shape());
  const Index t_step = tensor.layout().strides()[dim];
  const Index i_step = i_strides[dim];
  const Index count = indices.shape()[dim];
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = ValueAs<T>(value);
    ForEachLine<2>(indices.shape(), dim,
                   {OperandOf(tensor, *t_origin), IndexOperand(*values, i_strides)},
                   [&](const auto& starts) {
                     T* to = At<T>(starts[0]);
                     const Index* at = At<Index>(starts[1]);
                     for (Index k = 0; k < count; ++k) to[at[k * i_step] * t_step] = v;
                   });
  });
  return absl::OkStatus();
}

}  // namespace tensor
