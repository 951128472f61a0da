// ElementType: tensor::DType as the CUDA kernels see it.
//
// Plain C++ without absl or tensor/ headers, because nvcc compiles the
// kernels against it; op_support.h converts from DType and checks that the
// numbering agrees.
#ifndef TENSOR_CUDA_ELEMENT_TYPE_H_
#define TENSOR_CUDA_ELEMENT_TYPE_H_

#include <cstdint>

namespace tensor::cuda {

// The element types, numbered as tensor::DType.
enum class ElementType : std::uint8_t {
  kBool,
  kUInt8,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat16,
  kBFloat16,
  kFloat32,
  kFloat64,
};

}  // namespace tensor::cuda

#endif  // TENSOR_CUDA_ELEMENT_TYPE_H_
