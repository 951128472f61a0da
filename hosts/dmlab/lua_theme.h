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

// The theme table at `index` of L, which must stay there while the theme
// is used; its calls run protected (lua_api::Call).
std::unique_ptr<Theme> NewLuaTheme(lua_State* L, int index);

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_LUA_THEME_H_
