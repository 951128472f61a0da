#include "engine_plugin/players_module.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "engine_plugin/module_support.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"

namespace engine_plugin {
namespace {

using lua_api::ArgumentError;
using lua_api::NResultsOr;

constexpr char kModule[] = "players";

// [-0, +1, e]
NResultsOr Count(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "count"); !e.empty()) return e;
  lua_pushinteger(L, HostOf<PlayerRoster>(L)->players());
  return 1;
}

// [-0, +0, e]
NResultsOr Finish(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "finish"); !e.empty()) return e;
  PlayerRoster* roster = HostOf<PlayerRoster>(L);
  int player = 0;
  if (std::string e = ReadPlayerId(L, 2, roster->players(), "players:finish", 1, &player);
      !e.empty()) {
    return e;
  }
  EpisodeEnd end = EpisodeEnd::kTerminated;
  if (!lua_isnoneornil(L, 3)) {
    std::string how;
    std::string why = lua_api::ReadString(L, 3, &how);
    if (why.empty() && how != "terminated" && how != "truncated") {
      why = absl::StrCat("'terminated' or 'truncated' expected, got '", how, "'");
    }
    if (!why.empty()) return ArgumentError("players:finish", 2, why);
    if (how == "truncated") end = EpisodeEnd::kTruncated;
  }
  roster->FinishPlayer(player, end);
  return 0;
}

// [-0, +1, e]
NResultsOr Status(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "status"); !e.empty()) return e;
  const PlayerRoster* roster = HostOf<PlayerRoster>(L);
  int player = 0;
  if (std::string e = ReadPlayerId(L, 2, roster->players(), "players:status", 1, &player);
      !e.empty()) {
    return e;
  }
  switch (roster->player_status(player)) {
    case PlayerStatus::kRunning: lua_pushliteral(L, "running"); break;
    case PlayerStatus::kTerminated: lua_pushliteral(L, "terminated"); break;
    case PlayerStatus::kTruncated: lua_pushliteral(L, "truncated"); break;
  }
  return 1;
}

constexpr lua_api::MethodEntry kFunctions[] = {
    {"count", &lua_api::Raising<&Count>},
    {"finish", &lua_api::Raising<&Finish>},
    {"status", &lua_api::Raising<&Status>},
};

// [-0, +1, e] The loader in package.preload.
int Open(lua_State* L) {
  PushModuleTable(L, lua_touserdata(L, lua_upvalueindex(1)), kFunctions);
  return 1;
}

}  // namespace

void RegisterPlayersModule(lua_State* L, PlayerRoster* roster) {
  lua_api::SetPreload(L, "dmlab.system.players", &Open, roster);
}

}  // namespace engine_plugin
