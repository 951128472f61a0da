#include "hosts/dmlab/context.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hosts/dmlab/console_commands.h"
#include "hosts/dmlab/lua_fields.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/read.h"

namespace hosts::dmlab {
namespace {

// A seed as DeepMind Lab's engine draws one: in [1, INT_MAX].
int DrawSeed(std::mt19937_64& prbg) {
  return std::uniform_int_distribution<int>(1, std::numeric_limits<int>::max())(prbg);
}

}  // namespace

absl::Status Context::TakeError() { return std::exchange(error_, absl::OkStatus()); }

void Context::Record(absl::Status status) {
  if (!status.ok() && error_.ok()) error_ = std::move(status);
}

bool Context::CallLevel(const char* name, int num_results,
                        absl::FunctionRef<int(lua_State*)> push,
                        absl::FunctionRef<absl::Status(lua_State*, int)> read) {
  if (level_ == nullptr || !error_.ok()) return false;
  absl::StatusOr<bool> called = level_->Call(name, num_results, push, read);
  if (!called.ok()) {
    Record(called.status());
    return false;
  }
  return *called;
}

void Context::AddScore(int player_id, double reward) {
  // The engine's players are fewer; game:addScore refuses what is not finite.
  if (player_id < 0 || player_id > 255 || !std::isfinite(reward)) return;
  if (static_cast<std::size_t>(player_id) >= player_rewards_.size()) {
    player_rewards_.resize(player_id + 1);
  }
  player_rewards_[player_id] += reward;
}

const char* Context::ReplaceCommandLine(const char* command_line) {
  command_line_ = command_line;
  CallLevel(
      "commandLine", 1,
      [&](lua_State* L) {
        lua_pushstring(L, command_line);
        return 1;
      },
      [&](lua_State* L, int first) {
        if (lua_type(L, first) != LUA_TSTRING) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[commandLine] - must return a string, not ", luaL_typename(L, first)));
        }
        command_line_ = lua_tostring(L, first);
        return absl::OkStatus();
      });
  return command_line_.c_str();
}

int Context::GameType() {
  int type = 0;
  CallLevel(
      "gameType", 1, [](lua_State*) { return 0; },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        double value = 0;
        // Written so that NaN fails it too.
        if (std::string why = lua_api::ReadNumber(L, first, &value);
            !why.empty() || !(value >= 0 && value <= 16)) {
          return absl::InvalidArgumentError("[gameType] - must return a game type number");
        }
        type = static_cast<int>(value);
        return absl::OkStatus();
      });
  return type;
}

const char* Context::NextMap() {
  map_finished_ = false;
  // The engine reports the map's entities again.
  brush_models_.clear();
  map_entities_ = level_entities_ = 0;
  std::string next;
  const bool called = CallLevel(
      "nextMap", 1, [](lua_State*) { return 0; },
      [&](lua_State* L, int first) {
        if (lua_type(L, first) != LUA_TSTRING) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[nextMap] - must return the map's name, not ", luaL_typename(L, first)));
        }
        next = lua_tostring(L, first);
        return absl::OkStatus();
      });
  if (!called && error_.ok() && level_ != nullptr) {
    Record(absl::FailedPreconditionError(
        "the level has no api:nextMap: DeepMind Lab's engine needs a map to load"));
  }
  if (error_.ok() && !next.empty()) {
    if (std::string why = PrepareMap(next); !why.empty()) {
      Record(absl::NotFoundError(absl::StrCat("[nextMap] - ", why)));
    }
  } else if (error_.ok() && !level_map_loaded_) {
    // '' restarts the level's map, and none is loaded: the engine's restart
    // of none is a fatal error, and of the map loaded after an error a map
    // the level never asked for.
    Record(absl::InvalidArgumentError(
        "[nextMap] - returned '' (restart the map) before any map was loaded"));
  }
  if (error_.ok()) {
    map_name_ = next;
    if (!next.empty()) level_map_loaded_ = engine_map_loaded_ = true;
  } else if (engine_map_loaded_) {
    map_name_ = "";  // the loaded map stays; the host reports the error
  } else {
    // The engine cannot run without a map, so it loads one that is there,
    // and the host reports the error from this start.
    map_name_ = AnyMap();  // the host refuses runfiles without one
    engine_map_loaded_ = true;
  }
  return map_name_.c_str();
}

std::string Context::QueueConsoleCommand(const std::string& command) {
  if (std::string why = CheckConsoleCommand(command); !why.empty()) return why;
  if (console_commands_.size() >= kMaxPendingConsoleCommands) {
    return absl::StrCat(kMaxPendingConsoleCommands,
                        " commands wait for the engine's next frame already");
  }
  console_commands_.push_back(command);
  return "";
}

void Context::IssueConsoleCommands() {
  const DmlabCalls* engine = calls();
  if (engine == nullptr) return;
  // Taken first: a command's effects may reach the level again.
  const std::vector<std::string> commands = std::exchange(console_commands_, {});
  for (const std::string& command : commands) engine->execute_console_command(command.c_str());
}

int Context::MapLoaded() {
  CallLevel("mapLoaded", 0, [](lua_State*) { return 0; },
            [](lua_State*, int) { return absl::OkStatus(); });
  return error_.ok() ? 0 : 1;
}


void Context::Start(int seed) {
  prbg_.seed(static_cast<std::uint64_t>(seed) ^ (std::uint64_t{mixer_} << 32));
  // DeepMind's context draws api:start's seed (LevelSeed's) from the
  // engine's generator only for a level that has api:start: the engine's
  // later draws (the game module's seed: its spawn points, its bots)
  // follow from it.
  if (level_ != nullptr && level_->Defines("start")) DrawSeed(prbg_);
}

int Context::LevelSeed(int seed) const {
  std::mt19937_64 prbg(static_cast<std::uint64_t>(seed) ^ (std::uint64_t{mixer_} << 32));
  return DrawSeed(prbg);
}

int Context::MakeRandomSeed() { return DrawSeed(prbg_); }

bool Context::HasEpisodeFinished(double episode_time_seconds) {
  bool finished = false;
  CallLevel(
      "hasEpisodeFinished", 1,
      [&](lua_State* L) {
        lua_pushnumber(L, episode_time_seconds);
        return 1;
      },
      [&](lua_State* L, int first) {
        // As LevelScript::HasEpisodeFinished reads it.
        if (lua_type(L, first) == LUA_TSTRING) {
          const std::string word = lua_tostring(L, first);
          if (word == "terminated" || word == "truncated") {
            finished = true;
            episode_end_ = word == "terminated" ? engine_plugin::EpisodeEnd::kTerminated
                                                : engine_plugin::EpisodeEnd::kTruncated;
            return absl::OkStatus();
          }
          return absl::InvalidArgumentError(absl::StrCat(
              "[hasEpisodeFinished] - must return a boolean, 'terminated' or 'truncated', not '",
              word, "'"));
        }
        absl::Status read = ReadBool(L, first, "hasEpisodeFinished", &finished);
        if (read.ok() && finished) episode_end_ = engine_plugin::EpisodeEnd::kTerminated;
        return read;
      });
  return finished;
}

void Context::AddBots() {
  const DmlabCalls* engine_calls = calls();
  if (engine_calls == nullptr) return;
  struct Bot {
    std::string name;
    double skill = 5.0;
    std::string team = "free";
  };
  std::vector<Bot> bots;
  CallLevel(
      "addBots", 1, [](lua_State*) { return 0; },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        if (!lua_istable(L, first)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[addBots] - must return a list of bots or nil, not ", luaL_typename(L, first)));
        }
        const int count = static_cast<int>(lua_objlen(L, first));
        for (int i = 1; i <= count; ++i) {
          lua_rawgeti(L, first, i);
          const int bot = lua_gettop(L);
          Bot b;
          absl::Status status =
              lua_istable(L, bot)
                  ? StringField(L, bot, "name", &b.name, "addBots", true)
                  : absl::InvalidArgumentError(absl::StrCat("[addBots] - bot ", i,
                                                            " must be a table"));
          if (status.ok()) status = StringField(L, bot, "team", &b.team, "addBots", false);
          if (status.ok()) {
            lua_getfield(L, bot, "skill");
            if (lua_type(L, -1) == LUA_TNUMBER) b.skill = lua_tonumber(L, -1);
            lua_pop(L, 1);
            if (!(b.skill >= 1 && b.skill <= 5)) {
              status = absl::InvalidArgumentError(
                  absl::StrCat("[addBots] - bot ", i, "'s skill must be in [1, 5]"));
            } else if (b.team != "free" && b.team != "red" && b.team != "blue") {
              status = absl::InvalidArgumentError(absl::StrCat(
                  "[addBots] - bot ", i, "'s team must be 'free', 'red' or 'blue'"));
            }
          }
          lua_pop(L, 1);
          if (!status.ok()) return status;
          bots.push_back(std::move(b));
        }
        return absl::OkStatus();
      });
  for (const Bot& bot : bots) engine_calls->add_bot(bot.name.c_str(), bot.skill, bot.team.c_str());
}

void Context::PlayerStateUpdate(const PlayerState& state) {
  if (has_player_ && player_.timestamp_msec > 0 && state.timestamp_msec == player_.timestamp_msec) {
    return;
  }
  const int elapsed_msec = state.timestamp_msec - player_.timestamp_msec;
  PlayerState next = state;
  next.teleported = state.teleport_flip != (has_player_ && player_.teleport_flip);
  if (has_player_ && elapsed_msec > 0) {
    for (int i = 0; i < 3; ++i) {
      // The shorter way round, in degrees per second.
      const float delta = std::remainder(state.angles[i] - player_.angles[i], 360.0f);
      next.angles_velocity[i] = delta * 1000.0f / static_cast<float>(elapsed_msec);
    }
  }
  player_ = next;
  has_player_ = true;
}

const char* Context::ErrorMessage() {
  error_message_ = !engine_error_.empty() ? engine_error_ : std::string(error_.message());
  return error_message_.c_str();
}

}  // namespace hosts::dmlab
