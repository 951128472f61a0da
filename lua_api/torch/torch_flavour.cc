#include "lua_api/torch/torch_flavour.h"

#include <cstdint>
#include <string>
#include <utility>

#include "lua_api/lua/class.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/torch/torch_index.h"
#include "lua_api/torch/torch_tensor.h"

namespace lua_api {
namespace {

constexpr char kFamilyMethods[] = "dmlab.system.torch: wrapped methods";

// The operators whose metamethods call the class table's entry.
constexpr const char* kOperators[] = {"__add", "__sub", "__mul",      "__div",
                                      "__mod", "__unm", "__tostring", "__len"};

// [-0, +0, -] Whether the value at `index` is rawequal to one of the
// arguments at 1 .. n_args.
bool IsArgument(lua_State* L, int index, int n_args) {
  for (int i = 1; i <= n_args; ++i) {
    if (lua_rawequal(L, i, index)) return true;
  }
  return false;
}

// [-0, +0, -] Gives the tensor at `index` the Torch flavour if it is a
// tensor a method made (not one of its arguments) of a type Torch7 has.
void Reflavour(lua_State* L, int index, int n_args) {
  LuaTensor* tensor = LuaTensor::Read(L, index);
  if (tensor == nullptr || IsArgument(L, index, n_args)) return;
  const TorchType* type = FindTorchType(tensor->tensor().dtype());
  if (type == nullptr) return;
  PushTorchMetatable(L, *type);
  lua_setmetatable(L, index < 0 ? index - 1 : index);
}

// [-0, +r, e] A dmlab.system.tensor method (upvalue 1), called with this call's
// arguments; the tensors it makes, and those in a table it returns
// (split, chunk), come back torch-flavoured. It holds no C++ object, so
// the method's errors pass through it.
int KeepTorchFlavour(lua_State* L) {
  const int n_args = lua_gettop(L);
  if (!lua_checkstack(L, n_args + 2)) return luaL_error(L, "stack overflow (too many arguments)");
  lua_pushvalue(L, lua_upvalueindex(1));
  for (int i = 1; i <= n_args; ++i) lua_pushvalue(L, i);
  lua_call(L, n_args, LUA_MULTRET);
  const int top = lua_gettop(L);
  for (int result = n_args + 1; result <= top; ++result) {
    if (lua_type(L, result) == LUA_TTABLE) {
      const int length = static_cast<int>(lua_objlen(L, result));
      for (int i = 1; i <= length; ++i) {
        lua_rawgeti(L, result, i);
        Reflavour(L, -1, n_args);
        lua_pop(L, 1);
      }
    } else {
      Reflavour(L, result, n_args);
    }
  }
  return top - n_args;
}

// [-0, +1, e] __index (upvalues: "__index", the type's name, its class table): a
// string is a method or field of the class table; anything else indexes
// the tensor (torch_index.h).
int TorchIndex(lua_State* L) {
  if (lua_type(L, 2) == LUA_TSTRING) {
    lua_rawget(L, lua_upvalueindex(3));
    return 1;
  }
  return Class<LuaTensor>::Member<&TorchIndexGet>(L);
}

// [-0, +1, e] An operator (upvalues: its event name, the class table whose metatable
// holds it): calls the class table's entry of that name.
int TorchOperator(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_rawget(L, lua_upvalueindex(2));
  if (lua_isnil(L, -1)) {
    return luaL_error(L, "attempt to use %s on a tensor whose class defines none",
                      lua_tostring(L, lua_upvalueindex(1)));
  }
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

// [-0, +1, e] x:select(d, i): a torch-flavoured slice, or for a vector the number
// (whatever d, as Torch7 does).
NResultsOr TorchSelect(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("select"); !e.empty()) return e;
  const tensor::Tensor& t = self.tensor();
  if (t.rank() == 1) {
    std::int64_t ignored;
    if (std::string why = ReadInteger(L, 2, &ignored); !why.empty()) {
      return ArgumentError("select", 1, why);
    }
    if (lua_type(L, 3) != LUA_TNUMBER) return ArgumentError("select", 2, Expected(L, 3, "number"));
    lua_remove(L, 2);  // t[i]
    return TorchElement(self, L, "select");
  }
  int dim;
  tensor::Index index;
  if (std::string e = ReadDim(L, 2, t, "select", &dim); !e.empty()) return e;
  if (std::string e = ReadBounded(L, 3, "select", "index", 1, t.shape()[dim], &index); !e.empty()) {
    return e;
  }
  return PushTorchResult(L, "select", t.Select(dim, index - 1));
}

// [-0, +1, e] x:size(d): the extent of dimension d; x:size(): a table of the extents
// (which dmlab.system.torch makes a LongStorage).
NResultsOr TorchSize(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("size"); !e.empty()) return e;
  const tensor::Tensor& t = self.tensor();
  if (lua_isnoneornil(L, 2)) {
    lua_createtable(L, t.rank(), 0);
    for (int d = 0; d < t.rank(); ++d) {
      lua_pushnumber(L, static_cast<lua_Number>(t.shape()[d]));
      lua_rawseti(L, -2, d + 1);
    }
    return 1;
  }
  int dim;
  if (std::string e = ReadDim(L, 2, t, "size", &dim); !e.empty()) return e;
  lua_pushnumber(L, static_cast<lua_Number>(t.shape()[dim]));
  return 1;
}

// [-0, +1, e] t:torch(), on either flavour: a torch-flavoured userdata over the same
// tensor (self, if it is one already).
NResultsOr ToTorch(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("torch"); !e.empty()) return e;
  if (IsTorchTensor(L, 1)) {
    lua_settop(L, 1);
    return 1;
  }
  const TorchType* type = FindTorchType(self.tensor().dtype());
  if (type == nullptr) {
    return absl::StrCat("'", self.type_name(), ":torch': Torch7 has no such tensor type");
  }
  tensor::Tensor shared = self.tensor();
  PushTorchTensor(L, std::move(shared));
  return 1;
}

// [-0, +1, e] t:dmlab(): a dmlab.system.tensor userdata over the same tensor.
NResultsOr ToDmlab(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("dmlab"); !e.empty()) return e;
  if (!IsTorchTensor(L, 1)) {
    lua_settop(L, 1);
    return 1;
  }
  if (self.tensor().dtype() == tensor::DType::kFloat16) {
    return "'torch.HalfTensor:dmlab': dmlab.system.tensor has no HalfTensor; convert first, "
           "as in t:float():dmlab()";
  }
  tensor::Tensor shared = self.tensor();
  LuaTensor::Push(L, std::move(shared));
  return 1;
}

// [-0, +1, m] A table of every dmlab.system.tensor method, wrapped.
void PushWrappedMethods(lua_State* L) {
  lua_createtable(L, 0, 256);
  luaL_getmetatable(L, LuaTensor::kFamily);
  lua_getfield(L, -1, "__index");
  for (lua_pushnil(L); lua_next(L, -2) != 0;) {
    // Stack: wrapped, family metatable, methods, name, method.
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_pushcclosure(L, &KeepTorchFlavour, 1);
    lua_rawset(L, -6);
  }
  lua_pop(L, 2);
}

void RegisterType(lua_State* L, const TorchType& type, int wrapped) {
  Class<LuaTensor>::Register(
      L, type.name,
      {{"dmlab", &Class<LuaTensor>::Member<&ToDmlab>},
       {"torch", &Class<LuaTensor>::Member<&ToTorch>},
       {"select", &Class<LuaTensor>::Member<&TorchSelect>},
       {"size", &Class<LuaTensor>::Member<&TorchSize>},
       {"__newindex", &Class<LuaTensor>::Member<&TorchIndexSet>}});
  PushTorchMetatable(L, type);
  const int metatable = lua_gettop(L);
  lua_getfield(L, metatable, "__index");
  const int methods = lua_gettop(L);
  for (lua_pushnil(L); lua_next(L, wrapped) != 0; lua_pop(L, 1)) {
    lua_pushvalue(L, -2);
    lua_rawget(L, methods);
    const bool own = !lua_isnil(L, -1);  // dmlab and torch stay this flavour's
    lua_pop(L, 1);
    if (own) continue;
    lua_pushvalue(L, -2);
    lua_pushvalue(L, -2);
    lua_rawset(L, methods);
  }
  lua_pushstring(L, type.name);
  lua_setfield(L, methods, "__typename");
  lua_pushstring(L, "__index");
  lua_pushstring(L, type.name);
  lua_pushvalue(L, methods);
  lua_pushcclosure(L, &TorchIndex, 3);
  lua_setfield(L, metatable, "__index");
  for (const char* event : kOperators) {
    lua_pushstring(L, event);
    lua_pushvalue(L, methods);
    lua_pushcclosure(L, &TorchOperator, 2);
    lua_setfield(L, metatable, event);
  }
  lua_settop(L, metatable - 1);
}

}  // namespace

void RegisterTorchFlavour(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kFamilyMethods);
  const bool registered = !lua_isnil(L, -1);
  lua_pop(L, 1);
  if (registered) return;
  PushWrappedMethods(L);
  const int wrapped = lua_gettop(L);
  for (const TorchType& type : kTorchTypes) RegisterType(L, type, wrapped);
  lua_setfield(L, LUA_REGISTRYINDEX, kFamilyMethods);
  // dmlab.system.tensor's tensors convert with t:torch() once this module
  // is open.
  luaL_getmetatable(L, LuaTensor::kFamily);
  lua_getfield(L, -1, "__index");
  lua_pushstring(L, "torch");
  lua_pushstring(L, LuaTensor::kFamily);
  lua_pushcclosure(L, &Class<LuaTensor>::Member<&ToTorch>, 2);
  lua_setfield(L, -2, "torch");
  lua_pop(L, 2);
}

void AddTorchMethods(lua_State* L, absl::Span<const MethodEntry> methods) {
  for (const TorchType& type : kTorchTypes) {
    PushTorchClass(L, type);
    for (const MethodEntry& method : methods) {
      lua_pushstring(L, method.name);
      lua_pushstring(L, method.name);
      lua_pushstring(L, type.name);
      lua_pushcclosure(L, method.function, 2);
      lua_rawset(L, -3);
    }
    lua_pop(L, 1);
  }
}

void PushTorchClass(lua_State* L, const TorchType& type) {
  PushTorchMetatable(L, type);
  lua_getfield(L, -1, "__index");
  lua_remove(L, -2);
  // __index is the TorchIndex closure; its third upvalue is the class.
  lua_getupvalue(L, -1, 3);
  lua_remove(L, -2);
}

}  // namespace lua_api
