#include "hosts/maze/level_callbacks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/read.h"

namespace hosts::maze {

using engine_plugin::Level;

namespace {

// [-0, +2] (spawnId, playerId), for the pickup callbacks: the player
// counted from 1, as DeepMind Lab's callbacks count it.
int PushPickupArguments(lua_State* L, int spawn_id, int player) {
  lua_pushinteger(L, spawn_id);
  lua_pushinteger(L, player + 1);
  return 2;
}

// [-0, +3] (spawnId, targetName, playerId), for the trigger callbacks.
int PushTriggerArguments(lua_State* L, const DoorTrigger& trigger, int player) {
  lua_pushinteger(L, trigger.spawn_id);
  lua_pushlstring(L, trigger.target.data(), trigger.target.size());
  lua_pushinteger(L, player + 1);
  return 3;
}

}  // namespace

absl::StatusOr<bool> CanPickup(Level& level, int spawn_id, int player) {
  bool can = true;
  absl::StatusOr<bool> called = level.Call(
      "canPickup", 1, [&](lua_State* L) { return PushPickupArguments(L, spawn_id, player); },
      [&](lua_State* L, int first) {
        if (!lua_isnil(L, first)) can = lua_toboolean(L, first) != 0;
        return absl::OkStatus();
      });
  if (!called.ok()) return called.status();
  return can;
}

absl::StatusOr<std::optional<double>> PickupOverride(Level& level, int spawn_id, int player) {
  std::optional<double> respawn;
  absl::StatusOr<bool> called = level.Call(
      "pickup", 1, [&](lua_State* L) { return PushPickupArguments(L, spawn_id, player); },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        double seconds = 0;
        std::string why = lua_api::ReadNumber(L, first, &seconds);
        if (why.empty() && std::isnan(seconds)) why = "a number of seconds expected, not NaN";
        if (!why.empty()) {
          return absl::InvalidArgumentError(
              absl::StrCat("returned ", why, " (nil, or the seconds until it respawns)"));
        }
        respawn = seconds;
        return absl::OkStatus();
      });
  if (!called.ok()) return called.status();
  return respawn;
}

absl::StatusOr<bool> CanTrigger(Level& level, const DoorTrigger& trigger, int player) {
  bool can = true;
  absl::StatusOr<bool> called = level.Call(
      "canTrigger", 1, [&](lua_State* L) { return PushTriggerArguments(L, trigger, player); },
      [&](lua_State* L, int first) {
        if (!lua_isboolean(L, first)) {
          return absl::InvalidArgumentError(
              absl::StrCat("must return true or false, not ", lua_api::TypeNameAt(L, first)));
        }
        can = lua_toboolean(L, first) != 0;
        return absl::OkStatus();
      });
  if (!called.ok()) return called.status();
  return can;
}

absl::StatusOr<bool> TriggerOverride(Level& level, const DoorTrigger& trigger, int player) {
  bool overridden = false;
  absl::StatusOr<bool> called = level.Call(
      "trigger", 1, [&](lua_State* L) { return PushTriggerArguments(L, trigger, player); },
      [&](lua_State* L, int first) {
        if (!lua_isnil(L, first) && !lua_isboolean(L, first)) {
          return absl::InvalidArgumentError(
              absl::StrCat("must return true, false or nil, not ", lua_api::TypeNameAt(L, first)));
        }
        overridden = lua_toboolean(L, first) != 0;
        return absl::OkStatus();
      });
  if (!called.ok()) return called.status();
  return overridden;
}

absl::Status ModifyControl(Level& level, int player, Actions* actions) {
  struct Control {
    const char* name;
    double value;
  };
  Control controls[] = {{"lookDownUp", static_cast<double>((*actions)[kLookDownUp])},
                        {"lookLeftRight", static_cast<double>((*actions)[kLookLeftRight])},
                        {"moveBackForward", static_cast<double>((*actions)[kMoveBackForward])},
                        {"strafeLeftRight", static_cast<double>((*actions)[kStrafeLeftRight])},
                        {"crouchJump", (*actions)[kJump] != 0     ? 1.0
                                       : (*actions)[kCrouch] != 0 ? -1.0
                                                                  : 0.0},
                        {"buttonsDown", (*actions)[kFire] != 0 ? 1.0 : 0.0}};
  absl::StatusOr<bool> called = level.Call(
      "modifyControl", 1,
      [&](lua_State* L) {
        lua_createtable(L, 0, 6);
        for (const Control& control : controls) {
          lua_pushnumber(L, control.value);
          lua_setfield(L, -2, control.name);
        }
        lua_pushinteger(L, player + 1);
        return 2;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        if (!lua_istable(L, first)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "must return the controls (a table) or nil, not ", lua_api::TypeNameAt(L, first)));
        }
        for (Control& control : controls) {
          lua_api::PushRawField(L, first, control.name);
          std::string why;
          if (!lua_isnil(L, -1)) why = lua_api::ReadNumber(L, -1, &control.value);
          lua_pop(L, 1);
          if (why.empty() && !std::isfinite(control.value)) why = "finite number expected";
          if (!why.empty()) {
            return absl::InvalidArgumentError(
                absl::StrCat("returned controls whose ", control.name, ": ", why));
          }
        }
        return absl::OkStatus();
      });
  if (!called.ok()) return called.status();
  // Each as an action, within its bounds.
  const auto action = [](double value, int low, int high) {
    return static_cast<int>(
        std::clamp(std::round(value), static_cast<double>(low), static_cast<double>(high)));
  };
  (*actions)[kLookDownUp] = action(controls[0].value, -World::kMaxLook, World::kMaxLook);
  (*actions)[kLookLeftRight] = action(controls[1].value, -World::kMaxLook, World::kMaxLook);
  (*actions)[kMoveBackForward] = action(controls[2].value, -World::kMaxMove, World::kMaxMove);
  (*actions)[kStrafeLeftRight] = action(controls[3].value, -World::kMaxMove, World::kMaxMove);
  (*actions)[kJump] = controls[4].value > 0 ? 1 : 0;
  (*actions)[kCrouch] = controls[4].value < 0 ? 1 : 0;
  // Bit 1 of buttonsDown is fire (a finite value, but maybe beyond any
  // integer type).
  (*actions)[kFire] = std::fmod(std::abs(std::trunc(controls[5].value)), 2.0) == 1.0 ? 1 : 0;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<engine_plugin::DiscreteActionSpec>> CustomActionSpecs(
    Level& level, const std::vector<std::string>& taken) {
  std::vector<engine_plugin::DiscreteActionSpec> specs;
  absl::StatusOr<bool> called = level.Call(
      "customDiscreteActionSpec", 1, [](lua_State*) { return 0; },
      [&](lua_State* L, int first) {
        if (!lua_istable(L, first)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "must return a list of {name =, min =, max =}, not ", lua_api::TypeNameAt(L, first)));
        }
        const std::size_t count = lua_objlen(L, first);
        if (count > static_cast<std::size_t>(kMaxCustomActions)) {
          return absl::InvalidArgumentError(
              absl::StrCat("returned ", count, " actions; at most ", kMaxCustomActions));
        }
        for (std::size_t i = 1; i <= count; ++i) {
          lua_rawgeti(L, first, static_cast<int>(i));
          const int spec = lua_gettop(L);
          engine_plugin::DiscreteActionSpec action;
          std::int64_t bounds[2] = {0, 0};
          std::string why = lua_istable(L, spec) ? "" : lua_api::Expected(L, spec, "table");
          if (why.empty()) {
            lua_api::PushRawField(L, spec, "name");
            why = lua_api::ReadString(L, -1, &action.name);
            lua_pop(L, 1);
            if (why.empty() && action.name.empty()) why = "a name expected";
            if (!why.empty()) why = absl::StrCat("name: ", why);
          }
          const char* keys[2] = {"min", "max"};
          for (int k = 0; k < 2 && why.empty(); ++k) {
            lua_api::PushRawField(L, spec, keys[k]);
            why = lua_api::ReadInteger(L, -1, &bounds[k]);
            lua_pop(L, 1);
            if (why.empty() && (bounds[k] < -(1 << 30) || bounds[k] > (1 << 30))) {
              why = "within +-2^30 expected";
            }
            if (!why.empty()) why = absl::StrCat(keys[k], ": ", why);
          }
          if (why.empty() && bounds[0] > bounds[1]) why = "min exceeds max";
          const auto named = [&](const std::string& name) { return name == action.name; };
          if (why.empty() && (std::any_of(taken.begin(), taken.end(), named) ||
                              std::any_of(specs.begin(), specs.end(), [&](const auto& other) {
                                return other.name == action.name;
                              }))) {
            why = absl::StrCat("the name '", action.name, "' is taken");
          }
          lua_settop(L, spec - 1);
          if (!why.empty()) {
            return absl::InvalidArgumentError(absl::StrCat("action ", i, ": ", why));
          }
          action.min = static_cast<int>(bounds[0]);
          action.max = static_cast<int>(bounds[1]);
          specs.push_back(std::move(action));
        }
        return absl::OkStatus();
      });
  if (!called.ok()) return called.status();
  return specs;
}

absl::Status ApplyCustomActions(Level& level, int player, absl::Span<const int> values) {
  absl::StatusOr<bool> called = level.Call(
      "customDiscreteActions", 0,
      [&](lua_State* L) {
        lua_createtable(L, static_cast<int>(values.size()), 0);
        for (std::size_t i = 0; i < values.size(); ++i) {
          lua_pushinteger(L, values[i]);
          lua_rawseti(L, -2, static_cast<int>(i + 1));
        }
        lua_pushinteger(L, player + 1);
        return 2;
      },
      [](lua_State*, int) { return absl::OkStatus(); });
  if (!called.ok()) return called.status();
  if (!*called) {
    return absl::InvalidArgumentError(
        "the level declares custom actions (customDiscreteActionSpec) but has no "
        "customDiscreteActions to receive them");
  }
  return absl::OkStatus();
}

absl::Status RefuseBots(Level& level) {
  std::size_t bots = 0;
  absl::StatusOr<bool> called = level.Call(
      "addBots", 1, [](lua_State*) { return 0; },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        if (!lua_istable(L, first)) {
          return absl::InvalidArgumentError(absl::StrCat("must return a list of bots or nil, not ",
                                                         lua_api::TypeNameAt(L, first)));
        }
        bots = lua_objlen(L, first);
        return absl::OkStatus();
      });
  if (!called.ok()) return called.status();
  if (bots == 0) return absl::OkStatus();
  return absl::UnimplementedError(absl::StrCat("the level adds ", bots,
                                               bots == 1 ? " bot" : " bots",
                                               " (addBots); the maze engine has no bots"));
}

}  // namespace hosts::maze
