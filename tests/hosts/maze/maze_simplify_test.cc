// DeepMind Lab's simplify: dead ends filled back to their junction,
// horseshoe bends cut short, and in generated mazes nothing cut off.
#include "hosts/maze/maze_simplify.h"

#include <algorithm>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hosts/maze/maze_generation.h"
#include "lua_api/tensor/random.h"

namespace hosts::maze {
namespace {

std::string Simplified(const std::vector<std::string>& rows) {
  std::string layer = absl::StrJoin(rows, "\n") + "\n";
  EXPECT_TRUE(
      SimplifyMaze(static_cast<int>(rows.size()), static_cast<int>(rows[0].size()), &layer).ok());
  return layer;
}

// The expected layers are what DeepMind Lab's own RemoveDeadEnds and
// RemoveAllHorseshoeBends (its algorithm.cc, built here) printed.
TEST(MazeSimplifyTest, DeadEndsAreFilledBackToTheirJunction) {
  // A ring around a block, and a corridor off its top right that ends.
  EXPECT_EQ(
      Simplified({"*********", "*       *", "* *** * *", "* *** * *", "*     * *", "*********"}),
      // The spur goes; then bends of the ring go, one a pass, the first
      // met row by row, until a small ring is left.
      "*********\n"
      "*********\n"
      "*   *****\n"
      "* * *****\n"
      "*   *****\n"
      "*********\n");
}

TEST(MazeSimplifyTest, AHorseshoeBendIsCutShort) {
  // Rooms A (bottom left) and B (right) joined by a corridor that bends
  // up and back down around one wall cell.
  EXPECT_EQ(
      Simplified({"*********", "***   ***", "*** * *  ", "*   *    ", "  *******", "  *******"}),
      "*********\n"
      "*********\n"
      "*******  \n"
      "*        \n"
      "  *******\n"
      "  *******\n");
  // A cell on the edge counts its neighbours inside the layer only: a
  // corridor to the edges is a dead end.
  EXPECT_EQ(Simplified({"*****", "     ", "*****"}), "*****\n*****\n*****\n");
}

// Every floor cell of `layers` reachable from every other.
bool Connected(const MapLayers& layers) {
  const std::string text = layers.EntityLayer();
  std::vector<std::string> rows;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find('\n', start)) != std::string::npos; start = at + 1) {
    rows.push_back(text.substr(start, at - start));
  }
  std::vector<std::vector<bool>> seen(rows.size(), std::vector<bool>(rows[0].size()));
  std::deque<std::pair<int, int>> queue;
  int floor = 0;
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    for (int c = 0; c < static_cast<int>(rows[r].size()); ++c) {
      if (rows[r][c] == '*') continue;
      ++floor;
      if (queue.empty()) {
        queue.push_back({r, c});
        seen[r][c] = true;
      }
    }
  }
  int reached = 0;
  while (!queue.empty()) {
    const auto [r, c] = queue.front();
    queue.pop_front();
    ++reached;
    for (const auto& [dr, dc] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
      const int nr = r + dr, nc = c + dc;
      if (nr < 0 || nc < 0 || nr >= static_cast<int>(rows.size()) ||
          nc >= static_cast<int>(rows[nr].size()) || rows[nr][nc] == '*' || seen[nr][nc]) {
        continue;
      }
      seen[nr][nc] = true;
      queue.push_back({nr, nc});
    }
  }
  return reached == floor && floor > 0;
}

TEST(MazeSimplifyTest, GeneratedMazesStayConnectedWithoutDeadEnds) {
  for (int seed = 0; seed < 200; ++seed) {
    MazeOptions options;
    options.height = 21;
    options.width = 31;
    options.max_rooms = 5;
    options.has_doors = seed % 2 == 0;
    options.simplify = true;
    lua_api::LuaRandom random(seed);
    absl::StatusOr<MapLayers> layers = GenerateMaze(options, random);
    ASSERT_TRUE(layers.ok()) << seed << ": " << layers.status();
    const std::string simplified = layers->EntityLayer();
    EXPECT_TRUE(Connected(*layers)) << seed << "\n" << simplified;
    options.simplify = false;
    random.Seed(seed);
    absl::StatusOr<MapLayers> plain = GenerateMaze(options, random);
    ASSERT_TRUE(plain.ok());
    const std::string unsimplified = plain->EntityLayer();
    EXPECT_GE(std::count(simplified.begin(), simplified.end(), '*'),
              std::count(unsimplified.begin(), unsimplified.end(), '*'))
        << "simplifying never adds floor";
  }
}

}  // namespace
}  // namespace hosts::maze
