// A level's theme table as text_level.h's Theme, read as DeepMind Lab
// reads one: theme:mazeVariation(name) gives a variation's textures
// ('default' for cells without one; a variation without a table, or a
// texture it lacks, falls back to the default's), asked once a variation;
// theme:placeWallDecals(spots) and theme:placeFloorModels(spots), if the
// theme has them, place decals and models. A texture is {tex, width,
// height, scale, angle}, a model {mod, scale, angle}. The theme's errors,
// and results of the wrong shape, fail the translation with a message.
#ifndef HOSTS_DMLAB_LUA_THEME_H_
#define HOSTS_DMLAB_LUA_THEME_H_

#include <memory>

#include "hosts/dmlab/text_level.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {

// A theme whose calls run on a Lua thread that the caller names: the
// thread calling into C++ at the time (a maker's method may run in a
// coroutine of the level's callback), never another thread's stack.
class LuaTheme : public Theme {
 public:
  // Makes the theme call on L from now on; the thread it called on before.
  virtual lua_State* Use(lua_State* L) = 0;
};

// The theme table at `index` of L (referenced from the registry, so any
// thread of L's state may use it); its calls run protected
// (lua_api::Call) on the thread Use named last, L at first.
std::unique_ptr<LuaTheme> NewLuaTheme(lua_State* L, int index);

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_LUA_THEME_H_
