// dmlab.system.game: what a level script may ask of the engine it runs in.
//
// Lua API (`local game = require 'dmlab.system.game'`; call with ':'):
//   game:playerInfo([playerId])
//                              {pos = {x, y, z}, vel = {x, y, z} (per
//                                second over the last frame), angles =
//                                {pitch, yaw, roll}, anglesVel (degrees per
//                                second), cell = {row, col} (1-based map
//                                cell), playerId, teamScore = 0,
//                                otherTeamScore = 0, teleported (whether
//                                a teleporter moved the player this
//                                frame)}: as DeepMind Lab's; player 1's
//                                without an id (ids count from 1, up to
//                                the players setting)
//   game:addScore([playerId,] reward)
//                              adds to the player's reward of the current
//                              step (player 1's without an id)
//   game:finishMap()           ends the map after this frame; the engine
//                              then loads the level's nextMap()
//   game:console(command)      DeepMind Lab's console, which on the maze
//                              knows 'dm_pickup <id>': the player picks
//                              up every pickup whose spawn variable id
//                              is <id> in the next frame, as if touched;
//                              any other command is an error naming it
//   game:episodeTimeSeconds()  frames so far / fps
//   game:screenShape()         {window = {width=, height=}, buffer = {width=,
//                                height=}}: the frame's size, as DeepMind
//                                Lab's levels read it
//   game:pickups()             {{id=, type='reward'|'goal', classname=,
//                                quantity=, position={x, y}, active=}, ...}
//                                of the current map
//   game:runFiles()            engine_plugin::kRunFilesRoot: DeepMind Lab's
//                              levels name their game_scripts as
//                              runFiles() .. '/baselab/game_scripts/...'
//   game:loadFileToString(name)
//                              the bytes of a file the level may read
//                              (engine_plugin/level_files.h), as a string
//                              that must fit under the Lua memory cap
//   game:renderCustomView{pos = {x, y[, z]}, look = {pitch, yaw[, roll]},
//                         width = w, height = h}
//                              a second camera: a new owning ByteTensor
//                              h x w x 3 (width/height default to the
//                              engine's); pitched 89 degrees or more down,
//                              it sees the map from above
//   game:updateTexture(name, image)
//                              gives the surface `name` (surfaces.h:
//                              'maze/ceiling', ...) the texture `image`, a
//                              ByteTensor H x W x 4 (RGBA), copied
//                              (texture_hooks.h)
// Positions are DeepMind Lab's game units (kGameUnitsPerCell to a cell, the
// axes of world.h) and pitch is Quake's, growing looking down
// (QuakePitch), as DeepMind Lab's levels expect.
//
// Example (in a level's callback):
//   local info = game:playerInfo()
//   if info.cell[2] > 10 then game:finishMap() end
#ifndef HOSTS_MAZE_GAME_MODULE_H_
#define HOSTS_MAZE_GAME_MODULE_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hosts/maze/raycaster.h"
#include "hosts/maze/surfaces.h"
#include "hosts/maze/world.h"
#include "lua_api/lua/lua.h"
#include "tensor/tensor.h"

namespace hosts::maze {

// The engine side of the module; implemented by the engine instance.
class GameHost {
 public:
  virtual ~GameHost() = default;
  // The current map's world, or null before the first map is loaded.
  virtual const World* world() const = 0;
  // How many players the level has (the players setting).
  virtual int players() const = 0;
  // Adds to player `player`'s reward (from 0).
  virtual void AddScore(int player, double reward) = 0;
  virtual void FinishMap() = 0;
  // game:console: "" or what is wrong with `command`.
  virtual std::string Console(absl::string_view command) = 0;
  virtual double EpisodeTimeSeconds() const = 0;
  virtual int frame_width() const = 0;
  virtual int frame_height() const = 0;
  // A file the level names (engine_plugin::Level::ReadFile).
  virtual absl::StatusOr<std::string> ReadLevelFile(const std::string& name) const = 0;
  // How the current map's surfaces look (the texture callbacks' work).
  virtual const Surfaces& surfaces() const = 0;
  // game:updateTexture: "" or what is wrong (SurfaceTextures::Update).
  virtual std::string UpdateTexture(lua_State* L, absl::string_view name,
                                    const tensor::Tensor& image) = 0;
};

// [-0, +1, m] Pushes {id = (1-based), type = 'reward'|'goal', classname =,
// quantity =, position = {x, y} (game units)}: a pickup as the level sees
// it (game:pickups(), game_entities:entities()).
void PushPickup(lua_State* L, const Pickup& pickup);

// The Lua heap a pickup's table takes, with the list's slot, in
// game:pickups() (with `active`; 493 bytes measured) and
// game_entities:entities() (with entityId, id, visible and a z; 529).
inline constexpr std::size_t kPickupsTableBytes = 550;
inline constexpr std::size_t kEntitiesTableBytes = 600;

// [-0, +0, -] Before pushing `count` pickup tables of `bytes_each` bytes:
// charges their work to the watchdog and checks that they fit the Lua
// heap's cap, which nothing refuses inside a C++ function (a million
// apples' tables took 3.1 GB past a 256 MiB cap); "" or the error naming
// `function`.
std::string CheckPickupTables(lua_State* L, std::size_t count, std::size_t bytes_each,
                              const char* function);

// [-0, +0, m] Makes `require 'dmlab.system.game'` return a module bound to
// `host`, which must outlive L.
void RegisterGameModule(lua_State* L, GameHost* host);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_GAME_MODULE_H_
