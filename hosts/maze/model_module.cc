#include "hosts/maze/model_module.h"

#include "lua_api/lua/preload.h"

namespace hosts::maze {
namespace {

constexpr const char* kFunctions[] = {"cone",         "cube",      "cylinder",
                                      "sphere",       "hierarchy", "circularLayout",
                                      "linearLayout", "loadMD3",   "saveMD3"};

// [-?, +0, v] Each function: the error naming it (upvalue 1).
int Refuse(lua_State* L) {
  return luaL_error(L,
                    "'model:%s': the maze engine has no 3D models (it draws walls and pickups "
                    "only), so a level cannot build or load one",
                    lua_tostring(L, lua_upvalueindex(1)));
}

// [-0, +1, m] The loader in package.preload.
int Open(lua_State* L) {
  lua_createtable(L, 0, sizeof kFunctions / sizeof kFunctions[0]);
  for (const char* name : kFunctions) {
    lua_pushstring(L, name);
    lua_pushcclosure(L, &Refuse, 1);
    lua_setfield(L, -2, name);
  }
  return 1;
}

}  // namespace

void RegisterModelModule(lua_State* L) { lua_api::SetPreload(L, "dmlab.system.model", &Open); }

}  // namespace hosts::maze
