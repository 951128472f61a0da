#include "hosts/maze/model_module.h"

#include "lua_api/lua/preload.h"

namespace hosts::maze {
namespace {

constexpr const char* kFunctions[] = {"cone",         "cube",      "cylinder",
                                      "sphere",       "hierarchy", "circularLayout",
                                      "linearLayout", "loadMD3",   "saveMD3"};

// [-?, +0, v] Each function: the error naming it (upvalue 1) and why
// (upvalue 2).
int Refuse(lua_State* L) {
  return luaL_error(L, "'model:%s': %s", lua_tostring(L, lua_upvalueindex(1)),
                    static_cast<const char*>(lua_touserdata(L, lua_upvalueindex(2))));
}

// [-0, +1, m] The loader in package.preload; upvalue 1: why it refuses.
int Open(lua_State* L) {
  lua_createtable(L, 0, sizeof kFunctions / sizeof kFunctions[0]);
  for (const char* name : kFunctions) {
    lua_pushstring(L, name);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, &Refuse, 2);
    lua_setfield(L, -2, name);
  }
  return 1;
}

}  // namespace

void RegisterModelModule(lua_State* L, const char* why) {
  lua_api::SetPreload(L, "dmlab.system.model", &Open, const_cast<char*>(why));
}

}  // namespace hosts::maze
