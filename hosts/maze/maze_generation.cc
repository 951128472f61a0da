#include "hosts/maze/maze_generation.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hosts/maze/maze_simplify.h"
#include "hosts/maze/text_map.h"

namespace hosts::maze {
namespace {

constexpr int kMaxRooms = 26;  // 'A'..'Z'
constexpr int kMaxRoomAttempts = 1000000;
// From a node to its four neighbours, in node coordinates.
constexpr std::pair<int, int> kSteps[] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

// Draws from the engine's raw 64-bit output only: the standard library's
// distributions differ between implementations, and the same seed must
// give the same maze everywhere.
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  // Uniform in [0, n). REQUIRES: n >= 1.
  std::uint64_t Below(std::uint64_t n) {
    // Rejection sampling: keep the largest multiple of n of the 2^64 engine
    // values, so that x % n is exactly uniform.
    const std::uint64_t rejected = (0 - n) % n;  // 2^64 mod n
    std::uint64_t x = engine_();
    while (x < rejected) x = engine_();
    return x % n;
  }

  // True with probability p in [0, 1]: 53 random bits, as a double holds.
  bool Chance(double p) { return static_cast<double>(engine_() >> 11) * 0x1p-53 < p; }

  // A uniform random permutation (Fisher-Yates) of the first `count`
  // places; the rest of `values` is left in an unspecified order.
  template <typename T>
  void ShuffleFirst(std::vector<T>& values, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      std::swap(values[i], values[i + Below(values.size() - i)]);
    }
  }

 private:
  std::mt19937_64 engine_;
};

// Rectangles of nodes: node (i, j) is cell (2i + 1, 2j + 1).
struct Room {
  int row, col, rows, cols;
  bool Overlaps(const Room& other) const {
    return row < other.row + other.rows && other.row < row + rows && col < other.col + other.cols &&
           other.col < col + cols;
  }
};

// Union-find over regions, for the doors that connect them.
class Regions {
 public:
  explicit Regions(int count) : parent_(count) { std::iota(parent_.begin(), parent_.end(), 0); }
  int Find(int r) {
    while (parent_[r] != r) r = parent_[r] = parent_[parent_[r]];  // path halving
    return r;
  }
  // False if a and b were connected already.
  bool Join(int a, int b) {
    a = Find(a);
    b = Find(b);
    if (a == b) return false;
    parent_[a] = b;
    return true;
  }

 private:
  std::vector<int> parent_;
};

// The maze under construction: the two layers as text, each row followed
// by its '\n', so that MapLayers::Parse takes them as they are.
class Grid {
 public:
  Grid(int height, int width)
      : height_(height),
        stride_(width + 1),
        entities_(static_cast<std::size_t>(height) * stride_, '*'),
        variations_(entities_.size(), '.') {
    for (int row = 0; row < height; ++row) {
      entities_[Index(row, width)] = variations_[Index(row, width)] = '\n';
    }
  }
  char& Entity(int row, int col) { return entities_[Index(row, col)]; }
  char& Variation(int row, int col) { return variations_[Index(row, col)]; }
  const std::string& entities() const { return entities_; }
  void Simplify() { SimplifyMaze(height_, stride_ - 1, &entities_); }
  const std::string& variations() const { return variations_; }

 private:
  std::size_t Index(int row, int col) const {
    return static_cast<std::size_t>(row) * stride_ + col;
  }

  int height_;
  int stride_;
  std::string entities_;
  std::string variations_;
};

// An odd size in [lo, hi], uniform among them. REQUIRES: one exists.
int OddSize(Random& random, int lo, int hi) {
  const int first = lo | 1;
  const int last = (hi % 2 == 1) ? hi : hi - 1;
  return first + 2 * static_cast<int>(random.Below((last - first) / 2 + 1));
}

// Whether [lo, hi] holds an odd number.
bool HasOdd(int lo, int hi) { return lo <= hi && (lo % 2 == 1 || lo < hi); }

std::int64_t GuaranteedFloorCells(const MazeOptions& options) {
  const std::int64_t nodes = std::int64_t{(options.height - 1) / 2} * ((options.width - 1) / 2);
  return 2 * nodes - 1;
}

}  // namespace

absl::Status ValidateMazeOptions(const MazeOptions& options, OptionNames names) {
  const auto name = [names](const char* cpp, const char* lua) {
    return names == OptionNames::kLua ? lua : cpp;
  };
  const auto bad = [](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat(parts...));
  };
  for (const auto& [size, option] : {std::pair{options.height, name("height", "height")},
                                     std::pair{options.width, name("width", "width")}}) {
    if (size < 3 || size > kMaxMazeSize || size % 2 == 0) {
      return bad(option, " must be odd and in [3, ", kMaxMazeSize, "], got ", size);
    }
  }
  if (options.max_rooms < 0 || options.max_rooms > kMaxRooms) {
    return bad(name("max_rooms", "maxRooms"), " must be in [0, ", kMaxRooms, "], got ",
               options.max_rooms);
  }
  if (options.room_min_size < 1) {
    return bad(name("room_min_size", "roomMinSize"), " must be >= 1, got ", options.room_min_size);
  }
  if (options.room_max_size < options.room_min_size) {
    return bad(name("room_max_size", "roomMaxSize"),
               " must be >= ", name("room_min_size", "roomMinSize"), " (", options.room_min_size,
               "), got ", options.room_max_size);
  }
  if (!HasOdd(options.room_min_size, options.room_max_size)) {
    return bad(name("room_min_size", "roomMinSize"), " and ", name("room_max_size", "roomMaxSize"),
               " leave no odd room size in [", options.room_min_size, ", ", options.room_max_size,
               "]");
  }
  if (options.room_max_attempts < 0 || options.room_max_attempts > kMaxRoomAttempts) {
    return bad(name("room_max_attempts", "roomMaxAttempts"), " must be in [0, ", kMaxRoomAttempts,
               "], got ", options.room_max_attempts);
  }
  const double p = options.extra_connection_probability;
  if (!(p >= 0 && p <= 1)) {
    return bad(name("extra_connection_probability", "extraConnectionProbability"),
               " must be in [0, 1], got ", p);
  }
  if (options.max_variations < 1 || options.max_variations > kMaxRooms) {
    return bad(name("max_variations", "maxVariations"), " must be in [1, ", kMaxRooms, "], got ",
               options.max_variations);
  }
  for (const auto& [count, count_name, character, character_name] :
       {std::tuple{options.room_spawn_count, name("room_spawn_count", "roomSpawnCount"),
                   options.spawn, "spawn"},
        std::tuple{options.room_object_count, name("room_object_count", "roomObjectCount"),
                   options.object, "object"}}) {
    if (count < 0) return bad(count_name, " must be >= 0, got ", count);
    // Any character on floor, as DeepMind Lab's 'O' objects.
    const bool on_floor = character > ' ' && character <= '~' &&
                          std::string_view("*IH").find(character) == std::string_view::npos;
    if (!on_floor) {
      return bad(character_name, " '", std::string(1, character),
                 "' must be a printable character other than ' ', '*', 'I' and 'H' (which are "
                 "floor, wall and doors)");
    }
  }
  if (options.apples < 0) return bad("apples must be >= 0, got ", options.apples);
  if (options.spawns < 0) return bad("spawns must be >= 0, got ", options.spawns);
  const std::int64_t wanted = std::int64_t{options.spawns} + options.apples + options.goal;
  // (Simplified mazes guarantee less: GenerateMaze counts their floor.)
  if (!options.simplify && wanted > GuaranteedFloorCells(options)) {
    return bad("spawns + apples + goal = ", wanted, " exceed the ", GuaranteedFloorCells(options),
               " floor cells that every ", options.height, " x ", options.width, " maze has");
  }
  return absl::OkStatus();
}

absl::StatusOr<MapLayers> GenerateMaze(const MazeOptions& options) {
  if (absl::Status status = ValidateMazeOptions(options); !status.ok()) return status;
  Random random(options.seed);
  Grid grid(options.height, options.width);
  const int node_rows = (options.height - 1) / 2;
  const int node_cols = (options.width - 1) / 2;
  const auto node = [node_cols](int i, int j) { return i * node_cols + j; };
  // Each node's region: room k is region k, maze parts follow. -1: not yet.
  std::vector<int> region(static_cast<std::size_t>(node_rows) * node_cols, -1);

  // 1. Rooms. Only sizes inside the outer wall are drawn.
  std::vector<Room> rooms;
  const int max_room_rows = std::min(options.room_max_size, options.height - 2);
  const int max_room_cols = std::min(options.room_max_size, options.width - 2);
  if (HasOdd(options.room_min_size, max_room_rows) &&
      HasOdd(options.room_min_size, max_room_cols)) {
    for (int attempt = 0;
         attempt < options.room_max_attempts && static_cast<int>(rooms.size()) < options.max_rooms;
         ++attempt) {
      Room room;
      room.rows = (OddSize(random, options.room_min_size, max_room_rows) + 1) / 2;
      room.cols = (OddSize(random, options.room_min_size, max_room_cols) + 1) / 2;
      room.row = static_cast<int>(random.Below(node_rows - room.rows + 1));
      room.col = static_cast<int>(random.Below(node_cols - room.cols + 1));
      if (std::any_of(rooms.begin(), rooms.end(),
                      [&room](const Room& other) { return room.Overlaps(other); })) {
        continue;
      }
      const char letter = static_cast<char>('A' + rooms.size() % options.max_variations);
      for (int row = 2 * room.row + 1; row < 2 * (room.row + room.rows); ++row) {
        for (int col = 2 * room.col + 1; col < 2 * (room.col + room.cols); ++col) {
          grid.Entity(row, col) = ' ';
          grid.Variation(row, col) = letter;
        }
      }
      // The walls around the room take its letter too, where an earlier
      // room's have not: the renderer colours a wall by its own cell's
      // letter. (No room's walls cross another's floor, as rooms do not
      // overlap.)
      for (int row = 2 * room.row; row <= 2 * (room.row + room.rows); ++row) {
        for (int col = 2 * room.col; col <= 2 * (room.col + room.cols); ++col) {
          if (grid.Variation(row, col) == '.') grid.Variation(row, col) = letter;
        }
      }
      for (int i = room.row; i < room.row + room.rows; ++i) {
        for (int j = room.col; j < room.col + room.cols; ++j) {
          region[node(i, j)] = static_cast<int>(rooms.size());
        }
      }
      rooms.push_back(room);
    }
  }

  // 2. Perfect mazes over the other nodes, one per part that rooms cut off.
  int region_count = static_cast<int>(rooms.size());
  std::vector<std::pair<int, int>> stack;
  for (int start_i = 0; start_i < node_rows; ++start_i) {
    for (int start_j = 0; start_j < node_cols; ++start_j) {
      if (region[node(start_i, start_j)] != -1) continue;
      const int part = region_count++;
      region[node(start_i, start_j)] = part;
      grid.Entity(2 * start_i + 1, 2 * start_j + 1) = ' ';
      stack.push_back({start_i, start_j});
      while (!stack.empty()) {
        const auto [i, j] = stack.back();
        std::pair<int, int> unvisited[4];
        int n = 0;
        for (const auto& [di, dj] : kSteps) {
          const int ni = i + di, nj = j + dj;
          if (ni >= 0 && ni < node_rows && nj >= 0 && nj < node_cols &&
              region[node(ni, nj)] == -1) {
            unvisited[n++] = {ni, nj};
          }
        }
        if (n == 0) {
          stack.pop_back();
          continue;
        }
        const auto [ni, nj] = unvisited[random.Below(n)];
        region[node(ni, nj)] = part;
        grid.Entity(i + ni + 1, j + nj + 1) = ' ';  // the wall between
        grid.Entity(2 * ni + 1, 2 * nj + 1) = ' ';
        stack.push_back({ni, nj});
      }
    }
  }

  // 3. Doors and extra connections: the closed walls between two nodes.
  // Every two neighbouring nodes are joined or separated by one, so the
  // regions, linked by these walls, form a connected graph, and opening a
  // random spanning tree of it connects the whole maze.
  struct Wall {
    int row, col;  // the wall's cell
    int a, b;      // the regions of the nodes it separates
    char door;     // what it becomes as a door: 'H' between rows, 'I' between columns
  };
  std::vector<Wall> walls;
  for (int i = 0; i < node_rows; ++i) {
    for (int j = 0; j < node_cols; ++j) {
      if (i + 1 < node_rows && grid.Entity(2 * i + 2, 2 * j + 1) == '*') {
        walls.push_back({2 * i + 2, 2 * j + 1, region[node(i, j)], region[node(i + 1, j)], 'H'});
      }
      if (j + 1 < node_cols && grid.Entity(2 * i + 1, 2 * j + 2) == '*') {
        walls.push_back({2 * i + 1, 2 * j + 2, region[node(i, j)], region[node(i, j + 1)], 'I'});
      }
    }
  }
  random.ShuffleFirst(walls, walls.size());
  Regions connected(region_count);
  std::vector<const Wall*> doors;
  for (const Wall& wall : walls) {
    // A wall inside one connected set opens by chance alone: loops.
    if (connected.Join(wall.a, wall.b) || random.Chance(options.extra_connection_probability)) {
      grid.Entity(wall.row, wall.col) = ' ';
      const int room_count = static_cast<int>(rooms.size());
      const bool enters_room = wall.a != wall.b && (wall.a < room_count || wall.b < room_count);
      if (options.has_doors && enters_room) doors.push_back(&wall);
    }
  }
  // DeepMind Lab's simplify, before doors: a door never opens onto a dead
  // end it filled.
  if (options.simplify) grid.Simplify();
  for (const Wall* door : doors) {
    if (grid.Entity(door->row, door->col) == ' ') grid.Entity(door->row, door->col) = door->door;
  }

  // 4. Each room's spawns, then its objects, on distinct floor cells of it.
  for (const Room& room : rooms) {
    for (const auto& [count, character] : {std::pair{options.room_spawn_count, options.spawn},
                                           std::pair{options.room_object_count, options.object}}) {
      std::vector<std::pair<int, int>> cells;
      for (int row = 2 * room.row + 1; row < 2 * (room.row + room.rows); ++row) {
        for (int col = 2 * room.col + 1; col < 2 * (room.col + room.cols); ++col) {
          if (grid.Entity(row, col) == ' ') cells.push_back({row, col});
        }
      }
      const std::size_t placed = std::min(cells.size(), static_cast<std::size_t>(count));
      random.ShuffleFirst(cells, placed);
      for (std::size_t k = 0; k < placed; ++k)
        grid.Entity(cells[k].first, cells[k].second) = character;
    }
  }

  // 5. Spawns, the goal and apples, on distinct floor cells left.
  std::vector<std::pair<int, int>> floor;
  for (int row = 1; row < options.height - 1; ++row) {
    for (int col = 1; col < options.width - 1; ++col) {
      if (grid.Entity(row, col) == ' ') floor.push_back({row, col});
    }
  }
  const std::size_t wanted =
      static_cast<std::size_t>(options.spawns) + options.apples + (options.goal ? 1 : 0);
  if (wanted > floor.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "spawns + apples + goal = ", wanted, " exceed the ", floor.size(), " floor cells that ",
        options.simplify ? "simplify and " : "", "the rooms' entities left"));
  }
  random.ShuffleFirst(floor, wanted);
  std::string items(options.spawns, 'P');
  if (options.goal) items.push_back('G');
  items.append(options.apples, 'A');
  for (std::size_t k = 0; k < items.size(); ++k) {
    grid.Entity(floor[k].first, floor[k].second) = items[k];
  }
  return MapLayers::Parse(grid.entities(), grid.variations());
}

}  // namespace hosts::maze
