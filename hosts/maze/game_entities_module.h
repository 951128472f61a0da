// dmlab.system.game_entities: the entities of the current map, as DeepMind
// Lab's module of that name lists them.
//
// Lua API (`local game_entities = require 'dmlab.system.game_entities'`):
//   game_entities:entities([classNames])
//       {{entityId = (1-based), id = 0, classname = 'apple_reward'|'goal',
//         type = 'apple'|'goal', visible = (not yet collected),
//         position = {x, y, z}}, ...}
//       every pickup of the map, or those whose classname is in the list
//       classNames. `id` is the level's own id of the entity, which
//       DeepMind Lab takes from its spawn variables; the maze's maps have
//       none yet, so it is 0. `type` is the maze's pickup type (DeepMind
//       Lab gives Quake's item type number). Coordinates are world.h's,
//       as game:playerInfo() gives them.
//
// Example (a decorator drawing pickups on a debug view):
//   for _, entity in ipairs(game_entities:entities{'apple_reward'}) do
//     if entity.visible then draw(entity.position) end
//   end
#ifndef HOSTS_MAZE_GAME_ENTITIES_MODULE_H_
#define HOSTS_MAZE_GAME_ENTITIES_MODULE_H_

#include "hosts/maze/game_module.h"
#include "lua_api/lua/lua.h"

namespace hosts::maze {

// [-0, +0, m] Makes `require 'dmlab.system.game_entities'` return a module
// over `host`'s world, which must outlive L.
void RegisterGameEntitiesModule(lua_State* L, GameHost* host);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_GAME_ENTITIES_MODULE_H_
