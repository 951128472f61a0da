#include "hosts/dmlab/game_module.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/level_files.h"
#include "engine_plugin/module_support.h"
#include "hosts/dmlab/map_maker_module.h"
#include "hosts/dmlab/pickups_spawn_module.h"
#include "hosts/maze/maze_generation_module.h"
#include "engine_plugin/model/model_module.h"
#include "lua_api/lua/lua_memory.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/tensor.h"

namespace hosts::dmlab {
namespace {

using engine_plugin::CheckModuleSelf;
using engine_plugin::HostOf;
using engine_plugin::PushModuleTable;
using lua_api::ArgumentError;
using lua_api::NResultsOr;

constexpr char kModule[] = "game";

GameModuleTarget& TargetOf(lua_State* L) { return *HostOf<GameModuleTarget>(L); }

// The engine's calls, or the error for a level that asks before the engine
// is connected (during its init).
NResultsOr NeedCalls(lua_State* L, const char* function, const DmlabCalls** calls) {
  *calls = TargetOf(L).context->calls();
  if (*calls != nullptr) return 0;
  return absl::StrCat("'game:", function, "': the engine is not running yet (call it after init)");
}

// [-0, +0, m]
void SetTriple(lua_State* L, const char* key, const std::array<float, 3>& v) {
  lua_createtable(L, 3, 0);
  for (int i = 0; i < 3; ++i) {
    lua_pushnumber(L, v[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, key);
}

// [-0, +0, -] A table of three numbers at `index`.
std::string ReadTriple(lua_State* L, int index, std::array<float, 3>* out) {
  if (!lua_istable(L, index)) {
    return absl::StrCat("expected {x, y, z}, got ", luaL_typename(L, index));
  }
  for (int i = 0; i < 3; ++i) {
    lua_rawgeti(L, index, i + 1);
    const bool number = lua_type(L, -1) == LUA_TNUMBER;
    (*out)[i] = static_cast<float>(lua_tonumber(L, -1));
    lua_pop(L, 1);
    if (!number) return "expected {x, y, z} of three numbers";
  }
  return {};
}

// [-0, +1, e]
NResultsOr PlayerInfo(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "playerInfo"); !e.empty()) return e;
  const Context& context = *TargetOf(L).context;
  if (!context.has_player()) {
    return "'game:playerInfo': the engine has not placed the player yet (call it after start)";
  }
  const PlayerState& p = context.player();
  lua_createtable(L, 0, 10);
  SetTriple(L, "pos", p.origin);
  SetTriple(L, "eyePos", p.eye);
  SetTriple(L, "vel", p.velocity);
  SetTriple(L, "angles", p.angles);
  SetTriple(L, "anglesVel", p.angles_velocity);
  lua_pushnumber(L, p.height);
  lua_setfield(L, -2, "height");
  lua_pushinteger(L, p.player_id + 1);
  lua_setfield(L, -2, "playerId");
  lua_pushinteger(L, p.team_score);
  lua_setfield(L, -2, "teamScore");
  lua_pushinteger(L, p.other_team_score);
  lua_setfield(L, -2, "otherTeamScore");
  lua_pushboolean(L, p.teleported);
  lua_setfield(L, -2, "teleported");
  return 1;
}

// [-0, +0, e]
NResultsOr AddScore(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "addScore"); !e.empty()) return e;
  const DmlabCalls* calls;
  if (NResultsOr e = NeedCalls(L, "addScore", &calls); !e.ok()) return e;
  int player = TargetOf(L).context->player().player_id;  // from 0
  double score = 0;
  int score_index = 2;
  if (lua_gettop(L) >= 3) {
    // DeepMind Lab's engine counts up to 64 players.
    if (std::string e = engine_plugin::ReadPlayerId(L, 2, 64, "addScore", 1, &player);
        !e.empty()) {
      return e;
    }
    score_index = 3;
  }
  if (std::string why = lua_api::ReadNumber(L, score_index, &score); !why.empty()) {
    return ArgumentError("addScore", score_index - 1, why);
  }
  if (!std::isfinite(score)) return ArgumentError("addScore", score_index - 1, "a finite score");
  calls->add_score(player, score);
  return 0;
}

// [-0, +0, e]
NResultsOr FinishMap(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "finishMap"); !e.empty()) return e;
  TargetOf(L).context->FinishMap();
  return 0;
}

// [-0, +1, e]
NResultsOr EpisodeTimeSeconds(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "episodeTimeSeconds"); !e.empty()) return e;
  lua_pushnumber(L, TargetOf(L).level->EpisodeTimeSeconds());
  return 1;
}

// [-0, +0, e]
NResultsOr Console(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "console"); !e.empty()) return e;
  const DmlabCalls* calls;
  if (NResultsOr e = NeedCalls(L, "console", &calls); !e.ok()) return e;
  std::string command;
  if (std::string why = lua_api::ReadString(L, 2, &command); !why.empty()) {
    return ArgumentError("console", 1, why);
  }
  if (std::string why = TargetOf(L).context->QueueConsoleCommand(command); !why.empty()) {
    return ArgumentError("console", 1, why);
  }
  return 0;
}

// [-0, +1, e]
NResultsOr Raycast(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "raycast"); !e.empty()) return e;
  const DmlabCalls* calls;
  if (NResultsOr e = NeedCalls(L, "raycast", &calls); !e.ok()) return e;
  std::array<float, 3> from, to;
  if (std::string why = ReadTriple(L, 2, &from); !why.empty()) {
    return ArgumentError("raycast", 1, why);
  }
  if (std::string why = ReadTriple(L, 3, &to); !why.empty()) {
    return ArgumentError("raycast", 2, why);
  }
  lua_pushnumber(L, calls->raycast(from.data(), to.data()));
  return 1;
}

// [-0, +1, e]
NResultsOr InFov(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "inFov"); !e.empty()) return e;
  const DmlabCalls* calls;
  if (NResultsOr e = NeedCalls(L, "inFov", &calls); !e.ok()) return e;
  std::array<float, 3> from, to, angles;
  if (std::string why = ReadTriple(L, 2, &from); !why.empty()) {
    return ArgumentError("inFov", 1, why);
  }
  if (std::string why = ReadTriple(L, 3, &to); !why.empty()) return ArgumentError("inFov", 2, why);
  if (std::string why = ReadTriple(L, 4, &angles); !why.empty()) {
    return ArgumentError("inFov", 3, why);
  }
  double fov = 0;
  if (std::string why = lua_api::ReadNumber(L, 5, &fov); !why.empty()) {
    return ArgumentError("inFov", 4, why);
  }
  lua_pushboolean(L, calls->in_fov(from.data(), to.data(), angles.data(), static_cast<float>(fov)));
  return 1;
}

// [-0, +1, e]
NResultsOr ScreenShape(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "screenShape"); !e.empty()) return e;
  const DmlabCalls* calls;
  if (NResultsOr e = NeedCalls(L, "screenShape", &calls); !e.ok()) return e;
  int sizes[4] = {0, 0, 0, 0};
  calls->screen_shape(&sizes[0], &sizes[1], &sizes[2], &sizes[3]);
  lua_createtable(L, 0, 2);
  const char* names[2] = {"window", "buffer"};
  for (int i = 0; i < 2; ++i) {
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, sizes[2 * i]);
    lua_setfield(L, -2, "width");
    lua_pushinteger(L, sizes[2 * i + 1]);
    lua_setfield(L, -2, "height");
    lua_setfield(L, -2, names[i]);
  }
  return 1;
}

// [-0, +1, e]
NResultsOr RunFiles(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "runFiles"); !e.empty()) return e;
  lua_pushstring(L, engine_plugin::kRunFilesRoot);
  return 1;
}

// [-0, +1, e]
NResultsOr TempFolder(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "tempFolder"); !e.empty()) return e;
  const std::string& folder = TargetOf(L).context->temp_folder();
  lua_pushlstring(L, folder.data(), folder.size());
  return 1;
}

// [-0, +1, e]
NResultsOr LoadFileToString(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "loadFileToString"); !e.empty()) return e;
  std::string name;
  if (std::string why = lua_api::ReadString(L, 2, &name); !why.empty()) {
    return ArgumentError("loadFileToString", 1, why);
  }
  if (std::string e = engine_plugin::PushFileContents(L, TargetOf(L).level->ReadFile(name),
                                                      "game:loadFileToString");
      !e.empty()) {
    return e;
  }
  return 1;
}

// [-0, +0, -] The integer extent `key` of the table at 2, at most `max`.
std::string ReadExtent(lua_State* L, const char* key, int max, int* out) {
  lua_getfield(L, 2, key);
  std::int64_t value = 0;
  std::string why = lua_api::ReadInteger(L, -1, &value);
  lua_pop(L, 1);
  if (why.empty() && (value < 1 || value > max)) {
    why = absl::StrCat("an extent in [1, ", max, "] expected, got ", value);
  }
  if (!why.empty()) return absl::StrCat(key, ": ", why);
  *out = static_cast<int>(value);
  return {};
}

// [-0, +1, e] game:renderCustomView{width =, height =, pos = {x, y, z},
// look = {pitch, yaw, roll}[, renderPlayer = true]}: the engine renders a
// second camera into a new ByteTensor height x width x 3 (at most the
// engine's own frame).
NResultsOr RenderCustomView(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "renderCustomView"); !e.empty()) return e;
  const DmlabCalls* calls;
  if (NResultsOr e = NeedCalls(L, "renderCustomView", &calls); !e.ok()) return e;
  if (!lua_istable(L, 2)) {
    return ArgumentError("renderCustomView", 1, lua_api::Expected(L, 2, "table"));
  }
  int window[4] = {0, 0, 0, 0};
  calls->screen_shape(&window[0], &window[1], &window[2], &window[3]);
  CustomView view;
  std::string why = ReadExtent(L, "width", window[2], &view.width);
  if (why.empty()) why = ReadExtent(L, "height", window[3], &view.height);
  for (auto [key, field] : {std::pair{"pos", &view.position}, std::pair{"look", &view.angles}}) {
    if (!why.empty()) break;
    lua_getfield(L, 2, key);
    why = ReadTriple(L, lua_gettop(L), field);
    lua_pop(L, 1);
    if (!why.empty()) why = absl::StrCat(key, ": ", why);
  }
  lua_getfield(L, 2, "renderPlayer");
  if (!lua_isnil(L, -1)) view.render_player = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (!why.empty()) return ArgumentError("renderCustomView", 1, why);
  absl::StatusOr<tensor::Tensor> pixels = tensor::Tensor::Zeros(
      tensor::DType::kUInt8, {view.height, view.width, 3}, lua_api::TensorAllocator(L));
  if (!pixels.ok()) return absl::StrCat("'game:renderCustomView': ", pixels.status().message());
  TargetOf(L).context->SetCustomView(view);
  calls->render_custom_view(view.width, view.height,
                            reinterpret_cast<unsigned char*>(*pixels->data()));
  lua_api::LuaTensor::Push(L, *std::move(pixels));
  return 1;
}

// [-0, +0, e] game:updateTexture(name, image): the engine's texture `name`
// becomes `image`, a contiguous ByteTensor H x W x 4 (RGBA), copied.
NResultsOr UpdateTexture(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "updateTexture"); !e.empty()) return e;
  const DmlabCalls* calls;
  if (NResultsOr e = NeedCalls(L, "updateTexture", &calls); !e.ok()) return e;
  std::string name;
  if (std::string why = lua_api::ReadString(L, 2, &name); !why.empty()) {
    return ArgumentError("updateTexture", 1, why);
  }
  lua_api::LuaTensor* image = nullptr;
  if (std::string why = lua_api::ReadTensorArgument(L, 3, "updateTexture", &image); !why.empty()) {
    return why;
  }
  const tensor::Tensor& t = image->tensor();
  const auto& shape = t.layout().shape();
  if (t.dtype() != tensor::DType::kUInt8 || shape.size() != 3 || shape[2] != 4 ||
      shape[0] < 1 || shape[1] < 1 || shape[0] > 4096 || shape[1] > 4096) {
    return ArgumentError("updateTexture", 2,
                         "a ByteTensor H x W x 4 (RGBA) of at most 4096 x 4096");
  }
  if (!t.layout().IsContiguous()) return ArgumentError("updateTexture", 2, "a contiguous tensor");
  absl::StatusOr<std::byte*> pixels = t.data();  // the tensor's validity check
  if (!pixels.ok()) return absl::StrCat("'game:updateTexture': ", pixels.status().message());
  if (!calls->update_rgba_texture(name.c_str(), static_cast<int>(shape[1]),
                                  static_cast<int>(shape[0]),
                                  reinterpret_cast<const unsigned char*>(*pixels))) {
    return absl::StrCat("'game:updateTexture': the engine has no texture named '", name, "'");
  }
  return 0;
}

constexpr lua_api::MethodEntry kGameFunctions[] = {
    {"updateTexture", &lua_api::Raising<&UpdateTexture>},
    {"renderCustomView", &lua_api::Raising<&RenderCustomView>},
    {"playerInfo", &lua_api::Raising<&PlayerInfo>},
    {"addScore", &lua_api::Raising<&AddScore>},
    {"finishMap", &lua_api::Raising<&FinishMap>},
    {"episodeTimeSeconds", &lua_api::Raising<&EpisodeTimeSeconds>},
    {"console", &lua_api::Raising<&Console>},
    {"raycast", &lua_api::Raising<&Raycast>},
    {"inFov", &lua_api::Raising<&InFov>},
    {"screenShape", &lua_api::Raising<&ScreenShape>},
    {"runFiles", &lua_api::Raising<&RunFiles>},
    {"tempFolder", &lua_api::Raising<&TempFolder>},
    {"loadFileToString", &lua_api::Raising<&LoadFileToString>},
};

// [-0, +1, e]
int OpenGame(lua_State* L) {
  PushModuleTable(L, lua_touserdata(L, lua_upvalueindex(1)), kGameFunctions);
  return 1;
}

// [-0, +1, e] game_entities:entities([classNames]): the entities the
// engine reported this frame, those of the given classes only if a list is
// given: {entityId (1-based), id, type, visible, position, classname}.
NResultsOr Entities(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, "game_entities", "entities"); !e.empty()) return e;
  constexpr int kNotVisible = 0x80;  // the engine's flag
  std::vector<std::string> filter;
  if (!lua_isnoneornil(L, 2)) {
    if (!lua_istable(L, 2)) return ArgumentError("entities", 1, "expected a list of class names");
    for (int i = 1;; ++i) {
      lua_rawgeti(L, 2, i);
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        break;
      }
      if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 1);
        return ArgumentError("entities", 1, "expected a list of class names");
      }
      filter.emplace_back(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  }
  const std::vector<Entity>& entities = TargetOf(L).context->entities();
  if (std::string e = lua_api::CheckLuaMemory(L, entities.size() * 512, "game_entities:entities");
      !e.empty()) {
    return e;
  }
  lua_createtable(L, static_cast<int>(entities.size()), 0);
  int row = 0;
  for (const Entity& entity : entities) {
    if (!filter.empty() &&
        std::find(filter.begin(), filter.end(), entity.class_name) == filter.end()) {
      continue;
    }
    lua_createtable(L, 0, 6);
    lua_pushinteger(L, entity.entity_id + 1);
    lua_setfield(L, -2, "entityId");
    lua_pushinteger(L, entity.user_id);
    lua_setfield(L, -2, "id");
    lua_pushinteger(L, entity.type);
    lua_setfield(L, -2, "type");
    lua_pushboolean(L, (entity.flags & kNotVisible) == 0);
    lua_setfield(L, -2, "visible");
    SetTriple(L, "position", entity.position);
    lua_pushlstring(L, entity.class_name.data(), entity.class_name.size());
    lua_setfield(L, -2, "classname");
    lua_rawseti(L, -2, ++row);
  }
  return 1;
}

constexpr lua_api::MethodEntry kEntitiesFunctions[] = {
    {"entities", &lua_api::Raising<&Entities>},
};

// [-0, +1, e]
int OpenEntities(lua_State* L) {
  PushModuleTable(L, lua_touserdata(L, lua_upvalueindex(1)), kEntitiesFunctions);
  return 1;
}

}  // namespace

void RegisterGameModules(lua_State* L, GameModuleTarget* target) {
  lua_api::SetPreload(L, "dmlab.system.game", &OpenGame, target);
  RegisterMapMakerModule(L, target->context);
  RegisterPickupsSpawnModule(L, target->context);
  engine_plugin::model::RegisterModelModule(L, target->context->model_files());
  lua_api::SetPreload(L, "dmlab.system.game_entities", &OpenEntities, target);
  // DeepMind Lab's maze generator is the engine's no more than the maze's:
  // one module serves both hosts.
  hosts::maze::RegisterMazeGenerationModule(L);
}

}  // namespace hosts::dmlab
