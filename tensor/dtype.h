// Element types: one enum, its traits, and dispatch from the enum to a type.
//
// The seven DeepMind Lab types (uint8 ... float64) plus bool, float16 and
// bfloat16. Each has a short name ("float64") and the name of its tensor
// class in the Lua module ("DoubleTensor").
//
// Example:
//   DType dtype = DTypeOf<float>();                       // DType::kFloat32
//   const char* name = DTypeName(dtype);                  // "float32"
//   DispatchDType(dtype, [&](auto tag) {
//     using T = typename decltype(tag)::type;             // float
//   });
#ifndef TENSOR_DTYPE_H_
#define TENSOR_DTYPE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "tensor/half.h"

namespace tensor {

enum class DType : std::uint8_t {
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

inline constexpr DType kAllDTypes[] = {
    DType::kBool,    DType::kUInt8,    DType::kInt8,    DType::kInt16,   DType::kInt32,
    DType::kInt64,   DType::kFloat16,  DType::kBFloat16, DType::kFloat32, DType::kFloat64,
};

// Carries an element type through a generic lambda.
template <typename T>
struct TypeTag {
  using type = T;
};

template <DType D>
struct DTypeTraits;

#define TENSOR_DTYPE_TRAITS(ENUM, TYPE, NAME, TENSOR_NAME)     \
  template <>                                                  \
  struct DTypeTraits<DType::ENUM> {                            \
    using type = TYPE;                                         \
    static constexpr const char* name = NAME;             \
    static constexpr const char* tensor_name = TENSOR_NAME; \
  };

TENSOR_DTYPE_TRAITS(kBool, bool, "bool", "BoolTensor")
TENSOR_DTYPE_TRAITS(kUInt8, std::uint8_t, "uint8", "ByteTensor")
TENSOR_DTYPE_TRAITS(kInt8, std::int8_t, "int8", "CharTensor")
TENSOR_DTYPE_TRAITS(kInt16, std::int16_t, "int16", "Int16Tensor")
TENSOR_DTYPE_TRAITS(kInt32, std::int32_t, "int32", "Int32Tensor")
TENSOR_DTYPE_TRAITS(kInt64, std::int64_t, "int64", "Int64Tensor")
TENSOR_DTYPE_TRAITS(kFloat16, Float16, "float16", "HalfTensor")
TENSOR_DTYPE_TRAITS(kBFloat16, BFloat16, "bfloat16", "BFloat16Tensor")
TENSOR_DTYPE_TRAITS(kFloat32, float, "float32", "FloatTensor")
TENSOR_DTYPE_TRAITS(kFloat64, double, "float64", "DoubleTensor")
#undef TENSOR_DTYPE_TRAITS

template <typename T>
constexpr DType DTypeOf();

#define TENSOR_DTYPE_OF(ENUM, TYPE) \
  template <>                       \
  constexpr DType DTypeOf<TYPE>() { \
    return DType::ENUM;             \
  }
TENSOR_DTYPE_OF(kBool, bool)
TENSOR_DTYPE_OF(kUInt8, std::uint8_t)
TENSOR_DTYPE_OF(kInt8, std::int8_t)
TENSOR_DTYPE_OF(kInt16, std::int16_t)
TENSOR_DTYPE_OF(kInt32, std::int32_t)
TENSOR_DTYPE_OF(kInt64, std::int64_t)
TENSOR_DTYPE_OF(kFloat16, Float16)
TENSOR_DTYPE_OF(kBFloat16, BFloat16)
TENSOR_DTYPE_OF(kFloat32, float)
TENSOR_DTYPE_OF(kFloat64, double)
#undef TENSOR_DTYPE_OF

// True for float16, bfloat16, float32 and float64.
template <typename T>
inline constexpr bool kIsFloating =
    std::is_floating_point_v<T> || std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

// True for the integer types, bool excluded.
template <typename T>
inline constexpr bool kIsInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The type in which arithmetic on T is done: float for the half types, T
// otherwise.
template <typename T>
using ComputeType =
    std::conditional_t<std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>, float, T>;

// Calls f(TypeTag<T>{}) for the element type T of `dtype` and returns its
// result.
template <typename F>
decltype(auto) DispatchDType(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kBool: return f(TypeTag<bool>{});
    case DType::kUInt8: return f(TypeTag<std::uint8_t>{});
    case DType::kInt8: return f(TypeTag<std::int8_t>{});
    case DType::kInt16: return f(TypeTag<std::int16_t>{});
    case DType::kInt32: return f(TypeTag<std::int32_t>{});
    case DType::kInt64: return f(TypeTag<std::int64_t>{});
    case DType::kFloat16: return f(TypeTag<Float16>{});
    case DType::kBFloat16: return f(TypeTag<BFloat16>{});
    case DType::kFloat32: return f(TypeTag<float>{});
    case DType::kFloat64: break;
  }
  return f(TypeTag<double>{});
}

// The short name (a static string): "bool", "uint8", ..., "float64".
const char* DTypeName(DType dtype);

// The Lua module's class name: "ByteTensor", ..., "DoubleTensor".
const char* DTypeTensorName(DType dtype);

// Size of one element in bytes. Inline: every kernel call asks for it.
inline std::size_t DTypeSize(DType dtype) {
  constexpr std::size_t kSizes[] = {sizeof(bool),    sizeof(std::uint8_t), sizeof(std::int8_t),
                                    sizeof(std::int16_t), sizeof(std::int32_t),
                                    sizeof(std::int64_t), sizeof(Float16), sizeof(BFloat16),
                                    sizeof(float),   sizeof(double)};
  return kSizes[static_cast<int>(dtype)];
}

bool IsFloating(DType dtype);

// The dtype whose DTypeName is `name`, if any.
std::optional<DType> DTypeFromName(std::string_view name);

}  // namespace tensor

#endif  // TENSOR_DTYPE_H_
