#include "hosts/maze/maze_generation_module.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "hosts/maze/maze_generation.h"
#include "hosts/maze/text_map.h"
#include "lua_api/lua/call.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/push.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/random.h"
#include "tensor/work_meter.h"

namespace hosts::maze {
namespace {

using lua_api::ArgumentError;
using lua_api::Expected;
using lua_api::NResultsOr;
using Maze = lua_api::Class<MapLayers>;

// Charges `units` of work, one per cell or character a function visits,
// to the watchdog (tensor/work_meter.h): a loop of calls that each visit a
// million cells is bounded like any other work.
std::string Charge(const char* name, std::int64_t units) {
  absl::Status charged = tensor::ChargeWork(units);
  if (charged.ok()) return {};
  return absl::StrCat("'", name, "': ", charged.message());
}

// ---- The module's functions: an options table as argument #1. ----

// The stack index of the options table. The functions take it as
// argument 1 when called with '.' (DeepMind Lab's way), and skip the
// module (upvalue 1) when called with ':'.
int OptionsIndex(lua_State* L) { return lua_rawequal(L, 1, lua_upvalueindex(1)) ? 2 : 1; }

// "" if the table at `index` has only string keys among `keys`.
std::string CheckKeys(lua_State* L, int index, const char* function,
                      std::initializer_list<absl::string_view> keys) {
  if (!lua_istable(L, index)) return ArgumentError(function, 1, Expected(L, index, "table"));
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    std::string why;
    if (lua_type(L, -2) != LUA_TSTRING) {
      why = absl::StrCat("unexpected key of type ", luaL_typename(L, -2));
    } else if (std::find(keys.begin(), keys.end(), lua_tostring(L, -2)) == keys.end()) {
      why = absl::StrCat("unknown option '", lua_tostring(L, -2), "'");
    }
    lua_pop(L, 1);
    if (!why.empty()) {
      lua_pop(L, 1);
      return ArgumentError(function, 1, why);
    }
  }
  return {};
}

bool HasField(lua_State* L, int index, const char* key) {
  lua_api::PushRawField(L, index, key);
  const bool has = !lua_isnil(L, -1);
  lua_pop(L, 1);
  return has;
}

// Reads options[key] with `read` (a lua_api::Read* or alike) into *value;
// a nil leaves *value as it is if `optional`. "" or the argument error
// naming the key.
template <typename T, typename Read>
std::string ReadField(lua_State* L, int index, const char* function, const char* key, Read read,
                      T* value, bool optional = true) {
  lua_api::PushRawField(L, index, key);
  std::string why = optional && lua_isnil(L, -1) ? std::string() : read(L, -1, value);
  lua_pop(L, 1);
  return why.empty() ? why : ArgumentError(function, 1, absl::StrCat(key, ": ", why));
}

std::string ReadInt(lua_State* L, int index, int* value) {
  std::int64_t wide;
  if (std::string why = lua_api::ReadInteger(L, index, &wide); !why.empty()) return why;
  if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
    return Expected(L, index, "32-bit integer");
  }
  *value = static_cast<int>(wide);
  return {};
}

std::string ReadSeed(lua_State* L, int index, std::uint64_t* value) {
  std::int64_t seed;
  if (std::string why = lua_api::ReadInteger(L, index, &seed); !why.empty()) return why;
  *value = static_cast<std::uint64_t>(seed);  // negative seeds wrap, as random:seed does
  return {};
}

std::string ReadBool(lua_State* L, int index, bool* value) {
  if (lua_type(L, index) != LUA_TBOOLEAN) return Expected(L, index, "boolean");
  *value = lua_toboolean(L, index);
  return {};
}

// Reads options.random, a generator of dmlab.system.random (the level's,
// advanced as DeepMind Lab advances it), or else options.seed, which seeds
// *seeded: *random is the one to draw from.
std::string ReadGenerator(lua_State* L, int index, const char* function,
                          lua_api::LuaRandom* seeded, lua_api::LuaRandom** random) {
  lua_api::PushRawField(L, index, "random");
  // (The options table keeps the generator alive.)
  *random = lua_isnil(L, -1) ? nullptr : lua_api::LuaRandom::Read(L, -1);
  std::string why = lua_isnil(L, -1) || *random != nullptr
                        ? std::string()
                        : ArgumentError(function, 1,
                                        absl::StrCat("random: ", Expected(L, -1,
                                                                          lua_api::LuaRandom::kTypeName)));
  lua_pop(L, 1);
  if (!why.empty() || *random != nullptr) return why;
  if (!HasField(L, index, "seed")) {
    return ArgumentError(function, 1, "random (a generator of dmlab.system.random) or seed expected");
  }
  std::uint64_t seed;
  if (std::string e = ReadField(L, index, function, "seed", ReadSeed, &seed); !e.empty()) return e;
  seeded->Seed(lua_api::MixSeed(L, seed));  // DeepMind Lab's mixerSeed
  *random = seeded;
  return {};
}

// [-0, +1, e] maze_generation.mazeGeneration{entity = text [, variations = text]}
//             maze_generation.mazeGeneration{height = h, width = w}
NResultsOr MazeGeneration(lua_State* L) {
  constexpr const char* kName = "mazeGeneration";
  const int index = OptionsIndex(L);
  if (std::string e = CheckKeys(L, index, kName, {"entity", "variations", "height", "width"});
      !e.empty()) {
    return e;
  }
  const bool from_text = HasField(L, index, "entity");
  const bool from_size = HasField(L, index, "height") || HasField(L, index, "width");
  if (from_text == from_size) {
    return ArgumentError(kName, 1,
                         from_text ? "give either entity or height and width, not both"
                                   : "entity, or height and width, expected");
  }
  absl::StatusOr<MapLayers> maze;
  if (from_text) {
    std::string entity, variations;
    if (std::string e = ReadField(L, index, kName, "entity", lua_api::ReadString, &entity);
        !e.empty()) {
      return e;
    }
    if (std::string e = ReadField(L, index, kName, "variations", lua_api::ReadString, &variations);
        !e.empty()) {
      return e;
    }
    if (std::string e = Charge(kName, static_cast<std::int64_t>(entity.size() + variations.size()));
        !e.empty()) {
      return e;
    }
    maze = MapLayers::Parse(entity, variations);
  } else {
    if (HasField(L, index, "variations")) {
      return ArgumentError(kName, 1, "variations needs entity");
    }
    int height, width;
    if (std::string e = ReadField(L, index, kName, "height", ReadInt, &height, false); !e.empty()) {
      return e;
    }
    if (std::string e = ReadField(L, index, kName, "width", ReadInt, &width, false); !e.empty()) {
      return e;
    }
    if (std::string e = Charge(kName, std::int64_t{std::max(height, 0)} * std::max(width, 0));
        !e.empty()) {
      return e;
    }
    maze = MapLayers::Walls(height, width);
  }
  if (!maze.ok()) return ArgumentError(kName, 1, maze.status().message());
  Maze::CreateObject(L, kMazeTypeName, *std::move(maze));
  return 1;
}

// [-0, +1, e] maze_generation.randomMazeGeneration{random = gen | seed = n,
// height =, width =, ...}: DeepMind Lab's keys (maze_generation.h), and
// apples, goal and spawns.
NResultsOr RandomMazeGeneration(lua_State* L) {
  constexpr const char* kName = "randomMazeGeneration";
  const int index = OptionsIndex(L);
  if (std::string e = CheckKeys(
          L, index, kName,
          {"random", "seed", "height", "width", "maxRooms", "roomMinSize", "roomMaxSize",
           "retryCount", "extraConnectionProbability", "maxVariations", "hasDoors", "spawn",
           "roomSpawnCount", "object", "roomObjectCount", "apples", "goal", "spawns", "simplify"});
      !e.empty()) {
    return e;
  }
  MazeOptions options;
  for (const auto& [key, field] :
       {std::pair{"height", &options.height}, std::pair{"width", &options.width},
        std::pair{"maxRooms", &options.max_rooms}, std::pair{"roomMinSize", &options.room_min_size},
        std::pair{"roomMaxSize", &options.room_max_size},
        std::pair{"retryCount", &options.retry_count},
        std::pair{"maxVariations", &options.max_variations},
        std::pair{"roomSpawnCount", &options.room_spawn_count},
        std::pair{"roomObjectCount", &options.room_object_count},
        std::pair{"apples", &options.apples}, std::pair{"spawns", &options.spawns}}) {
    if (std::string e = ReadField(L, index, kName, key, ReadInt, field); !e.empty()) return e;
  }
  for (const auto& [key, field] :
       {std::pair{"spawn", &options.spawn}, std::pair{"object", &options.object}}) {
    std::string character(1, *field);
    if (std::string e = ReadField(L, index, kName, key, lua_api::ReadString, &character);
        !e.empty()) {
      return e;
    }
    if (character.size() != 1) {
      return ArgumentError(kName, 1,
                           absl::StrCat(key, ": one character expected, got '", character, "'"));
    }
    *field = character[0];
  }
  for (const auto& [key, field] :
       {std::pair{"hasDoors", &options.has_doors}, std::pair{"simplify", &options.simplify},
        std::pair{"goal", &options.goal}}) {
    if (std::string e = ReadField(L, index, kName, key, ReadBool, field); !e.empty()) return e;
  }
  if (std::string e = ReadField(L, index, kName, "extraConnectionProbability", lua_api::ReadNumber,
                                &options.extra_connection_probability);
      !e.empty()) {
    return e;
  }
  lua_api::LuaRandom seeded;
  lua_api::LuaRandom* random;
  if (std::string e = ReadGenerator(L, index, kName, &seeded, &random); !e.empty()) return e;
  if (absl::Status status = ValidateMazeOptions(options, OptionNames::kLua); !status.ok()) {
    return ArgumentError(kName, 1, status.message());
  }
  absl::StatusOr<MapLayers> maze = GenerateMaze(options, *random);
  if (!maze.ok()) return absl::StrCat("'", kName, "': ", maze.status().message());
  Maze::CreateObject(L, kMazeTypeName, *std::move(maze));
  return 1;
}

// ---- Maze methods. Stack index 1 is self, so argument #k is index k + 1. ----

// Reads arguments #1 and #2, a 1-based row and column inside `maze`, as
// 0-based *row and *col.
std::string ReadCell(const MapLayers& maze, lua_State* L, const char* method, int* row, int* col) {
  const struct {
    const char* what;
    int limit;
    int* value;
  } coordinates[] = {{"row", maze.rows(), row}, {"column", maze.cols(), col}};
  for (int argument = 1; argument <= 2; ++argument) {
    const auto& [what, limit, value] = coordinates[argument - 1];
    std::int64_t one_based;
    if (std::string why = lua_api::ReadInteger(L, argument + 1, &one_based); !why.empty()) {
      return ArgumentError(method, argument, why);
    }
    if (one_based < 1 || one_based > limit) {
      return ArgumentError(method, argument,
                           absl::StrCat(what, " ", one_based, " is outside [1, ", limit, "]"));
    }
    *value = static_cast<int>(one_based - 1);
  }
  return {};
}

// Reads argument #3, a one-character string.
std::string ReadCharacter(lua_State* L, const char* method, char* c) {
  std::string text;
  if (std::string why = lua_api::ReadString(L, 4, &text); !why.empty()) {
    return ArgumentError(method, 3, why);
  }
  if (text.size() != 1) {
    return ArgumentError(
        method, 3, absl::StrCat("one character expected, got a string of length ", text.size()));
  }
  *c = text[0];
  return {};
}

// [-0, +1, -] maze:entityLayer()
NResultsOr EntityLayer(MapLayers& maze, lua_State* L) {
  if (std::string e = Charge("entityLayer", std::int64_t{maze.rows()} * maze.cols()); !e.empty()) {
    return e;
  }
  lua_api::Push(L, maze.EntityLayer());
  return 1;
}

// [-0, +1, -] maze:variationsLayer()
NResultsOr VariationsLayer(MapLayers& maze, lua_State* L) {
  if (std::string e = Charge("variationsLayer", std::int64_t{maze.rows()} * maze.cols());
      !e.empty()) {
    return e;
  }
  lua_api::Push(L, maze.VariationsLayer());
  return 1;
}

// [-0, +2, -] maze:size() -> height, width
NResultsOr Size(MapLayers& maze, lua_State* L) {
  lua_api::Push(L, maze.rows());
  lua_api::Push(L, maze.cols());
  return 2;
}

// [-0, +2, e] maze:toWorldPos(row, col) -> x, y: the centre of the 1-based
// cell in game units, y counting rows from the bottom, as DeepMind Lab.
NResultsOr ToWorldPos(MapLayers& maze, lua_State* L) {
  std::int64_t cell[2];
  for (int argument = 1; argument <= 2; ++argument) {
    if (std::string why = lua_api::ReadInteger(L, argument + 1, &cell[argument - 1]);
        !why.empty()) {
      return ArgumentError("toWorldPos", argument, why);
    }
  }
  lua_pushnumber(L, (static_cast<double>(cell[1]) - 1) * kGameUnitsPerCell + kGameUnitsPerCell / 2);
  lua_pushnumber(
      L, (maze.rows() - static_cast<double>(cell[0])) * kGameUnitsPerCell + kGameUnitsPerCell / 2);
  return 2;
}

// [-0, +2, e] maze:fromWorldPos(x, y) -> row, col: the 1-based cell holding
// the point (which may lie outside the maze).
NResultsOr FromWorldPos(MapLayers& maze, lua_State* L) {
  double point[2];
  for (int argument = 1; argument <= 2; ++argument) {
    std::string why = lua_api::ReadNumber(L, argument + 1, &point[argument - 1]);
    if (why.empty() && !(std::abs(point[argument - 1]) < 1e15)) why = "finite number expected";
    if (!why.empty()) return ArgumentError("fromWorldPos", argument, why);
  }
  lua_pushnumber(L, maze.rows() - std::floor(point[1] / kGameUnitsPerCell));
  lua_pushnumber(L, std::floor(point[0] / kGameUnitsPerCell + 1));
  return 2;
}

// [-0, +0, e] maze:visitFill{cell = {row, col}, func = f[, wall = '*']}:
// calls f(row, col, distance) for each cell reachable from `cell` through
// the four neighbours without crossing an entity of `wall`, nearest first
// (1-based, the start at distance 0), as DeepMind Lab.
// The cell {row, col} (1-based, inside the maze) in field `key` of the
// options table at 2, as 0-based; or the argument error of `function`.
std::string ReadCellField(MapLayers& maze, lua_State* L, const char* function, const char* key,
                          int cell[2]) {
  lua_api::PushRawField(L, 2, key);
  std::string why = lua_istable(L, -1) ? "" : Expected(L, -1, "{row, col}");
  for (int k = 0; k < 2 && why.empty(); ++k) {
    std::int64_t value = 0;
    lua_rawgeti(L, -1, k + 1);
    why = lua_api::ReadInteger(L, -1, &value);
    lua_pop(L, 1);
    const int limit = k == 0 ? maze.rows() : maze.cols();
    if (why.empty() && (value < 1 || value > limit)) {
      why = absl::StrCat(k == 0 ? "row " : "column ", value, " is outside [1, ", limit, "]");
    }
    cell[k] = static_cast<int>(value - 1);
  }
  lua_pop(L, 1);
  if (!why.empty()) return ArgumentError(function, 1, absl::StrCat(key, ": ", why));
  return {};
}

// The set of characters a walk may not cross, one bit per byte value:
// testing a cell is one lookup however long the `wall` string is (a find
// in a 1 MiB string per cell ran for 20 s).
using WallSet = std::bitset<256>;

// The options' `wall` characters (default "*") and `func`, pushed: the
// function is then on top.
std::string ReadWallsAndFunc(lua_State* L, const char* function, WallSet* walls) {
  std::string characters = "*";
  lua_api::PushRawField(L, 2, "wall");
  if (!lua_isnil(L, -1)) {
    if (std::string why = lua_api::ReadString(L, -1, &characters); !why.empty()) {
      return ArgumentError(function, 1, absl::StrCat("wall: ", why));
    }
  }
  lua_pop(L, 1);
  if (std::string e = Charge(function, static_cast<std::int64_t>(characters.size()));
      !e.empty()) {
    return e;
  }
  walls->reset();
  for (const char c : characters) walls->set(static_cast<unsigned char>(c));
  lua_api::PushRawField(L, 2, "func");
  if (!lua_isfunction(L, -1)) {
    return ArgumentError(function, 1, absl::StrCat("func: ", Expected(L, -1, "function")));
  }
  return {};
}

constexpr std::pair<int, int> kNeighbours[] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

// A cell a walk visits calls the level's func from C++, about 53 ns here
// besides the instructions func runs (which the watchdog counts itself).
constexpr std::int64_t kWorkPerVisitedCell = 36;

// [-0, +0, e] maze:visitFill{cell = {row, col}, func = f[, wall = '*']}
NResultsOr VisitFill(MapLayers& maze, lua_State* L) {
  constexpr char kName[] = "visitFill";
  if (!lua_istable(L, 2)) return ArgumentError(kName, 1, Expected(L, 2, "table"));
  lua_settop(L, 2);
  int start[2];
  if (std::string e = ReadCellField(maze, L, kName, "cell", start); !e.empty()) return e;
  WallSet walls;
  if (std::string e = ReadWallsAndFunc(L, kName, &walls); !e.empty()) return e;
  const int func = lua_gettop(L);
  if (std::string e = Charge(kName, kWorkPerVisitedCell * maze.rows() * maze.cols()); !e.empty()) {
    return e;
  }
  const auto blocked = [&](int row, int col) {
    return walls.test(static_cast<unsigned char>(maze.Entity(row, col)));
  };
  if (blocked(start[0], start[1])) return 0;
  std::vector<int> distance(static_cast<std::size_t>(maze.rows()) * maze.cols(), -1);
  std::vector<std::pair<int, int>> queue = {{start[0], start[1]}};
  distance[start[0] * maze.cols() + start[1]] = 0;
  for (std::size_t next = 0; next < queue.size(); ++next) {
    const auto [row, col] = queue[next];
    const int d = distance[row * maze.cols() + col];
    lua_pushvalue(L, func);
    lua_pushinteger(L, row + 1);
    lua_pushinteger(L, col + 1);
    lua_pushinteger(L, d);
    if (NResultsOr called = lua_api::Call(L, 3, 0); !called.ok()) {
      return absl::StrCat("'", kName, "': func failed at (", row + 1, ", ", col + 1,
                          "): ", called.error());
    }
    for (const auto& [dr, dc] : kNeighbours) {
      const int r = row + dr, c = col + dc;
      if (r < 0 || r >= maze.rows() || c < 0 || c >= maze.cols()) continue;
      int& seen = distance[r * maze.cols() + c];
      if (seen >= 0 || blocked(r, c)) continue;
      seen = d + 1;
      queue.push_back({r, c});
    }
  }
  return 0;
}

// [-0, +1, e] maze:visitRandomPath{random = gen | seed = n, from = {row,
// col}, to = {row, col}, func = f[, wall = '*']}: a random path from
// `from` to `to` that crosses no `wall` character (DeepMind Lab's random
// depth-first walk, the same path for the same generator as there),
// f(row, col) for each of its cells in order; returns whether there is
// one.
NResultsOr VisitRandomPath(MapLayers& maze, lua_State* L) {
  constexpr char kName[] = "visitRandomPath";
  if (!lua_istable(L, 2)) return ArgumentError(kName, 1, Expected(L, 2, "table"));
  lua_settop(L, 2);
  lua_api::LuaRandom seeded;
  lua_api::LuaRandom* random;
  if (std::string e = ReadGenerator(L, 2, kName, &seeded, &random); !e.empty()) return e;
  int from[2], to[2];
  if (std::string e = ReadCellField(maze, L, kName, "from", from); !e.empty()) return e;
  if (std::string e = ReadCellField(maze, L, kName, "to", to); !e.empty()) return e;
  WallSet walls;
  if (std::string e = ReadWallsAndFunc(L, kName, &walls); !e.empty()) return e;
  const int func = lua_gettop(L);
  if (std::string e = Charge(kName, kWorkPerVisitedCell * maze.rows() * maze.cols()); !e.empty()) {
    return e;
  }
  // DeepMind Lab's walk (its FindRandomPath), so that a seed gives the
  // path it gives there: depth first from `from`, stepping to a neighbour
  // drawn uniformly (libstdc++'s uniform_int_distribution, as LuaRandom
  // draws) among those not yet visited and not walls, in the order down,
  // up, right, left, and straight to `to` as soon as it is a neighbour;
  // back one cell where none is left.
  const auto open = [&](int row, int col) {
    return row >= 0 && row < maze.rows() && col >= 0 && col < maze.cols() &&
           !walls.test(static_cast<unsigned char>(maze.Entity(row, col)));
  };
  constexpr std::pair<int, int> kPathSteps[] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  std::vector<char> seen(static_cast<std::size_t>(maze.rows()) * maze.cols(), 0);
  std::vector<std::pair<int, int>> path = {{from[0], from[1]}};
  seen[from[0] * maze.cols() + from[1]] = 1;
  while (!path.empty() && path.back() != std::pair{to[0], to[1]}) {
    const auto [row, col] = path.back();
    std::pair<int, int> candidates[4];
    int count = 0;
    bool reached = false;
    for (const auto& [dr, dc] : kPathSteps) {
      const int r = row + dr, c = col + dc;
      if (r == to[0] && c == to[1]) {
        reached = true;
        break;
      }
      if (open(r, c) && !seen[r * maze.cols() + c]) candidates[count++] = {r, c};
    }
    if (reached) {
      path.push_back({to[0], to[1]});
    } else if (count == 0) {
      path.pop_back();
    } else {
      const auto next = candidates[random->UniformInt(0, count - 1)];
      seen[next.first * maze.cols() + next.second] = 1;
      path.push_back(next);
    }
  }
  for (const auto& [row, col] : path) {
    lua_pushvalue(L, func);
    lua_pushinteger(L, row + 1);
    lua_pushinteger(L, col + 1);
    if (NResultsOr called = lua_api::Call(L, 2, 0); !called.ok()) {
      return absl::StrCat("'", kName, "': func failed at (", row + 1, ", ", col + 1,
                          "): ", called.error());
    }
  }
  lua_pushboolean(L, !path.empty());
  return 1;
}

// [-0, +1, e] maze:getEntityCell(row, col) and maze:getVariationsCell(row, col)
template <char (MapLayers::*Get)(int, int) const>
NResultsOr GetCell(MapLayers& maze, lua_State* L) {
  const char* method = Get == &MapLayers::Entity ? "getEntityCell" : "getVariationsCell";
  int row, col;
  if (std::string e = ReadCell(maze, L, method, &row, &col); !e.empty()) return e;
  const char c = (maze.*Get)(row, col);
  lua_pushlstring(L, &c, 1);
  return 1;
}

// [-0, +0, e] maze:setEntityCell(row, col, c) and maze:setVariationsCell(row, col, c)
template <absl::Status (MapLayers::*Set)(int, int, char)>
NResultsOr SetCell(MapLayers& maze, lua_State* L) {
  const char* method = Set == &MapLayers::SetEntity ? "setEntityCell" : "setVariationsCell";
  int row, col;
  char c;
  if (std::string e = ReadCell(maze, L, method, &row, &col); !e.empty()) return e;
  if (std::string e = ReadCharacter(L, method, &c); !e.empty()) return e;
  if (absl::Status status = (maze.*Set)(row, col, c); !status.ok()) {
    return ArgumentError(method, 3, status.message());
  }
  return 0;
}

// [-0, +1, m] tostring(maze)
NResultsOr ToString(MapLayers& maze, lua_State* L) {
  lua_api::Push(L, absl::StrCat(kMazeTypeName, " (", maze.rows(), " x ", maze.cols(), ")"));
  return 1;
}

// [-0, +1, m] The module table; registers the maze metatable first.
int OpenModule(lua_State* L) {
  Maze::Register(L, kMazeTypeName,
                 {{"entityLayer", &Maze::Member<&EntityLayer>},
                  {"variationsLayer", &Maze::Member<&VariationsLayer>},
                  {"size", &Maze::Member<&Size>},
                  {"toWorldPos", &Maze::Member<&ToWorldPos>},
                  {"fromWorldPos", &Maze::Member<&FromWorldPos>},
                  {"visitFill", &Maze::Member<&VisitFill>},
                  {"visitRandomPath", &Maze::Member<&VisitRandomPath>},
                  {"getEntityCell", &Maze::Member<&GetCell<&MapLayers::Entity>>},
                  {"setEntityCell", &Maze::Member<&SetCell<&MapLayers::SetEntity>>},
                  {"getVariationsCell", &Maze::Member<&GetCell<&MapLayers::Variation>>},
                  {"setVariationsCell", &Maze::Member<&SetCell<&MapLayers::SetVariation>>},
                  {"__tostring", &Maze::Member<&ToString>}});
  lua_createtable(L, 0, 2);
  // Each function holds the module table as upvalue 1, to tell a ':' call.
  for (const auto& [name, function] :
       {std::pair{"mazeGeneration", &lua_api::Raising<&MazeGeneration>},
        std::pair{"randomMazeGeneration", &lua_api::Raising<&RandomMazeGeneration>}}) {
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, function, 1);
    lua_setfield(L, -2, name);
  }
  return 1;
}

}  // namespace

MapLayers* ReadMaze(lua_State* L, int index) { return Maze::ReadObject(L, index); }

void RegisterMazeGenerationModule(lua_State* L) {
  lua_api::SetPreload(L, "dmlab.system.maze_generation", &luaopen_dmlab_system_maze_generation);
}

}  // namespace hosts::maze

extern "C" int luaopen_dmlab_system_maze_generation(lua_State* L) { return hosts::maze::OpenModule(L); }
