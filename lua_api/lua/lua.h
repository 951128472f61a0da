// The Lua C API: Lua 5.1 or LuaJIT 2.1, whichever the build links.
#ifndef LUA_API_LUA_LUA_H_
#define LUA_API_LUA_LUA_H_

#include "lua.hpp"

#endif  // LUA_API_LUA_LUA_H_
