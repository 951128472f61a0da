#include "tensor/layout.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tensor {
namespace {

bool MultiplyOverflows(Index a, Index b, Index* result) {
  return __builtin_mul_overflow(a, b, result);
}

bool AddOverflows(Index a, Index b, Index* result) { return __builtin_add_overflow(a, b, result); }

absl::StatusOr<Index> CheckedElementCount(absl::Span<const Index> shape) {
  if (shape.empty()) return 0;
  Index count = 1;
  for (Index extent : shape) {
    if (extent < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape ", ShapeToString(shape), " has a negative extent"));
    }
    if (MultiplyOverflows(count, extent, &count)) {
      return absl::OutOfRangeError(
          absl::StrCat("shape ", ShapeToString(shape), " has more elements than fit in 64 bits"));
    }
  }
  return count;
}

}  // namespace

// Row-major strides of `shape`; fails if one overflows. Extent 0 counts as
// 1 so that the strides stay meaningful for a later narrow or expand.
absl::StatusOr<Strides> RowMajorStrides(absl::Span<const Index> shape) {
  Strides strides(shape.size());
  Index stride = 1;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    strides[i] = stride;
    // Dimension 0 too: its extent times its stride bounds every offset a
    // view computes (narrow, reverse), even where another extent is 0.
    if (MultiplyOverflows(stride, std::max<Index>(shape[i], 1), &stride)) {
      return absl::OutOfRangeError(absl::StrCat(
          "shape ", ShapeToString(shape), " has extents that multiply past 64 bits"));
    }
  }
  return strides;
}

// a * b, or `fallback` if that overflows.
Index ProductOr(Index a, Index b, Index fallback) {
  Index product;
  return MultiplyOverflows(a, b, &product) ? fallback : product;
}

std::string ShapeToString(absl::Span<const Index> shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ", "), "]");
}

absl::StatusOr<Layout> Layout::Contiguous(absl::Span<const Index> shape) {
  absl::StatusOr<Index> count = CheckedElementCount(shape);
  if (!count.ok()) return count.status();
  absl::StatusOr<Strides> strides = RowMajorStrides(shape);
  if (!strides.ok()) return strides.status();
  // Nothing of Create's checks is left to do: RowMajorStrides bounds the
  // highest offset, extent times stride of dimension 0, within 64 bits.
  return Layout(Shape(shape.begin(), shape.end()), *std::move(strides), 0, *count);
}

absl::StatusOr<Layout> Layout::Create(absl::Span<const Index> shape,
                                      absl::Span<const Index> strides, Index offset) {
  if (shape.size() != strides.size()) {
    return absl::InvalidArgumentError(absl::StrCat("shape ", ShapeToString(shape), " has rank ",
                                                   shape.size(), " but ", strides.size(),
                                                   " strides were given"));
  }
  absl::StatusOr<Index> count = CheckedElementCount(shape);
  if (!count.ok()) return count.status();
  for (Index stride : strides) {
    // Its negation (reverse) would not exist.
    if (stride == std::numeric_limits<Index>::min()) {
      return absl::OutOfRangeError(absl::StrCat("stride ", stride, " is out of range"));
    }
  }
  if (*count > 0) {
    // Every reachable offset must be representable, so that kernels can do
    // plain pointer arithmetic.
    Index lowest = offset, highest = offset;
    for (size_t i = 0; i < shape.size(); ++i) {
      Index span;
      Index& end = strides[i] < 0 ? lowest : highest;
      if (MultiplyOverflows(shape[i] - 1, strides[i], &span) || AddOverflows(end, span, &end)) {
        return absl::OutOfRangeError(absl::StrCat("shape ", ShapeToString(shape),
                                                  " with strides ", ShapeToString(strides),
                                                  " reaches offsets beyond 64 bits"));
      }
    }
  }
  return Layout(Shape(shape.begin(), shape.end()), Strides(strides.begin(), strides.end()),
                offset, *count);
}

bool Layout::IsContiguous() const {
  if (num_elements_ == 0) return true;
  // Raw pointers: each InlinedVector subscript checks where its data is.
  const Index* shape = shape_.data();
  const Index* strides = strides_.data();
  Index expected = 1;
  for (int i = rank() - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

OffsetRange Layout::Reach() const {
  if (num_elements_ == 0) return {};
  OffsetRange range{offset_, offset_};
  for (int i = 0; i < rank(); ++i) {
    (strides_[i] < 0 ? range.lowest : range.highest) += (shape_[i] - 1) * strides_[i];
  }
  return range;
}

bool Layout::MayOverlapItself() const {
  if (IsContiguous()) return false;
  absl::InlinedVector<std::pair<Index, Index>, 6> dims;  // (|stride|, extent)
  for (int i = 0; i < rank(); ++i) {
    if (shape_[i] > 1) dims.emplace_back(std::abs(strides_[i]), shape_[i]);
  }
  std::sort(dims.begin(), dims.end());
  Index span = 0;  // the highest offset reached by the dimensions so far
  for (const auto& [stride, extent] : dims) {
    if (stride <= span) return true;
    // Saturating: a span past 64 bits only makes later dimensions overlap.
    if (AddOverflows(span, (extent - 1) * stride, &span)) span = std::numeric_limits<Index>::max();
  }
  return false;
}

absl::Status Layout::DimOutOfRange(int dim, const char* operation) const {
  return absl::OutOfRangeError(
      absl::StrCat(operation, ": dimension ", dim, " is out of range for shape ", ShapeString()));
}

absl::StatusOr<Layout> Layout::Select(int dim, Index index) const {
  if (absl::Status s = CheckDim(dim, "select"); !s.ok()) return s;
  if (index < 0 || index >= shape_[dim]) {
    return absl::OutOfRangeError(absl::StrCat("select: index ", index,
                                              " is out of range for dimension ", dim,
                                              " of shape ", ShapeString()));
  }
  // Built in place, not copied and erased from: select is a per-call hot
  // path of level scripts.
  Layout result;
  result.offset_ = offset_ + (num_elements_ > 0 ? strides_[dim] * index : 0);
  result.num_elements_ = num_elements_ / shape_[dim];
  if (rank() == 1) {
    result.shape_.push_back(1);
    result.strides_.push_back(strides_[0]);
    return result;
  }
  for (int i = 0; i < rank(); ++i) {
    if (i == dim) continue;
    result.shape_.push_back(shape_[i]);
    result.strides_.push_back(strides_[i]);
  }
  return result;
}

absl::StatusOr<Layout> Layout::Narrow(int dim, Index start, Index length) const {
  if (absl::Status s = CheckDim(dim, "narrow"); !s.ok()) return s;
  if (start < 0 || length < 0 || start > shape_[dim] - length) {
    return absl::OutOfRangeError(absl::StrCat("narrow: entries [", start, ", ", start,
                                              " + ", length, ") are out of range for dimension ",
                                              dim, " of shape ", ShapeString()));
  }
  Layout result = *this;
  result.shape_[dim] = length;
  result.num_elements_ = shape_[dim] == 0 ? 0 : num_elements_ / shape_[dim] * length;
  if (result.num_elements_ > 0) result.offset_ += strides_[dim] * start;
  return result;
}

absl::StatusOr<Layout> Layout::Transpose(int dim0, int dim1) const {
  if (absl::Status s = CheckDim(dim0, "transpose"); !s.ok()) return s;
  if (absl::Status s = CheckDim(dim1, "transpose"); !s.ok()) return s;
  Layout result = *this;
  std::swap(result.shape_[dim0], result.shape_[dim1]);
  std::swap(result.strides_[dim0], result.strides_[dim1]);
  return result;
}

absl::StatusOr<Layout> Layout::Permute(absl::Span<const int> order) const {
  if (static_cast<int>(order.size()) != rank()) {
    return absl::InvalidArgumentError(absl::StrCat("permute: ", order.size(),
                                                   " dimensions given for shape ", ShapeString()));
  }
  absl::InlinedVector<bool, 6> seen(rank(), false);
  Layout result = *this;
  for (int i = 0; i < rank(); ++i) {
    const int dim = order[i];
    if (dim < 0 || dim >= rank() || seen[dim]) {
      return absl::InvalidArgumentError(absl::StrCat("permute: [", absl::StrJoin(order, ", "),
                                                     "] is not a permutation of the ", rank(),
                                                     " dimensions"));
    }
    seen[dim] = true;
    result.shape_[i] = shape_[dim];
    result.strides_[i] = strides_[dim];
  }
  return result;
}

absl::StatusOr<Layout> Layout::Reverse(int dim) const {
  if (absl::Status s = CheckDim(dim, "reverse"); !s.ok()) return s;
  Layout result = *this;
  if (num_elements_ > 0) result.offset_ += strides_[dim] * (shape_[dim] - 1);
  result.strides_[dim] = -strides_[dim];
  return result;
}

absl::StatusOr<Layout> Layout::Reshape(absl::Span<const Index> requested) const {
  Shape shape(requested.begin(), requested.end());
  int inferred = -1;
  Index known = 1;
  for (int i = 0; i < static_cast<int>(shape.size()); ++i) {
    if (shape[i] == -1 && inferred < 0) {
      inferred = i;
    } else if (shape[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat("reshape: bad shape ", ShapeToString(shape),
                                                     " (only one extent may be -1)"));
    } else if (MultiplyOverflows(known, shape[i], &known)) {
      return absl::OutOfRangeError(
          absl::StrCat("reshape: shape ", ShapeToString(shape), " overflows 64 bits"));
    }
  }
  if (inferred >= 0) {
    if (known == 0 || num_elements_ % known != 0) {
      return absl::InvalidArgumentError(absl::StrCat("reshape: cannot infer the -1 in ",
                                                     ShapeToString(shape), " for ", num_elements_,
                                                     " elements"));
    }
    shape[inferred] = num_elements_ / known;
  }
  absl::StatusOr<Index> count = CheckedElementCount(shape);
  if (!count.ok()) return count.status();
  if (*count != num_elements_) {
    return absl::InvalidArgumentError(absl::StrCat("reshape: shape ", ShapeToString(shape),
                                                   " has ", *count, " elements but ",
                                                   ShapeString(), " has ", num_elements_));
  }
  if (num_elements_ == 0) {
    absl::StatusOr<Strides> strides = RowMajorStrides(shape);
    if (!strides.ok()) return strides.status();
    return Create(shape, *strides, offset_);
  }

  // Walk both shapes from the back, matching each run of old dimensions that
  // are contiguous with one another ("chunk") to new dimensions whose
  // extents multiply to the same count. Within a chunk the new strides are
  // row-major multiples of the chunk's innermost stride.
  Strides strides(shape.size());
  int new_dim = static_cast<int>(shape.size()) - 1;
  Index chunk_stride = strides_.back();
  Index old_count = 1, new_count = 1;
  for (int old_dim = rank() - 1; old_dim >= 0; --old_dim) {
    old_count *= shape_[old_dim];
    // An overflowing product cannot equal a real stride, so it ends the chunk.
    Index next_in_chunk;
    const bool chunk_ends =
        old_dim == 0 ||
        (shape_[old_dim - 1] != 1 &&
         (MultiplyOverflows(old_count, chunk_stride, &next_in_chunk) ||
          strides_[old_dim - 1] != next_in_chunk));
    if (!chunk_ends) continue;
    while (new_dim >= 0 && (new_count < old_count || shape[new_dim] == 1)) {
      // Only an extent-1 dimension can overflow here, and its stride is
      // never followed.
      strides[new_dim] = ProductOr(new_count, chunk_stride, chunk_stride);
      new_count *= shape[new_dim];
      --new_dim;
    }
    if (new_count != old_count) {
      return absl::InvalidArgumentError(
          absl::StrCat("reshape: the strides of ", ShapeString(), " cannot express shape ",
                       ShapeToString(shape), " without a copy; reshape a clone instead"));
    }
    if (old_dim > 0) {
      chunk_stride = strides_[old_dim - 1];
      old_count = new_count = 1;
    }
  }
  return Create(shape, strides, offset_);
}

absl::StatusOr<Layout> Layout::Expand(absl::Span<const Index> target) const {
  const int new_rank = static_cast<int>(target.size());
  if (new_rank < rank()) {
    return absl::InvalidArgumentError(absl::StrCat("expand: target ", ShapeToString(target),
                                                   " has fewer dimensions than ", ShapeString()));
  }
  Shape shape(new_rank);
  Strides strides(new_rank);
  const int added = new_rank - rank();
  for (int i = 0; i < new_rank; ++i) {
    const int old = i - added;
    const Index want = target[i];
    if (old < 0) {
      if (want < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "expand: new dimension ", i, " needs an extent, got ", want));
      }
      shape[i] = want;
      strides[i] = 0;
    } else if (want == -1 || want == shape_[old]) {
      shape[i] = shape_[old];
      strides[i] = strides_[old];
    } else if (shape_[old] == 1 && want >= 0) {
      shape[i] = want;
      strides[i] = 0;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "expand: cannot expand ", ShapeString(), " to ", ShapeToString(target),
          " (dimension ", old, " has extent ", shape_[old], ", not 1)"));
    }
  }
  if (rank() == 0 && new_rank > 0) {
    return absl::InvalidArgumentError("expand: an empty layout has no elements to expand");
  }
  return Create(shape, strides, offset_);
}

absl::StatusOr<Layout> Layout::Unfold(int dim, Index size, Index step) const {
  if (absl::Status s = CheckDim(dim, "unfold"); !s.ok()) return s;
  if (size < 1 || size > shape_[dim] || step < 1) {
    return absl::InvalidArgumentError(absl::StrCat("unfold: window ", size, " with step ", step,
                                                   " does not fit dimension ", dim, " of shape ",
                                                   ShapeString()));
  }
  Shape shape = shape_;
  Strides strides = strides_;
  shape[dim] = (shape_[dim] - size) / step + 1;
  if (MultiplyOverflows(strides_[dim], step, &strides[dim])) {
    // With one window the stride is never followed.
    if (shape[dim] > 1) {
      return absl::OutOfRangeError(absl::StrCat("unfold: step ", step, " overflows the stride"));
    }
    strides[dim] = strides_[dim];
  }
  shape.push_back(size);
  strides.push_back(strides_[dim]);
  return Create(shape, strides, offset_);
}

Layout Layout::Squeeze() const {
  Layout result = *this;
  result.shape_.clear();
  result.strides_.clear();
  for (int i = 0; i < rank(); ++i) {
    if (shape_[i] != 1) {
      result.shape_.push_back(shape_[i]);
      result.strides_.push_back(strides_[i]);
    }
  }
  if (result.shape_.empty() && rank() > 0) {
    result.shape_.push_back(1);
    result.strides_.push_back(1);
  }
  return result;
}

absl::StatusOr<Layout> Layout::Squeeze(int dim) const {
  if (absl::Status s = CheckDim(dim, "squeeze"); !s.ok()) return s;
  if (shape_[dim] != 1 || rank() == 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "squeeze: dimension ", dim, " of shape ", ShapeString(),
        rank() == 1 ? " is the only one" : " does not have extent 1"));
  }
  Layout result = *this;
  result.shape_.erase(result.shape_.begin() + dim);
  result.strides_.erase(result.strides_.begin() + dim);
  return result;
}

absl::StatusOr<Layout> Layout::Unsqueeze(int dim) const {
  if (rank() == 0) {
    return absl::InvalidArgumentError("unsqueeze: an empty layout has no elements");
  }
  if (dim < 0 || dim > rank()) {
    return absl::OutOfRangeError(absl::StrCat("unsqueeze: position ", dim,
                                              " is out of range for shape ", ShapeString()));
  }
  Layout result = *this;
  // The stride of an extent-1 dimension is never followed; this one keeps
  // row-major layouts recognisably row-major.
  const Index stride = dim < rank() ? ProductOr(strides_[dim], shape_[dim], 1) : 1;
  result.shape_.insert(result.shape_.begin() + dim, 1);
  result.strides_.insert(result.strides_.begin() + dim, stride);
  return result;
}

absl::StatusOr<Index> Layout::OffsetOf(absl::Span<const Index> index) const {
  if (static_cast<int>(index.size()) != rank() || num_elements_ == 0) {
    return absl::InvalidArgumentError(absl::StrCat("index ", ShapeToString(index),
                                                   " does not address shape ", ShapeString()));
  }
  Index offset = offset_;
  for (int i = 0; i < rank(); ++i) {
    if (index[i] < 0 || index[i] >= shape_[i]) {
      return absl::OutOfRangeError(absl::StrCat("index ", ShapeToString(index),
                                                " is out of range for shape ", ShapeString()));
    }
    offset += index[i] * strides_[i];
  }
  return offset;
}

std::string Layout::ShapeString() const { return ShapeToString(shape_); }

}  // namespace tensor
