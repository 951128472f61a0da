// dmlab.system.torch: the torch-flavoured tensor metatables (C++,
// torch_flavour.h) and Torch7's surface over them (Lua, torch/*.lua,
// compiled in).
#include "lua_api/torch/torch_module.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "lua_api/tensor/tensor_module.h"
#include "lua_api/torch/torch_bitwise.h"
#include "lua_api/torch/torch_flavour.h"
#include "lua_api/torch/torch_index.h"
#include "lua_api/torch/torch_random.h"
#include "lua_api/torch/torch_serialize.h"
#include "lua_api/torch/torch_sources.h"
#include "lua_api/torch/torch_tensor.h"
#include "tensor/convert.h"
#include "tensor/layout.h"
#include "tensor/tensor.h"

namespace lua_api {
namespace {

// [-0, +1, e] package.loaded[name], opened by `open` if it is not yet.
void PushLoaded(lua_State* L, const char* name, lua_CFunction open) {
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
  lua_getfield(L, -1, name);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushcfunction(L, open);
    lua_call(L, 0, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, name);
  }
  lua_remove(L, -2);
}

// [-0, +1, -] internal.isTensor(x): whether x is a torch-flavoured tensor.
int IsTensor(lua_State* L) {
  lua_pushboolean(L, IsTorchTensor(L, 1));
  return 1;
}

// [-0, +1, e] internal.toTorch(x): x if it is no tensor or a torch-flavoured one; else
// a torch-flavoured tensor over x's elements (whatever x's metatable).
int ToTorch(lua_State* L) {
  LuaTensor* tensor = LuaTensor::Read(L, 1);
  lua_settop(L, 1);
  if (tensor == nullptr || IsTorchTensor(L, 1) ||
      FindTorchType(tensor->tensor().dtype()) == nullptr) {
    return 1;
  }
  tensor::Tensor shared = tensor->tensor();
  PushTorchTensor(L, std::move(shared));
  return 1;
}

// [-0, +1, -] internal.isCFunction(f)
int IsCFunction(lua_State* L) {
  lua_pushboolean(L, lua_iscfunction(L, 1));
  return 1;
}

// [-0, +1, e] internal.newUserdata(metatable): an empty userdata, for Storages: Lua
// 5.1 honours __len only on userdata.
int NewUserdata(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_newuserdata(L, 0);
  lua_pushvalue(L, 1);
  lua_setmetatable(L, -2);
  return 1;
}

// [-0, +1, e] internal.value(t, x): the number a tensor of t's type stores for x
// (whole numbers toward zero for integer types), or an error naming
// `function` (argument 3).
NResultsOr Value(lua_State* L) {
  LuaTensor* tensor = LuaTensor::Read(L, 1);
  double value;
  if (tensor == nullptr) return ArgumentError("value", 1, Expected(L, 1, "tensor"));
  if (std::string why = ReadNumber(L, 2, &value); !why.empty()) {
    return ArgumentError(lua_tostring(L, 3) ? lua_tostring(L, 3) : "value", 1, why);
  }
  if (std::string why = TorchValue(value, tensor->tensor().dtype(), &value); !why.empty()) {
    return ArgumentError(lua_tostring(L, 3) ? lua_tostring(L, 3) : "value", 1, why);
  }
  lua_pushnumber(L, value);
  return 1;
}

// [-0, +1, e] internal.convert(t, 'FloatTensor'): a new torch-flavoured tensor of that
// type with t's values; out of the type's range is an error.
NResultsOr Convert(lua_State* L) {
  LuaTensor* tensor;
  if (std::string e = ReadTensorArgument(L, 1, "type", &tensor); !e.empty()) return e;
  const char* name = lua_tostring(L, 2);
  for (const TorchType& type : kTorchTypes) {
    if (name != nullptr && std::strcmp(name, type.short_name) == 0) {
      return PushTorchResult(L, "type",
                             tensor::Convert(tensor->tensor(), type.dtype, TensorAllocator(L)));
    }
  }
  return ArgumentError("type", 1, "a tensor type name expected");
}

// The sizes (and strides) table at `index` as a vector, checked.
std::string ReadExtents(lua_State* L, int index, const char* what, std::vector<tensor::Index>* out) {
  if (lua_type(L, index) != LUA_TTABLE) return Expected(L, index, what);
  const int n = static_cast<int>(lua_objlen(L, index));
  for (int i = 1; i <= n; ++i) {
    lua_rawgeti(L, index, i);
    std::int64_t value;
    std::string why = ReadInteger(L, -1, &value);
    lua_pop(L, 1);
    if (!why.empty()) return absl::StrCat(what, " [", i, "]: ", why);
    out->push_back(value);
  }
  return {};
}

// [-0, +1, e] internal.withLayout(t, offset, sizes, strides): a torch-flavoured tensor
// over t's storage with that layout (0-based offset), which must lie
// inside the storage.
NResultsOr WithLayout(lua_State* L) {
  LuaTensor* tensor;
  if (std::string e = ReadTensorArgument(L, 1, "set", &tensor); !e.empty()) return e;
  std::int64_t offset;
  if (std::string why = ReadInteger(L, 2, &offset); !why.empty()) {
    return ArgumentError("set", 1, absl::StrCat("offset: ", why));
  }
  std::vector<tensor::Index> sizes, strides;
  if (std::string why = ReadExtents(L, 3, "sizes", &sizes); !why.empty()) {
    return ArgumentError("set", 2, why);
  }
  if (std::string why = ReadExtents(L, 4, "strides", &strides); !why.empty()) {
    return ArgumentError("set", 3, why);
  }
  absl::StatusOr<tensor::Layout> layout = tensor::Layout::Create(sizes, strides, offset);
  if (!layout.ok()) return StatusError("set", layout.status());
  return PushTorchResult(L, "set", tensor->tensor().WithLayout(*std::move(layout)));
}

// [-0, +1, e] internal.wholeStorage(t): a rank-1 tensor over every element of t's
// storage (an empty one for a tensor without storage).
NResultsOr WholeStorage(lua_State* L) {
  LuaTensor* tensor;
  if (std::string e = ReadTensorArgument(L, 1, "storage", &tensor); !e.empty()) return e;
  const tensor::Tensor& t = tensor->tensor();
  const auto elements = static_cast<tensor::Index>(
      t.storage() == nullptr ? 0 : t.storage()->bytes() / t.item_size());
  absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous({elements});
  if (!layout.ok()) return StatusError("storage", layout.status());
  return PushTorchResult(L, "storage", t.WithLayout(*std::move(layout)));
}

// [-0, +0, e] internal.reset(x, t): x now holds t's tensor (x:set).
NResultsOr Reset(lua_State* L) {
  LuaTensor* self = LuaTensor::Read(L, 1);
  if (self == nullptr) return ArgumentError("set", 0, Expected(L, 1, "tensor"));
  LuaTensor* source;
  if (std::string e = ReadTensorArgument(L, 2, "set", &source); !e.empty()) return e;
  self->Reset(source->tensor());
  return 0;
}

// [-0, +1, e] internal.sameStorage(a, b): whether a and b view the same storage.
int SameStorage(lua_State* L) {
  LuaTensor* a = LuaTensor::Read(L, 1);
  LuaTensor* b = LuaTensor::Read(L, 2);
  lua_pushboolean(L, a != nullptr && b != nullptr && a->tensor().storage() != nullptr &&
                         a->tensor().storage() == b->tensor().storage());
  return 1;
}

// [-0, +1, e] internal.source(file): torch/<file> loaded as a function.
int Source(lua_State* L) {
  const char* file = luaL_checkstring(L, 1);
  std::optional<absl::string_view> source = FindTorchSource(file);
  const std::string chunk_name = std::string("=dmlab.system.torch/") + file;
  if (!source.has_value() ||
      luaL_loadbuffer(L, source->data(), source->size(), chunk_name.c_str()) != 0) {
    lua_pushfstring(L, "dmlab.system.torch: cannot load %s", file);
    return lua_error(L);
  }
  return 1;
}

// [-0, +1, e] internal.address(x): where x lives, as a number: a table's, userdata's,
// function's or thread's block, a light userdata's pointer, a string's
// characters (torch.pointer).
int Address(lua_State* L) {
  const void* where = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : lua_topointer(L, 1);
  lua_pushnumber(L, static_cast<lua_Number>(reinterpret_cast<std::uintptr_t>(where)));
  return 1;
}

// [-0, +1, m] The table torch/init.lua receives as `internal`.
void PushInternal(lua_State* L) {
  lua_createtable(L, 0, 16);
  lua_pushcfunction(L, &IsTensor);
  lua_setfield(L, -2, "isTensor");
  lua_pushcfunction(L, &ToTorch);
  lua_setfield(L, -2, "toTorch");
  lua_pushcfunction(L, &IsCFunction);
  lua_setfield(L, -2, "isCFunction");
  lua_pushcfunction(L, &NewUserdata);
  lua_setfield(L, -2, "newUserdata");
  lua_pushcfunction(L, &Source);
  lua_setfield(L, -2, "source");
  lua_pushcfunction(L, &Raising<&Convert>);
  lua_setfield(L, -2, "convert");
  PushTorchRandomInternals(L);
  PushTorchSerializeInternals(L);
  lua_pushcfunction(L, &Raising<&WithLayout>);
  lua_setfield(L, -2, "withLayout");
  lua_pushcfunction(L, &Raising<&WholeStorage>);
  lua_setfield(L, -2, "wholeStorage");
  lua_pushcfunction(L, &Raising<&Reset>);
  lua_setfield(L, -2, "reset");
  lua_pushcfunction(L, &SameStorage);
  lua_setfield(L, -2, "sameStorage");
  lua_pushcfunction(L, &Address);
  lua_setfield(L, -2, "address");
  lua_pushcfunction(L, &Raising<&Value>);
  lua_setfield(L, -2, "value");
  lua_createtable(L, 0, 8);
  for (const TorchType& type : kTorchTypes) {
    PushTorchClass(L, type);
    lua_setfield(L, -2, type.short_name);
  }
  lua_setfield(L, -2, "classes");
  // dmlab.system.tensor's own methods, for those that return only self
  // and so need no change of flavour.
  luaL_getmetatable(L, LuaTensor::kFamily);
  lua_getfield(L, -1, "__index");
  lua_setfield(L, -3, "dmlabMethods");
  lua_pop(L, 1);
  // fill, add, sub, mul and div computing in the tensor's type (Torch7's
  // arithmetic), where dmlab's compute in double.
  luaL_getmetatable(L, kWholeScalarMethods);
  lua_getfield(L, -1, "__index");
  lua_setfield(L, -3, "wholeScalarMethods");
  lua_pop(L, 1);
}

}  // namespace

void RegisterTorchModule(lua_State* L) {
  RegisterTensorModule(L);
  SetPreload(L, "dmlab.system.torch", &luaopen_dmlab_system_torch);
}

namespace {

// Run on the module a sandboxed level gets: what touches files or shows
// an address raises an error naming the function instead.
constexpr char kSandboxRules[] = R"lua(
local torch = ...
local function refused(name, why)
  return function() error("'" .. name .. "': " .. why, 2) end
end
local noFiles = 'a sandboxed level has no files'
torch.save, torch.load = refused('save', noFiles), refused('load', noFiles)
torch.CmdLine.log = refused('log', noFiles)
torch.pointer = refused('pointer', 'a sandboxed level sees no addresses')
return torch
)lua";

// [-0, +1, e]
int OpenSandboxedTorch(lua_State* L) {
  luaopen_dmlab_system_torch(L);
  if (luaL_loadbuffer(L, kSandboxRules, sizeof(kSandboxRules) - 1, "=dmlab.system.torch") != 0) {
    return lua_error(L);
  }
  lua_insert(L, -2);
  lua_call(L, 1, 1);
  return 1;
}

}  // namespace

void RegisterSandboxedTorchModule(lua_State* L) {
  RegisterTensorModule(L);
  SetPreload(L, "dmlab.system.torch", &OpenSandboxedTorch);
}

}  // namespace lua_api

extern "C" int luaopen_dmlab_system_torch(lua_State* L) {
  lua_settop(L, 0);
  lua_api::PushLoaded(L, "dmlab.system.tensor", &luaopen_dmlab_system_tensor);
  lua_api::RegisterTorchFlavour(L);
  lua_api::RegisterTorchRandomMethods(L);
  lua_api::RegisterTorchBitwiseMethods(L);
  lua_pushcfunction(L, &lua_api::Source);
  lua_pushstring(L, "init.lua");
  lua_call(L, 1, 1);
  lua_insert(L, 1);
  lua_api::PushInternal(L);
  lua_call(L, 2, 1);
  return 1;
}
