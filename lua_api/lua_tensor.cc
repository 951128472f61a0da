#include "lua_api/lua_tensor.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "lua_api/read.h"

namespace lua_api {

const char* LuaTensor::TypeName(tensor::DType dtype) {
  switch (dtype) {
    case tensor::DType::kBool: return "dmlab.system.tensor.BoolTensor";
    case tensor::DType::kUInt8: return "dmlab.system.tensor.ByteTensor";
    case tensor::DType::kInt8: return "dmlab.system.tensor.CharTensor";
    case tensor::DType::kInt16: return "dmlab.system.tensor.Int16Tensor";
    case tensor::DType::kInt32: return "dmlab.system.tensor.Int32Tensor";
    case tensor::DType::kInt64: return "dmlab.system.tensor.Int64Tensor";
    case tensor::DType::kFloat16: return "dmlab.system.tensor.HalfTensor";
    case tensor::DType::kBFloat16: return "dmlab.system.tensor.BFloat16Tensor";
    case tensor::DType::kFloat32: return "dmlab.system.tensor.FloatTensor";
    case tensor::DType::kFloat64: break;
  }
  return "dmlab.system.tensor.DoubleTensor";
}

void LuaTensor::Push(lua_State* L, tensor::Tensor tensor) {
  const char* name = TypeName(tensor.dtype());
  Class<LuaTensor>::CreateObject(L, name, std::move(tensor));
}

std::string LuaTensor::CheckSelf(const char* method) const {
  absl::Status valid = tensor_.CheckValid();
  if (valid.ok()) [[likely]] {
    return {};
  }
  return absl::StrCat("'", type_name(), ":", method, "': ", valid.message());
}

std::string ReadTensorArgument(lua_State* L, int index, const char* method, LuaTensor** out) {
  LuaTensor* tensor = LuaTensor::Read(L, index);
  if (tensor == nullptr) return ArgumentError(method, index - 1, Expected(L, index, "tensor"));
  absl::Status valid = tensor->tensor().CheckValid();
  if (!valid.ok()) {
    return ArgumentError(method, index - 1,
                         absl::StrCat(tensor->type_name(), " is an ", valid.message()));
  }
  *out = tensor;
  return {};
}

std::string StatusError(const char* method, const absl::Status& status) {
  return absl::StrCat("'", method, "': ", status.message());
}

}  // namespace lua_api
