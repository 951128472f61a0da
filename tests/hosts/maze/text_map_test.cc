#include "hosts/maze/text_map.h"

#include <cmath>
#include <fstream>
#include <queue>
#include <sstream>
#include <string>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hosts::maze {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kCorridor[] = "*****\n*P A*\n*****\n";

std::string ParseError(absl::string_view entity, absl::string_view variations = {}) {
  absl::StatusOr<TextMap> map = TextMap::Parse(entity, variations);
  EXPECT_FALSE(map.ok());
  if (map.ok()) return "";
  EXPECT_EQ(map.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(map.status().message());
}

TEST(TextMapTest, ParsesEntitiesInReadingOrder) {
  absl::StatusOr<TextMap> map = TextMap::Parse("*******\n*P A G*\n* P   *\n*******\n");
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(map->rows(), 4);
  EXPECT_EQ(map->cols(), 7);
  EXPECT_THAT(map->spawns(), ElementsAre(GridCell{1, 1}, GridCell{2, 2}));
  ASSERT_EQ(map->pickups().size(), 2u);
  EXPECT_EQ(map->pickups()[0].kind, PickupKind::kReward);
  EXPECT_EQ(map->pickups()[0].cell, (GridCell{1, 3}));
  EXPECT_EQ(map->pickups()[1].kind, PickupKind::kGoal);
  EXPECT_EQ(map->pickups()[1].cell, (GridCell{1, 5}));
  EXPECT_TRUE(map->IsWall(0, 0));
  EXPECT_FALSE(map->IsWall(1, 1)) << "a spawn stands on floor";
  EXPECT_FALSE(map->IsWall(1, 3)) << "so does a pickup";
  EXPECT_FALSE(map->IsWall(2, 5));
}

TEST(TextMapTest, OutsideTheMapIsWallWithoutVariation) {
  absl::StatusOr<TextMap> map = TextMap::Parse(" P \n", "AAA\n");
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_FALSE(map->IsWall(0, 0));
  for (const auto& [row, col] : {std::pair{-1, 0}, std::pair{1, 0}, std::pair{0, -1},
                                std::pair{0, 3}, std::pair{-100000, 100000}}) {
    EXPECT_TRUE(map->IsWall(row, col)) << row << ", " << col;
    EXPECT_EQ(map->Variation(row, col), 0) << row << ", " << col;
  }
}

TEST(TextMapTest, ShortRowsArePaddedWithWall) {
  absl::StatusOr<TextMap> map = TextMap::Parse("*****\n*P\n\n* A *\n");
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(map->rows(), 4);
  EXPECT_EQ(map->cols(), 5);
  EXPECT_TRUE(map->IsWall(1, 2));
  EXPECT_TRUE(map->IsWall(2, 0)) << "an empty line is a row of wall";
  EXPECT_EQ(map->EntityLayer(), "*****\n*P***\n*****\n* A *\n");
}

TEST(TextMapTest, AcceptsCrLfAndNoFinalNewline) {
  absl::StatusOr<TextMap> crlf = TextMap::Parse("*****\r\n*P A*\r\n*****\r\n", "..B\r\n");
  absl::StatusOr<TextMap> bare = TextMap::Parse("*****\n*P A*\n*****", "..B");
  ASSERT_TRUE(crlf.ok()) << crlf.status();
  ASSERT_TRUE(bare.ok()) << bare.status();
  EXPECT_EQ(crlf->rows(), 3) << "a final newline makes no extra row";
  EXPECT_EQ(bare->rows(), 3);
  EXPECT_EQ(crlf->EntityLayer(), kCorridor);
  EXPECT_EQ(bare->EntityLayer(), kCorridor);
  EXPECT_EQ(crlf->VariationsLayer(), bare->VariationsLayer());
  EXPECT_EQ(crlf->Variation(0, 2), 'B');
}

TEST(TextMapTest, VariationsTreatDotSpaceAndMissingAsNone) {
  absl::StatusOr<TextMap> map = TextMap::Parse(kCorridor, "AB. C\nZ\n");
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(map->Variation(0, 0), 'A');
  EXPECT_EQ(map->Variation(0, 1), 'B');
  EXPECT_EQ(map->Variation(0, 2), 0);
  EXPECT_EQ(map->Variation(0, 3), 0);
  EXPECT_EQ(map->Variation(0, 4), 'C');
  EXPECT_EQ(map->Variation(1, 0), 'Z');
  EXPECT_EQ(map->Variation(1, 1), 0) << "missing";
  EXPECT_EQ(map->Variation(2, 4), 0) << "missing row";
  EXPECT_EQ(map->VariationsLayer(), "AB..C\nZ....\n.....\n");
}

TEST(TextMapTest, NormalisedLayersParseBackToTheSameMap) {
  absl::StatusOr<TextMap> map = TextMap::Parse("*****\n*P A\n* G*\n", "  A\n.BB. \r\n");
  ASSERT_TRUE(map.ok()) << map.status();
  const std::string entity = map->EntityLayer();
  const std::string variations = map->VariationsLayer();
  EXPECT_EQ(entity, "*****\n*P A*\n* G**\n");
  EXPECT_EQ(variations, "..A..\n.BB..\n.....\n");
  absl::StatusOr<TextMap> again = TextMap::Parse(entity, variations);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->EntityLayer(), entity);
  EXPECT_EQ(again->VariationsLayer(), variations);
  EXPECT_EQ(again->spawns(), map->spawns());
}

TEST(TextMapTest, CellCentreFollowsTheHeaderConvention) {
  absl::StatusOr<TextMap> map = TextMap::Parse(kCorridor);
  ASSERT_TRUE(map.ok()) << map.status();
  const WorldPoint apple = map->CellCentre({1, 3});
  EXPECT_DOUBLE_EQ(apple.x, 3.5);
  EXPECT_DOUBLE_EQ(apple.y, 1.5);
  const WorldPoint top_left = map->CellCentre({0, 0});
  EXPECT_DOUBLE_EQ(top_left.x, 0.5);
  EXPECT_DOUBLE_EQ(top_left.y, 2.5) << "y grows towards row 0";
}

TEST(TextMapTest, CellAtInvertsCellCentreAndCoversHalfOpenSquares) {
  absl::StatusOr<TextMap> map = TextMap::Parse("*****\n*P A*\n*   *\n*****\n");
  ASSERT_TRUE(map.ok()) << map.status();
  for (int row = 0; row < map->rows(); ++row) {
    for (int col = 0; col < map->cols(); ++col) {
      EXPECT_EQ(map->CellAt(map->CellCentre({row, col})), (GridCell{row, col}));
    }
  }
  // Cell (1, 3) covers x in [3, 4) and y in [2, 3).
  EXPECT_EQ(map->CellAt({3.0, 2.0}), (GridCell{1, 3}));
  EXPECT_EQ(map->CellAt({3.999, 2.999}), (GridCell{1, 3}));
  EXPECT_EQ(map->CellAt({4.0, 3.0}), (GridCell{0, 4}));
  EXPECT_EQ(map->CellAt({-0.5, -0.5}), (GridCell{4, -1})) << "outside: below and left";
}

TEST(TextMapTest, CellAtFarOutsideStaysOutside) {
  absl::StatusOr<TextMap> map = TextMap::Parse(kCorridor);
  ASSERT_TRUE(map.ok()) << map.status();
  for (const WorldPoint point : {WorldPoint{1e300, -1e300}, WorldPoint{-1e300, 1e300},
                                 WorldPoint{std::nan(""), std::nan("")}}) {
    const GridCell cell = map->CellAt(point);
    EXPECT_TRUE(map->IsWall(cell.row, cell.col));
    EXPECT_TRUE(cell.row < 0 || cell.row >= map->rows());
    EXPECT_TRUE(cell.col < 0 || cell.col >= map->cols());
  }
}

TEST(TextMapTest, UnknownEntityNamesLineColumnAndCharacter) {
  EXPECT_EQ(ParseError("*****\n*P \x01*\n*****\n"),
            "entity layer line 2, column 4: unknown character '\\x01'; expected a printable "
            "ASCII character ('*' wall; 'P', 'A', 'G', 'I', 'H' and any other on floor)");
  EXPECT_THAT(ParseError("*P\t*\n"), HasSubstr("line 1, column 3: unknown character '\\t'"));
  EXPECT_THAT(ParseError("*P*\r*\n"), HasSubstr("line 1, column 4: unknown character '\\r'"))
      << "only a '\\r' before '\\n' ends a line";
}

// As in DeepMind Lab: any other printable character is floor, without an
// entity (a level's map_maker callback gives such characters a meaning).
TEST(TextMapTest, OtherPrintableCharactersAreFloor) {
  absl::StatusOr<TextMap> map = TextMap::Parse("O....O\n..PP..\nOx~.aO\n");
  ASSERT_TRUE(map.ok()) << map.status();
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 6; ++col) EXPECT_FALSE(map->IsWall(row, col)) << row << ", " << col;
  }
  EXPECT_EQ(map->spawns().size(), 2u);
  EXPECT_TRUE(map->pickups().empty());
  EXPECT_EQ(map->EntityLayer(), "O....O\n..PP..\nOx~.aO\n");
}

TEST(TextMapTest, UnknownVariationNamesLineColumnAndCharacter) {
  EXPECT_EQ(ParseError(kCorridor, "..\nA.\t\n"),
            "variations layer line 2, column 3: unknown character '\\t'; expected a printable "
            "ASCII character ('A'..'Z' colour a region; '.', ' ' and the rest do not)");
}

// As in DeepMind Lab: only letters colour; levels mark cells with the rest.
TEST(TextMapTest, OtherVariationCharactersColourNothing) {
  absl::StatusOr<TextMap> map = TextMap::Parse(kCorridor, "#b*\nA.b\n");
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(map->Variation(0, 0), 0);
  EXPECT_EQ(map->Variation(0, 1), 0);
  EXPECT_EQ(map->Variation(1, 0), 'A');
  EXPECT_EQ(map->Variation(1, 2), 0);
}

TEST(TextMapTest, VariationLetterOutsideTheEntityLayerIsAnError) {
  EXPECT_THAT(ParseError(kCorridor, ".....A\n"),
              HasSubstr("variations layer line 1, column 6: 'A' lies outside the entity layer"));
  EXPECT_THAT(ParseError(kCorridor, "\n\n\nA\n"), HasSubstr("line 4, column 1"));
  EXPECT_TRUE(TextMap::Parse(kCorridor, "........\n\n\n\n. .\n").ok())
      << "no variation outside the map colours nothing, so it is allowed";
}

TEST(TextMapTest, MapWithoutSpawnIsAnError) {
  EXPECT_EQ(ParseError("*****\n* A *\n*****\n"), "the map has no spawn point ('P')");
  EXPECT_EQ(ParseError(""), "the map has no spawn point ('P')");
}

TEST(TextMapTest, SizeLimitIs1024Square) {
  std::string rows = "P" + std::string(1023, '*') + "\n";
  for (int i = 1; i < 1024; ++i) rows += std::string(1024, '*') + "\n";
  absl::StatusOr<TextMap> biggest = TextMap::Parse(rows);
  ASSERT_TRUE(biggest.ok()) << biggest.status();
  EXPECT_EQ(biggest->rows(), 1024);
  EXPECT_EQ(biggest->cols(), 1024);
  EXPECT_EQ(ParseError(rows + "*\n"), "entity layer: more than 1024 lines, the limit");
  EXPECT_EQ(ParseError("P\n" + std::string(1025, '*')),
            "entity layer line 2: 1025 columns; the limit is 1024");
}

// levels/maps/NAME.txt and, if `variations`, NAME.variations.txt (test data).
absl::StatusOr<TextMap> ShippedMap(const std::string& name, bool variations) {
  const auto read = [](const std::string& path) {
    std::ifstream file("levels/maps/" + path, std::ios::binary);
    EXPECT_TRUE(file.good()) << path;
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
  };
  return TextMap::Parse(read(name + ".txt"), variations ? read(name + ".variations.txt") : "");
}

// Floor cells that the first spawn cannot reach.
int Unreachable(const TextMap& map) {
  std::vector<char> seen(static_cast<std::size_t>(map.rows()) * map.cols(), 0);
  std::queue<GridCell> queue;
  queue.push(map.spawns()[0]);
  seen[map.spawns()[0].row * map.cols() + map.spawns()[0].col] = 1;
  int unreached = 0;
  for (int row = 0; row < map.rows(); ++row) {
    for (int col = 0; col < map.cols(); ++col) unreached += !map.IsWall(row, col);
  }
  while (!queue.empty()) {
    const GridCell cell = queue.front();
    queue.pop();
    --unreached;
    for (const GridCell next : {GridCell{cell.row - 1, cell.col}, GridCell{cell.row + 1, cell.col},
                                GridCell{cell.row, cell.col - 1}, GridCell{cell.row, cell.col + 1}}) {
      if (map.IsWall(next.row, next.col) || seen[next.row * map.cols() + next.col]) continue;
      seen[next.row * map.cols() + next.col] = 1;
      queue.push(next);
    }
  }
  return unreached;
}

TEST(ShippedMapsTest, ParseAndMatchTheirDescriptions) {
  absl::StatusOr<TextMap> demo = ShippedMap("demo_maze", true);
  ASSERT_TRUE(demo.ok()) << demo.status();
  EXPECT_EQ(demo->spawns().size(), 1u);
  int apples = 0, goals = 0;
  for (const MapPickup& pickup : demo->pickups()) {
    (pickup.kind == PickupKind::kReward ? apples : goals) += 1;
  }
  EXPECT_GE(apples, 4);
  EXPECT_LE(apples, 8);
  EXPECT_EQ(goals, 1);
  EXPECT_EQ(Unreachable(*demo), 0);
  for (int row = 0; row < demo->rows(); ++row) {
    EXPECT_TRUE(demo->IsWall(row, 0) && demo->IsWall(row, demo->cols() - 1)) << "enclosed";
  }
  for (int col = 0; col < demo->cols(); ++col) {
    EXPECT_TRUE(demo->IsWall(0, col) && demo->IsWall(demo->rows() - 1, col)) << "enclosed";
  }
  const std::string variations = demo->VariationsLayer();
  EXPECT_NE(variations.find('C'), std::string::npos) << "three coloured rooms";

  absl::StatusOr<TextMap> corridor = ShippedMap("corridor", false);
  ASSERT_TRUE(corridor.ok()) << corridor.status();
  EXPECT_EQ(corridor->rows(), 3);
  EXPECT_EQ(corridor->spawns()[0], (GridCell{1, 1}));
  EXPECT_EQ(Unreachable(*corridor), 0);

  absl::StatusOr<TextMap> room = ShippedMap("open_room", false);
  ASSERT_TRUE(room.ok()) << room.status();
  EXPECT_EQ(room->spawns()[0], (GridCell{room->rows() / 2, room->cols() / 2}));
  EXPECT_TRUE(room->pickups().empty());
}

TEST(MapLayersTest, ParseNeedsNoSpawn) {
  absl::StatusOr<MapLayers> layers = MapLayers::Parse("***\n* *\n", "A\n");
  ASSERT_TRUE(layers.ok()) << layers.status();
  EXPECT_EQ(layers->rows(), 2);
  EXPECT_EQ(layers->cols(), 3);
  EXPECT_EQ(layers->Entity(1, 1), ' ');
  EXPECT_EQ(layers->Variation(0, 0), 'A');
  EXPECT_EQ(layers->Variation(0, 1), '.');
  EXPECT_EQ(layers->Entity(5, 5), '*') << "outside is wall";
  EXPECT_EQ(layers->Variation(-1, 0), '.');
  EXPECT_THAT(std::string(MapLayers::Parse("*\x7f*").status().message()),
              HasSubstr("entity layer line 1, column 2: unknown character '\\x7f'"));
}

TEST(MapLayersTest, WallsThenEditBecomesAPlayableMap) {
  absl::StatusOr<MapLayers> layers = MapLayers::Walls(3, 4);
  ASSERT_TRUE(layers.ok()) << layers.status();
  EXPECT_EQ(layers->EntityLayer(), "****\n****\n****\n");
  EXPECT_EQ(layers->VariationsLayer(), "....\n....\n....\n");
  EXPECT_EQ(TextMap::FromLayers(*layers).status().message(), "the map has no spawn point ('P')");
  ASSERT_TRUE(layers->SetEntity(1, 1, 'P').ok());
  ASSERT_TRUE(layers->SetEntity(1, 2, 'G').ok());
  ASSERT_TRUE(layers->SetVariation(1, 1, 'Q').ok());
  ASSERT_TRUE(layers->SetVariation(1, 2, ' ').ok());
  EXPECT_EQ(layers->Variation(1, 2), '.') << "' ' is stored as none";
  absl::StatusOr<TextMap> map = TextMap::FromLayers(*layers);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_THAT(map->spawns(), ElementsAre(GridCell{1, 1}));
  EXPECT_EQ(map->Variation(1, 1), 'Q');
  EXPECT_EQ(map->EntityLayer(), "****\n*PG*\n****\n");
}

TEST(MapLayersTest, EditErrorsNameTheCellOrTheCharacter) {
  absl::StatusOr<MapLayers> layers = MapLayers::Walls(3, 4);
  ASSERT_TRUE(layers.ok()) << layers.status();
  EXPECT_EQ(layers->SetEntity(3, 0, 'P').message(), "cell (3, 0) is outside the 3 x 4 map");
  EXPECT_EQ(layers->SetVariation(0, -1, 'A').message(), "cell (0, -1) is outside the 3 x 4 map");
  EXPECT_EQ(layers->SetEntity(0, 0, '\n').message(),
            "unknown entity '\\n'; expected a printable ASCII character ('*' wall; 'P', 'A', "
            "'G', 'I', 'H' and any other on floor)");
  EXPECT_EQ(layers->SetVariation(0, 0, '\x7f').message(),
            "unknown variation '\\x7f'; expected a printable ASCII character ('A'..'Z' colour a "
            "region; '.', ' ' and the rest do not)");
  EXPECT_EQ(layers->EntityLayer(), "****\n****\n****\n") << "a failed edit changes nothing";
}

TEST(MapLayersTest, WallsChecksItsSize) {
  EXPECT_TRUE(MapLayers::Walls(1024, 1).ok());
  for (const auto& [rows, cols] : {std::pair{0, 5}, std::pair{5, 0}, std::pair{1025, 5},
                                  std::pair{-1, -1}}) {
    absl::StatusOr<MapLayers> layers = MapLayers::Walls(rows, cols);
    EXPECT_EQ(layers.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(layers.status().message(), HasSubstr("each side must be in [1, 1024]"));
  }
}

}  // namespace
}  // namespace hosts::maze
