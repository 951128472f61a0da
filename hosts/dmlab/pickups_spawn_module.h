// dmlab.system.pickups_spawn on DeepMind Lab's engine: entities a level
// spawns during play, as DeepMind Lab's module does.
//
// Lua API (`local pickups_spawn = require 'dmlab.system.pickups_spawn'`):
//   pickups_spawn:spawn{classname = 'strawberry_reward',
//                       origin = '750 450 30', count = '5'}
//       the engine spawns the entity at its next frame. Spawn variables are
//       strings (numbers become strings); a pickup the map lacks must be
//       named by api:registerDynamicItems() at map load, as in DeepMind
//       Lab. Errors name the function: a table that is not spawn
//       variables, or one the engine's buffers cannot hold, or more
//       entities than the engine holds (Context::kMaxLevelEntities).
#ifndef HOSTS_DMLAB_PICKUPS_SPAWN_MODULE_H_
#define HOSTS_DMLAB_PICKUPS_SPAWN_MODULE_H_

#include "hosts/dmlab/context.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {

// Adds dmlab.system.pickups_spawn to package.preload; `context` outlives L.
void RegisterPickupsSpawnModule(lua_State* L, Context* context);

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_PICKUPS_SPAWN_MODULE_H_
