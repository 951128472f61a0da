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

absl::Status CheckSpawnVars(const SpawnVars& vars, const char* callback) {
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
