#include "lua_api/torch/torch_tensor.h"

#include <utility>

#include "lua_api/lua/class.h"
#include "lua_api/tensor/lua_tensor.h"

namespace lua_api {

const TorchType* FindTorchType(tensor::DType dtype) {
  for (const TorchType& type : kTorchTypes) {
    if (type.dtype == dtype) return &type;
  }
  return nullptr;
}

void PushTorchMetatable(lua_State* L, const TorchType& type) {
  lua_pushlightuserdata(L, const_cast<char*>(type.name));
  lua_rawget(L, LUA_REGISTRYINDEX);
}

void PushTorchTensor(lua_State* L, tensor::Tensor&& tensor) {
  const TorchType* type = FindTorchType(tensor.dtype());
  Class<LuaTensor>::CreateObject(L, type->name, std::move(tensor));
}

NResultsOr PushTorchResult(lua_State* L, const char* method, absl::StatusOr<tensor::Tensor> result) {
  if (!result.ok()) return StatusError(method, result.status());
  PushTorchTensor(L, *std::move(result));
  return 1;
}

bool IsTorchTensor(lua_State* L, int index) {
  LuaTensor* tensor = LuaTensor::Read(L, index);
  if (tensor == nullptr || !lua_getmetatable(L, index)) return false;
  const TorchType* type = FindTorchType(tensor->tensor().dtype());
  if (type == nullptr) {
    lua_pop(L, 1);
    return false;
  }
  PushTorchMetatable(L, *type);
  const bool torch = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return torch;
}

}  // namespace lua_api
