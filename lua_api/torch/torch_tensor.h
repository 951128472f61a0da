// Torch-flavoured tensors (torch_flavour.h) as values: Torch7's types,
// and making and recognising tensors of the flavour. Apart from the
// flavour's registration and indexing, so that both use it and neither
// uses the other.
//
// Example:
//   PushTorchTensor(L, std::move(t));  // a torch.FloatTensor for a kFloat32 t
#ifndef LUA_API_TORCH_TORCH_TENSOR_H_
#define LUA_API_TORCH_TORCH_TENSOR_H_

#include "absl/status/statusor.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

namespace lua_api {

struct TorchType {
  tensor::DType dtype;
  const char* name;  // "torch.DoubleTensor": the metatable's registry name
  const char* short_name;  // "DoubleTensor": the module's field
};

// Torch7's eight CPU tensor types and the core types behind them.
inline constexpr TorchType kTorchTypes[] = {
    {tensor::DType::kFloat16, "torch.HalfTensor", "HalfTensor"},
    {tensor::DType::kUInt8, "torch.ByteTensor", "ByteTensor"},
    {tensor::DType::kInt8, "torch.CharTensor", "CharTensor"},
    {tensor::DType::kInt16, "torch.ShortTensor", "ShortTensor"},
    {tensor::DType::kInt32, "torch.IntTensor", "IntTensor"},
    {tensor::DType::kInt64, "torch.LongTensor", "LongTensor"},
    {tensor::DType::kFloat32, "torch.FloatTensor", "FloatTensor"},
    {tensor::DType::kFloat64, "torch.DoubleTensor", "DoubleTensor"},
};

// The TorchType of `dtype`, or null for a type Torch7 lacks.
const TorchType* FindTorchType(tensor::DType dtype);

// [-0, +1, -] The metatable registered for `type` (by its name's address,
// as Class::CreateObject finds it); nil before RegisterTorchFlavour.
void PushTorchMetatable(lua_State* L, const TorchType& type);

// [-0, +1, m] A new torch-flavoured userdata over `tensor`, whose type
// must have a TorchType. REQUIRES: RegisterTorchFlavour(L).
void PushTorchTensor(lua_State* L, tensor::Tensor&& tensor);

// [-0, +1, m] PushTorchTensor for a result, or the core's error.
NResultsOr PushTorchResult(lua_State* L, const char* method, absl::StatusOr<tensor::Tensor> result);

// [-0, +0, -] Whether the value at `index` is a torch-flavoured tensor.
bool IsTorchTensor(lua_State* L, int index);

}  // namespace lua_api

#endif  // LUA_API_TORCH_TORCH_TENSOR_H_
