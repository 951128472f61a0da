// The CUDA kernels behind the backend's operations (ops.h): arithmetic,
// unary functions, reductions and comparisons over strided walks, and
// integer matrix products (cuBLAS has none).
//
// Plain C++ without absl or tensor/ headers, because nvcc compiles the
// .cu files against it. Each launcher dispatches the element type at run
// time and the operation inside the kernel (a switch per element costs
// little next to the memory traffic, and keeps nvcc's instantiations to one
// kernel per type). Every launch goes to the current device's legacy
// default stream and returns the launch's error; the caller synchronises.
//
// Semantics are the CPU's (tensor/elementwise.cc, elementwise_unary.cc,
// reduce.cc, statistics.cc, reduce_dim.cc, elementwise_compare.cc,
// internal/product_kernels.cc):
// integers wrap, half types compute in float, floating reductions
// accumulate in double.
#ifndef TENSOR_CUDA_OPS_KERNELS_H_
#define TENSOR_CUDA_OPS_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "tensor/cuda/element_type.h"
#include "tensor/cuda/kernel_shape.h"

namespace tensor::cuda {

// tensor::ElementOp, tensor::UnaryFunction and tensor::CompareOp, numbered
// alike (op_support.h checks that).
enum class ArithmeticOp : std::uint8_t { kAssign, kAdd, kSub, kMul, kDiv };
enum class UnaryOp : std::uint8_t {
  kAbs, kSign, kNeg, kCinv, kAcos, kAsin, kAtan, kCos, kCosh, kSin, kSinh,
  kTan, kTanh, kExp, kLog, kLog1p, kSqrt, kRsqrt, kSigmoid, kTrunc, kFrac,
};
enum class ComparisonOp : std::uint8_t { kLt, kLe, kGt, kGe, kEq, kNe };

// x = x op v for every element x of the walk, where v is
// values[value offset] converted to the type's compute type (the value
// offset walks `value_strides`: all 0 for one value, 1 along the last
// dimension for one value per entry of it). REQUIRES: a numeric type (or
// bool for kAssign), values that type holds, no integer division by 0.
cudaError_t LaunchScalarOp(ElementType type, ArithmeticOp op, void* data,
                           const KernelStrides& strides, const double* values,
                           const KernelStrides& value_strides, const KernelShape& shape);

// dst = dst op src element by element; both of `type`, op != kAssign.
// REQUIRES: no integer division by 0; src does not overlap dst other than
// element for element.
cudaError_t LaunchComponentOp(ElementType type, ArithmeticOp op, void* dst,
                              const KernelStrides& dst_strides, const void* src,
                              const KernelStrides& src_strides, const KernelShape& shape);

// Sets *found to 1 if some element of the walk is zero. *found starts 0.
cudaError_t LaunchFindZero(ElementType type, const void* data, const KernelStrides& strides,
                           const KernelShape& shape, int* found);

// x = f(x) for every element. cudaErrorInvalidValue for a function the
// type does not define (see elementwise_unary.h); trunc of an integer is not
// launched.
cudaError_t LaunchUnary(ElementType type, UnaryOp function, void* data,
                        const KernelStrides& strides, const KernelShape& shape);

// The most blocks a whole-tensor reduction launches, so the partial
// results it leaves fit a buffer of this many.
inline constexpr int kMaxReductionBlocks = 1024;

// partials[b] = the sum, in double, of block b's share of the walk, for
// *blocks blocks (set here, at most kMaxReductionBlocks).
cudaError_t LaunchSumPartials(ElementType type, const void* data, const KernelStrides& strides,
                              const KernelShape& shape, double* partials, int* blocks);

// The extreme of a share of a walk: the first NaN if there is one, else
// the first largest (smallest) element, at `index` in row-major order.
// `value` holds a floating element (every one is exact in double),
// `integer` an integer one (every one is exact in int64).
struct ExtremeCandidate {
  double value;
  std::int64_t integer;
  std::int64_t index;
  int nan;
};

// partials[b] = block b's candidate, for *blocks blocks (at most
// kMaxReductionBlocks); every block has elements. REQUIRES: a numeric
// type.
cudaError_t LaunchExtremePartials(ElementType type, bool max, const void* data,
                                  const KernelStrides& strides, const KernelShape& shape,
                                  ExtremeCandidate* partials, int* blocks);

// One line of `n` elements, `line_stride` apart, per element of the walk
// over the reduced shape; the walk's first strides are the input's at each
// line's start.
struct LineWalk {
  KernelShape shape;
  KernelStrides input;
  std::int64_t line_stride;
  std::int64_t n;
};

// out = the sum of each line, in the type's accumulator (double for
// floating types, the type itself with wraparound for integers).
// REQUIRES: a numeric type.
cudaError_t LaunchSumAlong(ElementType type, const void* input, const LineWalk& walk, void* out,
                           const KernelStrides& out_strides);

// values, indices = each line's extreme (its first NaN, else its first
// largest or smallest element) and that position plus first_index.
// REQUIRES: a numeric type, n > 0.
cudaError_t LaunchExtremeAlong(ElementType type, bool max, const void* input,
                               const LineWalk& walk, std::int64_t first_index, void* values,
                               const KernelStrides& value_strides, std::int64_t* indices,
                               const KernelStrides& index_strides);

// mask = x op bound as 0 or 1. Integer x compares with `integer_bound`
// (the host has rewritten the comparison with a double into one with a
// value of the type), floating x in double with `value`. REQUIRES: a
// numeric type.
cudaError_t LaunchCompareScalar(ElementType type, ComparisonOp op, std::uint8_t* mask,
                                const KernelStrides& mask_strides, const void* x,
                                const KernelStrides& x_strides, double value,
                                std::int64_t integer_bound, const KernelShape& shape);

// mask = x op y as 0 or 1, both of `type`, compared in its compute type.
// A walk over three operands: the mask, x and y.
cudaError_t LaunchCompareTensors(ElementType type, ComparisonOp op, std::uint8_t* mask,
                                 const KernelStrides& mask_strides, const void* x,
                                 const KernelStrides& x_strides, const void* y,
                                 const KernelStrides& y_strides, const KernelShape& shape);

// One operand of a batch of integer matrix products: its elements'
// strides along the batch, the rows and the columns (0 for a batch of one).
struct MatrixStrides {
  std::int64_t batch, rows, cols;
};

// c[o] = alpha * a[o] . b[o] (+ beta * c[o] with read_c) for o < batches,
// a[o] rows x k, b[o] k x cols, summed in uint64 where overflow wraps as it
// would in the type (tensor/internal/product_sum.h), alpha and beta taken
// as that sum type; one thread per element of c. REQUIRES: an integer type;
// c overlaps neither a nor b.
cudaError_t LaunchIntegerProduct(ElementType type, void* c, const MatrixStrides& c_strides,
                                 const void* a, const MatrixStrides& a_strides, const void* b,
                                 const MatrixStrides& b_strides, std::int64_t batches,
                                 std::int64_t rows, std::int64_t cols, std::int64_t k,
                                 std::uint64_t alpha, std::uint64_t beta, bool read_c);

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_OPS_KERNELS_H_
