#include "hosts/maze/map_maker_module.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine_plugin/module_support.h"
#include "hosts/maze/spawn_entities.h"
#include "hosts/maze/text_map.h"
#include "lua_api/lua/call.h"
#include "lua_api/lua/lua_memory.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/work_meter.h"

namespace hosts::maze {
namespace {

using engine_plugin::CheckModuleSelf;
using engine_plugin::HostOf;
using lua_api::ArgumentError;
using lua_api::NResultsOr;

constexpr char kModule[] = "map_maker";
// The registry key of the map maker's generator.
char generator_key;

// A string field of the table at `table`, read raw; absent is "" unless
// `required`.
std::string ReadStringField(lua_State* L, int table, const char* key, const char* function,
                            bool required, std::string* value) {
  lua_api::PushRawField(L, table, key);
  std::string why;
  if (!lua_isnil(L, -1) || required) why = lua_api::ReadString(L, -1, value);
  lua_pop(L, 1);
  if (why.empty()) return {};
  return ArgumentError(function, 1, absl::StrCat(key, ": ", why));
}

// The origin of the maker's cell {i =, j =} (the table at 2), as DeepMind
// Lab writes it: game units, y counting rows from the bottom. Upvalue 1 is
// the map's row count. Sets *origin, or returns the argument error.
std::string ReadCellOrigin(lua_State* L, const char* function, std::string* origin) {
  if (!lua_istable(L, 2)) {
    return ArgumentError(function, 1, lua_api::Expected(L, 2, "table"));
  }
  double position[2];
  const char* keys[2] = {"i", "j"};
  for (int k = 0; k < 2; ++k) {
    lua_api::PushRawField(L, 2, keys[k]);
    std::string why = lua_api::ReadNumber(L, -1, &position[k]);
    lua_pop(L, 1);
    if (why.empty() && !std::isfinite(position[k])) why = "finite number expected";
    if (!why.empty()) return ArgumentError(function, 1, absl::StrCat(keys[k], ": ", why));
  }
  const double rows = lua_tonumber(L, lua_upvalueindex(1));
  char text[96];
  std::snprintf(text, sizeof text, "%.17g %.17g 0", (position[1] + 0.5) * kGameUnitsPerCell,
                (rows - position[0] - 0.5) * kGameUnitsPerCell);
  *origin = text;
  return {};
}

// [-0, +1, e] maker:makeEntity{i =, j =, classname =} and maker:makeSpawnPoint{i =, j =}:
// the entity as DeepMind Lab writes it into a .map file.
NResultsOr MakeEntityIn(lua_State* L, const char* function, bool spawn_point) {
  std::string origin;
  if (std::string e = ReadCellOrigin(L, function, &origin); !e.empty()) return e;
  SpawnEntity entity;
  entity.vars.emplace_back("classname", "info_player_start");
  if (!spawn_point) {
    if (std::string e =
            ReadStringField(L, 2, "classname", function, true, &entity.vars.front().second);
        !e.empty()) {
      return e;
    }
  }
  entity.vars.emplace_back("origin", origin);
  if (!spawn_point) {
    // attributes: the entity's other spawn variables, strings or numbers.
    lua_api::PushRawField(L, 2, "attributes");
    if (!lua_isnil(L, -1) && !lua_istable(L, -1)) {
      return ArgumentError(function, 1,
                           absl::StrCat("attributes: ", lua_api::Expected(L, -1, "table")));
    }
    if (lua_istable(L, -1)) {
      lua_pushnil(L);
      while (lua_next(L, -2) != 0) {
        if (lua_type(L, -2) != LUA_TSTRING ||
            (lua_type(L, -1) != LUA_TSTRING && lua_type(L, -1) != LUA_TNUMBER)) {
          return ArgumentError(function, 1, "attributes: string keys and string values expected");
        }
        std::string key = lua_tostring(L, -2);
        lua_pushvalue(L, -1);
        std::string value = lua_tostring(L, -1);
        lua_pop(L, 2);
        if (key.find('"') != std::string::npos || value.find('"') != std::string::npos) {
          return ArgumentError(function, 1, "attributes: '\"' cannot be written into a map");
        }
        if (key != "classname" && key != "origin") entity.vars.emplace_back(key, value);
      }
    }
    lua_settop(L, 2);
  }
  if (entity.class_name().find('"') != std::string::npos) {
    return ArgumentError(function, 1, "classname: '\"' cannot be written into a map");
  }
  const std::string text = EntityText(entity);
  // The text lands on the Lua heap, which refuses nothing inside C++.
  if (std::string e = lua_api::CheckLuaMemory(L, text.size(), function); !e.empty()) return e;
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

// [-0, +1, e] maker:makeDoor{i =, j =, isEastWest =} and maker:makeFenceDoor{...}: a
// door in cell (i, j), 'I' (isEastWest) or 'H', as DeepMind Lab's default
// handler makes for those characters. The maze draws both kinds alike.
NResultsOr MakeDoorIn(lua_State* L, const char* function) {
  std::string origin;
  if (std::string e = ReadCellOrigin(L, function, &origin); !e.empty()) return e;
  lua_api::PushRawField(L, 2, "isEastWest");
  const bool east_west = lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);
  SpawnEntity door;
  door.vars = {{"classname", "func_door"}, {"origin", origin}, {"angle", east_west ? "90" : "0"}};
  const std::string text = EntityText(door);
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

// [-0, +0, e] maker:addPlatform{...} and maker:addGlassColumn{...}: DeepMind Lab's
// raised floors, which a flat maze cannot have.
NResultsOr AddPlatform(lua_State*) {
  return std::string(
      "'addPlatform': platforms are not supported by the maze engine (its floor "
      "is flat, and the player cannot jump)");
}
// [-0, +0, e]
NResultsOr AddGlassColumn(lua_State*) {
  return std::string(
      "'addGlassColumn': platforms are not supported by the maze engine (its "
      "floor is flat, and the player cannot jump)");
}

NResultsOr MakeEntity(lua_State* L) { return MakeEntityIn(L, "makeEntity", false); }
NResultsOr MakeDoor(lua_State* L) { return MakeDoorIn(L, "makeDoor"); }
NResultsOr MakeFenceDoor(lua_State* L) { return MakeDoorIn(L, "makeFenceDoor"); }
NResultsOr MakeSpawnPoint(lua_State* L) { return MakeEntityIn(L, "makeSpawnPoint", true); }

// Places `entity` into `rows` (a spawn point, as 'P') or `entities` (the
// rest).
std::string PlaceEntity(SpawnEntity entity, std::vector<std::string>* rows,
                        std::vector<SpawnEntity>* entities) {
  const std::string* origin = entity.Find("origin");
  double x = 0, y = 0, z = 0;
  if (origin == nullptr || std::sscanf(origin->c_str(), "%lf %lf %lf", &x, &y, &z) != 3) {
    return absl::StrCat("entity '", entity.class_name(), "' has no origin 'x y z'");
  }
  const double row = static_cast<double>(rows->size()) - 1 - std::floor(y / kGameUnitsPerCell);
  const double col = std::floor(x / kGameUnitsPerCell);
  if (!(row >= 0 && row < static_cast<double>(rows->size()) && col >= 0 &&
        col < static_cast<double>((*rows)[static_cast<std::size_t>(row)].size()))) {
    return absl::StrCat("entity '", entity.class_name(), "' lies outside the map");
  }
  char& at = (*rows)[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)];
  if (at == '*') return absl::StrCat("entity '", entity.class_name(), "' lies inside a wall");
  entity.cell = {static_cast<int>(row), static_cast<int>(col)};
  if (entity.class_name() == "info_player_start") {
    at = 'P';
  } else if (entity.class_name() == "func_door") {
    // A door is a cell of the map: the map's own door entities come of it.
    const std::string* angle = entity.Find("angle");
    at = angle != nullptr && *angle == "90" ? 'I' : 'H';
  } else {
    entities->push_back(std::move(entity));
  }
  return {};
}

// What mapFromTextLevel's work costs, in Lua instructions' time (one is
// about 1.4 ns here), measured: a byte of the entity layer about 6 ns; a
// call of the level's callback about 50 ns besides the instructions it
// runs; a byte of entity text it returns about 10.5 ns to copy and parse.
constexpr std::int64_t kWorkPerLayerByte = 4;
constexpr std::int64_t kWorkPerCallback = 36;
constexpr std::int64_t kWorkPerEntityByte = 8;
// Parsed, entity text takes at most this many bytes per byte of text
// (a "k" "v" pair of 8 bytes becomes a vector slot of two strings).
constexpr std::size_t kParsedBytesPerTextByte = 24;

// The bytes an entity takes, as its map keeps it.
std::size_t EntityBytes(const SpawnEntity& entity) {
  std::size_t bytes = sizeof(SpawnEntity);
  for (const auto& [key, value] : entity.vars) bytes += key.size() + value.size() + 64;
  return bytes;
}

// "" if `units` of work are charged to the watchdog, else the error.
std::string ChargeWork(std::int64_t units) {
  absl::Status charged = tensor::ChargeWork(units);
  return charged.ok() ? std::string() : std::string(charged.message());
}

// Places the entities of `text` (made by a maker, or written as DeepMind
// Lab's custom_entities does) returned by the callback at `cell` into
// `rows` (spawn points as 'P', doors as 'I' or 'H') or `entities`, whose
// memory `kept` is charged with, before it is made.
std::string PlaceEntities(lua_State* L, absl::string_view text, GridCell cell,
                          std::vector<std::string>* rows, std::vector<SpawnEntity>* entities,
                          lua_api::TensorMemoryCharge* kept) {
  if (std::string e = ChargeWork(kWorkPerEntityByte * static_cast<std::int64_t>(text.size()));
      !e.empty()) {
    return e;
  }
  absl::StatusOr<lua_api::TensorMemoryCharge> parsing =
      lua_api::ChargeTensorMemory(L, text.size() * kParsedBytesPerTextByte);
  if (!parsing.ok()) {
    return absl::StrCat("the callback returned ", text.size(), " bytes of entities: ",
                        parsing.status().message());
  }
  absl::StatusOr<std::vector<SpawnEntity>> parsed = ParseEntitiesText(text);
  if (!parsed.ok()) return absl::StrCat("the callback returned ", parsed.status().message());
  std::size_t bytes = 0;
  for (const SpawnEntity& entity : *parsed) bytes += EntityBytes(entity) + 64;  // + an origin
  *parsing = lua_api::TensorMemoryCharge();
  if (absl::Status added = kept->Add(L, bytes); !added.ok()) {
    return absl::StrCat("the map's entities: ", added.message());
  }
  for (SpawnEntity& entity : *parsed) {
    // A brush entity (a trigger) has no origin: its brushes fill the cell.
    if (entity.Find("origin") == nullptr) {
      entity.vars.emplace_back("origin", CellOrigin(cell, static_cast<int>(rows->size())));
    }
    if (std::string e = PlaceEntity(std::move(entity), rows, entities); !e.empty()) return e;
  }
  return {};
}

// Runs callback (stack index `callback`) for cell (i, j) holding `c`,
// placing what it returns into `rows`. Sets *handled unless it returned nil.
std::string RunCallback(lua_State* L, int callback, int maker, int i, int j, char c,
                        std::vector<std::string>* rows, std::vector<SpawnEntity>* made,
                        lua_api::TensorMemoryCharge* kept, bool* handled) {
  if (std::string e = ChargeWork(kWorkPerCallback); !e.empty()) return e;
  const int base = lua_gettop(L);
  lua_pushvalue(L, callback);
  lua_pushinteger(L, i);
  lua_pushinteger(L, j);
  lua_pushlstring(L, &c, 1);
  lua_pushvalue(L, maker);
  NResultsOr called = lua_api::Call(L, 4, 1);
  if (!called.ok())
    return absl::StrCat("the callback failed at (", i, ", ", j, "): ", called.error());
  // Each string is placed where it lies, on the stack or in the list:
  // the list may hold one large string many times, and a copy of each
  // was uncharged memory.
  const int result = lua_gettop(L);
  std::string error;
  const auto place = [&](int index) {
    std::size_t length = 0;
    const char* text = lua_tolstring(L, index, &length);
    if (length == 0) return std::string();  // '' handles the cell with nothing
    return PlaceEntities(L, absl::string_view(text, length), {i, j}, rows, made, kept);
  };
  if (lua_isnil(L, result)) {
    *handled = false;
  } else if (lua_type(L, result) == LUA_TSTRING) {
    *handled = true;
    if (std::string e = place(result); !e.empty()) {
      lua_settop(L, base);
      return e;
    }
  } else if (lua_istable(L, result)) {
    *handled = true;
    const int count = static_cast<int>(lua_objlen(L, result));
    for (int k = 1; k <= count && error.empty(); ++k) {
      lua_rawgeti(L, result, k);
      if (lua_type(L, -1) == LUA_TSTRING) {
        if (std::string e = place(lua_gettop(L)); !e.empty()) {
          lua_settop(L, base);
          return e;
        }
      } else {
        error = absl::StrCat("entry ", k, " of its list is ", lua_api::TypeNameAt(L, -1));
      }
      lua_pop(L, 1);
    }
  } else {
    error = absl::StrCat("it returned ", lua_api::TypeNameAt(L, result));
  }
  lua_settop(L, base);
  if (!error.empty()) {
    return absl::StrCat("the callback at (", i, ", ", j, "): ", error,
                        "; a string, a list of strings or nil expected");
  }
  return {};
}

// [-0, +1, e]
NResultsOr MapFromTextLevel(lua_State* L) {
  constexpr char kName[] = "mapFromTextLevel";
  if (std::string e = CheckModuleSelf(L, kModule, kName); !e.empty()) return e;
  if (!lua_istable(L, 2)) return ArgumentError(kName, 1, lua_api::Expected(L, 2, "table"));
  std::string entity_layer, variations_layer, map_name = "luamap";
  if (std::string e = ReadStringField(L, 2, "entityLayer", kName, true, &entity_layer);
      !e.empty()) {
    return e;
  }
  if (std::string e = ReadStringField(L, 2, "variationsLayer", kName, false, &variations_layer);
      !e.empty()) {
    return e;
  }
  if (std::string e = ReadStringField(L, 2, "mapName", kName, false, &map_name); !e.empty()) {
    return e;
  }
  if (map_name.empty() || map_name.find('\n') != std::string::npos) {
    return ArgumentError(kName, 1, "mapName: a non-empty name without newlines expected");
  }
  lua_settop(L, 2);
  lua_api::PushRawField(L, 2, "callback");  // 3
  if (!lua_isnil(L, 3) && !lua_isfunction(L, 3)) {
    return ArgumentError(kName, 1, absl::StrCat("callback: ", lua_api::Expected(L, 3, "function")));
  }
  // The layer is split into rows, and copied once more for what is placed:
  // charged before (12 MB of newlines took 822 MB of uncharged rows).
  const std::size_t row_count = std::count(entity_layer.begin(), entity_layer.end(), '\n') + 1;
  if (std::string e = ChargeWork(kWorkPerLayerByte * static_cast<std::int64_t>(entity_layer.size()));
      !e.empty()) {
    return absl::StrCat("'", kModule, ":", kName, "': ", e);
  }
  absl::StatusOr<lua_api::TensorMemoryCharge> splitting = lua_api::ChargeTensorMemory(
      L, 2 * (row_count * sizeof(std::string) + entity_layer.size()));
  if (!splitting.ok()) {
    return absl::StrCat("'", kModule, ":", kName, "': map '", map_name, "': its ", row_count,
                        " rows: ", splitting.status().message());
  }
  std::vector<std::string> rows = absl::StrSplit(entity_layer, '\n');
  while (!rows.empty() && rows.back().empty()) rows.pop_back();
  // The maker handed to the callback: 4.
  lua_createtable(L, 0, 6);
  for (const auto& [name, function] :
       {std::pair{"makeEntity", &lua_api::Raising<&MakeEntity>},
        std::pair{"makeSpawnPoint", &lua_api::Raising<&MakeSpawnPoint>},
        std::pair{"makeDoor", &lua_api::Raising<&MakeDoor>},
        std::pair{"makeFenceDoor", &lua_api::Raising<&MakeFenceDoor>},
        std::pair{"addPlatform", &lua_api::Raising<&AddPlatform>},
        std::pair{"addGlassColumn", &lua_api::Raising<&AddGlassColumn>}}) {
    lua_pushnumber(L, static_cast<lua_Number>(rows.size()));
    lua_pushcclosure(L, function, 1);
    lua_setfield(L, -2, name);
  }
  // Entities are placed into a copy, so a callback's entity never changes
  // the characters later callbacks see.
  std::vector<std::string> placed = rows;
  std::vector<SpawnEntity> made;
  lua_api::TensorMemoryCharge kept;  // the entities made, then the map
  for (auto& row : placed) {
    for (char& c : row) c = c == '*' ? '*' : ' ';
  }
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    for (int j = 0; j < static_cast<int>(rows[i].size()); ++j) {
      const char c = rows[i][j];
      if (c == '*') continue;
      bool handled = false;
      if (!lua_isnil(L, 3)) {
        if (std::string e = RunCallback(L, 3, 4, i, j, c, &placed, &made, &kept, &handled);
            !e.empty()) {
          return absl::StrCat("'", kModule, ":", kName, "': ", e);
        }
      }
      // DeepMind Lab's default handler: spawn points and doors.
      if (!handled && (c == 'P' || c == 'I' || c == 'H')) placed[i][j] = c;
    }
  }
  MadeMap map;
  map.entity_layer = absl::StrJoin(placed, "\n") + "\n";
  // The rows go, and their charge with them.
  std::vector<std::string>().swap(rows);
  std::vector<std::string>().swap(placed);
  *splitting = lua_api::TensorMemoryCharge();
  map.entities = std::move(made);
  map.variations_layer = std::move(variations_layer);
  if (absl::StatusOr<TextMap> parsed = TextMap::Parse(map.entity_layer, map.variations_layer);
      !parsed.ok()) {
    return absl::StrCat("'", kModule, ":", kName, "': map '", map_name,
                        "': ", parsed.status().message());
  }
  if (absl::Status charged =
          kept.Add(L, map.entity_layer.size() + map.variations_layer.size());
      !charged.ok()) {
    return absl::StrCat("'", kModule, ":", kName, "': map '", map_name, "': ", charged.message());
  }
  map.charge = std::move(kept);
  HostOf<MadeMaps>(L)->Set(map_name, std::move(map));
  lua_pushlstring(L, map_name.data(), map_name.size());
  return 1;
}

// [-0, +1, e]
NResultsOr RandomGen(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "randomGen"); !e.empty()) return e;
  lua_pushlightuserdata(L, &generator_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  return 1;
}

constexpr lua_api::MethodEntry kFunctions[] = {
    {"mapFromTextLevel", &lua_api::Raising<&MapFromTextLevel>},
    {"randomGen", &lua_api::Raising<&RandomGen>},
};

// [-0, +1, e] The loader in package.preload: makes the generator
// (random.Generator(0)) that randomGen returns.
int Open(lua_State* L) {
  engine_plugin::StoreNewGenerator(L, &generator_key);
  engine_plugin::PushModuleTable(L, lua_touserdata(L, lua_upvalueindex(1)), kFunctions);
  return 1;
}

}  // namespace

void RegisterMapMakerModule(lua_State* L, MadeMaps* maps) {
  lua_api::SetPreload(L, "dmlab.system.map_maker", &Open, maps);
}

}  // namespace hosts::maze
