// Element-wise updates of a tensor by a scaled combination of others, in
// place:
//   AddScaled  x += value * y                     ("add")
//   AddCMul    x += value * a * b                 ("addcmul")
//   AddCDiv    x += value * a / b                 ("addcdiv")
//   Lerp       x += weight * (end - x)            ("lerp")
//
// The operands must have x's dtype and element count; shapes are ignored
// and elements pair up in layout (row-major) order, as in ApplyComponents.
// Any operand may share memory with x: the result is as if the operands
// were read first.
//
// Integer tensors: value must be a value of the type; arithmetic wraps
// around; addcdiv divides (value * a) by b toward zero, computing value * a
// without wrapping for 8- and 16-bit types (C's promotion to int, as in
// Torch7), and a zero in b is an error; lerp is an error. float16 and bfloat16 compute in float. Every
// check (the elements of b included) runs before the first write, so a
// failed call changes nothing.
//
// Example:
//   AddScaled(params, -learning_rate, gradient);
//   AddCMul(second_moment, 1 - beta2, gradient, gradient);
#ifndef TENSOR_ELEMENTWISE_TERNARY_H_
#define TENSOR_ELEMENTWISE_TERNARY_H_

#include "absl/status/status.h"
#include "tensor/tensor.h"

namespace tensor {

absl::Status AddScaled(const Tensor& tensor, double value, const Tensor& other);

absl::Status AddCMul(const Tensor& tensor, double value, const Tensor& a, const Tensor& b);

absl::Status AddCDiv(const Tensor& tensor, double value, const Tensor& a, const Tensor& b);

// Floating types only.
absl::Status Lerp(const Tensor& tensor, const Tensor& end, double weight);

}  // namespace tensor

#endif  // TENSOR_ELEMENTWISE_TERNARY_H_
