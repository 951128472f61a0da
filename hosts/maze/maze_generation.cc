#include "hosts/maze/maze_generation.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "hosts/maze/maze_simplify.h"
#include "hosts/maze/text_map.h"
#include "lua_api/tensor/random.h"
#include "tensor/work_meter.h"

namespace hosts::maze {
namespace {

constexpr int kMaxVariations = 26;  // 'A'..'Z'
// An opening between two regions until step 6 decides what it becomes:
// neither floor nor wall to simplify.
constexpr char kOpening = '\x01';

struct Cell {
  int row, col;
};

// DeepMind Lab's path directions, in its order: down, up, right, left.
constexpr Cell kDirections[] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

// A rectangle of cells, [row, row + rows) x [col, col + cols).
struct Rect {
  int row, col, rows, cols;
  bool SeparateFrom(const Rect& other) const {
    return row + rows <= other.row || other.row + other.rows <= row || col + cols <= other.col ||
           other.col + other.cols <= col;
  }
};

// The maze under construction: the two layers as text, each row followed
// by its '\n' (so that MapLayers::Parse takes them as they are), and each
// cell's region (rooms 1..R, corridors after; 0: none yet).
class Grid {
 public:
  Grid(int height, int width)
      : height_(height),
        width_(width),
        entities_(static_cast<std::size_t>(height) * (width + 1), '*'),
        variations_(entities_.size(), '.'),
        regions_(static_cast<std::size_t>(height) * width, 0) {
    for (int row = 0; row < height; ++row) {
      entities_[Index(row, width)] = variations_[Index(row, width)] = '\n';
    }
  }
  bool Inside(Cell c) const { return c.row >= 0 && c.row < height_ && c.col >= 0 && c.col < width_; }
  char& Entity(Cell c) { return entities_[Index(c.row, c.col)]; }
  char& Variation(Cell c) { return variations_[Index(c.row, c.col)]; }
  unsigned& Region(Cell c) { return regions_[static_cast<std::size_t>(c.row) * width_ + c.col]; }
  std::string& entities() { return entities_; }
  const std::string& variations() const { return variations_; }
  int height() const { return height_; }
  int width() const { return width_; }

  // f(cell) for the cells at odd rows and columns, row by row.
  template <typename F>
  void ForOddCells(F&& f) {
    for (int row = 1; row < height_; row += 2) {
      for (int col = 1; col < width_; col += 2) f(Cell{row, col});
    }
  }

 private:
  std::size_t Index(int row, int col) const {
    return static_cast<std::size_t>(row) * (width_ + 1) + col;
  }

  int height_;
  int width_;
  std::string entities_;
  std::string variations_;
  std::vector<unsigned> regions_;
};

Cell Step(Cell c, Cell d, int times = 1) { return {c.row + times * d.row, c.col + times * d.col}; }

// DeepMind Lab's draw of an integer in [lo, hi]: none when lo >= hi.
int Uniform(lua_api::LuaRandom& random, int lo, int hi) {
  return lo < hi ? static_cast<int>(random.UniformInt(lo, hi)) : lo;
}

// 1. Rooms, worked out on the grid of odd cells (n cells there are 2n + 1
// here): a short side drawn in [min, mid], a long side that adds
// [mid, max] - mid, a position inside the bounds.
absl::StatusOr<std::vector<Rect>> PlaceRooms(const MazeOptions& options,
                                             lua_api::LuaRandom& random) {
  const int rows = (options.height - 1) / 2, cols = (options.width - 1) / 2;
  const int min_size = (options.room_min_size - 1) / 2, max_size = (options.room_max_size - 1) / 2;
  const int mid_size = (min_size + max_size) / 2;
  const std::int64_t target = std::int64_t{options.height} * options.width;
  std::vector<Rect> rooms;
  std::int64_t room_cells = 0;
  for (int retries = 0; retries < options.retry_count && room_cells < target &&
                        (options.max_rooms == 0 || static_cast<int>(rooms.size()) != options.max_rooms);) {
    // An overlap test per room placed, and the draws.
    if (absl::Status charged = tensor::ChargeWork(8 + static_cast<std::int64_t>(rooms.size()));
        !charged.ok()) {
      return charged;
    }
    int width = Uniform(random, min_size, mid_size);
    int height = Uniform(random, min_size, mid_size);
    if (Uniform(random, 0, 1) == 0) {
      width += Uniform(random, mid_size, max_size) - mid_size;
    } else {
      height += Uniform(random, mid_size, max_size) - mid_size;
    }
    const int row = Uniform(random, 0, rows - height - 1);
    const int col = Uniform(random, 0, cols - width - 1);
    const Rect room = {2 * row + 1, 2 * col + 1, 2 * height + 1, 2 * width + 1};
    if (std::all_of(rooms.begin(), rooms.end(),
                    [&room](const Rect& other) { return room.SeparateFrom(other); })) {
      rooms.push_back(room);
      room_cells += std::int64_t{room.rows} * room.cols;
    } else {
      ++retries;
    }
  }
  random.Shuffle(absl::MakeSpan(rooms));
  return rooms;
}

// 2. A perfect maze from `start` over the odd cells of no region, two
// cells a step, as region `region`.
void CarveCorridors(Grid& grid, Cell start, unsigned region, lua_api::LuaRandom& random) {
  std::vector<Cell> stack = {start};
  grid.Entity(start) = ' ';
  grid.Region(start) = region;
  while (!stack.empty()) {
    const Cell current = stack.back();
    Cell open[4];
    int count = 0;
    for (const Cell& d : kDirections) {
      const Cell next = Step(current, d, 2);
      if (grid.Inside(next) && grid.Region(next) == 0) open[count++] = d;
    }
    if (count == 0) {
      stack.pop_back();
      continue;
    }
    const Cell d = open[random.UniformInt(0, count - 1)];
    for (const Cell cell : {Step(current, d), Step(current, d, 2)}) {
      grid.Entity(cell) = ' ';
      grid.Region(cell) = region;
    }
    stack.push_back(Step(current, d, 2));
  }
}

// An opening: the wall cell, and the direction from the lower region's
// side to the higher's.
struct Opening {
  Cell cell, direction;
};

// 3. Openings between regions, as kOpening: for each pair of regions side
// by side (in order of their numbers) one drawn among the walls between
// them, then each of those walls with probability `extra` (a wall already
// open may be drawn again: it is listed twice).
std::vector<Opening> ConnectRegions(Grid& grid, double extra, lua_api::LuaRandom& random) {
  std::map<std::pair<unsigned, unsigned>, std::vector<Opening>> between;
  grid.ForOddCells([&](Cell cell) {
    const unsigned here = grid.Region(cell);
    if (here == 0) return;
    for (const Cell& d : kDirections) {
      const Cell there = Step(cell, d, 2);
      if (!grid.Inside(there)) continue;
      const unsigned other = grid.Region(there);
      if (other == 0 || other <= here) continue;
      between[{here, other}].push_back({Step(cell, d), d});
    }
  });
  std::vector<Opening> openings;
  for (const auto& [pair, walls] : between) {
    const Opening& chosen = walls[random.UniformInt(0, static_cast<std::int64_t>(walls.size()) - 1)];
    openings.push_back(chosen);
    grid.Entity(chosen.cell) = kOpening;
  }
  // (DeepMind Lab also skips a wall next to an opening here, which never
  // happens: a wall between two odd cells has odd cells and corners, never
  // another such wall, beside it.)
  for (const auto& [pair, walls] : between) {
    for (const Opening& wall : walls) {
      if (random.UniformReal(0, 1) <= extra) {
        openings.push_back(wall);
        grid.Entity(wall.cell) = kOpening;
      }
    }
  }
  return openings;
}

// 5. `count` of `character` in each room, on its floor cells.
void FurnishRooms(Grid& grid, absl::Span<const Rect> rooms, int count, char character,
                  lua_api::LuaRandom& random) {
  for (const Rect& room : rooms) {
    std::vector<Cell> floor;
    for (int row = room.row; row < room.row + room.rows; ++row) {
      for (int col = room.col; col < room.col + room.cols; ++col) {
        if (grid.Entity({row, col}) == ' ') floor.push_back({row, col});
      }
    }
    // Shuffled whatever the count, as DeepMind Lab does: the draws are
    // part of the sequence.
    random.Shuffle(absl::MakeSpan(floor));
    const std::size_t placed = std::min(floor.size(), static_cast<std::size_t>(count));
    for (std::size_t k = 0; k < placed; ++k) grid.Entity(floor[k]) = character;
  }
}

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
  for (const auto& [size, option] : {std::pair{options.height, "height"},
                                     std::pair{options.width, "width"}}) {
    if (size < 3 || size > kMaxMazeSize || size % 2 == 0) {
      return bad(option, " must be odd and in [3, ", kMaxMazeSize, "], got ", size);
    }
  }
  if (options.max_rooms < 0) {
    return bad(name("max_rooms", "maxRooms"), " must be >= 0, got ", options.max_rooms);
  }
  for (const auto& [size, option] :
       {std::pair{options.room_min_size, name("room_min_size", "roomMinSize")},
        std::pair{options.room_max_size, name("room_max_size", "roomMaxSize")}}) {
    if (size < 1 || size % 2 == 0) return bad(option, " must be odd and >= 1, got ", size);
  }
  // Rooms stay inside the outer wall with a corridor beside them. (DeepMind
  // Lab asks this only with maxRooms > 0; without it a room can open the
  // outer wall there.)
  const int largest = std::max(options.room_min_size, options.room_max_size);
  if (largest + 2 > std::min(options.height, options.width)) {
    return bad(name("room_max_size", "roomMaxSize"), " and ", name("room_min_size", "roomMinSize"),
               " must be at most height - 2 and width - 2, got ", largest, " for a ",
               options.height, " x ", options.width, " maze");
  }
  if (options.retry_count < 1 || options.retry_count > kMaxRetryCount) {
    return bad(name("retry_count", "retryCount"), " must be in [1, ", kMaxRetryCount, "], got ",
               options.retry_count);
  }
  const double p = options.extra_connection_probability;
  if (!(p >= 0 && p <= 1)) {
    return bad(name("extra_connection_probability", "extraConnectionProbability"),
               " must be in [0, 1], got ", p);
  }
  if (options.max_variations < 1 || options.max_variations > kMaxVariations) {
    return bad(name("max_variations", "maxVariations"), " must be in [1, ", kMaxVariations,
               "], got ", options.max_variations);
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

absl::StatusOr<MapLayers> GenerateMaze(const MazeOptions& options, lua_api::LuaRandom& random) {
  if (absl::Status status = ValidateMazeOptions(options); !status.ok()) return status;
  // Corridors, openings, rooms' and the extras' cells: a few visits of
  // each cell (simplify charges its own).
  const std::int64_t cells = std::int64_t{options.height} * options.width;
  if (absl::Status charged = tensor::ChargeWork(20 * cells); !charged.ok()) return charged;
  Grid grid(options.height, options.width);

  absl::StatusOr<std::vector<Rect>> rooms = PlaceRooms(options, random);
  if (!rooms.ok()) return rooms.status();
  for (std::size_t k = 0; k < rooms->size(); ++k) {
    const Rect& room = (*rooms)[k];
    for (int row = room.row; row < room.row + room.rows; ++row) {
      for (int col = room.col; col < room.col + room.cols; ++col) {
        grid.Entity({row, col}) = ' ';
        grid.Region({row, col}) = static_cast<unsigned>(k + 1);
      }
    }
  }

  auto next_region = static_cast<unsigned>(rooms->size() + 1);
  grid.ForOddCells([&](Cell cell) {
    if (grid.Region(cell) == 0) CarveCorridors(grid, cell, next_region++, random);
  });

  const std::vector<Opening> openings =
      ConnectRegions(grid, options.extra_connection_probability, random);

  const auto room_count = static_cast<unsigned>(rooms->size());
  for (int row = 0; row < grid.height(); ++row) {
    for (int col = 0; col < grid.width(); ++col) {
      const unsigned region = grid.Region({row, col});
      if (region > 0 && region <= room_count) {
        grid.Variation({row, col}) = static_cast<char>('A' + (region - 1) % options.max_variations);
      }
    }
  }

  if (options.simplify) {
    if (absl::Status simplified = SimplifyMaze(grid.height(), grid.width(), &grid.entities());
        !simplified.ok()) {
      return simplified;
    }
  }

  FurnishRooms(grid, *rooms, options.room_spawn_count, options.spawn, random);
  FurnishRooms(grid, *rooms, options.room_object_count, options.object, random);

  for (const Opening& opening : openings) {
    char& cell = grid.Entity(opening.cell);
    if (grid.Entity(Step(opening.cell, opening.direction)) == '*') {
      cell = '*';
    } else if (options.has_doors) {
      cell = opening.direction.col == 0 ? 'H' : 'I';
    } else {
      cell = ' ';
    }
  }

  // This project's spawns, goal and apples, on distinct floor cells left.
  std::vector<Cell> floor;
  for (int row = 1; row < options.height - 1; ++row) {
    for (int col = 1; col < options.width - 1; ++col) {
      if (grid.Entity({row, col}) == ' ') floor.push_back({row, col});
    }
  }
  std::string items(options.spawns, 'P');
  if (options.goal) items.push_back('G');
  items.append(options.apples, 'A');
  if (items.size() > floor.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "spawns + apples + goal = ", items.size(), " exceed the ", floor.size(),
        " floor cells that ", options.simplify ? "simplify and " : "", "the rooms' entities left"));
  }
  // A partial Fisher-Yates: the first items.size() cells, drawn uniformly.
  for (std::size_t k = 0; k < items.size(); ++k) {
    const auto drawn = static_cast<std::size_t>(random.UniformInt(
        static_cast<std::int64_t>(k), static_cast<std::int64_t>(floor.size()) - 1));
    std::swap(floor[k], floor[drawn]);
    grid.Entity(floor[k]) = items[k];
  }
  return MapLayers::Parse(grid.entities(), grid.variations());
}

}  // namespace hosts::maze
