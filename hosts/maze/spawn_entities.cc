#include "hosts/maze/spawn_entities.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/read.h"

namespace hosts::maze {
namespace {

using engine_plugin::Level;

// DeepMind Lab's pickups.type values that the maze has.
constexpr int kRewardType = 9;
constexpr int kGoalType = 10;

struct PickupClass {
  PickupKind kind;
  double quantity;
  std::string model;  // empty for none
};

// Longer is not a model name (Quake's own limit is 64).
constexpr std::size_t kMaxModelLength = 256;
// A spawn variable's cost beside its key's and value's bytes: the pair of
// strings in the entity's vector.
constexpr std::size_t kBytesPerSpawnVar = 64;

std::string Describe(const SpawnEntity& entity) {
  const std::string* origin = entity.Find("origin");
  return absl::StrCat("entity '", entity.class_name(), "'",
                      origin ? absl::StrCat(" at '", *origin, "'") : std::string());
}

absl::Status EntityError(const SpawnEntity& entity, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(Describe(entity), ": ", why));
}

// [-0, +1, m] The entity's variables as a table of strings.
void PushSpawnVars(lua_State* L, const SpawnEntity& entity) {
  lua_createtable(L, 0, static_cast<int>(entity.vars.size()));
  for (const auto& [key, value] : entity.vars) {
    lua_pushlstring(L, key.data(), key.size());
    lua_pushlstring(L, value.data(), value.size());
    lua_rawset(L, -3);
  }
}

// The table at `index` as spawn variables: string keys, string or number
// values, with a string classname.
absl::Status ReadSpawnVars(lua_State* L, int index, SpawnEntity* entity,
                           lua_api::TensorMemoryCharge* charge) {
  std::vector<std::pair<std::string, std::string>> vars;
  std::optional<std::string> class_name;
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    // Copies, so that lua_tolstring never turns a key into a string
    // under lua_next.
    if (lua_type(L, -2) != LUA_TSTRING) {
      lua_pop(L, 2);
      return absl::InvalidArgumentError("spawn variables have string keys only");
    }
    std::string key = lua_tostring(L, -2);
    const int type = lua_type(L, -1);
    if (type != LUA_TSTRING && type != LUA_TNUMBER) {
      const std::string got = lua_api::TypeNameAt(L, -1);
      lua_pop(L, 2);
      return absl::InvalidArgumentError(
          absl::StrCat("spawn variable '", key, "' must be a string, not ", got));
    }
    lua_pushvalue(L, -1);
    std::size_t length = 0;
    const char* text = lua_tolstring(L, -1, &length);
    // Charged before the copy: one Lua string shared by a thousand
    // entities is a thousand copies (1 MiB each took 1005 MB).
    if (absl::Status charged = charge->Add(L, key.size() + length + kBytesPerSpawnVar);
        !charged.ok()) {
      lua_pop(L, 3);
      return charged;
    }
    std::string value(text, length);
    lua_pop(L, 2);
    if (key == "classname") {
      class_name = std::move(value);
    } else {
      vars.emplace_back(std::move(key), std::move(value));
    }
  }
  if (!class_name || class_name->empty()) {
    return absl::InvalidArgumentError("the spawn variables have no classname");
  }
  vars.emplace(vars.begin(), "classname", *std::move(class_name));
  entity->vars = std::move(vars);
  return absl::OkStatus();
}

// A number spawn variable, or `fallback` when absent.
absl::StatusOr<double> NumberVar(const SpawnEntity& entity, absl::string_view key,
                                 double fallback) {
  const std::string* text = entity.Find(key);
  if (text == nullptr) return fallback;
  double value = 0;
  if (!absl::SimpleAtod(*text, &value) || !std::isfinite(value)) {
    return EntityError(
        entity, absl::StrCat("spawn variable '", key, "' is '", *text, "', not a finite number"));
  }
  return value;
}

// An integer spawn variable (an id or flags, which DeepMind Lab reads as
// int), or `fallback` when absent.
absl::StatusOr<int> IntegerVar(const SpawnEntity& entity, absl::string_view key, int fallback) {
  absl::StatusOr<double> value = NumberVar(entity, key, fallback);
  if (!value.ok()) return value.status();
  if (*value != std::trunc(*value) || std::abs(*value) > 2147483647.0) {
    return EntityError(entity, absl::StrCat("spawn variable '", key, "' must be an integer"));
  }
  return static_cast<int>(*value);
}

absl::StatusOr<WorldPoint> OriginOf(const SpawnEntity& entity, const TextMap& map) {
  const std::string* origin = entity.Find("origin");
  double x = 0, y = 0, z = 0;
  char extra = 0;
  if (origin == nullptr ||
      std::sscanf(origin->c_str(), "%lf %lf %lf %c", &x, &y, &z, &extra) != 3 ||
      !std::isfinite(x) || !std::isfinite(y)) {
    return EntityError(entity, "an origin 'x y z' of three numbers expected");
  }
  const WorldPoint point{x / kGameUnitsPerCell, y / kGameUnitsPerCell};
  const GridCell cell = map.CellAt(point);
  if (cell.row < 0 || cell.row >= map.rows() || cell.col < 0 || cell.col >= map.cols()) {
    return EntityError(entity, "lies outside the map");
  }
  if (map.IsWall(cell.row, cell.col) && !map.IsDoor(cell.row, cell.col)) {
    return EntityError(entity, "lies inside a wall");
  }
  return point;
}

// The class of a pickup: the level's createPickup(className), else the
// maze's own.
absl::StatusOr<std::optional<PickupClass>> CreatePickup(Level& level,
                                                        const std::string& class_name) {
  std::optional<PickupClass> made;
  absl::StatusOr<bool> called = level.Call(
      "createPickup", 1,
      [&](lua_State* L) {
        lua_pushlstring(L, class_name.data(), class_name.size());
        return 1;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        if (!lua_istable(L, first)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "must return a pickup (a table) or nil, not ", lua_api::TypeNameAt(L, first)));
        }
        double quantity = 0, type = 0;
        for (auto [key, value] : {std::pair{"quantity", &quantity}, std::pair{"type", &type}}) {
          lua_api::PushRawField(L, first, key);
          std::string why = lua_api::ReadNumber(L, -1, value);
          lua_pop(L, 1);
          if (why.empty() && !std::isfinite(*value)) why = "finite number expected";
          if (!why.empty()) {
            return absl::InvalidArgumentError(absl::StrCat("returned a pickup for '", class_name,
                                                           "' whose ", key,
                                                           " is not a finite number (", why, ")"));
          }
        }
        if (type != kRewardType && type != kGoalType) {
          return absl::UnimplementedError(
              absl::StrCat("returned a pickup for '", class_name, "' of type ", type,
                           "; the maze has pickups.type.REWARD (9) and GOAL (10) only"));
        }
        std::string model;
        lua_api::PushRawField(L, first, "model");
        const int model_type = lua_type(L, -1);
        if (model_type == LUA_TSTRING) {
          std::size_t length = 0;
          const char* text = lua_tolstring(L, -1, &length);
          model.assign(text, length);
        }
        lua_pop(L, 1);
        if ((model_type != LUA_TSTRING && model_type != LUA_TNIL) ||
            model.size() > kMaxModelLength) {
          return absl::InvalidArgumentError(absl::StrCat("returned a pickup for '", class_name,
                                                         "' whose model is not a name of ",
                                                         "at most ", kMaxModelLength, " bytes"));
        }
        made = PickupClass{type == kGoalType ? PickupKind::kGoal : PickupKind::kReward, quantity,
                           std::move(model)};
        return absl::OkStatus();
      });
  if (!called.ok()) return called.status();
  if (made) return made;
  if (class_name == "apple_reward") return PickupClass{PickupKind::kReward, 1};
  if (class_name == "goal") return PickupClass{PickupKind::kGoal, 10};
  return std::nullopt;
}

absl::StatusOr<Pickup> MakePickup(const SpawnEntity& entity, const PickupClass& item,
                                  WorldPoint position) {
  Pickup pickup{0, item.kind, position, true};
  pickup.class_name = entity.class_name();
  pickup.model = item.model;
  absl::StatusOr<int> id = IntegerVar(entity, "id", 0);
  if (!id.ok()) return id.status();
  pickup.spawn_id = *id;
  absl::StatusOr<double> count = NumberVar(entity, "count", 0);
  if (!count.ok()) return count.status();
  // As DeepMind Lab: a nonzero count replaces the class's quantity.
  pickup.quantity = *count != 0 ? *count : item.quantity;
  absl::StatusOr<double> wait = NumberVar(entity, "wait", 0);
  if (!wait.ok()) return wait.status();
  pickup.wait = *wait;
  return pickup;
}

}  // namespace

const std::string* SpawnEntity::Find(absl::string_view key) const {
  for (const auto& [k, v] : vars) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string EntityText(const SpawnEntity& entity) {
  std::string text = "{\n";
  for (const auto& [key, value] : entity.vars)
    absl::StrAppend(&text, "\"", key, "\" \"", value, "\"\n");
  text += "}";
  return text;
}

absl::StatusOr<std::vector<SpawnEntity>> ParseEntitiesText(absl::string_view text) {
  auto malformed = [&] {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not entities as maker:makeEntity writes them ({\"key\" \"value\" ...})"));
  };
  std::vector<SpawnEntity> entities;
  std::vector<std::string> quoted;  // the current entity's, at depth 1
  int depth = 0;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '"') {
      const std::size_t end = text.find('"', at + 1);
      if (end == absl::string_view::npos || depth == 0) return malformed();
      if (depth == 1) quoted.emplace_back(text.substr(at + 1, end - at - 1));
      at = end;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (depth == 0) return malformed();
      if (--depth > 0) continue;  // the end of a brush
      if (quoted.empty() || quoted.size() % 2 != 0) return malformed();
      SpawnEntity entity;
      std::optional<std::string> class_name;
      for (std::size_t i = 0; i < quoted.size(); i += 2) {
        if (quoted[i] == "classname") {
          class_name = quoted[i + 1];
        } else {
          entity.vars.emplace_back(quoted[i], quoted[i + 1]);
        }
      }
      if (!class_name || class_name->empty()) return malformed();
      entity.vars.emplace(entity.vars.begin(), "classname", *std::move(class_name));
      entities.push_back(std::move(entity));
      quoted.clear();
    }
  }
  if (depth != 0 || entities.empty()) return malformed();
  return entities;
}

std::string CellOrigin(GridCell cell, int rows) {
  return absl::StrCat((cell.col + 0.5) * kGameUnitsPerCell, " ",
                      (rows - cell.row - 0.5) * kGameUnitsPerCell, " 0");
}

std::vector<SpawnEntity> EntitiesOfMap(const TextMap& map) {
  std::vector<SpawnEntity> entities;
  for (const GridCell& spawn : map.spawns()) {
    entities.push_back(
        {{{"classname", "info_player_start"}, {"origin", CellOrigin(spawn, map.rows())}}, spawn});
  }
  for (const MapPickup& pickup : map.pickups()) {
    entities.push_back({{{"classname", pickup.kind == PickupKind::kGoal ? "goal" : "apple_reward"},
                         {"origin", CellOrigin(pickup.cell, map.rows())}},
                        pickup.cell});
  }
  for (const MapDoor& door : map.doors()) {
    const std::string name =
        absl::StrCat("door_", door.cell.col, "_", map.rows() - 1 - door.cell.row);
    entities.push_back({{{"classname", "func_door"},
                         {"targetname", name},
                         {"angle", door.orientation == 'I' ? "90" : "0"}},
                        door.cell});
    for (int side = 0; side < 2; ++side) {
      entities.push_back(
          {{{"classname", "trigger_multiple"}, {"target", name}, {"wait", "1"}}, door.cell});
    }
  }
  return entities;
}

absl::Status UpdateSpawnVars(Level& level, std::vector<SpawnEntity>* entities,
                             lua_api::TensorMemoryCharge* charge) {
  std::vector<SpawnEntity> kept;
  for (SpawnEntity& entity : *entities) {
    bool keep = true;
    absl::StatusOr<bool> called = level.Call(
        "updateSpawnVars", 1,
        [&](lua_State* L) {
          PushSpawnVars(L, entity);
          return 1;
        },
        [&](lua_State* L, int first) -> absl::Status {
          if (lua_isnil(L, first)) {
            keep = false;
            return absl::OkStatus();
          }
          if (!lua_istable(L, first)) {
            return absl::InvalidArgumentError(
                absl::StrCat("must return the spawn variables (a table) or nil, not ",
                             lua_api::TypeNameAt(L, first)));
          }
          absl::Status read = ReadSpawnVars(L, first, &entity, charge);
          if (!read.ok()) return EntityError(entity, read.message());
          return absl::OkStatus();
        });
    if (!called.ok()) return called.status();
    if (!*called) return absl::OkStatus();  // no updateSpawnVars
    if (keep) kept.push_back(std::move(entity));
  }
  *entities = std::move(kept);
  return absl::OkStatus();
}

absl::StatusOr<PlacedEntities> PlaceEntities(Level& level, const std::vector<SpawnEntity>& entities,
                                             TextMap* map) {
  PlacedEntities placed;
  // Doors by name; a door not named by a kept func_door is gone (open).
  std::map<std::string, const SpawnEntity*> doors;
  std::vector<const SpawnEntity*> triggers;
  std::map<std::string, int> triggers_of;  // by target, as placed
  std::map<std::string, std::optional<PickupClass>> classes;
  std::set<std::pair<int, int>> door_cells;
  for (const MapDoor& door : map->doors()) door_cells.insert({door.cell.row, door.cell.col});
  std::set<std::pair<int, int>> shut;
  std::vector<std::pair<GridCell, std::string>> teleports;            // trigger cell, target
  std::map<std::string, std::pair<WorldPoint, double>> destinations;  // by name: where, yaw
  for (const SpawnEntity& entity : entities) {
    const std::string& class_name = entity.class_name();
    if (class_name == "func_door") {
      if (!door_cells.count({entity.cell.row, entity.cell.col})) {
        return EntityError(entity, "the maze's doors come from 'I' and 'H' cells only");
      }
      absl::StatusOr<int> flags = IntegerVar(entity, "spawnflags", 0);
      if (!flags.ok()) return flags.status();
      const std::string* name = entity.Find("targetname");
      // Bit 1 is Quake III's START_OPEN.
      if ((*flags & 1) == 0) {
        if (name != nullptr) doors[*name] = &entity;
        shut.insert({entity.cell.row, entity.cell.col});
      }
      continue;
    }
    if (class_name == "trigger_multiple") {
      triggers.push_back(&entity);
      continue;
    }
    if (class_name == "misc_model") continue;  // decoration, not drawn
    absl::StatusOr<WorldPoint> origin = OriginOf(entity, *map);
    if (!origin.ok()) return origin.status();
    if (class_name == "info_player_start") {
      placed.spawns.push_back(*origin);
      continue;
    }
    if (class_name == "trigger_teleport") {
      const std::string* target = entity.Find("target");
      if (target == nullptr) return EntityError(entity, "a trigger_teleport needs a target");
      teleports.push_back({map->CellAt(*origin), *target});
      continue;
    }
    if (class_name == "misc_teleporter_dest") {
      const std::string* name = entity.Find("targetname");
      if (name == nullptr) return EntityError(entity, "a misc_teleporter_dest needs a targetname");
      absl::StatusOr<double> angle = NumberVar(entity, "angle", 0);
      if (!angle.ok()) return angle.status();
      destinations[*name] = {*origin, *angle};
      continue;
    }
    auto [it, fresh] = classes.try_emplace(class_name);
    if (fresh) {
      absl::StatusOr<std::optional<PickupClass>> made = CreatePickup(level, class_name);
      if (!made.ok()) return made.status();
      it->second = *made;
    }
    if (!it->second) {
      return absl::UnimplementedError(absl::StrCat(
          Describe(entity),
          ": not a class the maze has (info_player_start, func_door, trigger_multiple, "
          "apple_reward, goal), and the level's createPickup did not describe it"));
    }
    absl::StatusOr<Pickup> pickup = MakePickup(entity, *it->second, *origin);
    if (!pickup.ok()) return pickup.status();
    placed.pickups.push_back(*std::move(pickup));
  }
  // A shut door with a trigger opens when the trigger fires (the host's
  // business); one without stays shut for good.
  for (const SpawnEntity* trigger : triggers) {
    const std::string* target = trigger->Find("target");
    auto door = target == nullptr ? doors.end() : doors.find(*target);
    if (door == doors.end()) continue;  // its door is open, or gone
    absl::StatusOr<int> id = IntegerVar(*trigger, "id", 0);
    if (!id.ok()) return id.status();
    // Quake III's trigger_multiple fires at most every `wait` seconds.
    absl::StatusOr<double> wait = NumberVar(*trigger, "wait", 0.5);
    if (!wait.ok()) return wait.status();
    absl::StatusOr<double> door_wait = NumberVar(*door->second, "wait", 2);
    if (!door_wait.ok()) return door_wait.status();
    // A door's triggers come in pairs, west or south first (EntitiesOfMap).
    const std::string* angle = door->second->Find("angle");
    placed.triggers.push_back({door->second->cell, angle != nullptr && *angle == "90",
                               triggers_of[*target]++ % 2, *target, *id, std::max(*wait, 0.0),
                               *door_wait});
  }
  for (const auto& [cell, target] : teleports) {
    auto destination = destinations.find(target);
    if (destination == destinations.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the trigger_teleport at row ", cell.row + 1, ", column ", cell.col + 1,
                       " targets '", target, "', which no misc_teleporter_dest is named"));
    }
    placed.teleporters.push_back({cell, destination->second.first, destination->second.second});
  }
  for (const MapDoor& door : map->doors()) {
    if (!shut.count({door.cell.row, door.cell.col})) map->OpenDoor(door.cell);
  }
  if (placed.spawns.empty()) {
    return absl::InvalidArgumentError("no spawn point (info_player_start) is left in the map");
  }
  return placed;
}

}  // namespace hosts::maze
