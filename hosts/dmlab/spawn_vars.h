// Spawn variables: the key/value strings of a Quake III entity, as level
// callbacks give them (api:updateSpawnVars, api:extraEntities,
// pickups_spawn:spawn) and as the engine's buffers (its g_spawn.c) take
// them: fewer than 64 pairs in fewer than 4096 characters. And an entity
// the engine can build: it ends the process on a brush entity (func_door,
// trigger_multiple...) whose "model" is not one of the map's brush models
// ("*N"), and on a target_speaker without a "noise".
//
// Example:
//   SpawnVars vars;
//   absl::Status read = ReadSpawnTable(L, -1, "extraEntities", &vars);
//   absl::Status fits = CheckSpawnVars(vars, {"*1", "*2"}, "extraEntities");
//   WriteSpawnVars(vars, chars, &num_chars, offsets, &num_vars);  // fits
#ifndef HOSTS_DMLAB_SPAWN_VARS_H_
#define HOSTS_DMLAB_SPAWN_VARS_H_

#include <map>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {

// In key order, as DeepMind Lab's std::map holds them.
using SpawnVars = std::map<std::string, std::string>;

// [-0, +0, -] The table at `index`: string keys, string (or number) values.
// Errors name `callback`.
absl::Status ReadSpawnTable(lua_State* L, int index, const char* callback, SpawnVars* out);

// OK if `vars` is not empty, fits the engine's buffers and makes an entity
// the engine can build, given `brush_models`, the brush models of the
// map's own entities; else why not, naming `callback`.
absl::Status CheckSpawnVars(const SpawnVars& vars, const std::set<std::string>& brush_models,
                            const char* callback);

// Writes `vars`, which CheckSpawnVars passed, into the engine's buffers.
void WriteSpawnVars(const SpawnVars& vars, char* chars, int* num_chars, int offsets[][2],
                    int* num_vars);

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_SPAWN_VARS_H_
