// Preload: how a host makes a C module loadable by `require`.
//
// Example:
//   SetPreload(L, "dmlab.system.tensor", &luaopen_dmlab_system_tensor);
//   SetPreload(L, "dmlab.system.game", &OpenGame, &engine);  // upvalue 1
#ifndef LUA_API_LUA_PRELOAD_H_
#define LUA_API_LUA_PRELOAD_H_

#include "lua_api/lua/lua.h"

namespace lua_api {

// [-0, +0, m] Sets package.preload[name] to `open`, a closure over the
// light userdata `upvalue` when that is not null. Does nothing in a state
// without the package library, where there is no require to serve.
void SetPreload(lua_State* L, const char* name, lua_CFunction open, void* upvalue = nullptr);

}  // namespace lua_api

#endif  // LUA_API_LUA_PRELOAD_H_
