#include "lua_api/tensor/module_functions.h"

#include <cstdlib>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "lua_api/lua/native_code.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/convert.h"
#include "tensor/elementwise.h"
#include "tensor/layout.h"

namespace lua_api {
namespace {

// The upvalues of each module function.
constexpr int kNameUpvalue = 1;
constexpr int kFormUpvalue = 2;
constexpr int kMinArgsUpvalue = 3;

// [-0, +0, -] The valid tensor at `index`, argument #index of `function`.
std::string ReadArgument(lua_State* L, int index, const char* function, LuaTensor** out) {
  LuaTensor* tensor = LuaTensor::Read(L, index);
  if (tensor == nullptr) return ArgumentError(function, index, Expected(L, index, "tensor"));
  if (absl::Status valid = tensor->tensor().CheckValid(); !valid.ok()) {
    return ArgumentError(function, index,
                         absl::StrCat(tensor->type_name(), " is an ", valid.message()));
  }
  *out = tensor;
  return {};
}

// Whether both name the same elements in the same order: then writing one
// into the other is a no-op, and is skipped.
bool SameElements(const tensor::Tensor& a, const tensor::Tensor& b) {
  return a.storage() == b.storage() && a.dtype() == b.dtype() && a.layout() == b.layout();
}

// Writes `value` into res (argument #1 of `function`): in place if the
// shapes match, else by resizing res if it owns its storage.
std::string Receive(lua_State* L, const char* function, LuaTensor& res,
                    const tensor::Tensor& value) {
  if (res.tensor().dtype() != value.dtype()) {
    return ArgumentError(function, 1,
                         absl::StrCat("res must be a ", tensor::DTypeTensorName(value.dtype()),
                                      ", got ", tensor::DTypeTensorName(res.tensor().dtype())));
  }
  if (res.tensor().shape() == value.shape()) {
    if (SameElements(res.tensor(), value)) return {};
    absl::Status copied = tensor::ApplyComponents(res.tensor(), tensor::ElementOp::kAssign, value);
    return copied.ok() ? std::string() : StatusError(function, copied);
  }
  if (!res.tensor().owns_storage()) {
    return ArgumentError(function, 1,
                         absl::StrCat("res has shape ", tensor::ShapeToString(res.tensor().shape()),
                                      ", the result ", tensor::ShapeToString(value.shape()),
                                      ", and res cannot be resized: its memory is lent"));
  }
  absl::StatusOr<tensor::Tensor> copy = tensor::Clone(value, TensorAllocator(L));
  if (!copy.ok()) return StatusError(function, copy.status());
  res.Reset(*std::move(copy));
  return {};
}

// [-0, +0, m] For ModuleForm::kInPlace: makes stack 1 the tensor the method
// will change, res or a clone of x, and removes x from the stack.
std::string PrepareInPlace(lua_State* L, const char* function, bool has_res) {
  InNativeCode native;
  LuaTensor* x = nullptr;
  if (std::string e = ReadArgument(L, has_res ? 2 : 1, function, &x); !e.empty()) return e;
  if (has_res) {
    LuaTensor* res = nullptr;
    if (std::string e = ReadArgument(L, 1, function, &res); !e.empty()) return e;
    if (std::string e = Receive(L, function, *res, x->tensor()); !e.empty()) return e;
    lua_remove(L, 2);
    return {};
  }
  absl::StatusOr<tensor::Tensor> clone = tensor::Clone(x->tensor(), TensorAllocator(L));
  if (!clone.ok()) return StatusError(function, clone.status());
  LuaTensor::Push(L, *std::move(clone));
  lua_replace(L, 1);
  return {};
}

// [-0, +0, m] For ModuleForm::kResult with res: writes the result at stack
// 2 into res at stack 1.
std::string ReceiveResult(lua_State* L, const char* function) {
  InNativeCode native;
  LuaTensor* result = LuaTensor::Read(L, 2);
  if (result == nullptr) {
    return absl::StrCat("'", function, "': res given, but the result is a ", luaL_typename(L, 2));
  }
  LuaTensor* res = nullptr;
  if (std::string e = ReadArgument(L, 1, function, &res); !e.empty()) return e;
  return Receive(L, function, *res, result->tensor());
}

// [-0, +(0|1), m] Pushes the error of `helper` (a call returning "" or a
// message) if there is one, a C++ exception included. The callers raise it
// themselves, once the helper has returned and destroyed its C++ objects.
template <typename Helper>
bool PushedError(lua_State* L, Helper&& helper) {
  NResultsOr result = Catching([&]() -> NResultsOr {
    std::string error = helper();
    if (error.empty()) return 0;
    return error;
  });
  if (result.ok()) return false;
  lua_pushlstring(L, result.error().data(), result.error().size());
  return true;
}

// [-n, +r, e] The module function: see ModuleForm.
int CallModuleFunction(lua_State* L) {
  const char* function = lua_tostring(L, lua_upvalueindex(kNameUpvalue));
  const auto form = static_cast<ModuleForm>(lua_tointeger(L, lua_upvalueindex(kFormUpvalue)));
  const int min_args = static_cast<int>(lua_tointeger(L, lua_upvalueindex(kMinArgsUpvalue)));
  const bool has_res = form != ModuleForm::kSame && lua_gettop(L) > min_args &&
                       LuaTensor::Read(L, 1) != nullptr && LuaTensor::Read(L, 2) != nullptr;
  // The method's argument #1 is the module function's #2, or #3 after res.
  const int shift = has_res ? 2 : 1;
  if (form == ModuleForm::kInPlace &&
      PushedError(L, [&] { return PrepareInPlace(L, function, has_res); })) {
    return lua_error(L);
  }
  // The method is called on the tensor at `self`, with what follows it.
  const int self = form == ModuleForm::kResult && has_res ? 2 : 1;
  if (LuaTensor::Read(L, self) == nullptr) {
    if (PushedError(L,
                    [&] { return ArgumentError(function, self, Expected(L, self, "tensor")); })) {
      return lua_error(L);
    }
  }
  lua_getfield(L, self, function);
  lua_insert(L, self);
  // The method's errors count this function's arguments.
  const ArgumentNumbering caller = SetArgumentNumbering({function, shift});
  const int called = lua_pcall(L, lua_gettop(L) - self, LUA_MULTRET, 0);
  SetArgumentNumbering(caller);
  if (called != 0) return lua_error(L);
  if (form != ModuleForm::kResult || !has_res) return lua_gettop(L);
  if (lua_gettop(L) < 2) lua_pushnil(L);
  if (PushedError(L, [&] { return ReceiveResult(L, function); })) return lua_error(L);
  lua_settop(L, 1);
  return 1;
}

}  // namespace

void SetModuleFunctions(lua_State* L, int module_index,
                        std::initializer_list<ModuleFunction> functions) {
  for (const ModuleFunction& function : functions) {
    lua_pushstring(L, function.name);
    lua_pushinteger(L, static_cast<lua_Integer>(function.form));
    lua_pushinteger(L, function.min_args);
    lua_pushcclosure(L, &CallModuleFunction, 3);
    lua_setfield(L, module_index, function.name);
  }
}

}  // namespace lua_api
