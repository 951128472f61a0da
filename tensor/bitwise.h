// Torch7's bitwise functions: and, or, xor and shifts, element by element.
//
// And, or and xor are for integer types. Shifts by s are for every type:
// integers shift bits (an unsigned type wraps, as C does; a signed one must
// not overflow, which C leaves undefined, so that is an error here) and
// floating types scale by 2^s, as Torch7 does. A shift is by 0 to the
// type's bits - 1 for integers. Every element is computed before any is
// written, so a failed call changes nothing.
//
// Example:
//   absl::Status s = ApplyBitScalar(ids, BitOp::kAnd, 31);          // ids % 32
//   s = ApplyBitComponents(a, BitOp::kXor, b);                      // a ^= b
#ifndef TENSOR_BITWISE_H_
#define TENSOR_BITWISE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "tensor/tensor.h"

namespace tensor {

enum class BitOp { kAnd, kOr, kXor, kLeftShift, kRightShift };

// tensor = tensor op value. For and, or and xor, value must be one the
// tensor's type holds.
absl::Status ApplyBitScalar(const Tensor& tensor, BitOp op, std::int64_t value);

// destination = destination op source, pairing elements in row-major
// order of each; both of one type and element count.
absl::Status ApplyBitComponents(const Tensor& destination, BitOp op, const Tensor& source);

}  // namespace tensor

#endif  // TENSOR_BITWISE_H_
