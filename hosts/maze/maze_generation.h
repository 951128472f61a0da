// GenerateMaze: DeepMind Lab's randomMazeGeneration, step for step and
// draw for draw, so that a level gets the same maze from the same seed or
// generator here as under DeepMind Lab's own engine:
//   1. Rooms: rectangles of odd size at odd cells, at least a wall apart,
//      are drawn until max_rooms are placed (0: no limit) or retry_count
//      draws have failed to fit, and then shuffled; room k (1-based, in
//      that order) gets variation letter 'A' + (k - 1) % max_variations
//      on its cells.
//   2. Corridors: the odd cells left are carved, row by row, into perfect
//      mazes (a depth-first walk), one region each.
//   3. Doors: every two regions side by side get one opening drawn among
//      the walls between them, and any such wall opens with
//      extra_connection_probability too.
//   4. With simplify, dead ends and horseshoe bends go (maze_simplify.h).
//   5. In every room, room_spawn_count `spawn` characters, and then in
//      every room room_object_count `object` characters, on floor cells
//      drawn among the room's.
//   6. Each opening becomes floor, or a door ('H' between rows, 'I'
//      between columns) with has_doors, or wall where simplify closed the
//      region it led to.
// Then, this project's addition for levels that want them: spawns, the
// goal and apples, each on its own floor cell left, drawn uniformly.
//
// The draws are libstdc++'s distributions over std::mt19937_64, written
// out in lua_api::LuaRandom, which DeepMind Lab's engine (built with GCC)
// draws with: the same seed gives the same maze with every compiler.
//
// Example:
//   MazeOptions options;
//   options.height = options.width = 21;
//   options.max_rooms = 4;
//   options.apples = 5;
//   lua_api::LuaRandom random(7);
//   absl::StatusOr<MapLayers> layers = GenerateMaze(options, random);
//   absl::StatusOr<TextMap> map = TextMap::FromLayers(*layers);
// GenerateMaze: a random maze with rooms, made from a seed alone, in the
// spirit of DeepMind Lab's randomMazeGeneration.
//
// The map is height x width cells, its outer wall included; both are odd.
// The cells at odd (row, col) are the maze's nodes, and each floor cell
// is a node or an opened wall between two neighbouring nodes:
//   1. rooms, rectangles of odd size at odd coordinates that overlap no
//      other room, are carved whole;
//   2. the remaining nodes are carved as perfect mazes (an iterative
//      backtracker, so a large map cannot overflow the stack);
//   3. the walls between nodes that are still closed are visited in random
//      order: one that joins two regions (rooms and maze parts) not yet
//      connected is opened as a door, any other with
//      extra_connection_probability, adding loops.
// So every floor cell is reachable from every other. Room k (in placement
// order) has the variation letter 'A' + k % max_variations on its floor
// and on the walls around it that no earlier room has lettered; corridors
// have none. Each room then gets its own spawns and objects (DeepMind
// Lab's room options), and spawns, then the goal, then apples take
// distinct floor cells left, drawn uniformly.
//
// Portable: the same options give the same maze with every compiler and
// standard library, since the only source of randomness is std::mt19937_64
// (whose output the standard fixes) read through integer arithmetic here.
//
// Example:
//   MazeOptions options;
//   options.height = options.width = 21;
//   options.seed = 7;
//   options.apples = 5;
//   absl::StatusOr<MapLayers> layers = GenerateMaze(options);
//   absl::StatusOr<TextMap> map = TextMap::FromLayers(*layers);
#ifndef HOSTS_MAZE_MAZE_GENERATION_H_
#define HOSTS_MAZE_MAZE_GENERATION_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hosts/maze/text_map.h"
#include "lua_api/tensor/random.h"

namespace hosts::maze {

// DeepMind Lab's options and defaults, and this project's spawns, goal and
// apples (none by default).
struct MazeOptions {
  // Rows and columns, outer wall included: odd, in [3, kMaxMazeSize].
  int height = 11;
  int width = 11;
  // At most this many rooms (>= 0); 0 places rooms until retry_count
  // draws have failed.
  int max_rooms = 0;
  // A room's height and width in cells: odd numbers drawn up to
  // room_max_size from room_min_size (both odd, >= 1), the larger of which
  // must leave the outer wall and a corridor: at most height - 2 and
  // width - 2.
  int room_min_size = 3;
  int room_max_size = 7;
  // Room draws that may fail to fit before placing stops, in
  // [1, kMaxRetryCount].
  int retry_count = 1000;
  // The chance, in [0, 1], that a wall between two regions opens besides
  // the one opening each pair gets.
  double extra_connection_probability = 0.05;
  // Room k's variation letter is 'A' + (k - 1) % max_variations, in [1, 26].
  int max_variations = 26;
  // Per room: room_spawn_count `spawn` and room_object_count `object`
  // characters (counts >= 0; printable characters other than ' ', '*',
  // 'I' and 'H').
  int room_spawn_count = 0;
  char spawn = 'P';
  int room_object_count = 0;
  char object = 'G';
  // Openings into a room are doors, 'H' or 'I', rather than floor.
  bool has_doors = false;
  // Dead ends and horseshoe bends removed (maze_simplify.h).
  bool simplify = true;
  // Then spawn points, a goal and apples on floor cells left. apples >= 0,
  // spawns >= 0; without simplify, spawns + apples + goal must not exceed
  // the floor cells that every maze of this size has (see
  // ValidateMazeOptions); more than a maze has left is an error of
  // GenerateMaze.
  int apples = 0;
  bool goal = false;
  int spawns = 0;
};

// The largest odd size that MapLayers allows.
inline constexpr int kMaxMazeSize = MapLayers::kMaxSize - 1;
inline constexpr int kMaxRetryCount = 1000000;

// How error messages spell option names: as MazeOptions fields
// ("max_rooms") or as the Lua module's keys ("maxRooms").
enum class OptionNames { kCpp, kLua };

// OK, or InvalidArgument naming the first bad option. The floor cells of
// a maze with n = ((height - 1) / 2) * ((width - 1) / 2) odd cells number
// at least 2n - 1 before simplifying (the odd cells and the openings of a
// tree over them): that bounds spawns + apples + goal.
// Example: ValidateMazeOptions({.height = 12}) is "height must be odd and
// in [3, 1023], got 12".
absl::Status ValidateMazeOptions(const MazeOptions& options, OptionNames names = OptionNames::kCpp);

// The maze that `options` describe, drawn from `random` (which it
// advances as DeepMind Lab advances the level's generator), or
// ValidateMazeOptions' error, or the work meter's (tensor/work_meter.h):
// the work is charged as it goes.
absl::StatusOr<MapLayers> GenerateMaze(const MazeOptions& options, lua_api::LuaRandom& random);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_MAZE_GENERATION_H_
