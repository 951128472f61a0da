// Element-wise arithmetic that writes into an existing tensor.
//
// Integer arithmetic wraps around (it is done in the unsigned type, so
// overflow is defined); INT_MIN / -1 wraps to INT_MIN. Integer division
// truncates toward zero, and dividing by zero is an error. float16 and
// bfloat16 compute in float. Arithmetic on bool tensors is an error.
//
// A scalar must be representable in the tensor's type: 0.5 for an int32
// tensor, -1 for a uint8 tensor or 2 for a bool tensor is an error, never a
// silent truncation. Every check runs before the first write, so a failed
// call leaves the tensor as it was.
//
// Example:
//   ApplyScalars(image, ElementOp::kMul, {0.5, 1.0, 2.0});   // per channel
//   ApplyComponents(accumulator, ElementOp::kAdd, frame);
#ifndef TENSOR_ELEMENTWISE_H_
#define TENSOR_ELEMENTWISE_H_

#include <optional>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "tensor/tensor.h"

namespace tensor {

enum class ElementOp { kAssign, kAdd, kSub, kMul, kDiv };

// "fill", "add", "sub", "mul", "div": the verb of each op, for messages.
// Inline: hot paths name their op on every call, in case of an error.
constexpr const char* ElementOpName(ElementOp op) {
  switch (op) {
    case ElementOp::kAssign: return "fill";
    case ElementOp::kAdd: return "add";
    case ElementOp::kSub: return "sub";
    case ElementOp::kMul: return "mul";
    case ElementOp::kDiv: break;
  }
  return "div";
}

// x = x op v for every element x of `tensor`. With one value, v is that
// value; with as many values as the last extent, v is values[j] for the
// elements at last-dimension index j. kAssign is fill, and a fill with one
// value may write a view that names elements more than once (expanded);
// other writes into such views are refused, their result would depend on
// the order of writes.
absl::Status ApplyScalars(const Tensor& tensor, ElementOp op, absl::Span<const double> values);

// ApplyScalars with DeepMind Lab's arithmetic, for dmlab.system.tensor: on
// an integer tensor each element is converted to double, combined with its
// value in double, and converted back truncating toward zero (7 * 0.5 is
// 3, 7 / 2 is 3, -7 / 2 is -3); a fill truncates its value. A result the
// type cannot hold (NaN, infinite, out of range: undefined behaviour in
// DeepMind Lab's C++) is an error and changes nothing. Other dtypes, and
// tensors on a device, as ApplyScalars.
//
// Inline: for a floating tensor it is ApplyScalars, and a small tensor's
// add pays for every instruction (an out-of-line check cost 43 a call).
absl::Status ApplyScalarsInDouble(const Tensor& tensor, ElementOp op,
                                  absl::Span<const double> values);

namespace internal {
// ApplyScalarsInDouble for a tensor of an integer dtype.
absl::Status ApplyIntegerScalarsInDouble(const Tensor& tensor, ElementOp op,
                                         absl::Span<const double> values);
}  // namespace internal

inline absl::Status ApplyScalarsInDouble(const Tensor& tensor, ElementOp op,
                                         absl::Span<const double> values) {
  const DType dtype = tensor.dtype();
  // DType lists the integer types together, kUInt8 to kInt64 (dtype.h).
  if (dtype >= DType::kUInt8 && dtype <= DType::kInt64) [[unlikely]] {
    return internal::ApplyIntegerScalarsInDouble(tensor, op, values);
  }
  return ApplyScalars(tensor, op, values);
}

// dst[i] = dst[i] op src[i] for the i-th elements of both in layout order;
// shapes are ignored but element counts must match. kAssign is copy and
// converts between dtypes (float to integer truncates toward zero; a value
// the destination type cannot hold is an error; nonzero becomes true);
// the other ops need equal dtypes. If src and dst share memory, src is read
// in full before anything is written.
absl::Status ApplyComponents(const Tensor& dst, ElementOp op, const Tensor& src);

enum class Rounding {
  kFloor,
  kCeil,
  kRound,  // halves away from zero
};

// Rounds every element in place. Integer tensors are left as they are.
absl::Status Round(const Tensor& tensor, Rounding rounding);

// Limits every element to [min, max]; a missing bound does not limit, nor
// does one beyond the type's range. Integer tensors use the whole numbers
// inside the bounds. Fails if min > max, a bound is NaN, or no value of an
// integer type lies between the bounds (0.2 and 0.8).
absl::Status Clamp(const Tensor& tensor, std::optional<double> min, std::optional<double> max);

}  // namespace tensor

#endif  // TENSOR_ELEMENTWISE_H_
