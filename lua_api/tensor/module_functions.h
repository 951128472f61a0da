// Module functions built from methods, with Torch7's optional result
// argument: tensor.exp([res,] x), tensor.sum([res,] x, dim), ...
//
// Each is registered by name; at call time it looks the method of that
// name up on its tensor argument, so one method implementation serves both
// forms. Argument numbers in the method's errors are renumbered to count
// the module function's arguments ("bad argument #2 to 'pow'" for the
// exponent of tensor.pow(x, 'a'), not #1 as in x:pow('a')).
//
// Example:
//   SetModuleFunctions(L, module_index, {
//       {"exp", ModuleForm::kInPlace, 1},   // tensor.exp([res,] x)
//       {"sum", ModuleForm::kResult, 1},    // tensor.sum([res,] x [, dim])
//       {"sort", ModuleForm::kSame, 1},     // tensor.sort(x, ...) = x:sort(...)
//   });
#ifndef LUA_API_TENSOR_MODULE_FUNCTIONS_H_
#define LUA_API_TENSOR_MODULE_FUNCTIONS_H_

#include <initializer_list>

#include "lua_api/lua/lua.h"

namespace lua_api {

enum class ModuleForm {
  // tensor.f([res,] x, ...): res (without res, a new clone of x) first
  // takes x's values, then res:f(...) runs in place; returns what it does.
  kInPlace,
  // tensor.f([res,] x, ...): returns what x:f(...) returns; with res, its
  // first result is written into res, and res is returned.
  kResult,
  // tensor.f(x, ...) is exactly x:f(...); there is no res.
  kSame,
};

struct ModuleFunction {
  const char* name;  // the method's name, and the module function's
  ModuleForm form;
  // How many arguments the function takes without res, at least. res is
  // present iff the form allows one, there are more arguments than this,
  // and the first two are both tensors: tensor.pow(res, x, 2) has res,
  // tensor.pow(x, 2) and tensor.addcmul(x, 0.5, a, b) have none.
  int min_args;
};

// [-0, +0, m] Sets module[name] for each function, on the module table at
// stack `module_index`.
//
// A res of x's dtype and shape is written in place, whoever owns it; one
// of another shape is resized if it owns its storage, and is an error if
// its storage is lent. A res of another dtype is an error.
void SetModuleFunctions(lua_State* L, int module_index,
                        std::initializer_list<ModuleFunction> functions);

}  // namespace lua_api

#endif  // LUA_API_TENSOR_MODULE_FUNCTIONS_H_
