#include "hosts/maze/maze_host.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine_plugin/host_registry.h"
#include "engine_plugin/level_files.h"
#include "hosts/maze/game_entities_module.h"
#include "hosts/maze/level_callbacks.h"
#include "hosts/maze/maze_generation_module.h"
#include "hosts/maze/raycaster.h"
#include "hosts/maze/screen_overlay.h"
#include "hosts/maze/spawn_entities.h"
#include "hosts/maze/sprite_shapes.h"
#include "hosts/maze/text_map.h"
#include "levels/builtin_levels.h"
#include "lua_api/lua/read.h"

namespace hosts::maze {
namespace {

using engine_plugin::Level;
using engine_plugin::ObservationSpec;
using engine_plugin::ObservationType;
using engine_plugin::ObservationValue;

enum Observation { kRgb, kRgbd, kPosTrans, kPosRot, kTopDown };

constexpr int kMaxFrameExtent = 4096;
// How close (cells) the player's circle comes to a shut door to touch its
// triggers: collision stops it a hair from the door's face.
constexpr double kTriggerReach = 0.05;
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

// The map file at `path`, confined to the level's folder as require is: a
// link out of it is refused without a byte of the outside file, nor its
// resolved name, reaching the level. NotFound when there is no such file.
absl::StatusOr<std::string> ReadMapFile(const std::string& directory, const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, error))) {
    return absl::NotFoundError(absl::StrCat("no map file ", path));
  }
  if (!engine_plugin::InsideDirectory(directory, path)) {
    return absl::PermissionDeniedError(absl::StrCat(
        "map file '", path, "' is a link out of the level's folder, and a level reads files "
        "only inside it"));
  }
  return engine_plugin::ReadLevelFile(path);
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
    absl::StatusOr<std::string> entity = ReadMapFile(directory, stem + ".txt");
    if (entity.ok()) {
      map.entity = *std::move(entity);
      absl::StatusOr<std::string> v = ReadMapFile(directory, stem + ".variations.txt");
      if (v.ok()) {
        map.variations = *std::move(v);
      } else if (!absl::IsNotFound(v.status())) {
        return v.status();
      }
      return map;
    }
    if (!absl::IsNotFound(entity.status())) return entity.status();
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
  level_state_ = L;
  RegisterGameModule(L, this);
  RegisterGameEntitiesModule(L, this);
  RegisterMapMakerModule(L, &made_maps_);
  RegisterMazeGenerationModule(L);
}

absl::Status MazeHost::Init(Level& level) {
  absl::StatusOr<std::vector<engine_plugin::DiscreteActionSpec>> custom = CustomActionSpecs(
      level, std::vector<std::string>(std::begin(kActionNames), std::end(kActionNames)));
  if (!custom.ok()) return custom.status();
  custom_specs_ = *std::move(custom);
  custom_values_.assign(custom_specs_.size() * players_, 0);
  actions_.assign(players_, Actions{});
  const ObservationSpec each[] = {
      {"RGB_INTERLEAVED", ObservationType::kBytes, {height_, width_, 3}},
      {"RGBD_INTERLEAVED", ObservationType::kBytes, {height_, width_, 4}},
      {"DEBUG.POS.TRANS", ObservationType::kDoubles, {3}},
      {"DEBUG.POS.ROT", ObservationType::kDoubles, {3}},
  };
  specs_.clear();
  served_.clear();
  // Kind by kind, player by player: the frames come first, in player order.
  for (int kind = kRgb; kind <= kPosRot; ++kind) {
    for (int player = 0; player < players_; ++player) {
      ObservationSpec spec = each[kind];
      if (players_ > 1) spec.name = absl::StrCat(player + 1, ".", spec.name);
      specs_.push_back(std::move(spec));
      served_.push_back({kind, player});
    }
  }
  specs_.push_back({"DEBUG.CAMERA.TOP_DOWN", ObservationType::kBytes, {height_, width_, 3}});
  served_.push_back({kTopDown, 0});
  return absl::OkStatus();
}

std::vector<ObservationSpec> MazeHost::ObservationSpecs() const { return specs_; }

std::vector<engine_plugin::DiscreteActionSpec> MazeHost::DiscreteActions() const {
  std::vector<engine_plugin::DiscreteActionSpec> one;
  for (int i = 0; i < kActionCount; ++i) {
    one.push_back({kActionNames[i], kActionBounds[i][0], kActionBounds[i][1]});
  }
  // Then the level's own, as DeepMind Lab appends them.
  one.insert(one.end(), custom_specs_.begin(), custom_specs_.end());
  if (players_ == 1) return one;
  std::vector<engine_plugin::DiscreteActionSpec> specs;
  for (int player = 1; player <= players_; ++player) {
    for (engine_plugin::DiscreteActionSpec spec : one) {
      spec.name = absl::StrCat(player, ".", spec.name);
      specs.push_back(std::move(spec));
    }
  }
  return specs;
}

std::vector<engine_plugin::ContinuousActionSpec> MazeHost::ContinuousActions() const { return {}; }

void MazeHost::AddScore(int player, double reward) { level_->AddReward(player, reward); }

std::string MazeHost::Console(absl::string_view command) {
  std::vector<absl::string_view> words = absl::StrSplit(command, ' ', absl::SkipEmpty());
  int spawn_id = 0;
  if (words.size() == 2 && words[0] == "dm_pickup" && absl::SimpleAtoi(words[1], &spawn_id)) {
    // Marks, one per pickup: however often a level asks, this stays the
    // size of the map's pickups.
    if (!world_) return "no map is loaded yet";
    console_pickups_.resize(world_->pickups().size());
    for (const Pickup& pickup : world_->pickups()) {
      if (pickup.spawn_id == spawn_id) console_pickups_[pickup.id] = true;
    }
    return "";
  }
  return absl::StrCat("the maze's console knows 'dm_pickup <id>' only, not '", command, "'");
}

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
    if (loaded_.entity.empty()) {
      return absl::InvalidArgumentError(
          "nextMap returned '' (the same map again) before any map was loaded");
    }
    text = loaded_;
  } else if (const MadeMap* made = text.name.empty() ? nullptr : made_maps_.Find(text.name)) {
    text.entity = made->entity_layer;
    text.variations = made->variations_layer;
    text.entities = made->entities;
  } else if (!text.name.empty()) {
    absl::StatusOr<MapText> found = FindMap(level.directory(), text.name);
    if (!found.ok()) return found.status();
    text = *std::move(found);
  }
  absl::StatusOr<TextMap> map = TextMap::Parse(text.entity, text.variations);
  if (!map.ok()) return Annotate(map.status(), "the level's map");
  std::vector<SpawnEntity> entities = EntitiesOfMap(*map);
  entities.insert(entities.end(), text.entities.begin(), text.entities.end());
  loaded_ = std::move(text);
  spawn_vars_charge_ = {};  // the last map's
  if (absl::Status s = UpdateSpawnVars(level, &entities, &spawn_vars_charge_); !s.ok()) {
    return Annotate(s, "the level's map, in updateSpawnVars");
  }
  absl::StatusOr<PlacedEntities> placed = PlaceEntities(level, entities, &*map);
  if (!placed.ok()) return Annotate(placed.status(), "the level's map");
  if (absl::Status s = ColourSkins(level, &placed->pickups); !s.ok()) {
    return Annotate(s, "the level's map");
  }
  world_.emplace(*std::move(map), Starts(placed->spawns), std::move(placed->pickups));
  triggers_.clear();
  closing_.clear();
  console_pickups_.clear();  // marks of the last map's pickups
  teleporters_ = std::move(placed->teleporters);
  for (DoorTrigger& trigger : placed->triggers) triggers_.push_back({std::move(trigger), 0});
  // As DeepMind Lab's renderer loads a map's textures.
  return textures_.Load(level, level_state_);
}

std::vector<WorldPoint> MazeHost::Starts(const std::vector<WorldPoint>& spawns) {
  // mt19937_64's output is fixed by the standard, so the spawn points are
  // the same on every platform (the modulo bias is below 2^-50). Each
  // player draws from the spawns no player took yet, and from all of them
  // again once every one is taken.
  std::vector<WorldPoint> starts;
  std::vector<int> free;
  for (int player = 0; player < players_; ++player) {
    if (free.empty()) {
      for (int i = 0; i < static_cast<int>(spawns.size()); ++i) free.push_back(i);
    }
    const std::size_t drawn = spawn_random_() % free.size();
    starts.push_back(spawns[free[drawn]]);
    free.erase(free.begin() + static_cast<std::ptrdiff_t>(drawn));
  }
  return starts;
}

// Each model's skin, once a map, through the texture callbacks.
absl::Status MazeHost::ColourSkins(Level& level, std::vector<Pickup>* pickups) {
  std::map<std::string, std::optional<Rgb>> skins;
  for (Pickup& pickup : *pickups) {
    if (pickup.model.empty()) continue;
    auto [it, fresh] = skins.try_emplace(pickup.model);
    if (fresh) {
      absl::StatusOr<std::optional<Rgb>> skin =
          ModelSkinColour(level, level_state_, pickup.model, ShapeOf(pickup).discs[0].colour);
      if (!skin.ok()) return skin.status();
      it->second = *skin;
    }
    pickup.skin = it->second;
  }
  return absl::OkStatus();
}

absl::Status MazeHost::Start(Level& level, std::uint64_t seed) {
  spawn_random_.seed(seed ^ (std::uint64_t{mixer_} << 32));
  actions_.assign(players_, Actions{});
  map_finished_ = false;
  if (absl::Status s = RefuseBots(level); !s.ok()) return s;
  return LoadMap(level);
}

void MazeHost::Act(absl::Span<const int> discrete, absl::Span<const double>) {
  // Each player's seven, then its own of the level's.
  const std::size_t custom = custom_specs_.size();
  const std::size_t each = kActionCount + custom;
  auto value = [&](std::size_t i) { return i < discrete.size() ? discrete[i] : 0; };
  for (int player = 0; player < players_; ++player) {
    const std::size_t first = player * each;
    for (int a = 0; a < kActionCount; ++a) actions_[player][a] = value(first + a);
    for (std::size_t c = 0; c < custom; ++c) {
      custom_values_[player * custom + c] = value(first + kActionCount + c);
    }
  }
  custom_pending_ = custom > 0;
}

absl::Status MazeHost::Step(Level& level) {
  // The level's own actions, once for each Act, as DeepMind Lab applies them.
  if (custom_pending_) {
    custom_pending_ = false;
    const std::size_t custom = custom_specs_.size();
    for (int player = 0; player < players_; ++player) {
      const absl::Span<const int> values =
          absl::MakeConstSpan(custom_values_).subspan(player * custom, custom);
      if (absl::Status s = ApplyCustomActions(level, player, values); !s.ok()) return s;
    }
  }
  std::vector<Actions> actions = actions_;  // as modifyControl leaves them, for this frame
  for (int player = 0; player < players_; ++player) {
    if (absl::Status s = ModifyControl(level, player, &actions[player]); !s.ok()) return s;
  }
  std::vector<Taken> collected = world_->Step(actions, 1.0 / fps_);
  // Then what the console picked up, as if the first player touched it.
  for (std::size_t id = 0; id < console_pickups_.size(); ++id) {
    if (!console_pickups_[id] || !world_->pickup(static_cast<int>(id)).active) continue;
    world_->Take(static_cast<int>(id));
    collected.push_back({0, static_cast<int>(id)});
  }
  console_pickups_.clear();
  for (const Taken& taken : collected) {
    if (absl::Status s = Collect(level, taken); !s.ok()) return s;
  }
  if (absl::Status s = FireTriggers(level); !s.ok()) return s;
  CloseDoors();
  Teleport();
  if (!map_finished_) return absl::OkStatus();
  map_finished_ = false;
  return LoadMap(level);
}

// DeepMind Lab's pickup, for a pickup a player touched this frame.
absl::Status MazeHost::Collect(Level& level, Taken taken) {
  const int id = taken.id;
  const Pickup& pickup = world_->pickup(id);
  // The callbacks are for pickups with an id.
  std::optional<double> respawn;
  if (pickup.spawn_id != 0) {
    absl::StatusOr<bool> can = CanPickup(level, pickup.spawn_id, taken.player);
    if (!can.ok()) return can.status();
    if (!*can) {
      world_->Restore(id);
      return absl::OkStatus();
    }
    absl::StatusOr<std::optional<double>> overridden =
        PickupOverride(level, pickup.spawn_id, taken.player);
    if (!overridden.ok()) return overridden.status();
    respawn = *overridden;
  }
  if (respawn && *respawn == 0) {
    world_->Restore(id);
    return absl::OkStatus();
  }
  if (!respawn) {
    level.AddReward(taken.player, pickup.quantity);
    // A goal ends the map, as in DeepMind Lab: nextMap() says what follows.
    if (pickup.kind == PickupKind::kGoal) map_finished_ = true;
  }
  // A wait of -1 never respawns; another nonzero wait replaces the time.
  if (pickup.wait == -1) return absl::OkStatus();
  const double seconds = pickup.wait != 0 ? pickup.wait : respawn.value_or(-1);
  if (seconds > 0) world_->RespawnAfter(id, seconds);
  return absl::OkStatus();
}

// DeepMind Lab's trigger_multiple, for the door it targets: while the
// player presses against the door, or stands in it, at most every `wait`
// seconds, canTrigger may refuse and trigger may take over; otherwise the
// door opens, or stays open, for its func_door's wait (Quake III's
// func_door), after which it closes as soon as the player is out of it. A
// door open for good (a negative wait) fires nothing more.
absl::Status MazeHost::FireTriggers(Level& level) {
  for (ArmedTrigger& armed : triggers_) {
    const DoorTrigger& trigger = armed.trigger;
    if (!world_->map().IsWall(trigger.door.row, trigger.door.col) && trigger.door_wait < 0) {
      continue;  // open for good
    }
    if (world_->time() < armed.next_time) continue;
    // Each trigger lies on its side of the door; the first player (in
    // player order) pressing on it there fires it.
    const WorldPoint centre = world_->map().CellCentre(trigger.door);
    int presser = -1;
    for (int player = 0; player < players_ && presser < 0; ++player) {
      if (!world_->Touches(trigger.door, kTriggerReach, player)) continue;
      const WorldPoint& at = world_->pose(player).position;
      const bool beyond = trigger.across_x ? at.x > centre.x : at.y > centre.y;
      if (beyond == (trigger.side == 1)) presser = player;
    }
    if (presser < 0) continue;
    armed.next_time = world_->time() + trigger.wait;
    absl::StatusOr<bool> can = CanTrigger(level, trigger, presser);
    if (!can.ok()) return can.status();
    if (!*can) continue;
    absl::StatusOr<bool> overridden = TriggerOverride(level, trigger, presser);
    if (!overridden.ok()) return overridden.status();
    if (!*overridden) {
      world_->OpenDoor(trigger.door);
      if (trigger.door_wait >= 0)
        closing_[{trigger.door.row, trigger.door.col}] = world_->time() + trigger.door_wait;
    }
  }
  return absl::OkStatus();
}

// Quake III's trigger_teleport: a box 0.48 of a cell wide in the middle
// of its cell; each player whose body reaches it is sent on.
void MazeHost::Teleport() {
  constexpr double kReach = 0.24 + World::kPlayerRadius;
  for (int player = 0; player < players_; ++player) {
    const WorldPoint& at = world_->pose(player).position;
    for (const Teleporter& teleporter : teleporters_) {
      const WorldPoint centre = world_->map().CellCentre(teleporter.cell);
      if (std::abs(at.x - centre.x) < kReach && std::abs(at.y - centre.y) < kReach) {
        world_->Teleport(teleporter.destination, teleporter.yaw, player);
        break;
      }
    }
  }
}

void MazeHost::CloseDoors() {
  for (auto it = closing_.begin(); it != closing_.end();) {
    const auto [row, col] = it->first;
    if (world_->time() >= it->second && world_->CloseDoor({row, col})) {
      it = closing_.erase(it);
    } else {
      ++it;
    }
  }
}

absl::Status MazeHost::Render(Level& level, const tensor::Tensor& frame) {
  const std::size_t pixels_each = static_cast<std::size_t>(width_) * height_;
  depth_.resize(pixels_each * players_);
  auto* pixels = reinterpret_cast<std::uint8_t*>(*frame.data());
  frame_pixels_ = pixels;
  for (int player = 0; player < players_; ++player) {
    // The others, as this player sees them.
    figures_.clear();
    for (int other = 0; other < players_; ++other) {
      if (other == player) continue;
      const Pose& pose = world_->pose(other);
      figures_.push_back({pose.position, pose.yaw, PlayerColour(other)});
    }
    const Frame drawn{pixels + pixels_each * 3 * player, depth_.data() + pixels_each * player,
                      width_, height_};
    RenderFirstPerson(world_->map(), world_->pickups(), Camera::Of(world_->pose(player)), drawn,
                      textures_.surfaces(), figures_);
    if (absl::Status s = DrawScreenOverlays(level, drawn); !s.ok()) return s;
  }
  // Every player's frames in one loan: one call, however many players.
  const std::int64_t rgb_shape[] = {players_, height_, width_, 3};
  const std::int64_t depth_shape[] = {players_, height_, width_};
  const int skip = players_ == 1 ? 1 : 0;  // one player's are height x width (x 3)
  const engine_plugin::LentBuffer lent[] = {
      {"engine frame buffer", tensor::DType::kUInt8, absl::MakeConstSpan(rgb_shape).subspan(skip),
       pixels, pixels_each * 3 * players_},
      {"engine depth buffer", tensor::DType::kFloat32,
       absl::MakeConstSpan(depth_shape).subspan(skip), depth_.data(),
       depth_.size() * sizeof(float)}};
  absl::StatusOr<bool> observed = level.CallLending("observeFrame", lent);
  return observed.status();
}

absl::StatusOr<ObservationValue> MazeHost::Observe(int index,
                                                   engine_plugin::ObservationBuffers& buffers) {
  if (index < 0 || index >= static_cast<int>(specs_.size())) {
    return absl::OutOfRangeError(absl::StrCat("the maze has no observation ", index));
  }
  const ObservationSpec& spec = specs_[index];
  const auto [kind, player] = served_[index];
  ObservationValue value;
  value.type = spec.type;
  const Pose& pose = world_->pose(player);
  switch (kind) {
    case kRgbd: {
      absl::StatusOr<tensor::Tensor> rgbd = buffers.Acquire(tensor::DType::kUInt8, spec.shape);
      if (!rgbd.ok()) return rgbd.status();
      const std::size_t pixels_each = static_cast<std::size_t>(width_) * height_;
      const std::uint8_t* rgb = frame_pixels_ + pixels_each * 3 * player;
      const float* depth = depth_.data() + pixels_each * player;
      auto* out = reinterpret_cast<std::uint8_t*>(*rgbd->data());
      for (std::size_t i = 0; i < pixels_each; ++i) {
        std::memcpy(out + 4 * i, rgb + 3 * i, 3);
        out[4 * i + 3] =
            static_cast<std::uint8_t>(std::min(255.0f, std::round(depth[i] * kDepthStepsPerCell)));
      }
      value.tensor = *std::move(rgbd);
      return value;
    }
    case kPosTrans:
    case kPosRot: {
      absl::StatusOr<tensor::Tensor> triple = buffers.Acquire(tensor::DType::kFloat64, spec.shape);
      if (!triple.ok()) return triple.status();
      // DeepMind Lab's: game units, and Quake's pitch (growing downwards).
      const double values[3] = {
          kind == kPosTrans ? pose.position.x * kGameUnitsPerCell : QuakePitch(pose.pitch),
          kind == kPosTrans ? pose.position.y * kGameUnitsPerCell : pose.yaw, 0.0};
      std::memcpy(*triple->data(), values, sizeof(values));
      value.tensor = *std::move(triple);
      return value;
    }
    case kTopDown: {
      absl::StatusOr<tensor::Tensor> view = buffers.Acquire(tensor::DType::kUInt8, spec.shape);
      if (!view.ok()) return view.status();
      std::vector<Pose> poses;
      for (int p = 0; p < players_; ++p) poses.push_back(world_->pose(p));
      RenderTopDown(
          world_->map(), world_->pickups(), poses,
          Frame{reinterpret_cast<std::uint8_t*>(*view->data()), nullptr, width_, height_});
      value.tensor = *std::move(view);
      return value;
    }
    default:
      // The frames are the plugin's, never asked of the host.
      return absl::OutOfRangeError(absl::StrCat("the maze does not serve observation ", index));
  }
}

void MazeHost::ListProperties(
    absl::FunctionRef<void(absl::string_view, const std::string&)> visit) const {
  visit("fps", absl::StrCat(fps_));
  visit("width", absl::StrCat(width_));
  visit("height", absl::StrCat(height_));
}

engine_plugin::HostTools* MazeHost::tools() {
  if (!tools_) tools_.emplace(*this, fps_);
  return &*tools_;
}

}  // namespace hosts::maze
