#include "lua_api/lua/preload.h"

namespace lua_api {

void SetPreload(lua_State* L, const char* name, lua_CFunction open, void* upvalue) {
  lua_getglobal(L, "package");
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "preload");
    if (lua_istable(L, -1)) {
      if (upvalue != nullptr) {
        lua_pushlightuserdata(L, upvalue);
        lua_pushcclosure(L, open, 1);
      } else {
        lua_pushcfunction(L, open);
      }
      lua_setfield(L, -2, name);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

}  // namespace lua_api
