// The methods of dmlab.system.tensor, in groups, one .cc file each.
//
// Each Register*Methods adds its group to the metatable registered as
// `metatable` (see Class<LuaTensor>::Register), and RegisterTensorModule
// calls them all for every type in kLuaDTypes.
#ifndef LUA_API_TENSOR_METHODS_H_
#define LUA_API_TENSOR_METHODS_H_

#include "lua_api/lua.h"

namespace lua_api {

// type, size, shape, ownsStorage, val, __call, select, narrow, transpose,
// reverse, reshape, clone and the seven conversions, __tostring, tostring,
// __eq.                                               tensor_methods_view.cc
void RegisterViewMethods(lua_State* L, const char* metatable);

// fill, add, sub, mul, div, copy, cadd, csub, cmul, cdiv, floor, ceil,
// round, clamp, sum, product, lengthSquared, dot, mmul.
//                                                     tensor_methods_math.cc
void RegisterMathMethods(lua_State* L, const char* metatable);

// apply, applyIndexed, shuffle.               tensor_methods_functional.cc
void RegisterFunctionalMethods(lua_State* L, const char* metatable);

// Each Register*Functions adds its group's module functions (tensor.floor,
// ...) to the module table at stack `module_index`; see module_functions.h.

// floor, ceil, round, clamp, mul, div, cmul, cdiv, dot.
//                                                     tensor_methods_math.cc
void RegisterMathFunctions(lua_State* L, int module_index);

}  // namespace lua_api

#endif  // LUA_API_TENSOR_METHODS_H_
