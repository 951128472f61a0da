// dmlab.system.map_maker: DeepMind Lab's maker of maps from text levels,
// for the maze engine.
//
// Lua API (`local map_maker = require 'dmlab.system.map_maker'`; ':'):
//   map_maker:mapFromTextLevel{entityLayer = text, variationsLayer = text,
//                              mapName = 'name', callback = f, ...}
//       Makes the map `mapName` (default 'luamap') that nextMap() may then
//       return, and returns that name. For each cell that is not a wall
//       ('*'), callback(i, j, c, maker) (0-based row and column, the
//       character) may return a string of entities made by `maker`, a list
//       of them, '' (nothing), or nil: then 'P' is a spawn point, 'I' and
//       'H' doors, and any other character an empty floor cell, as
//       DeepMind Lab's default handler does. Keys that only dress the map in DeepMind Lab (theme,
//       skyboxTextureName, ceilingHeight, drawDefaultLayout, cellSize,
//       allowBots) are accepted and have no effect here.
//   maker:makeEntity{i = row, j = col, classname = name}
//   maker:makeSpawnPoint{i = row, j = col}
//   maker:makeDoor{i = row, j = col, isEastWest = b}, maker:makeFenceDoor{...}
//       (a door 'I' if isEastWest, else 'H'; both drawn alike)
//   maker:addPlatform{...}, maker:addGlassColumn{...}
//       errors: the maze's floor is flat
//       An entity at the centre of cell (i, j), with `attributes` (its
//       other spawn variables, strings or numbers), as the string DeepMind
//       Lab writes into a .map file. The map loads it as spawn_entities.h
//       says (a pickup's class comes from the level's createPickup).
//   map_maker:randomGen()
//       The map maker's own generator (dmlab.system.random's methods),
//       the same object on every call, seeded 0 until a level seeds it.
//
// A made map's layers and entities are charged to the level's tensor budget for as long
// as the map is kept (until another map of that name replaces it).
//
// Example:
//   local name = map_maker:mapFromTextLevel{
//       mapName = 'room', entityLayer = '*****\n*P X*\n*****\n',
//       callback = function(i, j, c, maker)
//         if c == 'X' then return maker:makeEntity{i = i, j = j, classname = 'goal'} end
//       end}
//   function api:nextMap() return name end
#ifndef HOSTS_MAZE_MAP_MAKER_MODULE_H_
#define HOSTS_MAZE_MAP_MAKER_MODULE_H_

#include <map>
#include <string>
#include <vector>

#include "hosts/maze/spawn_entities.h"
#include "lua_api/lua/lua.h"
#include "lua_api/tensor/tensor_limits.h"

namespace hosts::maze {

struct MadeMap {
  std::string entity_layer;  // walls, floor, spawn points and doors
  std::string variations_layer;
  std::vector<SpawnEntity> entities;   // the rest of what the callback made
  lua_api::TensorMemoryCharge charge;  // the layers' and entities' bytes
};

// The maps a level made, by name.
class MadeMaps {
 public:
  // The map named `name`, or null.
  const MadeMap* Find(const std::string& name) const {
    auto it = maps_.find(name);
    return it == maps_.end() ? nullptr : &it->second;
  }
  void Set(const std::string& name, MadeMap map) { maps_[name] = std::move(map); }

 private:
  std::map<std::string, MadeMap> maps_;
};

// [-0, +0, m] Makes `require 'dmlab.system.map_maker'` return a module
// that keeps the maps it makes in `maps`, which must outlive L.
void RegisterMapMakerModule(lua_State* L, MadeMaps* maps);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_MAP_MAKER_MODULE_H_
