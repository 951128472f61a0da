// DeepMind Lab's text levels as .map text (hosts/dmlab/text_level.h): the
// geometry DeepMind Lab's translator makes, in game units, so that a level
// plays the same on this host as under DeepMind's context.
#include "hosts/dmlab/text_level.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hosts::dmlab {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// No callback: every cell goes to the defaults.
absl::StatusOr<std::optional<std::vector<std::string>>> Defaults(int, int, char, MapMaker&) {
  return std::nullopt;
}

absl::StatusOr<std::string> Translate(const std::string& entities, TextLevelSettings settings = {},
                                      const CellCallback& callback = Defaults,
                                      std::uint64_t seed = 1) {
  DefaultTheme theme;
  lua_api::LuaRandom random(seed);
  return TranslateTextLevel(entities, "", settings, theme, &random, callback);
}

int Count(const std::string& text, const std::string& part) {
  int count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

// The brushes of the world entity (the text up to the first point entity);
// its patches (decals) are not brushes.
int WorldBrushes(const std::string& map) {
  return Count(map.substr(0, map.find("\n\n")), "\n  {\n    ( ");
}

TEST(TextLevelTest, ARoomOfOneCellHasFourWallsAFloorACeilingAndASpawnPoint) {
  absl::StatusOr<std::string> map = Translate("***\n*P*\n***\n");
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(WorldBrushes(*map), 6);
  EXPECT_THAT(*map, HasSubstr("\"classname\" \"worldspawn\"\n  \"light\" \"100\"\n"
                              "  \"worldtype\" \"2\""));
  // The cell is x, y in [100, 200] (y up from the bottom row), its spawn
  // point 30 units above the floor.
  EXPECT_THAT(*map, HasSubstr("\"classname\" \"info_player_start\"\n  \"origin\" \"150 150 30\""));
  // The north wall: one unit thick inside the cell, as high as a cell.
  EXPECT_THAT(*map, HasSubstr("    ( 0 199 0 ) ( 0 199 32 ) ( 32 199 0 ) "
                              "map/lab_games/lg_style_01_wall_green 0 0 0 0.0976562 0.0976562 "
                              "0 0 0\n"
                              "    ( 0 200 0 ) ( 32 200 0 ) ( 0 200 32 )"));
  EXPECT_THAT(*map, HasSubstr("    ( 0 0 100 ) ( 0 32 100 ) ( 32 0 100 ) "
                              "map/lab_games/lg_style_01_wall_green"));
  // The floor is a unit thick; the ceiling's underside is at 99.
  EXPECT_THAT(*map, HasSubstr("( 0 0 1 ) ( 0 32 1 ) ( 32 0 1 ) "
                              "map/lab_games/lg_style_01_floor_orange"));
  EXPECT_THAT(*map, HasSubstr("( 0 0 99 ) ( 32 0 99 ) ( 0 32 99 ) map/lab_games/fake_sky"));
}

TEST(TextLevelTest, WithoutAThemeEveryWallHasDeepMindLabsDecal) {
  absl::StatusOr<std::string> map = Translate("***\n*P*\n***\n");
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(Count(*map, "patchDef2\n    {\n      decal/lab_games/dec_img_style01_001\n"), 4);
  // The north wall's: a 32-unit square 2 units off the wall, turned 90
  // degrees about the wall's normal.
  EXPECT_THAT(*map, HasSubstr("( ( 166 198 34 0 1 ) ( 150 198 34 0 0.5 ) ( 134 198 34 0 0 ) )"));
}

TEST(TextLevelTest, LightsHangAboveEveryOtherCellWithStrengthsFromTheGenerator) {
  // A corridor of four cells, the bottom row y = 1: cells x = 1..4, lit
  // where x + y is even.
  const std::string text = "******\n*    *\n******\n";
  absl::StatusOr<std::string> map = Translate(text, {}, Defaults, 42);
  ASSERT_TRUE(map.ok()) << map.status();
  lua_api::LuaRandom random(42);
  for (int x : {1, 3}) {
    EXPECT_THAT(*map, HasSubstr(absl::StrCat("\"classname\" \"light\"\n  \"light\" \"",
                                             random.UniformInt(10, 19) * 5, "\"\n  \"origin\" \"",
                                             x * 100 + 50, " 150 70\"")));
  }
  EXPECT_EQ(Count(*map, "\"classname\" \"light\""), 2);
  // Another seed, other strengths; the same seed, the same map.
  EXPECT_EQ(*map, *Translate(text, {}, Defaults, 42));
  EXPECT_NE(*map, *Translate(text, {}, Defaults, 43));
}

TEST(TextLevelTest, WallsStandOnlyWhereAFloorCellMeetsWallOrTheEdge) {
  // Two cells side by side: six walls (no wall between them), two floors,
  // two ceilings. A short line's missing cells are wall; empty lines are
  // dropped, as DeepMind Lab reads them.
  absl::StatusOr<std::string> two = Translate("****\n*  *\n****\n");
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(WorldBrushes(*two), 10);
  absl::StatusOr<std::string> ragged = Translate("\n****\n\n*  \n\n****\n\n");
  ASSERT_TRUE(ragged.ok()) << ragged.status();
  EXPECT_EQ(*ragged, *two);
}

TEST(TextLevelTest, TheLevelsCallbackPlacesEntitiesAndTheDefaultsTheRest) {
  CellCallback callback = [](int i, int j, char c, MapMaker& maker)
      -> absl::StatusOr<std::optional<std::vector<std::string>>> {
    if (c == 'A') {
      return std::vector<std::string>{
          maker.Entity(i, j, 0, "apple_reward", {{"id", "7"}}),
          maker.SpawnPoint(i, j, 1, 1.5707963267948966), ""};
    }
    return std::nullopt;
  };
  absl::StatusOr<std::string> map = Translate("*****\n*P A*\n*****\n", {}, callback);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_THAT(*map, HasSubstr("\"classname\" \"apple_reward\"\n  \"id\" \"7\"\n"
                              "  \"origin\" \"350 150 30\""));
  // Height 1 is 20 units up; the angle in degrees.
  EXPECT_THAT(*map, HasSubstr("\"classname\" \"info_player_start\"\n  \"angle\" \"90\"\n"
                              "  \"origin\" \"350 150 50\""));
  EXPECT_THAT(*map, HasSubstr("\"classname\" \"info_player_start\"\n  \"origin\" \"150 150 30\""));
  EXPECT_EQ(Count(*map, "info_player_start"), 2);
}

TEST(TextLevelTest, DoorsAreFuncDoorsBetweenTwoTriggers) {
  absl::StatusOr<std::string> map = Translate("*****\n* I *\n*****\n");
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_THAT(*map, HasSubstr("\"classname\" \"func_door\"\n  \"angle\" \"90\"\n"
                              "  \"targetname\" \"door_2_1\""));
  EXPECT_EQ(Count(*map, "\"classname\" \"trigger_multiple\"\n  \"target\" \"door_2_1\""), 2);
  EXPECT_THAT(*map, HasSubstr("map/fut_door_d"));
  // 'H' runs the other way.
  EXPECT_THAT(*Translate("***\n* *\n*H*\n* *\n***\n"), HasSubstr("\"angle\" \"0\""));
}

TEST(TextLevelTest, ASkyBoxReplacesTheCeilings) {
  TextLevelSettings settings;
  settings.skybox = "map/lab_games/sky/lg_sky_03";
  absl::StatusOr<std::string> map = Translate("***\n*P*\n***\n", settings);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_THAT(*map, Not(HasSubstr("fake_sky")));
  EXPECT_THAT(*map, HasSubstr("\"classname\" \"_skybox\""));
  for (const char* side : {"_up", "_dn", "_lf", "_rt", "_ft", "_bk"}) {
    EXPECT_THAT(*map, HasSubstr(absl::StrCat("map/lab_games/sky/lg_sky_03", side, " ")));
  }
  // The cell's walls and floor, then the hollow box round the map and the
  // sky box's six sides.
  EXPECT_EQ(WorldBrushes(*map), 5 + 6 + 6);
}

TEST(TextLevelTest, PlatformsAndGlassColumnsAreWorldBrushes) {
  CellCallback callback = [](int i, int j, char c, MapMaker& maker)
      -> absl::StatusOr<std::optional<std::vector<std::string>>> {
    if (c == 'p') maker.Platform(i, j, 2);
    if (c == 'g') maker.GlassColumn(i, j, 3);
    return std::vector<std::string>{};
  };
  absl::StatusOr<std::string> map = Translate("****\n*pg*\n****\n", {}, callback);
  ASSERT_TRUE(map.ok()) << map.status();
  // Two cells' 6 walls, 2 floors, 2 ceilings; a platform's 3; a column.
  EXPECT_EQ(WorldBrushes(*map), 10 + 3 + 1);
  EXPECT_THAT(*map, HasSubstr("map/lab_games/lg_style_02_wall_blue"));  // the riser
  EXPECT_THAT(*map, HasSubstr("( 0 0 60 ) ( 0 32 60 ) ( 32 0 60 ) map/poltergeist"));
}

TEST(TextLevelTest, ErrorsOfTheMapTheThemeAndTheCallbackFailTheTranslation) {
  EXPECT_THAT(Translate("***\n*\x01*\n***\n").status().message(), HasSubstr("line 2, column 2"));
  const std::string huge(300, ' ');
  std::string big;
  for (int i = 0; i < 300; ++i) big += huge + "\n";
  EXPECT_THAT(Translate(big).status().message(), HasSubstr("300 x 300 cells; at most 65536"));
  CellCallback failing = [](int, int, char, MapMaker&)
      -> absl::StatusOr<std::optional<std::vector<std::string>>> {
    return absl::InvalidArgumentError("the callback failed");
  };
  EXPECT_THAT(Translate("***\n*P*\n***\n", {}, failing).status().message(),
              HasSubstr("the callback failed"));

  class FailingTheme final : public Theme {
   public:
    absl::StatusOr<ThemeTexture> Floor(int) override { return ThemeTexture{}; }
    absl::StatusOr<ThemeTexture> Ceiling(int) override { return ThemeTexture{}; }
    absl::StatusOr<ThemeTexture> Wall(int, WallSide) override {
      return absl::InvalidArgumentError("no walls today");
    }
    absl::StatusOr<ThemeTexture> Riser() override { return ThemeTexture{}; }
    absl::StatusOr<ThemeTexture> Tread() override { return ThemeTexture{}; }
    absl::StatusOr<std::vector<std::pair<int, ThemeTexture>>> WallDecals(
        const std::vector<WallSpot>&) override {
      return std::vector<std::pair<int, ThemeTexture>>{};
    }
    absl::StatusOr<std::vector<std::pair<int, ThemeModel>>> FloorModels(
        const std::vector<FloorSpot>&) override {
      return std::vector<std::pair<int, ThemeModel>>{};
    }
  } theme;
  lua_api::LuaRandom random(1);
  EXPECT_THAT(TranslateTextLevel("***\n*P*\n***\n", "", {}, theme, &random, Defaults)
                  .status()
                  .message(),
              HasSubstr("no walls today"));
}

}  // namespace
}  // namespace hosts::dmlab
