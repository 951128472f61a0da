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
#include "lua_api/tensor/random.h"

namespace hosts::maze {
namespace {

absl::StatusOr<MapLayers> GenerateMaze(const MazeOptions& options, std::uint64_t seed = 0) {
  lua_api::LuaRandom random(seed);
  return GenerateMaze(options, random);
}

MapLayers Generate(const MazeOptions& options, std::uint64_t seed = 0) {
  absl::StatusOr<MapLayers> layers = GenerateMaze(options, seed);
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

TEST(GenerateMazeTest, SameOptionsAndSeedGiveTheSameMaze) {
  MazeOptions options;
  options.height = options.width = 31;
  options.apples = 6;
  options.goal = true;
  const MapLayers a = Generate(options, 1234);
  const MapLayers b = Generate(options, 1234);
  EXPECT_EQ(a.EntityLayer(), b.EntityLayer());
  EXPECT_EQ(a.VariationsLayer(), b.VariationsLayer());
}

TEST(GenerateMazeTest, DifferentSeedsGiveDifferentMazes) {
  MazeOptions options;
  options.height = options.width = 21;
  std::set<std::string> mazes;
  for (std::uint64_t seed : {0ull, 1ull, 2ull, 3ull, 4ull, 5ull, 6ull, 7ull, 1ull << 63, ~0ull}) {
    mazes.insert(Generate(options, seed).EntityLayer());
  }
  EXPECT_EQ(mazes.size(), 10u);
}

// Pinned: DeepMind Lab's own generator (its algorithm.cc, built with GCC
// 12 and run from seed 0 with these options, as its lua_maze_generation
// test does) printed these layers, and then drew 10338790907403564116 as
// its generator's next value. A change here changes every seeded level.
TEST(GenerateMazeTest, DeepMindLabsMazeFromSeedZero) {
  MazeOptions options;
  options.height = 13;
  options.width = 15;
  options.max_rooms = 3;
  options.extra_connection_probability = 0;
  options.simplify = false;
  lua_api::LuaRandom random(0);
  absl::StatusOr<MapLayers> maze = GenerateMaze(options, random);
  ASSERT_TRUE(maze.ok()) << maze.status();
  EXPECT_EQ(maze->EntityLayer(),
            "***************\n"
            "*             *\n"
            "***** ******* *\n"
            "*     *     * *\n"
            "* *****     * *\n"
            "*     *       *\n"
            "*     *     * *\n"
            "*           * *\n"
            "*     * *** * *\n"
            "*         *   *\n"
            "********* *   *\n"
            "*             *\n"
            "***************\n");
  EXPECT_EQ(maze->VariationsLayer(),
            "...............\n"
            "...............\n"
            "...............\n"
            ".......CCCCC...\n"
            ".......CCCCC...\n"
            ".BBBBB.CCCCC...\n"
            ".BBBBB.CCCCC...\n"
            ".BBBBB.CCCCC...\n"
            ".BBBBB.........\n"
            ".BBBBB.....AAA.\n"
            "...........AAA.\n"
            "...........AAA.\n"
            "...............\n");
  EXPECT_EQ(random.engine()(), 10338790907403564116ull) << "the draws are DeepMind Lab's";

  // Simplified, with doors, a spawn and an object in every room: the same
  // rooms and corridors, dead ends filled, and what DeepMind Lab printed.
  options.simplify = true;
  options.has_doors = true;
  options.room_spawn_count = options.room_object_count = 1;
  random.Seed(0);
  maze = GenerateMaze(options, random);
  ASSERT_TRUE(maze.ok()) << maze.status();
  EXPECT_EQ(maze->EntityLayer(),
            "***************\n"
            "*****         *\n"
            "***** ******* *\n"
            "*     *     * *\n"
            "*H*****     * *\n"
            "*P   G*     I *\n"
            "*     *     * *\n"
            "*     IP  G * *\n"
            "*     *H***H*H*\n"
            "*     I   *   *\n"
            "********* *   *\n"
            "********* I PG*\n"
            "***************\n");
  EXPECT_EQ(random.engine()(), 10338790907403564116ull);
}

// DeepMind Lab's own test of one room filling the maze (seed 123).
TEST(GenerateMazeTest, OneRoomFillsTheMaze) {
  MazeOptions options;
  options.height = options.width = 9;
  options.room_min_size = options.room_max_size = 7;
  options.max_rooms = 1;
  options.extra_connection_probability = 0;
  const MapLayers maze = Generate(options, 123);
  EXPECT_EQ(maze.EntityLayer(),
            "*********\n*       *\n*       *\n*       *\n*       *\n*       *\n*       *\n"
            "*       *\n*********\n");
  EXPECT_EQ(maze.VariationsLayer(),
            ".........\n.AAAAAAA.\n.AAAAAAA.\n.AAAAAAA.\n.AAAAAAA.\n.AAAAAAA.\n.AAAAAAA.\n"
            ".AAAAAAA.\n.........\n");
}

TEST(GenerateMazeTest, EveryFloorCellIsReachableAndTheBorderIsWall) {
  MazeOptions options;
  for (const auto& [height, width] : {std::pair{3, 3}, std::pair{5, 5}, std::pair{3, 41},
                                      std::pair{11, 11}, std::pair{21, 31}, std::pair{41, 41}}) {
    for (const int max_rooms : {0, 4, 26}) {
      for (const double p : {0.0, 0.05, 1.0}) {
        for (const bool simplify : {false, true}) {
          for (std::uint64_t seed = 0; seed < 5; ++seed) {
            options.height = height;
            options.width = width;
            // The largest rooms that fit, up to 7.
            options.room_max_size = std::min(7, (std::min(height, width) - 2) | 1);
            if (options.room_max_size + 2 > std::min(height, width)) options.room_max_size -= 2;
            options.room_min_size = std::min(3, options.room_max_size);
            options.max_rooms = max_rooms;
            options.extra_connection_probability = p;
            options.simplify = simplify;
            const MapLayers maze = Generate(options, seed);
            ASSERT_EQ(maze.rows(), height);
            ASSERT_EQ(maze.cols(), width);
            ASSERT_EQ(UnreachableFloorCells(maze), 0)
                << height << "x" << width << " rooms " << max_rooms << " p " << p << " simplify "
                << simplify << " seed " << seed << "\n"
                << maze.EntityLayer();
            for (int row = 0; row < height; ++row) {
              for (int col = 0; col < width; ++col) {
                const bool border = row == 0 || col == 0 || row == height - 1 || col == width - 1;
                ASSERT_TRUE(!border || maze.Entity(row, col) == '*') << row << ", " << col;
                if (simplify) continue;  // (which fills dead ends and moves bends)
                // Rooms are floor throughout; elsewhere even cells never
                // are, and odd ones always.
                const bool node = row % 2 == 1 && col % 2 == 1;
                const bool pillar = row % 2 == 0 && col % 2 == 0 && maze.Variation(row, col) == '.';
                ASSERT_TRUE(!pillar || maze.Entity(row, col) == '*') << row << ", " << col;
                ASSERT_TRUE(!node || maze.Entity(row, col) != '*') << row << ", " << col;
              }
            }
          }
        }
      }
    }
  }
}

// DeepMind Lab's hasDoors: every opening between regions (rooms and
// corridors) is a door, 'H' between rows and 'I' between columns, and the
// walls are those of the maze without doors (doors draw nothing).
TEST(GenerateMazeTest, DoorsStandInTheOpeningsBetweenRegions) {
  MazeOptions options;
  options.height = options.width = 21;
  options.max_rooms = 4;
  int doors = 0;
  for (const bool simplify : {false, true}) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      options.simplify = simplify;
      options.has_doors = false;
      const MapLayers open = Generate(options, seed);
      options.has_doors = true;
      const MapLayers doored = Generate(options, seed);
      for (int row = 0; row < doored.rows(); ++row) {
        for (int col = 0; col < doored.cols(); ++col) {
          const char c = doored.Entity(row, col);
          if (c != 'H' && c != 'I') {
            ASSERT_EQ(c, open.Entity(row, col)) << row << ", " << col;
            continue;
          }
          ++doors;
          ASSERT_EQ(open.Entity(row, col), ' ');
          // Across a wall between two odd cells: above and below for 'H',
          // left and right for 'I'. Both are floor; simplify may have
          // closed the side of the region numbered lower.
          const bool across_rows = c == 'H';
          ASSERT_EQ(row % 2 == 0, across_rows) << row << ", " << col;
          const int r1 = across_rows ? row - 1 : row, c1 = across_rows ? col : col - 1;
          const int r2 = across_rows ? row + 1 : row, c2 = across_rows ? col : col + 1;
          const int open_sides = (doored.Entity(r1, c1) != '*') + (doored.Entity(r2, c2) != '*');
          EXPECT_GE(open_sides, simplify ? 1 : 2)
              << "seed " << seed << " door at " << row << ", " << col << "\n"
              << doored.EntityLayer();
        }
      }
    }
  }
  EXPECT_GT(doors, 40);
}

TEST(GenerateMazeTest, LargestMazeIsConnected) {
  MazeOptions options;
  options.height = options.width = kMaxMazeSize;
  options.max_rooms = 26;
  options.room_max_size = 51;
  options.simplify = false;  // (simplifying this large a maze takes minutes)
  const MapLayers maze = Generate(options);
  EXPECT_EQ(maze.rows(), 1023);
  EXPECT_EQ(UnreachableFloorCells(maze), 0);
}

// Every wall between two regions draws its chance whatever the
// probability, so the same seed gives the same maze with more openings.
TEST(GenerateMazeTest, ExtraConnectionsOnlyOpenWallsBetweenOddCells) {
  MazeOptions options;
  options.height = 21;
  options.width = 41;
  options.max_rooms = 3;
  options.simplify = false;
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    options.extra_connection_probability = 0;
    const MapLayers fewest = Generate(options, seed);
    options.extra_connection_probability = 1;
    const MapLayers most = Generate(options, seed);
    EXPECT_GT(Count(most, ' '), Count(fewest, ' ')) << seed;
    for (int row = 0; row < most.rows(); ++row) {
      for (int col = 0; col < most.cols(); ++col) {
        if (fewest.Entity(row, col) == ' ') {
          EXPECT_EQ(most.Entity(row, col), ' ');
        } else if (most.Entity(row, col) == ' ') {
          EXPECT_EQ((row + col) % 2, 1) << "a wall between two odd cells: " << row << ", " << col;
        }
      }
    }
    EXPECT_EQ(most.VariationsLayer(), fewest.VariationsLayer());
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

// Each letter marks one room, as in DeepMind Lab: an odd-sized rectangle
// at odd coordinates, wholly floor, with sizes in the options' range; its
// walls and the corridors have none.
TEST(GenerateMazeTest, EachRoomHasItsOwnLetter) {
  MazeOptions options;
  options.height = options.width = 41;
  options.max_rooms = 6;
  options.room_min_size = 3;
  options.room_max_size = 7;
  int rooms_seen = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const MapLayers maze = Generate(options, seed);
    const std::map<char, Box> boxes = RoomNodeBoxes(maze);
    ASSERT_LE(boxes.size(), 6u);
    char expected = 'A';
    int lettered = 0;
    for (const auto& [letter, box] : boxes) {
      EXPECT_EQ(letter, expected++) << "letters are consecutive from 'A'";
      const int height = box.bottom - box.top + 1, width = box.right - box.left + 1;
      EXPECT_EQ(box.nodes, (height + 1) / 2 * ((width + 1) / 2)) << letter << " is a rectangle";
      EXPECT_GE(std::min(height, width), 3);
      EXPECT_LE(std::max(height, width), 7);
      for (int row = box.top; row <= box.bottom; ++row) {
        for (int col = box.left; col <= box.right; ++col) {
          ASSERT_EQ(maze.Variation(row, col), letter) << row << ", " << col;
          ASSERT_NE(maze.Entity(row, col), '*') << "a room is floor throughout";
          ++lettered;
        }
      }
    }
    const std::string variations = maze.VariationsLayer();
    EXPECT_EQ(variations.size() - std::count(variations.begin(), variations.end(), '.') -
                  maze.rows(),
              static_cast<std::size_t>(lettered))
        << "nothing but the rooms is lettered\n"
        << variations;
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
    const MapLayers maze = Generate(options, seed);
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
  const MapLayers one_letter = Generate(options, 3);
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
    const MapLayers maze = Generate(options, seed);
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
  options.height = options.width = 7;  // 9 odd cells: at least 17 floor cells
  options.spawns = 2;
  options.apples = 14;
  options.goal = true;
  // The fewest: one room of one cell, a corridor tree over the other 8,
  // and one opening between them.
  options.max_rooms = 1;
  options.room_min_size = options.room_max_size = 1;
  options.extra_connection_probability = 0;
  options.simplify = false;
  const MapLayers maze = Generate(options);
  EXPECT_EQ(Count(maze, ' '), 0);
  EXPECT_EQ(Count(maze, 'A'), 14);
  options.apples = 15;
  EXPECT_EQ(GenerateMaze(options).status().message(),
            "spawns + apples + goal = 18 exceed the 17 floor cells that every 7 x 7 maze has");
  // Simplified mazes have fewer: GenerateMaze counts them.
  options.simplify = true;
  options.apples = 14;
  EXPECT_THAT(std::string(GenerateMaze(options).status().message()),
              ::testing::MatchesRegex("spawns \\+ apples \\+ goal = 17 exceed the [0-9]+ floor "
                                      "cells that simplify and the rooms' entities left"));
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
       "max_rooms must be >= 0, got -1",
       "maxRooms must be >= 0, got -1"},
      {{.room_min_size = 0},
       "room_min_size must be odd and >= 1, got 0",
       "roomMinSize must be odd and >= 1, got 0"},
      {{.room_max_size = 4},
       "room_max_size must be odd and >= 1, got 4",
       "roomMaxSize must be odd and >= 1, got 4"},
      {{.room_max_size = 11},
       "room_max_size and room_min_size must be at most height - 2 and width - 2, got 11 for a "
       "11 x 11 maze",
       "roomMaxSize and roomMinSize must be at most height - 2 and width - 2, got 11 for a 11 x 11 "
       "maze"},
      {{.room_min_size = 13, .room_max_size = 3},
       "room_max_size and room_min_size must be at most height - 2 and width - 2, got 13 for a "
       "11 x 11 maze",
       "roomMaxSize and roomMinSize must be at most height - 2 and width - 2, got 13 for a 11 x 11 "
       "maze"},
      {{.retry_count = 0},
       "retry_count must be in [1, 1000000], got 0",
       "retryCount must be in [1, 1000000], got 0"},
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
      {{.simplify = false, .apples = 2147483647, .spawns = 2147483647},
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

// DeepMind Lab draws a room's sides from min up to max; a min above max
// gives rooms of min.
TEST(ValidateMazeOptionsTest, ARoomMinimumAboveTheMaximumIsTheSize) {
  MazeOptions options;
  options.room_min_size = 5;
  options.room_max_size = 3;
  options.height = options.width = 31;
  EXPECT_TRUE(ValidateMazeOptions(options).ok());
  const std::map<char, Box> boxes = RoomNodeBoxes(Generate(options));
  ASSERT_FALSE(boxes.empty()) << "rooms are placed";
  for (const auto& [letter, box] : boxes) {
    EXPECT_EQ(box.bottom - box.top, 4) << letter << ": every room is 5 x 5";
    EXPECT_EQ(box.right - box.left, 4) << letter;
  }
}

}  // namespace
}  // namespace hosts::maze
