// dmlab.system.map_maker on the dmlab host: DeepMind Lab's text levels
// compiled into maps its engine loads.
//
//   map_maker:randomGen()        the map maker's own dmlab.system.random
//                                generator (seed 0 at first), which themes
//                                and the lights' strengths draw from
//   map_maker:mapFromTextLevel{  returns the pk3's path; the level then
//       entityLayer = '...',     names mapName in nextMap
//       variationsLayer = '...', mapName = 'luamap', skyboxTextureName,
//       ceilingHeight = 1, cellSize = 100, drawDefaultLayout = true,
//       allowBots = false,       also compile the bots' navigation (AAS)
//       theme = {...},           mazeVariation, placeWallDecals,
//                                placeFloorModels, as DeepMind Lab's
//       callback = function(i, j, c, maker) ... end}
//   The callback gets each floor cell (rows i and columns j from 0) and a
//   maker with makeEntity{i, j, classname[, height, attributes]},
//   makeSpawnPoint{i, j[, height, angleRad]}, makeDoor{i, j, isEastWest},
//   makeFenceDoor{...}, addPlatform{i, j, height}, addGlassColumn{...};
//   it returns the snippets to add (a string or an array of them), or
//   nothing to leave the cell to the defaults. The maker works only
//   during its mapFromTextLevel call.
// The map (text_level.h) is compiled with the engine's q3map2 and bspc
// (map_compiler.h) into the engine's home, baselab/<mapName>.pk3; a map
// whose text equals the one compiled last under that name is not compiled
// again.
#ifndef HOSTS_DMLAB_MAP_MAKER_MODULE_H_
#define HOSTS_DMLAB_MAP_MAKER_MODULE_H_

#include "hosts/dmlab/context.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {

// Adds dmlab.system.map_maker to package.preload; `context` outlives L.
void RegisterMapMakerModule(lua_State* L, Context* context);

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_MAP_MAKER_MODULE_H_
