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
// 6 significant digits. Past `max_elements`, every dimension longer than 6
// shows its first and last 3 entries around "...". A tensor without
// elements prints "Shape: [0] Empty" (or "Shape: [] Empty").
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
