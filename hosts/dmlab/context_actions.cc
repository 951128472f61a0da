// Context's actions (context.h): the level's say over the player's
// controls each frame (api:modifyControl) and movement (api:playerMover),
// and its own discrete actions (api:customDiscreteActionSpec and
// api:customDiscreteActions), as DeepMind Lab's context serves them.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/lua_fields.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {
namespace {

// More is a level's mistake: the engine's action arrays are small.
constexpr int kMaxCustomActions = 64;

}  // namespace

Actions Context::GetActions() {
  Actions out = actions_;
  if (level_ == nullptr || !level_->Defines("modifyControl")) return out;
  CallLevel(
      "modifyControl", 1,
      [&](lua_State* L) {
        lua_createtable(L, 0, 6);
        lua_pushnumber(L, out.look_down_up);
        lua_setfield(L, -2, "lookDownUp");
        lua_pushnumber(L, out.look_left_right);
        lua_setfield(L, -2, "lookLeftRight");
        lua_pushnumber(L, out.move_back_forward);
        lua_setfield(L, -2, "moveBackForward");
        lua_pushnumber(L, out.strafe_left_right);
        lua_setfield(L, -2, "strafeLeftRight");
        lua_pushnumber(L, out.crouch_jump);
        lua_setfield(L, -2, "crouchJump");
        lua_pushnumber(L, out.buttons_down);
        lua_setfield(L, -2, "buttonsDown");
        return 1;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        if (!lua_istable(L, first)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[modifyControl] - must return a table or nil, not ", luaL_typename(L, first)));
        }
        int move = out.move_back_forward, strafe = out.strafe_left_right,
            crouch = out.crouch_jump;
        for (auto [key, field] : {std::pair{"moveBackForward", &move},
                                  std::pair{"strafeLeftRight", &strafe},
                                  std::pair{"crouchJump", &crouch},
                                  std::pair{"buttonsDown", &out.buttons_down}}) {
          if (absl::Status s = IntField(L, first, key, field, "modifyControl", false); !s.ok()) {
            return s;
          }
        }
        out.move_back_forward = static_cast<signed char>(std::clamp(move, -127, 127));
        out.strafe_left_right = static_cast<signed char>(std::clamp(strafe, -127, 127));
        out.crouch_jump = static_cast<signed char>(std::clamp(crouch, -127, 127));
        for (auto [key, field] : {std::pair{"lookDownUp", &out.look_down_up},
                                  std::pair{"lookLeftRight", &out.look_left_right}}) {
          lua_getfield(L, first, key);
          if (lua_type(L, -1) == LUA_TNUMBER) *field = lua_tonumber(L, -1);
          lua_pop(L, 1);
        }
        return absl::OkStatus();
      });
  return out;
}

int Context::ReadCustomActions() {
  custom_actions_.clear();
  std::vector<CustomAction> read;
  CallLevel(
      "customDiscreteActionSpec", 1, [](lua_State*) { return 0; },
      [&](lua_State* L, int first) {
        if (!lua_istable(L, first)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[customDiscreteActionSpec] - must return a list, not ", luaL_typename(L, first)));
        }
        const int count = static_cast<int>(lua_objlen(L, first));
        if (count > kMaxCustomActions) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[customDiscreteActionSpec] - ", count, " actions: at most ", kMaxCustomActions));
        }
        for (int i = 1; i <= count; ++i) {
          lua_rawgeti(L, first, i);
          const int entry = lua_gettop(L);
          CustomAction action;
          absl::Status s = lua_istable(L, entry)
                               ? StringField(L, entry, "name", &action.name,
                                             "customDiscreteActionSpec", true)
                               : absl::InvalidArgumentError(
                                     absl::StrCat("[customDiscreteActionSpec] - action ", i,
                                                  " must be a table"));
          if (s.ok()) s = IntField(L, entry, "min", &action.min, "customDiscreteActionSpec", true);
          if (s.ok()) s = IntField(L, entry, "max", &action.max, "customDiscreteActionSpec", true);
          if (s.ok() && action.min > action.max) {
            s = absl::InvalidArgumentError(absl::StrCat("[customDiscreteActionSpec] - action '",
                                                        action.name, "' has min > max"));
          }
          lua_pop(L, 1);
          if (!s.ok()) return s;
          read.push_back(std::move(action));
        }
        return absl::OkStatus();
      });
  if (!error_.ok()) return 1;
  custom_actions_ = std::move(read);
  return 0;
}

void Context::ApplyCustomActions(const int* actions) {
  if (custom_actions_.empty()) return;
  CallLevel(
      "customDiscreteActions", 0,
      [&](lua_State* L) {
        lua_createtable(L, static_cast<int>(custom_actions_.size()), 0);
        for (std::size_t i = 0; i < custom_actions_.size(); ++i) {
          lua_pushinteger(L, actions[i]);
          lua_rawseti(L, -2, static_cast<int>(i) + 1);
        }
        return 1;
      },
      [](lua_State*, int) { return absl::OkStatus(); });
}

void Context::MovePlayer(int mover_id, const float mover_position[3],
                         const float player_position[3], const float player_velocity[3],
                         float position_delta[3], float velocity_delta[3]) {
  std::fill(position_delta, position_delta + 3, 0.0f);
  std::fill(velocity_delta, velocity_delta + 3, 0.0f);
  float position[3] = {0, 0, 0}, velocity[3] = {0, 0, 0};
  const bool called = CallLevel(
      "playerMover", 2,
      [&](lua_State* L) {
        lua_createtable(L, 0, 4);
        lua_pushinteger(L, mover_id);
        lua_setfield(L, -2, "moverId");
        for (auto [key, v] : {std::pair{"moverPos", mover_position},
                              std::pair{"playerPos", player_position},
                              std::pair{"playerVel", player_velocity}}) {
          lua_createtable(L, 3, 0);
          for (int i = 0; i < 3; ++i) {
            lua_pushnumber(L, v[i]);
            lua_rawseti(L, -2, i + 1);
          }
          lua_setfield(L, -2, key);
        }
        return 1;
      },
      [&](lua_State* L, int first) {
        for (auto [index, out] : {std::pair{first, position}, std::pair{first + 1, velocity}}) {
          if (lua_isnil(L, index)) continue;
          if (!lua_istable(L, index)) {
            return absl::InvalidArgumentError(
                "[playerMover] - must return the position's and the velocity's changes, "
                "{dx, dy, dz} each");
          }
          for (int i = 0; i < 3; ++i) {
            lua_rawgeti(L, index, i + 1);
            const double value = lua_tonumber(L, -1);
            const bool finite = lua_type(L, -1) == LUA_TNUMBER && std::isfinite(value);
            lua_pop(L, 1);
            if (!finite) {
              return absl::InvalidArgumentError(
                  "[playerMover] - a change must be {dx, dy, dz} of finite numbers");
            }
            out[i] = static_cast<float>(value);
          }
        }
        return absl::OkStatus();
      });
  if (called && error_.ok()) {
    std::copy(position, position + 3, position_delta);
    std::copy(velocity, velocity + 3, velocity_delta);
  }
}

}  // namespace hosts::dmlab
