// dmlab.system.game on DeepMind Lab's engine: what a level may ask of it,
// served through the engine's calls (dmlab_abi.h's DmlabCalls) and the
// pose the engine reports (Context). DeepMind Lab's names and results.
//
// Lua API (`local game = require 'dmlab.system.game'`; call with ':'):
//   game:playerInfo()       {pos, eyePos, vel, angles, anglesVel (each
//                             {x, y, z}), height, playerId (1-based),
//                             teamScore, otherTeamScore, teleported}
//   game:addScore([playerId,] score)
//                           adds to the player's score: whole points reach
//                           the engine at its next server frame
//   game:finishMap()        the engine loads api:nextMap() next frame
//   game:episodeTimeSeconds()
//   game:console(command)   a Quake console command (not from inside a
//                           callback the engine is running: an error)
//   game:raycast(from, to)  the fraction of the segment that is free
//   game:inFov(from, to, angles, fov)
//   game:renderCustomView{width =, height =, pos = {x, y, z},
//                         look = {pitch, yaw, roll}[, renderPlayer = b]}
//                           a second camera, rendered by the engine into a
//                           new ByteTensor height x width x 3 (at most the
//                           engine's frame or maxAltCameraWidth x
//                           maxAltCameraHeight, whichever is larger)
//   game:updateTexture(name, image)
//                           the engine's texture `name` becomes `image`, a
//                           contiguous ByteTensor H x W x 4 (RGBA), copied
//   game:screenShape()      {window = {width=, height=}, buffer = {...}}
//   game:runFiles()         engine_plugin::kRunFilesRoot, as the maze's
//   game:tempFolder()       the engine's writable folder
//   game:loadFileToString(name)
//                           a file the level may read (level_files.h)
// Positions in game units; angles in degrees, Quake's.
//
// dmlab.system.game_entities: entities([classNames]), the engine's
// entities this frame, as DeepMind Lab's.
//
// dmlab.system.maze_generation: the maze host's (maze_generation_module.h),
// DeepMind Lab's generator, which knows no engine.
//
// dmlab.system.map_maker: DeepMind Lab's text levels compiled through the
// engine's q3map2 (map_maker_module.h).
//
// dmlab.system.pickups_spawn: entities spawned during play
// (pickups_spawn_module.h).
//
// dmlab.system.model: DeepMind Lab's model generation
// (engine_plugin/model/model_module.h), its MD3 files the engine's.
#ifndef HOSTS_DMLAB_GAME_MODULE_H_
#define HOSTS_DMLAB_GAME_MODULE_H_

#include "engine_plugin/host.h"
#include "hosts/dmlab/context.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {

// What the modules' functions reach: the engine through `context`, the
// level's files and clock through `level`.
struct GameModuleTarget {
  Context* context;
  engine_plugin::Level* level;
};

// Adds dmlab.system.game, .game_entities, .maze_generation, .map_maker,
// .pickups_spawn and .model to package.preload; `target` outlives L.
void RegisterGameModules(lua_State* L, GameModuleTarget* target);

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_GAME_MODULE_H_
