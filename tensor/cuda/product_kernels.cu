#include <cstdint>

#include "tensor/cuda/ops_kernels.h"
#include "tensor/cuda/strided_index.h"

namespace tensor::cuda {
namespace {

// `value` in the sum type: signed values sign-extend, so that their
// products wrap as they would in the type.
template <typename T>
__device__ std::uint64_t ToSum(T value) {
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
}

template <typename T>
__global__ void IntegerProductKernel(T* c, MatrixStrides cs, const T* a, MatrixStrides as,
                                     const T* b, MatrixStrides bs, std::int64_t rows,
                                     std::int64_t cols, std::int64_t k, std::int64_t count,
                                     std::uint64_t alpha, std::uint64_t beta, bool read_c) {
  for (std::int64_t e = FirstIndex(); e < count; e += IndexStep()) {
    const std::int64_t j = e % cols, i = (e / cols) % rows, o = e / (cols * rows);
    const T* a_row = a + o * as.batch + i * as.rows;
    const T* b_column = b + o * bs.batch + j * bs.cols;
    std::uint64_t sum = 0;
    for (std::int64_t q = 0; q < k; ++q) {
      sum += ToSum(a_row[q * as.cols]) * ToSum(b_column[q * bs.rows]);
    }
    T& out = c[o * cs.batch + i * cs.rows + j * cs.cols];
    std::uint64_t value = alpha * sum;
    if (read_c) value += beta * ToSum(out);
    out = static_cast<T>(value);
  }
}

template <typename T>
cudaError_t Launch(void* c, const MatrixStrides& cs, const void* a, const MatrixStrides& as,
                   const void* b, const MatrixStrides& bs, std::int64_t batches,
                   std::int64_t rows, std::int64_t cols, std::int64_t k, std::uint64_t alpha,
                   std::uint64_t beta, bool read_c) {
  const std::int64_t count = batches * rows * cols;
  IntegerProductKernel<T><<<BlocksFor(count), kThreadsPerBlock>>>(
      static_cast<T*>(c), cs, static_cast<const T*>(a), as, static_cast<const T*>(b), bs, rows,
      cols, k, count, alpha, beta, read_c);
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchIntegerProduct(ElementType type, void* c, const MatrixStrides& c_strides,
                                 const void* a, const MatrixStrides& a_strides, const void* b,
                                 const MatrixStrides& b_strides, std::int64_t batches,
                                 std::int64_t rows, std::int64_t cols, std::int64_t k,
                                 std::uint64_t alpha, std::uint64_t beta, bool read_c) {
  if (batches * rows * cols == 0) return cudaSuccess;
  switch (type) {
    case ElementType::kUInt8:
      return Launch<std::uint8_t>(c, c_strides, a, a_strides, b, b_strides, batches, rows, cols,
                                  k, alpha, beta, read_c);
    case ElementType::kInt8:
      return Launch<std::int8_t>(c, c_strides, a, a_strides, b, b_strides, batches, rows, cols,
                                 k, alpha, beta, read_c);
    case ElementType::kInt16:
      return Launch<std::int16_t>(c, c_strides, a, a_strides, b, b_strides, batches, rows, cols,
                                  k, alpha, beta, read_c);
    case ElementType::kInt32:
      return Launch<std::int32_t>(c, c_strides, a, a_strides, b, b_strides, batches, rows, cols,
                                  k, alpha, beta, read_c);
    case ElementType::kInt64:
      return Launch<std::int64_t>(c, c_strides, a, a_strides, b, b_strides, batches, rows, cols,
                                  k, alpha, beta, read_c);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace tensor::cuda
