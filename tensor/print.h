// Printing in DeepMind Lab's format.
//
//   [dmlab.system.tensor.DoubleTensor]
//   Shape: [3, 2]
//   [[1, 2],
//    [3, 4],
//    [5, 6]]
//
// A tensor on a device is printed from a copy on the host, with
// " device: cuda:0" after the class name.
//
// Values are right-aligned to the widest one printed; floating types show
// 6 significant digits. Past `max_elements` (or 10000), every dimension
// longer than 6 shows its first and last 3 entries around "...", or its
// first and last one if that would still print over 10000 values. A tensor
// that would print more, or has over 64 dimensions, prints its header and
// "[N elements in R dimensions: too many to print]": output stays small
// and printing never recurses deeply, whatever the shape. A tensor
// without elements prints "Shape: [0] Empty" (or "Shape: [] Empty").
//
// Example:
//   absl::StatusOr<std::string> text = ToString(t, {.max_elements = 100});
#ifndef TENSOR_PRINT_H_
#define TENSOR_PRINT_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor {

struct PrintOptions {
  // Above this many elements, long dimensions are elided.
  Index max_elements = 1024;
  // Put before the tensor class name in the header line.
  std::string_view type_prefix = "dmlab.system.tensor.";
};

absl::StatusOr<std::string> ToString(const Tensor& tensor, const PrintOptions& options = {});

}  // namespace tensor

#endif  // TENSOR_PRINT_H_
