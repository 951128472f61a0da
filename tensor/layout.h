// Layout: how a tensor's elements map to offsets in its storage.
//
// A layout is a shape, strides in elements (which may be zero or negative)
// and a start offset. Every view operation is arithmetic on a layout and
// never touches storage; each returns a status when its arguments are bad.
// Dimensions and indices are 0-based here; the Lua module adds 1.
//
// NB: following DeepMind Lab, a layout of rank 0 holds no elements, and
// selecting from a rank-1 layout keeps rank 1 with extent 1.
//
// A view without elements keeps the offset of the layout it came from.
// Create checks the offsets of layouts with elements only, so an empty one
// may carry any strides (shape [3, 0, 2^62], strides [2^62, 2^62, 1]), and
// moving the offset by them could overflow; it addresses nothing anyway.
//
// Example:
//   absl::StatusOr<Layout> rows = Layout::Contiguous({3, 2});  // strides {2, 1}
//   absl::StatusOr<Layout> column = rows->Select(1, 1);         // shape {3}, stride {2}
#ifndef TENSOR_LAYOUT_H_
#define TENSOR_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace tensor {

using Index = std::int64_t;
using Shape = absl::InlinedVector<Index, 6>;
using Strides = absl::InlinedVector<Index, 6>;

// The lowest and highest element offsets a layout reaches. Both are 0 for a
// layout without elements.
struct OffsetRange {
  Index lowest = 0;
  Index highest = 0;
};

class Layout {
 public:
  // An empty layout: rank 0, no elements.
  Layout() = default;

  // The row-major layout of `shape`. Fails if an extent is negative or the
  // element count overflows.
  static absl::StatusOr<Layout> Contiguous(absl::Span<const Index> shape);

  // Any layout. Fails if shape and strides differ in rank, an extent is
  // negative, or the element count or an offset overflows.
  static absl::StatusOr<Layout> Create(absl::Span<const Index> shape,
                                       absl::Span<const Index> strides, Index offset);

  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  Index offset() const { return offset_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  Index num_elements() const { return num_elements_; }

  // Whether the elements lie densely in row-major order from offset().
  bool IsContiguous() const;

  // The element offsets this layout can reach.
  OffsetRange Reach() const;

  // Whether two distinct indices can reach one offset (stride 0, unfold).
  // Conservative: it may say true for exotic interleaved layouts that do not
  // overlap, never false for one that does.
  bool MayOverlapItself() const;

  // View operations. Each returns a new layout; `this` is unchanged.

  // Drops `dim` at `index`. On rank 1 the result is shape {1}.
  absl::StatusOr<Layout> Select(int dim, Index index) const;
  // Keeps `length` entries of `dim` starting at `start`.
  absl::StatusOr<Layout> Narrow(int dim, Index start, Index length) const;
  absl::StatusOr<Layout> Transpose(int dim0, int dim1) const;
  // Result dimension i is dimension order[i] of this layout.
  absl::StatusOr<Layout> Permute(absl::Span<const int> order) const;
  // Walks `dim` backwards (negates its stride).
  absl::StatusOr<Layout> Reverse(int dim) const;
  // The same elements in row-major order under `shape`. Never copies: fails
  // when the strides cannot express it. One extent may be -1 (inferred).
  absl::StatusOr<Layout> Reshape(absl::Span<const Index> shape) const;
  // Broadcasts extent-1 dimensions to `shape` with stride 0; new leading
  // dimensions may be added. An extent of -1 keeps the current one.
  absl::StatusOr<Layout> Expand(absl::Span<const Index> shape) const;
  // Slides a window of `size` with `step` along `dim`: `dim` becomes the
  // number of windows, and a last dimension of extent `size` is appended.
  absl::StatusOr<Layout> Unfold(int dim, Index size, Index step) const;
  // Removes every extent-1 dimension (keeping one, so no elements are lost).
  Layout Squeeze() const;
  // Removes `dim`, which must have extent 1.
  absl::StatusOr<Layout> Squeeze(int dim) const;
  // Inserts an extent-1 dimension before `dim` (0 <= dim <= rank).
  absl::StatusOr<Layout> Unsqueeze(int dim) const;

  // The storage offset of `index` (one entry per dimension).
  absl::StatusOr<Index> OffsetOf(absl::Span<const Index> index) const;

  // "[3, 2]".
  std::string ShapeString() const;

  // A loop rather than InlinedVector's ==, which calls memcmp: a lender
  // compares the layout of each buffer it lends again, every step.
  friend bool operator==(const Layout& a, const Layout& b) {
    if (a.offset_ != b.offset_ || a.shape_.size() != b.shape_.size()) return false;
    for (std::size_t d = 0; d < a.shape_.size(); ++d) {
      if (a.shape_[d] != b.shape_[d] || a.strides_[d] != b.strides_[d]) return false;
    }
    return true;
  }

 private:
  Layout(Shape shape, Strides strides, Index offset, Index num_elements)
      : shape_(std::move(shape)),
        strides_(std::move(strides)),
        offset_(offset),
        num_elements_(num_elements) {}

  // Inline, with its error out of line: every view checks a dimension.
  absl::Status CheckDim(int dim, const char* operation) const {
    if (dim < 0 || dim >= rank()) [[unlikely]] {
      return DimOutOfRange(dim, operation);
    }
    return absl::OkStatus();
  }
  absl::Status DimOutOfRange(int dim, const char* operation) const;

  Shape shape_;
  Strides strides_;
  Index offset_ = 0;
  Index num_elements_ = 0;
};

// "[3, 2]".
std::string ShapeToString(absl::Span<const Index> shape);

}  // namespace tensor

#endif  // TENSOR_LAYOUT_H_
