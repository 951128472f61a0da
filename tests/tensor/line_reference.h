// Reference lines for the tests of operations along a dimension
// (reduce_dim, sort): a tensor's elements grouped by line, computed the
// slow, obvious way from its row-major values.
#ifndef TESTS_TENSOR_LINE_REFERENCE_H_
#define TESTS_TENSOR_LINE_REFERENCE_H_

#include <vector>

#include "absl/types/span.h"
#include "tensor/layout.h"
#include "tests/tensor/op_test_support.h"

namespace tensor::testing {

// The offset of `index` in a row-major tensor of `shape`.
inline Index RowMajorOffset(absl::Span<const Index> shape, absl::Span<const Index> index) {
  Index offset = 0;
  for (size_t d = 0; d < shape.size(); ++d) offset = offset * shape[d] + index[d];
  return offset;
}

// The lines along `dim` of the tensor whose row-major values are `values`,
// in the row-major order of the shape with extent 1 at dim: the order of a
// reduction's results.
inline std::vector<std::vector<double>> LinesOf(const std::vector<double>& values,
                                                absl::Span<const Index> shape, int dim) {
  Shape reduced(shape.begin(), shape.end());
  reduced[dim] = 1;
  std::vector<std::vector<double>> lines;
  ForEachIndex(reduced, [&](const Shape& start) {
    std::vector<double> line;
    Shape at = start;
    for (Index i = 0; i < shape[dim]; ++i) {
      at[dim] = i;
      line.push_back(values[RowMajorOffset(shape, at)]);
    }
    lines.push_back(line);
  });
  return lines;
}

// The row-major values of a tensor of `shape`, extent `extent` at dim,
// whose lines along dim are `lines` (in LinesOf's order).
inline std::vector<double> FromLines(const std::vector<std::vector<double>>& lines,
                                     absl::Span<const Index> shape, int dim, Index extent) {
  Shape full(shape.begin(), shape.end());
  full[dim] = extent;
  Shape reduced = full;
  reduced[dim] = 1;
  Index count = 1;
  for (Index e : full) count *= e;
  std::vector<double> values(count);
  size_t line = 0;
  ForEachIndex(reduced, [&](const Shape& start) {
    Shape at = start;
    for (Index i = 0; i < extent; ++i) {
      at[dim] = i;
      values[RowMajorOffset(full, at)] = lines[line][i];
    }
    ++line;
  });
  return values;
}

}  // namespace tensor::testing

#endif  // TESTS_TENSOR_LINE_REFERENCE_H_
