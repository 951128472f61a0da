#include "engines/maze/maze_host.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/host_registry.h"
#include "engine_plugin/level_files.h"
#include "engines/maze/game_entities_module.h"
#include "engines/maze/maze_generation_module.h"
#include "engines/maze/model_module.h"
#include "engines/maze/raycaster.h"
#include "engines/maze/text_map.h"
#include "levels/builtin_levels.h"
#include "lua_api/read.h"

namespace maze {
namespace {

using engine_plugin::Level;
using engine_plugin::ObservationSpec;
using engine_plugin::ObservationType;
using engine_plugin::ObservationValue;

enum Observation { kRgb, kRgbd, kPosTrans, kPosRot, kTopDown };

constexpr double kAppleReward = 1;
constexpr double kGoalReward = 10;
// DeepMind Lab's game units per cell, in which spawn variables' origins are.
constexpr double kGameUnitsPerCell = 100;
constexpr int kMaxFrameExtent = 4096;
// RGBD_INTERLEAVED's depth byte: 1/16 cell per step, saturating at 255
// (16 cells and beyond).
constexpr float kDepthStepsPerCell = 16;

constexpr const char* kActionNames[kActionCount] = {"LOOK_LEFT_RIGHT_PIXELS_PER_FRAME",
                                                    "LOOK_DOWN_UP_PIXELS_PER_FRAME",
                                                    "STRAFE_LEFT_RIGHT",
                                                    "MOVE_BACK_FORWARD",
                                                    "FIRE",
                                                    "JUMP",
                                                    "CROUCH"};
constexpr int kActionBounds[kActionCount][2] = {{-512, 512}, {-512, 512}, {-1, 1}, {-1, 1},
                                                {0, 1},      {0, 1},      {0, 1}};

absl::Status Annotate(const absl::Status& status, absl::string_view context) {
  return absl::Status(status.code(), absl::StrCat(context, ": ", status.message()));
}

absl::StatusOr<int> ParseExtent(absl::string_view key, absl::string_view value, int highest) {
  int parsed = 0;
  if (!absl::SimpleAtoi(value, &parsed) || parsed < 1 || parsed > highest) {
    return absl::InvalidArgumentError(absl::StrCat("setting '", key, "': an integer in [1, ",
                                                   highest, "] expected, got '", value, "'"));
  }
  return parsed;
}

// What nextMap() returned: the layers of a text map or a maze, or the name
// of a map file.
struct MapText {
  std::string name;    // set when the level named a map file
  std::string entity;  // else the layers themselves
  std::string variations;
};

absl::Status ReadMapText(lua_State* L, int index, MapText* map) {
  if (lua_type(L, index) == LUA_TSTRING) {
    std::size_t length = 0;
    const char* text = lua_tolstring(L, index, &length);
    (std::memchr(text, '\n', length) != nullptr ? map->entity : map->name).assign(text, length);
    return absl::OkStatus();
  }
  const MapLayers* maze = ReadMaze(L, index);
  if (maze == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "must return a text map, a map name or a maze, not ", lua_api::TypeNameAt(L, index)));
  }
  map->entity = maze->EntityLayer();
  map->variations = maze->VariationsLayer();
  return absl::OkStatus();
}

// A map name is a file name in maps/, never a path.
bool IsMapName(absl::string_view name) {
  if (name.empty() || name[0] == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

// maps/<name>.txt (and <name>.variations.txt, if present) beside the level
// script, or else among the built-in maps.
absl::StatusOr<MapText> FindMap(const std::string& directory, const std::string& name) {
  if (!IsMapName(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("nextMap returned '", name,
                     "': a map name (letters, digits, '_', '-', '.') or a text "
                     "map with at least one newline expected"));
  }
  MapText map;
  if (!directory.empty()) {
    const std::string stem = absl::StrCat(directory, "/maps/", name);
    if (absl::StatusOr<std::string> entity = engine_plugin::ReadLevelFile(stem + ".txt");
        entity.ok()) {
      map.entity = *std::move(entity);
      if (absl::StatusOr<std::string> v = engine_plugin::ReadLevelFile(stem + ".variations.txt");
          v.ok()) {
        map.variations = *std::move(v);
      }
      return map;
    }
  }
  std::optional<absl::string_view> entity =
      levels::FindBuiltinLevelFile(absl::StrCat("maps/", name, ".txt"));
  if (!entity) {
    return absl::NotFoundError(absl::StrCat(
        "no map named '", name,
        "' (made by map_maker, in maps/ beside the level, or built in); "
        "if it is one of DeepMind Lab's compiled BSP maps, the maze engine cannot load those"));
  }
  map.entity = std::string(*entity);
  if (std::optional<absl::string_view> v =
          levels::FindBuiltinLevelFile(absl::StrCat("maps/", name, ".variations.txt"))) {
    map.variations = std::string(*v);
  }
  return map;
}

// DeepMind Lab's spawn-entity model, its first part: each spawn point and
// pickup of `map` goes to the level's updateSpawnVars(spawnVars) as
// {classname = 'info_player_start'|'apple_reward'|'goal', origin = 'x y 0'}
// (game units, as map_maker's entities and maze:toWorldPos give them), and
// one it returns nil for is left out of the map. Without the callback the
// map is as it was.
absl::StatusOr<TextMap> UpdateSpawnVars(Level& level, TextMap map) {
  struct Entity {
    GridCell cell;
    const char* class_name;
  };
  std::vector<Entity> entities;
  for (const GridCell& spawn : map.spawns()) entities.push_back({spawn, "info_player_start"});
  for (const MapPickup& pickup : map.pickups()) {
    entities.push_back({pickup.cell, pickup.kind == PickupKind::kGoal ? "goal" : "apple_reward"});
  }
  absl::StatusOr<MapLayers> layers = MapLayers::Parse(map.EntityLayer(), map.VariationsLayer());
  if (!layers.ok()) return layers.status();
  bool removed_any = false;
  for (const Entity& entity : entities) {
    bool keep = true;
    absl::StatusOr<bool> called = level.Call(
        "updateSpawnVars", 1,
        [&](lua_State* L) {
          lua_createtable(L, 0, 2);
          lua_pushstring(L, entity.class_name);
          lua_setfield(L, -2, "classname");
          const std::string origin =
              absl::StrCat((entity.cell.col + 0.5) * kGameUnitsPerCell, " ",
                           (map.rows() - entity.cell.row - 0.5) * kGameUnitsPerCell, " 0");
          lua_pushlstring(L, origin.data(), origin.size());
          lua_setfield(L, -2, "origin");
          return 1;
        },
        [&](lua_State* L, int first) {
          if (lua_isnil(L, first)) {
            keep = false;
          } else if (!lua_istable(L, first)) {
            return absl::InvalidArgumentError(
                absl::StrCat("must return the spawn variables (a table) or nil, not ",
                             lua_api::TypeNameAt(L, first)));
          } else {
            // A new class would be another pickup, which DeepMind Lab makes
            // through createPickup: refused, rather than silently kept.
            lua_api::PushRawField(L, first, "classname");
            const char* class_name = lua_tostring(L, -1);
            const bool same =
                class_name != nullptr && std::strcmp(class_name, entity.class_name) == 0;
            std::string changed = class_name == nullptr ? "nothing" : class_name;
            lua_pop(L, 1);
            if (!same) {
              return absl::UnimplementedError(absl::StrCat(
                  "changed the class of '", entity.class_name, "' to '", changed,
                  "': the maze engine cannot make pickups of other classes yet (DeepMind Lab's "
                  "createPickup)"));
            }
          }
          return absl::OkStatus();
        });
    if (!called.ok()) return called.status();
    if (!*called) return map;  // no updateSpawnVars
    if (!keep) {
      if (absl::Status s = layers->SetEntity(entity.cell.row, entity.cell.col, ' '); !s.ok()) {
        return s;
      }
      removed_any = true;
    }
  }
  if (!removed_any) return map;
  return TextMap::FromLayers(*layers);
}

// The level's pickup(entity): its reward, or `reward` when it has no such
// callback or returns nil.
absl::StatusOr<double> PickupReward(Level& level, const Pickup& pickup, double reward) {
  absl::StatusOr<bool> called = level.Call(
      "pickup", 1,
      [&](lua_State* L) {
        PushPickup(L, pickup);
        lua_pushnumber(L, reward);
        lua_setfield(L, -2, "reward");
        return 1;
      },
      [&](lua_State* L, int first) {
        std::string why;
        if (!lua_isnil(L, first)) why = lua_api::ReadNumber(L, first, &reward);
        if (why.empty() && !std::isfinite(reward)) why = "finite reward expected";
        if (why.empty()) return absl::OkStatus();
        return absl::InvalidArgumentError(absl::StrCat("returned ", why));
      });
  if (!called.ok()) return called.status();
  return reward;
}

const bool kRegistered = engine_plugin::RegisterHost(
    "maze", [] { return std::unique_ptr<engine_plugin::Host>(new MazeHost); });

}  // namespace

absl::StatusOr<bool> MazeHost::SetSetting(absl::string_view key, absl::string_view value) {
  if (key == "width" || key == "height") {
    absl::StatusOr<int> extent = ParseExtent(key, value, kMaxFrameExtent);
    if (!extent.ok()) return extent.status();
    (key == "width" ? width_ : height_) = *extent;
    return true;
  }
  if (key == "fps") {
    absl::StatusOr<int> fps = ParseExtent(key, value, 1000);
    if (!fps.ok()) return fps.status();
    fps_ = *fps;
    return true;
  }
  return false;
}

void MazeHost::RegisterModules(lua_State* L, Level& level) {
  level_ = &level;
  RegisterGameModule(L, this);
  RegisterGameEntitiesModule(L, this);
  RegisterMapMakerModule(L, &made_maps_);
  RegisterModelModule(L);
  RegisterMazeGenerationModule(L);
}

absl::Status MazeHost::Init(Level&) {
  specs_ = {
      {"RGB_INTERLEAVED", ObservationType::kBytes, {height_, width_, 3}},
      {"RGBD_INTERLEAVED", ObservationType::kBytes, {height_, width_, 4}},
      {"DEBUG.POS.TRANS", ObservationType::kDoubles, {3}},
      {"DEBUG.POS.ROT", ObservationType::kDoubles, {3}},
      {"DEBUG.CAMERA.TOP_DOWN", ObservationType::kBytes, {height_, width_, 3}},
  };
  return absl::OkStatus();
}

std::vector<ObservationSpec> MazeHost::ObservationSpecs() const { return specs_; }

std::vector<engine_plugin::DiscreteActionSpec> MazeHost::DiscreteActions() const {
  std::vector<engine_plugin::DiscreteActionSpec> specs;
  for (int i = 0; i < kActionCount; ++i) {
    specs.push_back({kActionNames[i], kActionBounds[i][0], kActionBounds[i][1]});
  }
  return specs;
}

std::vector<engine_plugin::ContinuousActionSpec> MazeHost::ContinuousActions() const { return {}; }

void MazeHost::AddScore(double reward) { level_->AddReward(reward); }

double MazeHost::EpisodeTimeSeconds() const { return level_->EpisodeTimeSeconds(); }

absl::Status MazeHost::LoadMap(Level& level) {
  MapText text;
  absl::StatusOr<bool> called = level.Call(
      "nextMap", 1, [](lua_State*) { return 0; },
      [&](lua_State* L, int first) { return ReadMapText(L, first, &text); });
  if (!called.ok()) return called.status();
  if (!*called) {
    return absl::InvalidArgumentError("the level has no nextMap callback, so no map to load");
  }
  if (text.name.empty() && text.entity.empty()) {
    // '' is DeepMind Lab's "the same map again" (its quick restart).
    if (loaded_entity_layer_.empty()) {
      return absl::InvalidArgumentError(
          "nextMap returned '' (the same map again) before any map was loaded");
    }
    text.entity = loaded_entity_layer_;
    text.variations = loaded_variations_layer_;
  } else if (const MadeMap* made = text.name.empty() ? nullptr : made_maps_.Find(text.name)) {
    text.entity = made->entity_layer;
    text.variations = made->variations_layer;
  } else if (!text.name.empty()) {
    absl::StatusOr<MapText> found = FindMap(level.directory(), text.name);
    if (!found.ok()) return found.status();
    text = *std::move(found);
  }
  absl::StatusOr<TextMap> map = TextMap::Parse(text.entity, text.variations);
  if (!map.ok()) return Annotate(map.status(), "the level's map");
  loaded_entity_layer_ = std::move(text.entity);
  loaded_variations_layer_ = std::move(text.variations);
  map = UpdateSpawnVars(level, *std::move(map));
  if (!map.ok()) return Annotate(map.status(), "the level's map after updateSpawnVars");
  // mt19937_64's output is fixed by the standard, so the spawn point is
  // the same on every platform (the modulo bias is below 2^-50).
  const int spawn = static_cast<int>(spawn_random_() % map->spawns().size());
  world_.emplace(*std::move(map), spawn);
  return absl::OkStatus();
}

absl::Status MazeHost::Start(Level& level, std::uint64_t seed) {
  spawn_random_.seed(seed);
  actions_ = {};
  map_finished_ = false;
  return LoadMap(level);
}

void MazeHost::Act(absl::Span<const int> discrete, absl::Span<const double>) {
  std::copy_n(discrete.begin(), std::min<std::size_t>(discrete.size(), kActionCount),
              actions_.begin());
}

absl::Status MazeHost::Step(Level& level) {
  for (int id : world_->Step(actions_, 1.0 / fps_)) {
    const Pickup& pickup = world_->pickup(id);
    absl::StatusOr<double> gained =
        PickupReward(level, pickup, pickup.kind == PickupKind::kGoal ? kGoalReward : kAppleReward);
    if (!gained.ok()) return gained.status();
    level.AddReward(*gained);
    // A goal ends the map, as in DeepMind Lab: nextMap() says what follows.
    if (pickup.kind == PickupKind::kGoal) map_finished_ = true;
  }
  if (!map_finished_) return absl::OkStatus();
  map_finished_ = false;
  return LoadMap(level);
}

absl::Status MazeHost::Render(Level& level, const tensor::Tensor& frame) {
  depth_.resize(static_cast<std::size_t>(width_) * height_);
  auto* pixels = reinterpret_cast<std::uint8_t*>(*frame.data());
  frame_pixels_ = pixels;
  RenderFirstPerson(world_->map(), world_->pickups(), Camera::Of(world_->pose()),
                    Frame{pixels, depth_.data(), width_, height_});
  const std::int64_t rgb_shape[] = {height_, width_, 3};
  const std::int64_t depth_shape[] = {height_, width_};
  const engine_plugin::LentBuffer lent[] = {
      {"engine frame buffer", tensor::DType::kUInt8, rgb_shape, pixels,
       static_cast<std::size_t>(width_) * height_ * 3},
      {"engine depth buffer", tensor::DType::kFloat32, depth_shape, depth_.data(),
       depth_.size() * sizeof(float)}};
  absl::StatusOr<bool> observed = level.CallLending("observeFrame", lent);
  return observed.status();
}

absl::StatusOr<ObservationValue> MazeHost::Observe(int index,
                                                   engine_plugin::ObservationBuffers& buffers) {
  const ObservationSpec& spec = specs_[index];
  ObservationValue value;
  value.type = spec.type;
  const Pose& pose = world_->pose();
  switch (index) {
    case kRgbd: {
      absl::StatusOr<tensor::Tensor> rgbd = buffers.Acquire(tensor::DType::kUInt8, spec.shape);
      if (!rgbd.ok()) return rgbd.status();
      const std::uint8_t* rgb = frame_pixels_;
      auto* out = reinterpret_cast<std::uint8_t*>(*rgbd->data());
      for (std::size_t i = 0; i < depth_.size(); ++i) {
        std::memcpy(out + 4 * i, rgb + 3 * i, 3);
        out[4 * i + 3] =
            static_cast<std::uint8_t>(std::min(255.0f, std::round(depth_[i] * kDepthStepsPerCell)));
      }
      value.tensor = *std::move(rgbd);
      return value;
    }
    case kPosTrans:
    case kPosRot: {
      absl::StatusOr<tensor::Tensor> triple = buffers.Acquire(tensor::DType::kFloat64, spec.shape);
      if (!triple.ok()) return triple.status();
      const double values[3] = {index == kPosTrans ? pose.position.x : pose.pitch,
                                index == kPosTrans ? pose.position.y : pose.yaw, 0.0};
      std::memcpy(*triple->data(), values, sizeof(values));
      value.tensor = *std::move(triple);
      return value;
    }
    case kTopDown: {
      absl::StatusOr<tensor::Tensor> view = buffers.Acquire(tensor::DType::kUInt8, spec.shape);
      if (!view.ok()) return view.status();
      RenderTopDown(
          world_->map(), world_->pickups(), pose,
          Frame{reinterpret_cast<std::uint8_t*>(*view->data()), nullptr, width_, height_});
      value.tensor = *std::move(view);
      return value;
    }
    default:
      return absl::OutOfRangeError(absl::StrCat("the maze has no observation ", index));
  }
}

void MazeHost::ListProperties(
    absl::FunctionRef<void(absl::string_view, const std::string&)> visit) const {
  visit("fps", absl::StrCat(fps_));
  visit("width", absl::StrCat(width_));
  visit("height", absl::StrCat(height_));
}

}  // namespace maze
