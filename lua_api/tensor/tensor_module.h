// dmlab.system.tensor: registration.
//
// Any host calls RegisterTensorModule once per lua_State; afterwards
// `require 'dmlab.system.tensor'` returns the module table.
#ifndef LUA_API_TENSOR_TENSOR_MODULE_H_
#define LUA_API_TENSOR_TENSOR_MODULE_H_

#include "lua_api/lua/lua.h"

namespace lua_api {

// [-0, +0, m] Sets package.preload['dmlab.system.tensor'], and gives L the
// default tensor limits (tensor_limits.h) unless the host set others.
void RegisterTensorModule(lua_State* L);

}  // namespace lua_api

// [-0, +1, m] The plain entry point: registers the metatables and returns
// the module table (constructors ByteTensor ... DoubleTensor, Tensor).
extern "C" int luaopen_dmlab_system_tensor(lua_State* L);

#endif  // LUA_API_TENSOR_TENSOR_MODULE_H_
