// The Torch flavour of tensors: dmlab.system.torch's view of the core.
//
// A torch-flavoured tensor is a LuaTensor like any other (same core
// tensor, storage, ownership and validity checks) with another metatable:
// "torch.DoubleTensor" and so on, one per Torch7 type. Its __index looks a
// string key up in the type's class table (torch.DoubleTensor, which a
// script may extend, as in Torch7) and treats any other key as Torch7's
// indexing: x[i], x[{i, {a, b}, {}}], x[mask]; __newindex assigns.
//
// The class tables start with every dmlab.system.tensor method, each
// wrapped so that tensors it returns come back torch-flavoured (self and
// arguments come back as they went in); dmlab.system.torch then overrides
// the methods whose Torch7 meaning differs (size, type, ...). Operators
// (__add, __sub, __mul, __div, __mod, __unm, __len, __tostring) call the
// class table's entry of that name, so scripts can define them.
//
// The metatables are hidden (__metatable), so a script never reaches __gc.
//
// Example:
//   RegisterTorchFlavour(L);        // once, after dmlab.system.tensor
//   PushTorchTensor(L, std::move(t));  // a torch.FloatTensor for a kFloat32 t
#ifndef LUA_API_TORCH_FLAVOUR_H_
#define LUA_API_TORCH_FLAVOUR_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "lua_api/class.h"
#include "lua_api/lua.h"
#include "lua_api/n_results_or.h"
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

// [-0, +0, m] Creates the metatables and class tables, and adds `torch`
// (to the Torch flavour) to dmlab.system.tensor's methods. REQUIRES:
// dmlab.system.tensor is open in L. Idempotent.
void RegisterTorchFlavour(lua_State* L);

// [-0, +1, m] A new torch-flavoured userdata over `tensor`, whose type
// must have a TorchType.
void PushTorchTensor(lua_State* L, tensor::Tensor&& tensor);

// [-0, +1, m] PushTorchTensor for a result, or the core's error.
NResultsOr PushTorchResult(lua_State* L, const char* method, absl::StatusOr<tensor::Tensor> result);

// [-0, +0, m] Adds C methods to every torch class table, each with its
// name and the type's name as upvalues (as Class::Register gives them).
void AddTorchMethods(lua_State* L, absl::Span<const MethodEntry> methods);

// [-0, +1, m] The class table of `type` (torch.DoubleTensor).
void PushTorchClass(lua_State* L, const TorchType& type);

// [-0, +0, -] Whether the value at `index` is a torch-flavoured tensor.
bool IsTorchTensor(lua_State* L, int index);

}  // namespace lua_api

#endif  // LUA_API_TORCH_FLAVOUR_H_
