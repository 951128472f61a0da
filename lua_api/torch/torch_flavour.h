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
//   PushTorchTensor(L, std::move(t));  // a torch.FloatTensor (torch_tensor.h)
#ifndef LUA_API_TORCH_TORCH_FLAVOUR_H_
#define LUA_API_TORCH_TORCH_FLAVOUR_H_

#include "absl/types/span.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/torch/torch_tensor.h"

namespace lua_api {

// [-0, +0, m] Creates the metatables and class tables, and adds `torch`
// (to the Torch flavour) to dmlab.system.tensor's methods. REQUIRES:
// dmlab.system.tensor is open in L. Idempotent.
void RegisterTorchFlavour(lua_State* L);

// [-0, +0, m] Adds C methods to every torch class table, each with its
// name and the type's name as upvalues (as Class::Register gives them).
void AddTorchMethods(lua_State* L, absl::Span<const MethodEntry> methods);

// [-0, +1, m] The class table of `type` (torch.DoubleTensor).
void PushTorchClass(lua_State* L, const TorchType& type);

}  // namespace lua_api

#endif  // LUA_API_TORCH_TORCH_FLAVOUR_H_
