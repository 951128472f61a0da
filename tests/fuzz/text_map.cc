// text_map: the text-map parser (TextMap::Parse, MapLayers) and the maze
// generator (GenerateMaze), with the properties their headers promise
// checked on every input. A broken property aborts with a message, so it
// is a finding like a crash or a sanitizer report.
//
// Input: the first byte picks the mode.
//   even: the rest is an entity layer, then (after the first NUL byte) a
//         variations layer; both parsers run on it, a parsed map's layers
//         must parse back to the same map, and the cell queries and edits
//         are tried at coordinates read from the end of the input.
//   odd:  the rest are MazeOptions, each read from a byte into a range a
//         little wider than the valid one (so ValidateMazeOptions sees bad
//         values too) and small enough that a maze takes well under a
//         millisecond; a valid one must generate, twice the same, with
//         every floor cell reachable and exactly the pickups asked for.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "hosts/maze/maze_generation.h"
#include "hosts/maze/text_map.h"
#include "lua_api/tensor/random.h"

namespace fuzz {
namespace {

using hosts::maze::GridCell;
using hosts::maze::MapLayers;
using hosts::maze::MazeOptions;
using hosts::maze::PickupKind;
using hosts::maze::TextMap;
using hosts::maze::WorldPoint;

// The largest maze side tried: mazes grow with its square.
constexpr int kMaxFuzzMazeSize = 61;

void Require(bool property, const char* what) {
  if (property) return;
  std::fprintf(stderr, "text_map fuzzer: broken property: %s\n", what);
  std::abort();
}

class Bytes {
 public:
  explicit Bytes(absl::string_view data) : data_(data) {}
  bool done() const { return data_.empty(); }
  // One byte, 0 once the input is used up.
  int Next() {
    if (data_.empty()) return 0;
    const int byte = static_cast<unsigned char>(data_.front());
    data_.remove_prefix(1);
    return byte;
  }
  // An integer in [low, low + 255].
  int From(int low) { return low + Next(); }
  std::uint64_t Word() {
    std::uint64_t word = 0;
    for (int i = 0; i < 8; ++i) word = word << 8 | static_cast<std::uint64_t>(Next());
    return word;
  }
  double Coordinate() {
    constexpr double kOdd[] = {std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(), 1e300, -1e300,
                               2147483648.0, -2147483649.0, -0.0};
    const int byte = Next();
    if (byte >= 248) return kOdd[byte - 248];
    return (byte - 64) / 4.0;
  }

 private:
  absl::string_view data_;
};

void CheckSameMap(const TextMap& a, const TextMap& b) {
  Require(a.rows() == b.rows() && a.cols() == b.cols(), "a round trip keeps the size");
  Require(a.EntityLayer() == b.EntityLayer(), "a round trip keeps the entity layer");
  Require(a.VariationsLayer() == b.VariationsLayer(), "a round trip keeps the variations");
  Require(a.spawns() == b.spawns(), "a round trip keeps the spawns");
  Require(a.pickups().size() == b.pickups().size(), "a round trip keeps the pickups");
}

void FuzzLayers(absl::string_view text) {
  const std::size_t nul = text.find('\0');
  const absl::string_view entities = text.substr(0, nul);
  const absl::string_view variations =
      nul == absl::string_view::npos ? absl::string_view() : text.substr(nul + 1);
  // Coordinates come from the end, so that they change little of the map.
  Bytes coordinates(text.substr(text.size() - std::min<std::size_t>(text.size(), 16)));

  absl::StatusOr<MapLayers> layers = MapLayers::Parse(entities, variations);
  absl::StatusOr<TextMap> map = TextMap::Parse(entities, variations);
  Require(!map.ok() || layers.ok(), "what TextMap parses, MapLayers parses");
  if (layers.ok()) {
    // An empty layer parses as 0 rows (or 0 columns): all wall, no spawn.
    Require(layers->rows() >= 0 && layers->rows() <= MapLayers::kMaxSize &&
                layers->cols() >= 0 && layers->cols() <= MapLayers::kMaxSize,
            "a parsed map's size is in [0, kMaxSize]");
    Require(TextMap::FromLayers(*layers).ok() == map.ok(),
            "FromLayers accepts exactly what Parse accepts");
    absl::StatusOr<MapLayers> again =
        MapLayers::Parse(layers->EntityLayer(), layers->VariationsLayer());
    Require(again.ok() && again->EntityLayer() == layers->EntityLayer() &&
                again->VariationsLayer() == layers->VariationsLayer(),
            "MapLayers' layers parse back to the same layers");
    while (!coordinates.done()) {
      const int row = coordinates.From(-8);
      const int col = coordinates.From(-8);
      const char entity = static_cast<char>(coordinates.Next());
      layers->Entity(row, col);
      layers->Variation(row, col);
      const bool inside = row >= 0 && row < layers->rows() && col >= 0 && col < layers->cols();
      const absl::Status set = layers->SetEntity(row, col, entity);
      Require(inside || !set.ok(), "SetEntity outside the grid is an error");
      if (set.ok()) Require(layers->Entity(row, col) == entity, "SetEntity sets");
      const absl::Status varied = layers->SetVariation(row, col, entity);
      Require(inside || !varied.ok(), "SetVariation outside the grid is an error");
    }
  }
  if (!map.ok()) return;
  Require(!map->spawns().empty(), "a parsed map has a spawn");
  absl::StatusOr<TextMap> again = TextMap::Parse(map->EntityLayer(), map->VariationsLayer());
  Require(again.ok(), "a map's layers parse");
  CheckSameMap(*map, *again);
  for (const GridCell& spawn : map->spawns()) {
    Require(!map->IsWall(spawn.row, spawn.col), "a spawn is on the floor");
    Require(map->CellAt(map->CellCentre(spawn)) == spawn, "CellAt inverts CellCentre");
  }
  Bytes points(text.substr(0, std::min<std::size_t>(text.size(), 16)));
  while (!points.done()) {
    const WorldPoint point{points.Coordinate(), points.Coordinate()};
    const GridCell cell = map->CellAt(point);
    const bool inside =
        cell.row >= 0 && cell.row < map->rows() && cell.col >= 0 && cell.col < map->cols();
    Require(inside || map->IsWall(cell.row, cell.col), "outside the map is wall");
    map->Variation(cell.row, cell.col);
  }
}

// A cell a player can stand on once the doors are open.
bool Open(const TextMap& map, int row, int col) {
  return !map.IsWall(row, col) || map.IsDoor(row, col);
}

// Open cells reachable from the first spawn, by 4-neighbour steps.
int ReachableFloor(const TextMap& map) {
  std::vector<char> seen(static_cast<std::size_t>(map.rows() * map.cols()), 0);
  std::vector<GridCell> stack = {map.spawns().front()};
  seen[map.spawns().front().row * map.cols() + map.spawns().front().col] = 1;
  int reached = 0;
  while (!stack.empty()) {
    const GridCell cell = stack.back();
    stack.pop_back();
    ++reached;
    const GridCell next[] = {{cell.row - 1, cell.col},
                             {cell.row + 1, cell.col},
                             {cell.row, cell.col - 1},
                             {cell.row, cell.col + 1}};
    for (const GridCell& n : next) {
      if (!Open(map, n.row, n.col)) continue;
      char& mark = seen[n.row * map.cols() + n.col];
      if (mark) continue;
      mark = 1;
      stack.push_back(n);
    }
  }
  return reached;
}

void FuzzMaze(Bytes& in) {
  MazeOptions options;
  options.height = in.Next() % (kMaxFuzzMazeSize + 4) - 2;
  options.width = in.Next() % (kMaxFuzzMazeSize + 4) - 2;
  const std::uint64_t seed = in.Word();
  options.max_rooms = in.Next() % 30 - 2;
  options.room_min_size = in.Next() % 14 - 2;
  options.room_max_size = in.Next() % 14 - 2;
  options.retry_count = in.Next() * 8 - 16;
  options.extra_connection_probability = in.Next() / 200.0 - 0.1;
  options.simplify = in.Next() % 2 == 1;
  options.has_doors = in.Next() % 2 == 1;
  options.room_spawn_count = in.Next() % 4 - 1;
  options.apples = in.Next() % 64 - 2;
  options.goal = in.Next() % 2 == 1;
  options.spawns = in.Next() % 10 - 1;

  const absl::Status valid = hosts::maze::ValidateMazeOptions(options);
  lua_api::LuaRandom random(seed);
  absl::StatusOr<MapLayers> layers = hosts::maze::GenerateMaze(options, random);
  // Valid options fail only when simplify left too few floor cells.
  Require(layers.ok() == valid.ok() ||
              (valid.ok() && absl::StrContains(layers.status().message(), "exceed")),
          "GenerateMaze fails exactly when the options are bad");
  if (!layers.ok()) return;
  Require(layers->rows() == options.height && layers->cols() == options.width,
          "the maze has the size asked for");
  random.Seed(seed);
  absl::StatusOr<MapLayers> twin = hosts::maze::GenerateMaze(options, random);
  Require(twin.ok() && twin->EntityLayer() == layers->EntityLayer() &&
              twin->VariationsLayer() == layers->VariationsLayer(),
          "equal options give equal mazes");
  absl::StatusOr<TextMap> map = TextMap::FromLayers(*layers);
  // Playable once it has a spawn point: none is asked for by default.
  const bool has_spawn = layers->EntityLayer().find('P') != std::string::npos;
  Require(map.ok() == has_spawn, "a maze with a spawn point is a playable map");
  if (!map.ok()) return;
  Require(static_cast<int>(map->spawns().size()) >= options.spawns, "the spawns asked for");
  int apples = 0;
  int goals = 0;
  for (const auto& pickup : map->pickups()) {
    (pickup.kind == PickupKind::kReward ? apples : goals) += 1;
  }
  Require(apples == options.apples && goals == (options.goal ? 1 : 0),
          "the pickups asked for");
  int floor = 0;
  for (int row = 0; row < map->rows(); ++row) {
    for (int col = 0; col < map->cols(); ++col) {
      const bool border = row == 0 || col == 0 || row == map->rows() - 1 || col == map->cols() - 1;
      Require(!border || map->IsWall(row, col), "the outer wall is closed");
      floor += Open(*map, row, col) ? 1 : 0;
    }
  }
  Require(ReachableFloor(*map) == floor, "every open cell (floor and doors) is reachable");
}

}  // namespace
}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(absl::string_view(reinterpret_cast<const char*>(data), size));
  if (in.Next() % 2 == 0) {
    fuzz::FuzzLayers(absl::string_view(reinterpret_cast<const char*>(data), size).substr(
        size == 0 ? 0 : 1));
  } else {
    fuzz::FuzzMaze(in);
  }
  return 0;
}
