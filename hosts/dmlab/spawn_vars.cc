#include "hosts/dmlab/spawn_vars.h"

#include <cstring>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {
namespace {

// The engine's buffers for spawn variables (its g_spawn.c).
constexpr int kMaxSpawnVars = 64;
constexpr int kMaxSpawnVarChars = 4096;

// The classes the engine's game module builds from a brush model
// (trap_SetBrushModel), whose failure ends the process.
constexpr const char* kBrushClasses[] = {
    "func_plat",        "func_button",    "func_door",      "func_static",
    "func_rotating",    "func_bobbing",   "func_pendulum",  "func_train",
    "trigger_multiple", "trigger_push",   "trigger_teleport", "trigger_hurt",
    "trigger_lookat"};

std::string Field(const SpawnVars& vars, const char* key) {
  auto found = vars.find(key);
  return found == vars.end() ? "" : found->second;
}

}  // namespace

absl::Status ReadSpawnTable(lua_State* L, int index, const char* callback, SpawnVars* out) {
  // Absolute: lua_next's pushes move the top.
  if (index < 0 && index > LUA_REGISTRYINDEX) index = lua_gettop(L) + index + 1;
  if (!lua_istable(L, index)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "[", callback, "] - spawn variables must be a table, not ", luaL_typename(L, index)));
  }
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING ||
        (lua_type(L, -1) != LUA_TSTRING && lua_type(L, -1) != LUA_TNUMBER)) {
      lua_pop(L, 2);
      return absl::InvalidArgumentError(absl::StrCat(
          "[", callback, "] - spawn variables must be strings keyed by strings"));
    }
    lua_pushvalue(L, -2);
    std::string key = lua_tostring(L, -1);
    lua_pop(L, 1);
    (*out)[std::move(key)] = lua_tostring(L, -1);  // a number becomes its string
    lua_pop(L, 1);
  }
  return absl::OkStatus();
}

absl::Status CheckSpawnVars(const SpawnVars& vars, const std::set<std::string>& brush_models,
                            const char* callback) {
  if (vars.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "[", callback, "] - no spawn variables: an entity needs at least its classname"));
  }
  std::size_t total = 0;
  for (const auto& [key, value] : vars) total += key.size() + value.size() + 2;
  if (vars.size() >= kMaxSpawnVars || total >= kMaxSpawnVarChars) {
    return absl::InvalidArgumentError(absl::StrCat("[", callback, "] - ", vars.size(),
                                                   " spawn variables of ", total,
                                                   " characters: the engine holds fewer than ",
                                                   kMaxSpawnVars, " and ", kMaxSpawnVarChars));
  }
  const std::string class_name = Field(vars, "classname");
  for (const char* brush_class : kBrushClasses) {
    if (class_name != brush_class) continue;
    const std::string model = Field(vars, "model");
    if (brush_models.count(model) == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "[", callback, "] - a ", class_name, " needs the model of one of the map's brush "
          "entities (\"*1\", ...; the map's entities so far have ", brush_models.size(),
          "), not '", model, "'"));
    }
  }
  if (class_name == "target_speaker" && Field(vars, "noise").empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("[", callback, "] - a target_speaker needs a noise"));
  }
  return absl::OkStatus();
}

void WriteSpawnVars(const SpawnVars& vars, char* chars, int* num_chars, int offsets[][2],
                    int* num_vars) {
  int at = 0;
  int i = 0;
  for (const auto& [key, value] : vars) {
    offsets[i][0] = at;
    std::memcpy(chars + at, key.c_str(), key.size() + 1);
    at += static_cast<int>(key.size()) + 1;
    offsets[i][1] = at;
    std::memcpy(chars + at, value.c_str(), value.size() + 1);
    at += static_cast<int>(value.size()) + 1;
    ++i;
  }
  *num_chars = at;
  *num_vars = i;
}

}  // namespace hosts::dmlab
