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

namespace hosts::maze {

struct MazeOptions {
  // Rows and columns, outer wall included: odd, in [3, kMaxMazeSize].
  int height = 11;
  int width = 11;
  // Any value; equal seeds (with equal other options) give equal mazes.
  std::uint64_t seed = 0;
  // At most this many rooms, in [0, 26] (one variation letter each). Fewer
  // are placed when room_max_attempts runs out first.
  int max_rooms = 4;
  // A room's height and width are drawn from the odd numbers in
  // [room_min_size, room_max_size] that fit inside the outer wall.
  // 1 <= room_min_size <= room_max_size, with an odd number between.
  int room_min_size = 3;
  int room_max_size = 5;
  // Random placements tried in all, in [0, 1000000]; one that overlaps a
  // room already placed is dropped.
  int room_max_attempts = 1000;
  // The chance, in [0, 1], that a wall between two nodes that connectivity
  // does not need is opened anyway.
  double extra_connection_probability = 0.05;
  // Room k's variation letter is 'A' + k % max_variations, in [1, 26].
  int max_variations = 26;
  // DeepMind Lab's room entities: in every room, up to room_spawn_count
  // `spawn` and then up to room_object_count `object` characters, each on
  // its own floor cell of the room drawn uniformly (fewer where the room
  // has fewer). Counts >= 0; the characters are printable, other than
  // ' ', '*', 'I' and 'H' (DeepMind Lab's explore levels use 'O').
  int room_spawn_count = 0;
  char spawn = 'P';
  int room_object_count = 0;
  char object = 'G';
  // DeepMind Lab's hasDoors: each wall opened between a room and another
  // region is a door, 'H' in a wall running east-west, 'I' in one running
  // north-south, rather than floor.
  bool has_doors = false;
  // DeepMind Lab's simplify (maze_simplify.h): dead ends and horseshoe
  // bends removed once the regions are joined, before the doors.
  bool simplify = false;
  // Then pickups and spawn points anywhere, each on its own floor cell
  // that room entities left. apples >= 0, spawns >= 0, and spawns + apples
  // + goal must not exceed the floor cells that every maze of this size
  // has (see ValidateMazeOptions); room entities taking too many of them
  // is an error of GenerateMaze.
  int apples = 0;
  bool goal = false;
  int spawns = 1;
};

// The largest odd size that MapLayers allows.
inline constexpr int kMaxMazeSize = MapLayers::kMaxSize - 1;

// How error messages spell option names: as MazeOptions fields
// ("max_rooms") or as the Lua module's keys ("maxRooms").
enum class OptionNames { kCpp, kLua };

// OK, or InvalidArgument naming the first bad option. The floor cells of
// a maze with n = ((height - 1) / 2) * ((width - 1) / 2) nodes number at
// least 2n - 1 (the nodes and the walls of a spanning tree), whatever the
// seed: that bounds spawns + apples + goal.
// Example: ValidateMazeOptions({.height = 12}) is "height must be odd and
// in [3, 1023], got 12".
absl::Status ValidateMazeOptions(const MazeOptions& options, OptionNames names = OptionNames::kCpp);

// The maze that `options` describe, or ValidateMazeOptions' error.
absl::StatusOr<MapLayers> GenerateMaze(const MazeOptions& options);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_MAZE_GENERATION_H_
