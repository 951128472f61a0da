// dmlab.system.maze_generation: text maps for level scripts, written out
// or generated, with DeepMind Lab's API.
//
// Lua API (`local maze_generation = require 'dmlab.system.maze_generation'`):
//   maze_generation.mazeGeneration{entity = text [, variations = text]}
//       a maze from the layers' text (text_map.h's format; no spawn needed
//       yet), or
//   maze_generation.mazeGeneration{height = h, width = w}
//       an h x w maze of walls, 1 <= h, w <= 1024.
//   maze_generation.randomMazeGeneration{random = gen | seed = n,
//       height =, width =, maxRooms =, roomMinSize =, roomMaxSize =,
//       retryCount =, extraConnectionProbability =, maxVariations =,
//       hasDoors =, spawn =, roomSpawnCount =, object =, roomObjectCount =,
//       simplify =, apples =, goal =, spawns =}
//       DeepMind Lab's random maze (maze_generation.h; every key but one
//       of random and seed optional, with the defaults of MazeOptions).
//       random is a generator of dmlab.system.random, drawn from as
//       DeepMind Lab draws; seed is any integer, for a generator of its
//       own; simplify, goal and hasDoors are booleans.
//   Unknown keys are errors, so a misspelt option is never ignored.
// A maze object (methods need ':'; rows and columns are 1-based, row 1 is
// the top line):
//   maze:entityLayer(), maze:variationsLayer()
//       the layers' text, '\n' after every row; '.' is no variation.
//   maze:size()                           height, width
//   maze:getEntityCell(row, col)          '*', ' ', 'P', 'A', 'G', 'I' or 'H'
//   maze:setEntityCell(row, col, c)
//   maze:getVariationsCell(row, col)      'A'..'Z' or '.'
//   maze:setVariationsCell(row, col, c)   'A'..'Z', '.' or ' ' (none)
//   maze:toWorldPos(row, col), maze:fromWorldPos(x, y)
//       DeepMind Lab's game units (100 a cell, y up from the bottom row)
//   maze:visitFill{cell = {row, col}, func = f[, wall = '*']}
//       f(row, col, distance) for every cell reachable from `cell` without
//       crossing a `wall` character, nearest first
//   maze:visitRandomPath{random = gen | seed = n, from = {row, col},
//                        to = {row, col}, func = f[, wall = '*']}
//       f(row, col) for each cell of a random path between the two (drawn
//       as randomMazeGeneration draws); returns whether there is one
//   tostring(maze)                        "dmlab.system.maze_generation.Maze
//                                          (h x w)"
// Errors read like Lua's: "bad argument #1 to 'getEntityCell' (row 0 is
// outside [1, 11])".
//
// Example (a level's nextMap):
//   function api:nextMap()
//     return maze_generation.randomMazeGeneration{seed = seed, height = 15,
//                                                 width = 15, apples = 4}
//   end
#ifndef HOSTS_MAZE_MAZE_GENERATION_MODULE_H_
#define HOSTS_MAZE_MAZE_GENERATION_MODULE_H_

#include "hosts/maze/text_map.h"
#include "lua_api/lua/lua.h"

namespace hosts::maze {

// The metatable name of maze objects, and their type in error messages.
inline constexpr const char kMazeTypeName[] = "dmlab.system.maze_generation.Maze";

// [-0, +0, -] The maze object's layers at `index`, or null if the value
// there is not a maze: how the engine reads the map that nextMap returns.
MapLayers* ReadMaze(lua_State* L, int index);

// [-0, +0, m] Makes `require 'dmlab.system.maze_generation'` work in L.
void RegisterMazeGenerationModule(lua_State* L);

}  // namespace hosts::maze

// [-0, +1, m] The plain entry point, for `require` of a shared library:
// registers the maze metatable and returns the module table.
extern "C" int luaopen_dmlab_system_maze_generation(lua_State* L);

#endif  // HOSTS_MAZE_MAZE_GENERATION_MODULE_H_
