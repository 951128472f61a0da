#include "hosts/maze/game_module.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine_plugin/level_files.h"
#include "engine_plugin/module_support.h"
#include "lua_api/lua/lua_memory.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/work_meter.h"

namespace hosts::maze {
namespace {

using engine_plugin::CheckModuleSelf;
using engine_plugin::HostOf;
using engine_plugin::PushModuleTable;
using engine_plugin::ReadPlayerId;
using lua_api::ArgumentError;
using lua_api::NResultsOr;

constexpr char kModule[] = "game";
// A custom view larger than this is a mistake, not a camera.
constexpr std::int64_t kMaxViewExtent = 4096;
// A custom view pitched this far down (Quake's pitch) looks straight down.
constexpr double kStraightDownDegrees = 89;

const char* PickupTypeName(PickupKind kind) {
  return kind == PickupKind::kGoal ? "goal" : "reward";
}

// [-0, +0, m] Sets field `key` of the table on top to the list {a, b, c}:
// DeepMind Lab's levels index them (info.vel[1]) and make tensors of them.
void SetTriple(lua_State* L, const char* key, double a, double b, double c) {
  lua_createtable(L, 3, 0);
  const double values[3] = {a, b, c};
  for (int i = 0; i < 3; ++i) {
    lua_pushnumber(L, values[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, key);
}

const World* LoadedWorld(lua_State* L) { return HostOf<GameHost>(L)->world(); }

std::string NoMapError(const char* function) {
  return absl::StrCat("'game:", function, "': no map is loaded yet (call it after start)");
}

// [-0, +1, e] game:playerInfo([playerId]): player 1's without an id.
NResultsOr PlayerInfo(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "playerInfo"); !e.empty()) return e;
  const World* world = LoadedWorld(L);
  if (world == nullptr) return NoMapError("playerInfo");
  int player = 0;
  if (!lua_isnoneornil(L, 2)) {
    std::string e = ReadPlayerId(L, 2, world->players(), "game:playerInfo", 1, &player);
    if (!e.empty()) return e;
  }
  const Pose& pose = world->pose(player);
  const Motion& motion = world->motion(player);
  lua_createtable(L, 0, 9);
  // DeepMind Lab's units and angles: game units, and Quake's pitch, which
  // grows looking down (the world's grows looking up).
  SetTriple(L, "pos", pose.position.x * kGameUnitsPerCell, pose.position.y * kGameUnitsPerCell,
            0.0);
  SetTriple(L, "vel", motion.velocity.x * kGameUnitsPerCell, motion.velocity.y * kGameUnitsPerCell,
            0.0);
  SetTriple(L, "angles", QuakePitch(pose.pitch), pose.yaw, 0.0);
  SetTriple(L, "anglesVel", QuakePitch(motion.pitch_rate), motion.yaw_rate, 0.0);
  lua_pushinteger(L, player + 1);
  lua_setfield(L, -2, "playerId");
  lua_pushboolean(L, motion.teleported);
  lua_setfield(L, -2, "teleported");
  // One player and no teams: no team has scored.
  lua_pushnumber(L, 0);
  lua_setfield(L, -2, "teamScore");
  lua_pushnumber(L, 0);
  lua_setfield(L, -2, "otherTeamScore");
  const GridCell cell = world->map().CellAt(pose.position);
  lua_createtable(L, 2, 0);
  lua_pushinteger(L, cell.row + 1);
  lua_rawseti(L, -2, 1);
  lua_pushinteger(L, cell.col + 1);
  lua_rawseti(L, -2, 2);
  lua_setfield(L, -2, "cell");
  return 1;
}

// [-0, +0, e] game:addScore([playerId,] score), as DeepMind Lab's: player
// 1's without an id.
NResultsOr AddScore(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "addScore"); !e.empty()) return e;
  GameHost* host = HostOf<GameHost>(L);
  int player = 0;
  int score_index = 2;
  if (lua_gettop(L) >= 3) {
    std::string e = ReadPlayerId(L, 2, host->players(), "game:addScore", 1, &player);
    if (!e.empty()) return e;
    score_index = 3;
  }
  double reward = 0;
  if (std::string why = lua_api::ReadNumber(L, score_index, &reward); !why.empty()) {
    return ArgumentError("addScore", score_index - 1, why);
  }
  if (!std::isfinite(reward)) {
    return ArgumentError("addScore", score_index - 1, "finite number expected");
  }
  host->AddScore(player, reward);
  return 0;
}

// [-0, +0, e]
NResultsOr FinishMap(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "finishMap"); !e.empty()) return e;
  HostOf<GameHost>(L)->FinishMap();
  return 0;
}

// [-0, +0, e]
NResultsOr Console(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "console"); !e.empty()) return e;
  std::string command;
  if (std::string why = lua_api::ReadString(L, 2, &command); !why.empty()) {
    return ArgumentError("console", 1, why);
  }
  if (std::string why = HostOf<GameHost>(L)->Console(command); !why.empty()) {
    return ArgumentError("console", 1, why);
  }
  return 0;
}

// [-0, +1, e]
NResultsOr EpisodeTimeSeconds(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "episodeTimeSeconds"); !e.empty()) return e;
  lua_pushnumber(L, HostOf<GameHost>(L)->EpisodeTimeSeconds());
  return 1;
}

// [-0, +1, e] DeepMind Lab's {window = {width, height}, buffer = {width, height}}: the
// maze renders into its frame only, so both are the frame's size.
NResultsOr ScreenShape(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "screenShape"); !e.empty()) return e;
  const GameHost& host = *HostOf<GameHost>(L);
  lua_createtable(L, 0, 2);
  for (const char* name : {"window", "buffer"}) {
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, host.frame_width());
    lua_setfield(L, -2, "width");
    lua_pushinteger(L, host.frame_height());
    lua_setfield(L, -2, "height");
    lua_setfield(L, -2, name);
  }
  return 1;
}

// [-0, +1, e]
NResultsOr Pickups(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "pickups"); !e.empty()) return e;
  const World* world = LoadedWorld(L);
  if (world == nullptr) return NoMapError("pickups");
  if (std::string e =
          CheckPickupTables(L, world->pickups().size(), kPickupsTableBytes, "game:pickups");
      !e.empty()) {
    return e;
  }
  lua_createtable(L, static_cast<int>(world->pickups().size()), 0);
  for (const Pickup& pickup : world->pickups()) {
    PushPickup(L, pickup);
    lua_pushboolean(L, pickup.active);
    lua_setfield(L, -2, "active");
    lua_rawseti(L, -2, pickup.id + 1);
  }
  return 1;
}

// Reads field `key` of the table at index 2, a list of two numbers (or
// three, as DeepMind Lab's {x, y, z} and {pitch, yaw, roll}: the third
// means nothing in a flat maze), into *a and *b. Absent fields leave them
// as they are.
std::string ReadPair(lua_State* L, const char* key, double* a, double* b) {
  lua_api::PushRawField(L, 2, key);
  std::string why;
  if (!lua_isnil(L, -1)) {
    const std::size_t length = lua_istable(L, -1) ? lua_objlen(L, -1) : 0;
    if (length != 2 && length != 3) {
      why = absl::StrCat(key, ": a list of two or three numbers expected, got ",
                         lua_api::TypeNameAt(L, -1));
    } else {
      for (int i = 1; i <= static_cast<int>(length) && why.empty(); ++i) {
        lua_rawgeti(L, -1, i);
        double value = 0;
        why = lua_api::ReadNumber(L, -1, &value);
        if (why.empty() && !std::isfinite(value)) why = "finite number expected";
        if (!why.empty()) why = absl::StrCat(key, "[", i, "]: ", why);
        if (i <= 2) (i == 1 ? *a : *b) = value;
        lua_pop(L, 1);
      }
    }
  }
  lua_pop(L, 1);
  return why;
}

std::string ReadExtent(lua_State* L, const char* key, int* extent) {
  lua_api::PushRawField(L, 2, key);
  std::string why;
  if (!lua_isnil(L, -1)) {
    std::int64_t value = 0;
    why = lua_api::ReadInteger(L, -1, &value);
    if (why.empty() && (value < 1 || value > kMaxViewExtent)) {
      why = absl::StrCat("an extent in [1, ", kMaxViewExtent, "] expected, got ", value);
    }
    if (!why.empty()) why = absl::StrCat(key, ": ", why);
    *extent = static_cast<int>(value);
  }
  lua_pop(L, 1);
  return why;
}

// [-0, +1, e]
NResultsOr RenderCustomView(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "renderCustomView"); !e.empty()) return e;
  GameHost* host = HostOf<GameHost>(L);
  const World* world = host->world();
  if (world == nullptr) return NoMapError("renderCustomView");
  if (!lua_istable(L, 2)) {
    return ArgumentError("renderCustomView", 1, lua_api::Expected(L, 2, "table"));
  }
  Camera camera = Camera::Of(world->pose());
  int width = host->frame_width();
  int height = host->frame_height();
  // pos and look as playerInfo gives them: game units, Quake's pitch.
  WorldPoint position = {camera.position.x * kGameUnitsPerCell,
                         camera.position.y * kGameUnitsPerCell};
  double pitch = QuakePitch(camera.pitch);
  std::string why = ReadPair(L, "pos", &position.x, &position.y);
  if (why.empty()) why = ReadPair(L, "look", &pitch, &camera.yaw);
  camera.position = {position.x / kGameUnitsPerCell, position.y / kGameUnitsPerCell};
  camera.pitch = QuakePitch(pitch);
  if (why.empty()) why = ReadExtent(L, "width", &width);
  if (why.empty()) why = ReadExtent(L, "height", &height);
  if (!why.empty()) return ArgumentError("renderCustomView", 1, why);

  absl::StatusOr<tensor::Tensor> view =
      tensor::Tensor::Zeros(tensor::DType::kUInt8, {height, width, 3}, lua_api::TensorAllocator(L));
  if (!view.ok()) return absl::StrCat("'game:renderCustomView': ", view.status().message());
  absl::StatusOr<std::byte*> pixels = view->data();
  const Frame frame{reinterpret_cast<std::uint8_t*>(*pixels), nullptr, width, height};
  // A camera looking straight down sees the whole map from above, as
  // DeepMind Lab's top-down debug camera does.
  if (pitch >= kStraightDownDegrees) {
    RenderTopDown(world->map(), world->pickups(), {world->pose()}, frame);
  } else {
    RenderFirstPerson(world->map(), world->pickups(), camera, frame, host->surfaces());
  }
  lua_api::LuaTensor::Push(L, *std::move(view));
  return 1;
}

// [-0, +1, e]
NResultsOr RunFiles(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "runFiles"); !e.empty()) return e;
  lua_pushstring(L, engine_plugin::kRunFilesRoot);
  return 1;
}

// [-0, +1, e]
NResultsOr LoadFileToString(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "loadFileToString"); !e.empty()) return e;
  std::string name;
  if (std::string why = lua_api::ReadString(L, 2, &name); !why.empty()) {
    return ArgumentError("loadFileToString", 1, why);
  }
  if (std::string e = engine_plugin::PushFileContents(L, HostOf<GameHost>(L)->ReadLevelFile(name),
                                                      "game:loadFileToString");
      !e.empty()) {
    return e;
  }
  return 1;
}

// [-0, +0, e]
NResultsOr UpdateTexture(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "updateTexture"); !e.empty()) return e;
  std::string name;
  if (std::string why = lua_api::ReadString(L, 2, &name); !why.empty()) {
    return ArgumentError("updateTexture", 1, why);
  }
  const lua_api::LuaTensor* image = lua_api::LuaTensor::Read(L, 3);
  if (image == nullptr) {
    return ArgumentError("updateTexture", 2, lua_api::Expected(L, 3, "ByteTensor"));
  }
  GameHost* host = HostOf<GameHost>(L);
  if (host->world() == nullptr) return NoMapError("updateTexture");
  if (std::string why = host->UpdateTexture(L, name, image->tensor()); !why.empty()) {
    return ArgumentError("updateTexture", 2, why);
  }
  return 0;
}

constexpr lua_api::MethodEntry kFunctions[] = {
    {"playerInfo", &lua_api::Raising<&PlayerInfo>},
    {"addScore", &lua_api::Raising<&AddScore>},
    {"finishMap", &lua_api::Raising<&FinishMap>},
    {"console", &lua_api::Raising<&Console>},
    {"episodeTimeSeconds", &lua_api::Raising<&EpisodeTimeSeconds>},
    {"screenShape", &lua_api::Raising<&ScreenShape>},
    {"pickups", &lua_api::Raising<&Pickups>},
    {"renderCustomView", &lua_api::Raising<&RenderCustomView>},
    {"runFiles", &lua_api::Raising<&RunFiles>},
    {"loadFileToString", &lua_api::Raising<&LoadFileToString>},
    {"updateTexture", &lua_api::Raising<&UpdateTexture>},
};

// [-0, +1, e] The loader in package.preload.
int Open(lua_State* L) {
  // Tensors are pushed with the tensor module's metatables.
  lua_getglobal(L, "require");
  lua_pushstring(L, "dmlab.system.tensor");
  lua_call(L, 1, 0);
  PushModuleTable(L, lua_touserdata(L, lua_upvalueindex(1)), kFunctions);
  return 1;
}

}  // namespace

void PushPickup(lua_State* L, const Pickup& pickup) {
  lua_createtable(L, 0, 7);
  lua_pushinteger(L, pickup.id + 1);
  lua_setfield(L, -2, "id");
  lua_pushstring(L, PickupTypeName(pickup.kind));
  lua_setfield(L, -2, "type");
  lua_pushlstring(L, pickup.class_name.data(), pickup.class_name.size());
  lua_setfield(L, -2, "classname");
  lua_pushnumber(L, pickup.quantity);
  lua_setfield(L, -2, "quantity");
  lua_createtable(L, 2, 0);
  lua_pushnumber(L, pickup.position.x * kGameUnitsPerCell);
  lua_rawseti(L, -2, 1);
  lua_pushnumber(L, pickup.position.y * kGameUnitsPerCell);
  lua_rawseti(L, -2, 2);
  lua_setfield(L, -2, "position");
}

std::string CheckPickupTables(lua_State* L, std::size_t count, std::size_t bytes_each,
                              const char* function) {
  // Making a pickup's table took 0.44-1.4 us here (the collector's share
  // varies), about a Lua instruction's time per byte of the table.
  if (absl::Status charged = tensor::ChargeWork(static_cast<std::int64_t>(count * bytes_each));
      !charged.ok()) {
    return absl::StrCat("'", function, "': ", charged.message());
  }
  return lua_api::CheckLuaMemory(L, count * bytes_each, function);
}

void RegisterGameModule(lua_State* L, GameHost* host) {
  lua_api::SetPreload(L, "dmlab.system.game", &Open, host);
}

}  // namespace hosts::maze
