#include "tensor/dtype.h"

#include <optional>
#include <string_view>

namespace tensor {

const char* DTypeName(DType dtype) {
  return DispatchDType(dtype, [](auto tag) {
    return DTypeTraits<DTypeOf<typename decltype(tag)::type>()>::name;
  });
}

const char* DTypeTensorName(DType dtype) {
  return DispatchDType(dtype, [](auto tag) {
    return DTypeTraits<DTypeOf<typename decltype(tag)::type>()>::tensor_name;
  });
}

bool IsFloating(DType dtype) {
  return DispatchDType(dtype, [](auto tag) { return kIsFloating<typename decltype(tag)::type>; });
}

std::optional<DType> DTypeFromName(std::string_view name) {
  for (DType dtype : kAllDTypes) {
    if (name == DTypeName(dtype)) return dtype;
  }
  return std::nullopt;
}

}  // namespace tensor
