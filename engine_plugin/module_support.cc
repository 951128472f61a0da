#include "engine_plugin/module_support.h"

namespace engine_plugin {

void SetPreload(lua_State* L, const char* name, lua_CFunction open, void* host) {
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushlightuserdata(L, host);
  lua_pushcclosure(L, open, 1);
  lua_setfield(L, -2, name);
  lua_pop(L, 2);
}

}  // namespace engine_plugin
