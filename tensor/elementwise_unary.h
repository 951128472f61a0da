// Element-wise functions of one tensor, in place: x = f(x).
//
// The functions of analysis (trigonometry, exp, log, roots, sigmoid, cinv)
// are defined for the floating types only; on an integer tensor they are
// an error naming the type. abs, sign and neg follow integer arithmetic:
// abs and neg of the most negative value wrap to itself, and neg of a
// uint8 tensor is an error (no uint8 is negative). trunc leaves integers
// as they are and frac makes them 0. float16 and bfloat16 compute in
// float. Nothing is defined for bool tensors.
//
// Every check runs before the first write, so a failed call leaves the
// tensor as it was.
//
// Example:
//   ApplyUnary(logits, UnaryFunction::kSigmoid);
#ifndef TENSOR_ELEMENTWISE_UNARY_H_
#define TENSOR_ELEMENTWISE_UNARY_H_

#include "absl/status/status.h"
#include "tensor/tensor.h"

namespace tensor {

enum class UnaryFunction {
  kAbs,
  kSign,     // -1, 0 or 1; 0 for NaN, as Torch7
  kNeg,
  kCinv,     // 1 / x
  kAcos,
  kAsin,
  kAtan,
  kCos,
  kCosh,
  kSin,
  kSinh,
  kTan,
  kTanh,
  kExp,
  kLog,
  kLog1p,    // log(1 + x), accurate for small x
  kSqrt,
  kRsqrt,    // 1 / sqrt(x)
  kSigmoid,  // 1 / (1 + exp(-x))
  kTrunc,    // rounds toward zero
  kFrac,     // x - trunc(x), with x's sign
};

// "abs", "sign", ...: the Lua name of each function, for messages.
const char* UnaryFunctionName(UnaryFunction function);

// x = f(x) for every element of `tensor`.
absl::Status ApplyUnary(const Tensor& tensor, UnaryFunction function);

}  // namespace tensor

#endif  // TENSOR_ELEMENTWISE_UNARY_H_
