// Element-wise functions of two arguments, in place: x = f(x, v) for a
// number v, or x = f(x, y) pairing the elements of x and a tensor y.
//
// y must have x's dtype and element count; shapes are ignored and the
// elements pair up in layout (row-major) order, as in ApplyComponents. y
// may share memory with x: the result is as if y were read first.
//
// Integer tensors: the number must be a value of the type; fmod and
// remainder by zero are errors; pow needs whole exponents >= 0 and wraps
// around; atan2 is an error. float16 and bfloat16 compute in float.
// Nothing is defined for bool tensors. Every check (the elements of y
// included) runs before the first write, so a failed call changes
// nothing.
//
// Example:
//   ApplyBinaryScalar(angles, BinaryFunction::kRemainder, 2 * M_PI);
//   ApplyBinaryTensor(best, BinaryFunction::kMax, candidate);
#ifndef TENSOR_ELEMENTWISE_BINARY_H_
#define TENSOR_ELEMENTWISE_BINARY_H_

#include "absl/status/status.h"
#include "tensor/tensor.h"

namespace tensor {

enum class BinaryFunction {
  kPow,        // x ^ v
  kFmod,       // remainder of x / v rounded toward zero: the sign of x
  kRemainder,  // x - v * floor(x / v): the sign of v
  kMax,        // the larger; NaN if either is NaN
  kMin,        // the smaller; NaN if either is NaN
  kAtan2,      // atan2(x, y), the angle of the point (y, x); tensors only
};

// The Lua names: "pow", "fmod", "remainder", "cmax", "cmin" for a number
// and "cpow", "cfmod", "cremainder", "cmax", "cmin", "atan2" for a tensor.
const char* BinaryScalarName(BinaryFunction function);
const char* BinaryTensorName(BinaryFunction function);

// x = f(x, value) for every element x of `tensor`. Fails for kAtan2.
absl::Status ApplyBinaryScalar(const Tensor& tensor, BinaryFunction function, double value);

// x = f(x, y) for the i-th elements x of `tensor` and y of `other`.
absl::Status ApplyBinaryTensor(const Tensor& tensor, BinaryFunction function,
                               const Tensor& other);

}  // namespace tensor

#endif  // TENSOR_ELEMENTWISE_BINARY_H_
