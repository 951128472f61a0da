// Torch7's 2-D convolution and cross-correlation (conv2, xcorr2).
//
// Three forms, by the ranks of input and kernel:
//   input (h x w),      kernel (kh x kw)          -> (oh x ow)
//   input (c x h x w),  kernel (c x kh x kw)      -> (c x oh x ow): plane i
//                                                    with kernel i
//   input (c x h x w),  kernel (q x c x kh x kw)  -> (q x oh x ow): plane o
//                       sums input plane i with kernel (o, i) over i
// A valid convolution (kValid) keeps the positions where the kernel lies
// wholly inside the input: oh = h - kh + 1. A full one (kFull) every
// position where they overlap: oh = h + kh - 1. Convolution flips the
// kernel, cross-correlation does not:
//   xcorr2 valid: out[i][j] = sum over a, b of in[i + a][j + b] * k[a][b]
//   conv2 valid:  out[i][j] = sum over a, b of in[i + a][j + b] * k[kh-1-a][kw-1-b]
// Integer sums wrap as two's complement arithmetic does; float16 and
// bfloat16 sum in float; bool is an error.
//
// Example:
//   absl::StatusOr<Shape> shape = ConvResultShape(ConvOp::kConv2, image, k, ConvMode::kFull);
//   ... out of that shape ...
//   absl::Status s = Convolve(ConvOp::kConv2, out, image, k, ConvMode::kFull);
#ifndef TENSOR_CONV_H_
#define TENSOR_CONV_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace tensor {

enum class ConvOp { kConv2, kXcorr2 };
enum class ConvMode { kValid, kFull };

// "conv2" or "xcorr2", which messages start with.
const char* ConvOpName(ConvOp op);

// The shape of the result. Fails unless the ranks make one of the three
// forms, the plane counts agree, no extent is 0, the dtypes are equal (not
// bool), and, for kValid, the kernel fits inside the input.
absl::StatusOr<Shape> ConvResultShape(ConvOp op, const Tensor& input, const Tensor& kernel,
                                      ConvMode mode);

// Writes the result into `out`, which must have ConvResultShape's shape,
// the inputs' dtype, and no two elements sharing memory. An out that
// overlaps input or kernel is computed in a temporary from `allocator`
// and then copied in. Every check runs before the first write.
absl::Status Convolve(ConvOp op, const Tensor& out, const Tensor& input, const Tensor& kernel,
                      ConvMode mode, Allocator& allocator = CpuAllocator());

}  // namespace tensor

#endif  // TENSOR_CONV_H_
