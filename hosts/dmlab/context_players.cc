// Context's player hooks (context.h), as DeepMind Lab's context serves
// them: the engine's game events (api:gameEvent(name, values)), each
// player's inventory as it spawns and every frame (api:spawnInventory and
// api:updateInventory: a table the level may change and return), teams
// (api:team(playerId, name): 'p', 'r', 'b' or 's'), player models
// (api:playerModel(playerId, name, model)) and new clients
// (api:newClientInfo(playerId, name, model)). Player ids are 1-based here,
// as DeepMind Lab hands them to the level.
#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/lua_fields.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {
namespace {

// The most values the engine passes in one list (its inventories hold 16
// to 32; a game event's values a handful).
constexpr int kMaxValues = 1024;

template <typename T>
void PushList(lua_State* L, const T* values, int count) {
  count = std::clamp(count, 0, kMaxValues);
  lua_createtable(L, count, 0);
  for (int i = 0; i < count; ++i) {
    lua_pushnumber(L, static_cast<double>(values[i]));
    lua_rawseti(L, -2, i + 1);
  }
}

// Reads the list field `key` of the table at `index` into values[0, count):
// exactly `count` integers.
absl::Status ReadList(lua_State* L, int index, const char* key, int* values, int count,
                      const char* callback) {
  PushRawField(L, index, key);
  absl::Status status;
  if (!lua_istable(L, -1) || static_cast<int>(lua_objlen(L, -1)) != count) {
    status = absl::InvalidArgumentError(absl::StrCat("[", callback, "] - the table's '", key,
                                                     "' must be a list of ", count, " integers"));
  }
  for (int i = 0; status.ok() && i < count; ++i) {
    lua_rawgeti(L, -1, i + 1);
    const double value = lua_tonumber(L, -1);
    // In range first: a double past int's is undefined to convert (NaN fails).
    const bool integer = lua_type(L, -1) == LUA_TNUMBER && value >= INT_MIN &&
                         value <= INT_MAX && value == std::trunc(value);
    if (!integer) {
      status = absl::InvalidArgumentError(absl::StrCat(
          "[", callback, "] - '", key, "'[", i + 1, "] must be an integer, not ",
          lua_type(L, -1) == LUA_TNUMBER ? std::to_string(value) : luaL_typename(L, -1)));
    } else {
      values[i] = static_cast<int>(value);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return status;
}

// The info string's "\key\value\key\value" pairs, in order.
std::vector<std::pair<std::string, std::string>> InfoPairs(const char* info) {
  std::vector<std::string> parts = absl::StrSplit(info[0] == '\\' ? info + 1 : info, '\\');
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::size_t i = 0; i + 1 < parts.size(); i += 2) pairs.emplace_back(parts[i], parts[i + 1]);
  return pairs;
}

}  // namespace

void Context::GameEvent(const char* name, int count, const float* values) {
  CallLevel(
      "gameEvent", 0,
      [&](lua_State* L) {
        lua_pushstring(L, name == nullptr ? "" : name);
        PushList(L, values, values == nullptr ? 0 : count);
        return 2;
      },
      [](lua_State*, int) { return absl::OkStatus(); });
}

void Context::UpdateInventory(const Inventory& inventory) {
  const char* callback = inventory.spawning ? "spawnInventory" : "updateInventory";
  CallLevel(
      callback, 1,
      [&](lua_State* L) {
        lua_createtable(L, 0, 11);
        lua_pushboolean(L, inventory.bot);
        lua_setfield(L, -2, "isBot");
        lua_pushinteger(L, inventory.player_id + 1);
        lua_setfield(L, -2, "playerId");
        PushList(L, inventory.amounts, inventory.amount_count);
        lua_setfield(L, -2, "amounts");
        PushList(L, inventory.stats, inventory.stat_count);
        lua_setfield(L, -2, "stats");
        PushList(L, inventory.persistents, inventory.persistent_count);
        lua_setfield(L, -2, "persistents");
        PushList(L, inventory.powerups, inventory.powerup_count);
        lua_setfield(L, -2, "powerups");
        PushList(L, inventory.position, 3);
        lua_setfield(L, -2, "position");
        PushList(L, inventory.velocity, 3);
        lua_setfield(L, -2, "velocity");
        PushList(L, inventory.angles, 3);
        lua_setfield(L, -2, "angles");
        lua_pushnumber(L, inventory.height);
        lua_setfield(L, -2, "height");
        lua_pushinteger(L, inventory.gadget + 1);
        lua_setfield(L, -2, "gadget");
        return 1;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        if (!lua_istable(L, first)) {
          return absl::InvalidArgumentError(
              absl::StrCat("[", callback, "] - must return a table or nil, not ",
                           luaL_typename(L, first)));
        }
        // Read into copies, so that a bad table changes nothing.
        std::vector<int> amounts(std::clamp(inventory.amount_count, 0, kMaxValues));
        std::vector<int> stats(std::clamp(inventory.stat_count, 0, kMaxValues));
        absl::Status read = ReadList(L, first, "amounts", amounts.data(),
                                     static_cast<int>(amounts.size()), callback);
        if (read.ok()) {
          read = ReadList(L, first, "stats", stats.data(), static_cast<int>(stats.size()), callback);
        }
        if (!read.ok()) return read;
        std::copy(amounts.begin(), amounts.end(), inventory.amounts);
        std::copy(stats.begin(), stats.end(), inventory.stats);
        return absl::OkStatus();
      });
}

char Context::TeamSelect(int player_id, const char* player_name) {
  char team = '\0';
  CallLevel(
      "team", 1,
      [&](lua_State* L) {
        lua_pushinteger(L, player_id + 1);
        lua_pushstring(L, player_name == nullptr ? "" : player_name);
        return 2;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        const char* chosen = lua_type(L, first) == LUA_TSTRING ? lua_tostring(L, first) : "";
        if (chosen[0] == '\0' || std::string("pbrs").find(chosen[0]) == std::string::npos) {
          return absl::InvalidArgumentError(
              "[team] - must return one of 'r', 'b', 'p' and 's', or nil");
        }
        team = chosen[0];
        return absl::OkStatus();
      });
  return team;
}

bool Context::UpdatePlayerInfo(int player_id, char* info, int info_size) {
  if (info == nullptr || info_size < 1) return false;
  std::vector<std::pair<std::string, std::string>> pairs = InfoPairs(info);
  auto value = [&pairs](const std::string& key) -> std::string* {
    for (auto& [k, v] : pairs) {
      if (k == key) return &v;
    }
    return nullptr;
  };
  bool changed = false;
  CallLevel(
      "playerModel", 1,
      [&](lua_State* L) {
        lua_pushinteger(L, player_id + 1);
        const std::string* name = value("name");
        const std::string* model = value("model");
        lua_pushstring(L, name == nullptr ? "" : name->c_str());
        lua_pushstring(L, model == nullptr ? "" : model->c_str());
        return 3;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        if (lua_type(L, first) != LUA_TSTRING) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[playerModel] - must return a model name or nil, not ", luaL_typename(L, first)));
        }
        const std::string model = lua_tostring(L, first);
        const std::string* current = value("model");
        if (current != nullptr && *current == model) return absl::OkStatus();
        for (const char* key : {"model", "headmodel", "team_model", "team_headmodel"}) {
          if (std::string* v = value(key)) {
            *v = model;
          } else {
            pairs.emplace_back(key, model);
          }
        }
        std::string rewritten = "\\";
        for (const auto& [k, v] : pairs) absl::StrAppend(&rewritten, k, "\\", v, "\\");
        if (!CopyString(rewritten, info, info_size)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[playerModel] - the player's info with model '", model, "' is longer than the "
              "engine's ", info_size - 1, " characters"));
        }
        changed = true;
        return absl::OkStatus();
      });
  return changed;
}

void Context::NewClientInfo(int player_id, const char* player_name, const char* player_model) {
  CallLevel(
      "newClientInfo", 0,
      [&](lua_State* L) {
        lua_pushinteger(L, player_id + 1);
        lua_pushstring(L, player_name == nullptr ? "" : player_name);
        lua_pushstring(L, player_model == nullptr ? "" : player_model);
        return 3;
      },
      [](lua_State*, int) { return absl::OkStatus(); });
}

}  // namespace hosts::dmlab
