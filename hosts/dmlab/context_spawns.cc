// Context's spawn variables, pickups, triggers and rewards (context.h).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/lua_fields.h"
#include "hosts/dmlab/spawn_vars.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/read.h"

namespace hosts::dmlab {
namespace {

// The most of game:addScore's points one frame hands the engine.
constexpr double kMaxPointsAFrame = 1e9;

// DeepMind Lab's team names, by the engine's team number.
constexpr const char* kTeamNames[] = {"free", "red", "blue", "spectator"};

}  // namespace

int Context::UpdateSpawnVars(char* chars, int* num_chars, int offsets[][2], int* num_vars) {
  for (int i = 0; i < *num_vars; ++i) {
    if (std::strcmp(chars + offsets[i][0], "model") == 0 && chars[offsets[i][1]] == '*') {
      brush_models_.insert(chars + offsets[i][1]);
    }
  }
  if (level_ == nullptr || !level_->Defines("updateSpawnVars")) {
    ++map_entities_;
    return 1;
  }
  bool keep = true;
  CallLevel(
      "updateSpawnVars", 1,
      [&](lua_State* L) {
        lua_createtable(L, 0, *num_vars);
        for (int i = 0; i < *num_vars; ++i) {
          lua_pushstring(L, chars + offsets[i][1]);
          lua_setfield(L, -2, chars + offsets[i][0]);
        }
        return 1;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) {
          keep = false;
          return absl::OkStatus();
        }
        SpawnVars vars;
        if (absl::Status s = ReadSpawnTable(L, first, "updateSpawnVars", &vars); !s.ok()) {
          return s;
        }
        if (absl::Status s = CheckSpawnVars(vars, brush_models_, "updateSpawnVars"); !s.ok()) return s;
        WriteSpawnVars(vars, chars, num_chars, offsets, num_vars);
        return absl::OkStatus();
      });
  map_entities_ += keep ? 1 : 0;
  return keep ? 1 : 0;
}

bool Context::FindItem(const char* class_name, int* index) {
  PickupItem item;
  bool found = false;
  CallLevel(
      "createPickup", 1,
      [&](lua_State* L) {
        lua_pushstring(L, class_name);
        return 1;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        if (!lua_istable(L, first)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[createPickup] - must return a pickup table or nil, not ", luaL_typename(L, first)));
        }
        for (auto [key, field] : {std::pair{"name", &item.name},
                                  std::pair{"classname", &item.class_name},
                                  std::pair{"model", &item.model_name}}) {
          if (absl::Status s = StringField(L, first, key, field, "createPickup", true); !s.ok()) {
            return s;
          }
        }
        if (absl::Status s = IntField(L, first, "quantity", &item.quantity, "createPickup", true);
            !s.ok()) {
          return s;
        }
        if (absl::Status s = IntField(L, first, "type", &item.type, "createPickup", true);
            !s.ok()) {
          return s;
        }
        for (auto [key, field] : {std::pair{"typeTag", &item.tag},
                                  std::pair{"tag", &item.move_type},
                                  std::pair{"moveType", &item.move_type}}) {
          if (absl::Status s = IntField(L, first, key, field, "createPickup", false); !s.ok()) {
            return s;
          }
        }
        found = true;
        return absl::OkStatus();
      });
  if (!found) return false;
  items_.push_back(std::move(item));
  *index = static_cast<int>(items_.size()) - 1;
  return true;
}

bool Context::Item(int index, char* item_name, int max_item_name, char* class_name,
                   int max_class_name, char* model_name, int max_model_name, int* quantity,
                   int* type, int* tag, int* move_type) {
  if (index < 0 || index >= ItemCount()) return false;
  const PickupItem& item = items_[index];
  if (!CopyString(item.name, item_name, max_item_name) ||
      !CopyString(item.class_name, class_name, max_class_name) ||
      !CopyString(item.model_name, model_name, max_model_name)) {
    Record(absl::InvalidArgumentError(absl::StrCat("[createPickup] - the names of pickup '",
                                                   item.class_name, "' are too long")));
    return false;
  }
  *quantity = item.quantity;
  *type = item.type;
  *tag = item.tag;
  *move_type = item.move_type;
  return true;
}

bool Context::CanPickup(int entity_id, int player_id) {
  bool can = true;
  CallLevel(
      "canPickup", 1,
      [&](lua_State* L) {
        lua_pushinteger(L, entity_id);
        lua_pushinteger(L, player_id + 1);
        return 2;
      },
      [&](lua_State* L, int first) { return ReadBool(L, first, "canPickup", &can); });
  return can;
}

bool Context::OverridePickup(int entity_id, int* respawn, int player_id) {
  bool overridden = false;
  CallLevel(
      "pickup", 1,
      [&](lua_State* L) {
        lua_pushinteger(L, entity_id);
        lua_pushinteger(L, player_id + 1);
        return 2;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        double value = 0;
        if (std::string why = lua_api::ReadNumber(L, first, &value);
            !why.empty() || !(std::abs(value) < 2147483648.0)) {
          return absl::InvalidArgumentError("[pickup] - must return a respawn time or nil");
        }
        *respawn = static_cast<int>(value);
        overridden = true;
        return absl::OkStatus();
      });
  return overridden;
}

int Context::RewardOverride(const char* reason, int player_id, int team,
                            const int* other_player_id, const float* origin, int score) {
  if (reason != nullptr) {
    CallLevel(
        "rewardOverride", 1,
        [&](lua_State* L) {
          lua_createtable(L, 0, 6);
          lua_pushstring(L, reason);
          lua_setfield(L, -2, "reason");
          lua_pushinteger(L, player_id + 1);
          lua_setfield(L, -2, "playerId");
          if (team >= 0 && team < static_cast<int>(std::size(kTeamNames))) {
            lua_pushstring(L, kTeamNames[team]);
            lua_setfield(L, -2, "team");
          }
          if (other_player_id != nullptr) {
            lua_pushinteger(L, *other_player_id + 1);
            lua_setfield(L, -2, "otherPlayerId");
          }
          if (origin != nullptr) {
            lua_createtable(L, 3, 0);
            for (int i = 0; i < 3; ++i) {
              lua_pushnumber(L, origin[i]);
              lua_rawseti(L, -2, i + 1);
            }
            lua_setfield(L, -2, "location");
          }
          lua_pushinteger(L, score);
          lua_setfield(L, -2, "score");
          return 1;
        },
        [&](lua_State* L, int first) {
          if (lua_isnil(L, first)) return absl::OkStatus();
          double value = 0;
          if (std::string why = lua_api::ReadNumber(L, first, &value);
              !why.empty() || !(std::abs(value) < 2147483648.0)) {
            return absl::InvalidArgumentError("[rewardOverride] - must return a score or nil");
          }
          score = static_cast<int>(value);
          return absl::OkStatus();
        });
  }
  // game:addScore's rewards reach the engine here, whole points at a time
  // (the engine's scores are ints), at most kMaxPointsAFrame a frame; the
  // rest waits.
  double given = 0;
  if (player_id >= 0 && static_cast<std::size_t>(player_id) < player_rewards_.size()) {
    double& pending = player_rewards_[player_id];
    std::modf(pending, &given);
    given = std::clamp(given, -kMaxPointsAFrame, kMaxPointsAFrame);
    pending -= given;
  }
  return static_cast<int>(std::clamp(static_cast<std::int64_t>(given) + score,
                                     std::int64_t{INT_MIN}, std::int64_t{INT_MAX}));
}

bool Context::CanTrigger(int entity_id, const char* target_name, int player_id) {
  bool can = true;
  CallLevel(
      "canTrigger", 1,
      [&](lua_State* L) {
        lua_pushinteger(L, entity_id);
        lua_pushstring(L, target_name);
        lua_pushinteger(L, player_id + 1);
        return 3;
      },
      [&](lua_State* L, int first) {
        if (!lua_isboolean(L, first)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[canTrigger] - must return true or false, not ", luaL_typename(L, first)));
        }
        can = lua_toboolean(L, first);
        return absl::OkStatus();
      });
  return can;
}

bool Context::OverrideTrigger(int entity_id, const char* target_name, int player_id) {
  bool overridden = false;
  CallLevel(
      "trigger", 1,
      [&](lua_State* L) {
        lua_pushinteger(L, entity_id);
        lua_pushstring(L, target_name);
        lua_pushinteger(L, player_id + 1);
        return 3;
      },
      [&](lua_State* L, int first) { return ReadBool(L, first, "trigger", &overridden); });
  return overridden;
}

void Context::TriggerLookat(int entity_id, bool looked_at, const float position[3],
                            int player_id) {
  CallLevel(
      "lookat", 0,
      [&](lua_State* L) {
        lua_pushinteger(L, entity_id);
        lua_pushboolean(L, looked_at);
        lua_createtable(L, 3, 0);
        for (int i = 0; i < 3; ++i) {
          lua_pushnumber(L, position[i]);
          lua_rawseti(L, -2, i + 1);
        }
        lua_pushinteger(L, player_id + 1);
        return 4;
      },
      [](lua_State*, int) { return absl::OkStatus(); });
}

}  // namespace hosts::dmlab
