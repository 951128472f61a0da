// dmlab.system.players: a level's players, as the plugin keeps them
// (docs/plugin.md, "Several players").
//
// Lua API (`local players = require 'dmlab.system.players'`; call with ':'):
//   players:count()            the players setting
//   players:finish(id[, how])  ends player id's part of the episode after
//                              this step: how is 'terminated' (the
//                              default: its task is over) or 'truncated';
//                              the player stands still from then on, and
//                              the episode ends once every player's has
//                              (terminated if any player's was). A player
//                              that has finished stays finished.
//   players:status(id)         'running', 'terminated' or 'truncated'
// Ids count from 1; one out of range is an error naming the function.
//
// Example (in a level's callback):
//   if lives[id] == 0 then players:finish(id) end
#ifndef ENGINE_PLUGIN_PLAYERS_MODULE_H_
#define ENGINE_PLUGIN_PLAYERS_MODULE_H_

#include "engine_plugin/host.h"
#include "lua_api/lua/lua.h"

namespace engine_plugin {

// A player's part of the episode.
enum class PlayerStatus { kRunning, kTerminated, kTruncated };

class PlayerRoster {
 public:
  virtual ~PlayerRoster() = default;
  virtual int players() const = 0;
  // Players count from 0 here. REQUIRES: 0 <= player < players().
  virtual PlayerStatus player_status(int player) const = 0;
  virtual void FinishPlayer(int player, EpisodeEnd end) = 0;
};

// [-0, +0, m] Makes `require 'dmlab.system.players'` return a module bound
// to `roster`, which must outlive L.
void RegisterPlayersModule(lua_State* L, PlayerRoster* roster);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_PLAYERS_MODULE_H_
