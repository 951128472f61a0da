#include "hosts/maze/maze_generation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hosts::maze {
namespace {

MapLayers Generate(const MazeOptions& options) {
  absl::StatusOr<MapLayers> layers = GenerateMaze(options);
  EXPECT_TRUE(layers.ok()) << layers.status();
  return layers.ok() ? *std::move(layers) : *MapLayers::Walls(1, 1);
}

int Count(const MapLayers& layers, char entity) {
  const std::string text = layers.EntityLayer();
  return static_cast<int>(std::count(text.begin(), text.end(), entity));
}

// The floor cells (everything but wall) that cannot be reached from the
// first floor cell, by 4-neighbour steps.
int UnreachableFloorCells(const MapLayers& layers) {
  const int rows = layers.rows(), cols = layers.cols();
  std::vector<char> seen(static_cast<std::size_t>(rows) * cols, 0);
  std::queue<std::pair<int, int>> queue;
  int floor = 0;
  for (int row = 0; row < rows; ++row) {
    for (int col = 0; col < cols; ++col) {
      if (layers.Entity(row, col) == '*') continue;
      if (++floor == 1) {
        seen[row * cols + col] = 1;
        queue.push({row, col});
      }
    }
  }
  int reached = 0;
  while (!queue.empty()) {
    const auto [row, col] = queue.front();
    queue.pop();
    ++reached;
    for (const auto& [dr, dc] :
         {std::pair{-1, 0}, std::pair{1, 0}, std::pair{0, -1}, std::pair{0, 1}}) {
      const int r = row + dr, c = col + dc;
      if (layers.Entity(r, c) != '*' && !seen[r * cols + c]) {
        seen[r * cols + c] = 1;
        queue.push({r, c});
      }
    }
  }
  return floor - reached;
}

TEST(GenerateMazeTest, SameOptionsGiveTheSameMaze) {
  MazeOptions options;
  options.height = options.width = 31;
  options.seed = 1234;
  options.apples = 6;
  options.goal = true;
  const MapLayers a = Generate(options);
  const MapLayers b = Generate(options);
  EXPECT_EQ(a.EntityLayer(), b.EntityLayer());
  EXPECT_EQ(a.VariationsLayer(), b.VariationsLayer());
}

TEST(GenerateMazeTest, DifferentSeedsGiveDifferentMazes) {
  MazeOptions options;
  options.height = options.width = 21;
  std::set<std::string> mazes;
  for (std::uint64_t seed : {0ull, 1ull, 2ull, 3ull, 4ull, 5ull, 6ull, 7ull, 1ull << 63, ~0ull}) {
    options.seed = seed;
    mazes.insert(Generate(options).EntityLayer());
  }
  EXPECT_EQ(mazes.size(), 10u);
}

// Pinned: the generator's output is part of every seeded level. A change
// here must be deliberate (and changes the levels' mazes).
TEST(GenerateMazeTest, GoldenMazeFromSeedZero) {
  MazeOptions options;
  options.apples = 2;
  options.goal = true;
  const MapLayers maze = Generate(options);
  EXPECT_EQ(maze.EntityLayer(),
            "***********\n"
            "* P       *\n"
            "******* ***\n"
            "*   A *   *\n"
            "*     *  G*\n"
            "*     *   *\n"
            "***** *   *\n"
            "*     *   *\n"
            "*   * * * *\n"
            "*  A*     *\n"
            "***********\n");
  EXPECT_EQ(maze.VariationsLayer(),
            "...........\n"
            "...........\n"
            "AAAAAAACCCC\n"
            "AAAAAAACCCC\n"
            "AAAAAAACCCC\n"
            "AAAAAAACCCC\n"
            "AAAAAAACCCC\n"
            "BBBBB.CCCCC\n"
            "BBBBB.CCCCC\n"
            "BBBBB......\n"
            "BBBBB......\n");
}

TEST(GenerateMazeTest, EveryFloorCellIsReachableAndTheBorderIsWall) {
  MazeOptions options;
  for (const auto& [height, width] : {std::pair{3, 3}, std::pair{5, 5}, std::pair{3, 41},
                                      std::pair{11, 11}, std::pair{21, 31}, std::pair{51, 51}}) {
    for (const int max_rooms : {0, 4, 26}) {
      for (const double p : {0.0, 0.05, 1.0}) {
        for (std::uint64_t seed = 0; seed < 12; ++seed) {
          options.height = height;
          options.width = width;
          options.max_rooms = max_rooms;
          options.extra_connection_probability = p;
          options.seed = seed;
          const MapLayers maze = Generate(options);
          ASSERT_EQ(maze.rows(), height);
          ASSERT_EQ(maze.cols(), width);
          ASSERT_EQ(UnreachableFloorCells(maze), 0)
              << height << "x" << width << " rooms " << max_rooms << " p " << p << " seed " << seed
              << "\n"
              << maze.EntityLayer();
          for (int row = 0; row < height; ++row) {
            for (int col = 0; col < width; ++col) {
              const bool border = row == 0 || col == 0 || row == height - 1 || col == width - 1;
              const bool node = row % 2 == 1 && col % 2 == 1;
              // Rooms are floor throughout; elsewhere even cells never are.
              const bool pillar = row % 2 == 0 && col % 2 == 0 && maze.Variation(row, col) == '.';
              if (border || pillar) {
                ASSERT_EQ(maze.Entity(row, col), '*') << row << ", " << col;
              }
              if (node) {
                ASSERT_NE(maze.Entity(row, col), '*') << row << ", " << col;
              }
            }
          }
        }
      }
    }
  }
}

// DeepMind Lab's hasDoors: every way into a room is a door ('H' between
// rows, 'I' between columns), nothing else is, and the walls are those of
// the maze without doors.
TEST(GenerateMazeTest, DoorsStandWhereCorridorsEnterRooms) {
  MazeOptions options;
  options.height = options.width = 21;
  options.max_rooms = 4;
  int doors = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    options.seed = seed;
    options.has_doors = false;
    const MapLayers open = Generate(options);
    options.has_doors = true;
    const MapLayers doored = Generate(options);
    for (int row = 0; row < doored.rows(); ++row) {
      for (int col = 0; col < doored.cols(); ++col) {
        const char c = doored.Entity(row, col);
        if (c != 'H' && c != 'I') {
          // Spawns may fall elsewhere (doors take floor cells), walls not.
          ASSERT_EQ(c == '*', open.Entity(row, col) == '*') << row << ", " << col;
          continue;
        }
        ++doors;
        ASSERT_NE(open.Entity(row, col), '*');
        // A door joins two floor cells across a wall: above and below for
        // 'H', left and right for 'I'; one of them in a room (lettered).
        const bool across_rows = c == 'H';
        const int r1 = across_rows ? row - 1 : row, c1 = across_rows ? col : col - 1;
        const int r2 = across_rows ? row + 1 : row, c2 = across_rows ? col : col + 1;
        EXPECT_NE(doored.Entity(r1, c1), '*');
        EXPECT_NE(doored.Entity(r2, c2), '*');
        EXPECT_TRUE(doored.Variation(r1, c1) != '.' || doored.Variation(r2, c2) != '.')
            << "seed " << seed << " door at " << row << ", " << col << "\n"
            << doored.EntityLayer();
      }
    }
    // Corridor cells next to a room, opened into it, are doors.
    for (int row = 1; row + 1 < open.rows(); ++row) {
      for (int col = 1; col + 1 < open.cols(); ++col) {
        if (open.Entity(row, col) == '*' || (row % 2 == 1 && col % 2 == 1)) continue;
        if (open.Variation(row, col) != '.') continue;  // inside a room or its wall
        const bool vertical = row % 2 == 0;
        const char a = vertical ? open.Variation(row - 1, col) : open.Variation(row, col - 1);
        const char b = vertical ? open.Variation(row + 1, col) : open.Variation(row, col + 1);
        if (a != '.' || b != '.') {
          EXPECT_EQ(doored.Entity(row, col), vertical ? 'H' : 'I') << row << ", " << col;
        }
      }
    }
  }
  EXPECT_GT(doors, 20);
}

TEST(GenerateMazeTest, LargestMazeIsConnected) {
  MazeOptions options;
  options.height = options.width = kMaxMazeSize;
  options.max_rooms = 26;
  options.room_max_size = 51;
  const MapLayers maze = Generate(options);
  EXPECT_EQ(maze.rows(), 1023);
  EXPECT_EQ(UnreachableFloorCells(maze), 0);
}

TEST(GenerateMazeTest, WithoutRoomsOrExtraConnectionsTheMazeIsATree) {
  MazeOptions options;
  options.height = 21;
  options.width = 41;
  options.max_rooms = 0;
  options.extra_connection_probability = 0;
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    options.seed = seed;
    const MapLayers maze = Generate(options);
    const int nodes = 10 * 20;
    // A spanning tree of the nodes: every node plus nodes - 1 open walls.
    EXPECT_EQ(maze.rows() * maze.cols() - Count(maze, '*'), 2 * nodes - 1);
    EXPECT_EQ(maze.VariationsLayer().find_first_not_of(".\n"), std::string::npos);
  }
}

TEST(GenerateMazeTest, CertainExtraConnectionsOpenEveryWallBetweenNodes) {
  MazeOptions options;
  options.height = options.width = 11;
  options.max_rooms = 0;
  options.extra_connection_probability = 1;
  const MapLayers maze = Generate(options);
  for (int row = 1; row < 10; ++row) {
    for (int col = 1; col < 10; ++col) {
      EXPECT_EQ(maze.Entity(row, col) == '*', row % 2 == 0 && col % 2 == 0) << row << ", " << col;
    }
  }
}

// The cells that a room's letter marks on nodes (odd row and column), by
// letter: a room's nodes are all its floor's, its walls have none.
struct Box {
  int top = 1 << 30, left = 1 << 30, bottom = -1, right = -1, nodes = 0;
};
std::map<char, Box> RoomNodeBoxes(const MapLayers& maze) {
  std::map<char, Box> boxes;
  for (int row = 1; row < maze.rows(); row += 2) {
    for (int col = 1; col < maze.cols(); col += 2) {
      const char letter = maze.Variation(row, col);
      if (letter == '.') continue;
      Box& box = boxes[letter];
      box.top = std::min(box.top, row);
      box.left = std::min(box.left, col);
      box.bottom = std::max(box.bottom, row);
      box.right = std::max(box.right, col);
      ++box.nodes;
    }
  }
  return boxes;
}

// Each letter marks one room: an odd-sized rectangle at odd coordinates,
// wholly floor, with sizes in the options' range, and the walls around it
// (but those an earlier room's letter has). Corridors have none.
TEST(GenerateMazeTest, EachRoomHasItsOwnLetter) {
  MazeOptions options;
  options.height = options.width = 41;
  options.max_rooms = 6;
  options.room_min_size = 3;
  options.room_max_size = 7;
  int rooms_seen = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    options.seed = seed;
    const MapLayers maze = Generate(options);
    const std::map<char, Box> boxes = RoomNodeBoxes(maze);
    ASSERT_LE(boxes.size(), 6u);
    char expected = 'A';
    for (const auto& [letter, box] : boxes) {
      EXPECT_EQ(letter, expected++) << "letters are consecutive from 'A'";
      const int height = box.bottom - box.top + 1, width = box.right - box.left + 1;
      EXPECT_EQ(box.nodes, (height + 1) / 2 * ((width + 1) / 2)) << letter << " is a rectangle";
      EXPECT_GE(std::min(height, width), 3);
      EXPECT_LE(std::max(height, width), 7);
      for (int row = box.top - 1; row <= box.bottom + 1; ++row) {
        for (int col = box.left - 1; col <= box.right + 1; ++col) {
          const bool inside =
              row >= box.top && row <= box.bottom && col >= box.left && col <= box.right;
          if (inside) {
            ASSERT_EQ(maze.Variation(row, col), letter) << row << ", " << col;
            ASSERT_NE(maze.Entity(row, col), '*') << "a room is floor throughout";
          } else {
            ASSERT_NE(maze.Variation(row, col), '.') << "its walls are lettered";
            ASSERT_LE(maze.Variation(row, col), letter) << "by it or by an earlier room";
          }
        }
      }
    }
    // Nothing else is lettered.
    for (int row = 0; row < maze.rows(); ++row) {
      for (int col = 0; col < maze.cols(); ++col) {
        const char letter = maze.Variation(row, col);
        if (letter == '.') continue;
        const Box& box = boxes.at(letter);
        ASSERT_TRUE(row >= box.top - 1 && row <= box.bottom + 1 && col >= box.left - 1 &&
                    col <= box.right + 1)
            << row << ", " << col;
      }
    }
    rooms_seen += static_cast<int>(boxes.size());
  }
  EXPECT_GT(rooms_seen, 20 * 4) << "rooms are placed, usually as many as asked";
}

// DeepMind Lab's room options: each room gets its own spawns and objects
// (as many as asked, or as it has floor cells), and maxVariations cycles
// the rooms' letters.
TEST(GenerateMazeTest, EachRoomGetsItsSpawnsAndObjects) {
  MazeOptions options;
  options.height = options.width = 31;
  options.max_rooms = 5;
  options.room_min_size = 3;
  options.room_max_size = 5;
  options.spawns = 0;
  options.room_spawn_count = 2;
  options.room_object_count = 1;
  options.spawn = 'P';
  options.object = 'G';
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    options.seed = seed;
    const MapLayers maze = Generate(options);
    const std::map<char, Box> boxes = RoomNodeBoxes(maze);
    ASSERT_GE(boxes.size(), 1u);
    for (const auto& [letter, box] : boxes) {
      int spawns = 0, objects = 0;
      for (int row = box.top; row <= box.bottom; ++row) {
        for (int col = box.left; col <= box.right; ++col) {
          spawns += maze.Entity(row, col) == 'P';
          objects += maze.Entity(row, col) == 'G';
        }
      }
      EXPECT_EQ(spawns, 2) << "room " << letter << ", seed " << seed;
      EXPECT_EQ(objects, 1) << "room " << letter << ", seed " << seed;
    }
    EXPECT_EQ(Count(maze, 'P'), 2 * static_cast<int>(boxes.size())) << "none outside the rooms";
    EXPECT_EQ(Count(maze, 'G'), static_cast<int>(boxes.size()));
  }
  options.max_variations = 1;
  options.seed = 3;
  const MapLayers one_letter = Generate(options);
  for (int row = 0; row < one_letter.rows(); ++row) {
    for (int col = 0; col < one_letter.cols(); ++col) {
      const char letter = one_letter.Variation(row, col);
      ASSERT_TRUE(letter == '.' || letter == 'A') << letter;
    }
  }
  EXPECT_GE(Count(one_letter, 'P'), 2);
}

TEST(GenerateMazeTest, PlacesEachPickupAndSpawnOnItsOwnFloorCell) {
  MazeOptions options;
  options.height = 15;
  options.width = 21;
  options.apples = 9;
  options.goal = true;
  options.spawns = 3;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    options.seed = seed;
    const MapLayers maze = Generate(options);
    EXPECT_EQ(Count(maze, 'P'), 3);
    EXPECT_EQ(Count(maze, 'A'), 9);
    EXPECT_EQ(Count(maze, 'G'), 1);
    absl::StatusOr<TextMap> map = TextMap::FromLayers(maze);
    ASSERT_TRUE(map.ok()) << map.status();
    EXPECT_EQ(map->spawns().size(), 3u);
    EXPECT_EQ(map->pickups().size(), 10u);
  }
  options.goal = false;
  EXPECT_EQ(Count(Generate(options), 'G'), 0);
}

TEST(GenerateMazeTest, PickupsMayFillEveryGuaranteedFloorCell) {
  MazeOptions options;
  options.height = options.width = 7;  // 9 nodes: at least 17 floor cells
  options.spawns = 2;
  options.apples = 14;
  options.goal = true;
  options.max_rooms = 0;
  options.extra_connection_probability = 0;
  const MapLayers maze = Generate(options);
  EXPECT_EQ(Count(maze, ' '), 0);
  EXPECT_EQ(Count(maze, 'A'), 14);
  options.apples = 15;
  EXPECT_EQ(GenerateMaze(options).status().message(),
            "spawns + apples + goal = 18 exceed the 17 floor cells that every 7 x 7 maze has");
}

TEST(GenerateMazeTest, RoomsLargerThanTheMapAreNotDrawn) {
  MazeOptions options;
  options.height = 5;
  options.width = 41;
  options.room_min_size = 3;
  options.room_max_size = 99;
  const MapLayers maze = Generate(options);
  EXPECT_EQ(UnreachableFloorCells(maze), 0);
  options.room_min_size = 5;  // taller than the 3 rows inside the wall
  EXPECT_EQ(Generate(options).VariationsLayer().find_first_not_of(".\n"), std::string::npos);
}

TEST(ValidateMazeOptionsTest, DefaultsAreValid) {
  EXPECT_TRUE(ValidateMazeOptions(MazeOptions()).ok());
}

TEST(ValidateMazeOptionsTest, EachBadOptionIsNamed) {
  struct Case {
    MazeOptions options;
    const char* cpp;
    const char* lua;  // null: as cpp (the name is the same in Lua)
  };
  const Case cases[] = {
      {{.height = 12}, "height must be odd and in [3, 1023], got 12", nullptr},
      {{.height = 1}, "height must be odd and in [3, 1023], got 1", nullptr},
      {{.height = 1025}, "height must be odd and in [3, 1023], got 1025", nullptr},
      {{.width = -3}, "width must be odd and in [3, 1023], got -3", nullptr},
      {{.max_rooms = -1},
       "max_rooms must be in [0, 26], got -1",
       "maxRooms must be in [0, 26], got -1"},
      {{.max_rooms = 27},
       "max_rooms must be in [0, 26], got 27",
       "maxRooms must be in [0, 26], got 27"},
      {{.room_min_size = 0},
       "room_min_size must be >= 1, got 0",
       "roomMinSize must be >= 1, got 0"},
      {{.room_min_size = 5, .room_max_size = 3},
       "room_max_size must be >= room_min_size (5), got 3",
       "roomMaxSize must be >= roomMinSize (5), got 3"},
      {{.room_min_size = 4, .room_max_size = 4},
       "room_min_size and room_max_size leave no odd room size in [4, 4]",
       "roomMinSize and roomMaxSize leave no odd room size in [4, 4]"},
      {{.room_max_attempts = -1},
       "room_max_attempts must be in [0, 1000000], got -1",
       "roomMaxAttempts must be in [0, 1000000], got -1"},
      {{.extra_connection_probability = 1.5},
       "extra_connection_probability must be in [0, 1], got 1.5",
       "extraConnectionProbability must be in [0, 1], got 1.5"},
      {{.extra_connection_probability = -0.0001},
       "extra_connection_probability must be in [0, 1], got -0.0001",
       "extraConnectionProbability must be in [0, 1], got -0.0001"},
      {{.extra_connection_probability = std::nan("")},
       "extra_connection_probability must be in [0, 1], got nan",
       "extraConnectionProbability must be in [0, 1], got nan"},
      {{.apples = -1}, "apples must be >= 0, got -1", nullptr},
      {{.spawns = -1}, "spawns must be >= 0, got -1", nullptr},
      {{.max_variations = 0},
       "max_variations must be in [1, 26], got 0",
       "maxVariations must be in [1, 26], got 0"},
      {{.room_spawn_count = -1},
       "room_spawn_count must be >= 0, got -1",
       "roomSpawnCount must be >= 0, got -1"},
      {{.object = 'I'},
       "object 'I' must be a printable character other than ' ', '*', 'I' and 'H' (which are "
       "floor, wall and doors)",
       nullptr},
      {{.apples = 2147483647, .spawns = 2147483647},
       "spawns + apples + goal = 4294967294 exceed the 49 floor cells that every 11 x 11 maze "
       "has",
       nullptr},
  };
  for (const Case& c : cases) {
    const absl::Status status = ValidateMazeOptions(c.options);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.cpp;
    EXPECT_EQ(status.message(), c.cpp);
    EXPECT_EQ(ValidateMazeOptions(c.options, OptionNames::kLua).message(),
              c.lua != nullptr ? c.lua : c.cpp);
    EXPECT_EQ(GenerateMaze(c.options).status(), status) << "GenerateMaze validates first";
  }
}

TEST(ValidateMazeOptionsTest, EvenRoomBoundsAroundAnOddSizeAreValid) {
  MazeOptions options;
  options.room_min_size = 2;
  options.room_max_size = 4;  // only 3
  options.height = options.width = 31;
  EXPECT_TRUE(ValidateMazeOptions(options).ok());
  const std::map<char, Box> boxes = RoomNodeBoxes(Generate(options));
  ASSERT_FALSE(boxes.empty()) << "rooms are placed";
  for (const auto& [letter, box] : boxes) {
    EXPECT_EQ(box.bottom - box.top, 2) << letter << ": every room is 3 x 3";
    EXPECT_EQ(box.right - box.left, 2) << letter;
  }
}

}  // namespace
}  // namespace hosts::maze
