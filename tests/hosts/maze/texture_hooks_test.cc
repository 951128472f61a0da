// DeepMind Lab's texture callbacks on the maze host: each map's surfaces
// load through replaceTextureName, loadTexture and modifyTexture (the
// image lent for that call only), game:updateTexture replaces one later,
// the raycaster draws what they made, and bad answers are errors naming
// the texture.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

constexpr char kFloor[] = "textures/map/lab_games/lg_floor_placeholder_0_d.tga";

using ::testing::HasSubstr;

constexpr char kLevel[] = R"(
local tensor = require 'dmlab.system.tensor'
local game = require 'dmlab.system.game'
local api = {seen = {}}
local FLOOR = 'textures/map/lab_games/lg_floor_placeholder_0_d.tga'
local function see(...) api.seen[#api.seen + 1] = table.concat({...}, ' ') end
-- Looking along a corridor: walls on both sides, floor and ceiling ahead.
function api:nextMap() return "**********\n*P       *\n**********\n" end
function api:readProperty(key) return table.concat(api.seen, ',') end
%s
return api
)";

std::string Source(const std::string& callbacks) {
  char source[8192];
  std::snprintf(source, sizeof source, kLevel, callbacks.c_str());
  return source;
}

std::unique_ptr<Engine> Started(const std::string& name, const std::string& callbacks) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel(name, Source(callbacks)));
  if (engine == nullptr) return nullptr;
  absl::Status started = engine->Start(0, 0);
  EXPECT_TRUE(started.ok()) << started;
  return started.ok() ? std::move(engine) : nullptr;
}

const std::uint8_t* Frame(Engine& engine) {
  return Bytes(*engine.Observation(ObservationIndex(engine, "RGB_INTERLEAVED")));
}

std::string Seen(Engine& engine) {
  std::string seen;
  EXPECT_EQ(*engine.ReadProperty("seen", &seen), PropertyResult::kSuccess);
  return seen;
}

bool SameFrames(Engine& a, Engine& b) { return std::memcmp(Frame(a), Frame(b), 84 * 84 * 3) == 0; }

TEST(TextureHooksTest, EachSurfaceLoadsThroughTheThreeCallbacksInDeepMindLabsOrder) {
  std::unique_ptr<Engine> engine = Started("order", R"(
function api:replaceTextureName(name)
  see('replace', name)
  if name == 'maze/wall_B' then return 'maze/door' end
end
function api:loadTexture(name)
  see('load', name)
  if name == FLOOR then return tensor.ByteTensor(2, 3, 4):fill(9) end
end
function api:modifyTexture(name, image)
  see('modify', name, image:size(1), image:size(2), image(1, 1, 1):val(), image(1, 1, 4):val())
  return false
end
)");
  ASSERT_NE(engine, nullptr);
  const std::string seen = Seen(*engine);
  // Every surface, in order; the replacement is loaded, the original modified.
  EXPECT_THAT(seen, HasSubstr("replace maze/wall,load maze/wall,modify maze/wall 64 64 140 255,"
                              "replace maze/wall_A,"));
  EXPECT_THAT(seen, HasSubstr("replace maze/wall_B,load maze/door,modify maze/wall_B 64 64 120 "
                              "255,"));
  EXPECT_THAT(seen, HasSubstr("load textures/map/lab_games/lg_floor_placeholder_0_d.tga,modify "
                              "textures/map/lab_games/lg_floor_placeholder_0_d.tga 2 3 9 9,"));
  EXPECT_THAT(seen, HasSubstr("replace maze/ceiling,load maze/ceiling,modify maze/ceiling 64 64"));
  EXPECT_EQ(std::count(seen.begin(), seen.end(), ','), 3 * 56 - 1);
  // And again for the next map.
  ASSERT_TRUE(engine->Start(1, 0).ok());
  EXPECT_EQ(Seen(*engine).size(), 2 * seen.size() + 1);
}

TEST(TextureHooksTest, UntouchedTexturesLookAsTheMazesOwnColours) {
  std::unique_ptr<Engine> plain = Started("plain", "");
  // A texture of one colour is that colour: the maze's own, drawn flat.
  std::unique_ptr<Engine> touched = Started("touched", R"(
function api:modifyTexture(name, image) return true end
function api:loadTexture(name)
  if name == FLOOR then return tensor.ByteTensor(4, 4, 4):fill(0) end
end
function api:replaceTextureName(name)
  if name == FLOOR then return FLOOR end
end
)");
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(touched, nullptr);
  EXPECT_FALSE(SameFrames(*plain, *touched));  // its floor is black (faded to the fog)
  // Only the floor rows differ: the top half of the frame is the same.
  EXPECT_EQ(std::memcmp(Frame(*plain), Frame(*touched), 84 * 40 * 3), 0);
  std::unique_ptr<Engine> unmodified =
      Started("unmodified", "function api:modifyTexture(name, image) return false end");
  ASSERT_NE(unmodified, nullptr);
  EXPECT_TRUE(SameFrames(*plain, *unmodified));
}

TEST(TextureHooksTest, TexturesAreDrawnOnWallsFloorAndCeiling) {
  // Walls: red on their left half, blue on their right; the floor and
  // ceiling green and white checks, four to a cell.
  std::unique_ptr<Engine> engine = Started("textured", R"(
function api:modifyTexture(name, image)
  if name == 'maze/wall' then
    image:narrow(2, 1, 32):fill(0):select(3, 1):fill(255)
    image:narrow(2, 33, 32):fill(0):select(3, 3):fill(255)
  elseif name == FLOOR or name == 'maze/ceiling' then
    image:fill(255)
    for i = 1, 2 do for j = 1, 2 do
      if i ~= j then image:narrow(1, 32 * i - 31, 32):narrow(2, 32 * j - 31, 32):select(3, 1):fill(0) end
    end end
  end
  return true
end
)");
  ASSERT_NE(engine, nullptr);
  const std::uint8_t* rgb = Frame(*engine);
  int reddish = 0, bluish = 0;
  for (int x = 0; x < 84; ++x) {
    const std::uint8_t* p = rgb + (42 * 84 + x) * 3;  // the middle row: walls
    if (p[0] > p[1] + 40 && p[0] > p[2] + 40) ++reddish;
    if (p[2] > p[0] + 40 && p[2] > p[1] + 40) ++bluish;
  }
  EXPECT_GT(reddish, 4);
  EXPECT_GT(bluish, 4);
  // The bottom row crosses floor checks: some texels lack red, some not.
  int white = 0, cyan = 0;
  for (int x = 0; x < 84; ++x) {
    const std::uint8_t* p = rgb + (83 * 84 + x) * 3;
    if (p[0] > 150 && p[1] > 150) ++white;
    if (p[0] < 60 && p[1] > 150) ++cyan;
  }
  EXPECT_GT(white, 4);
  EXPECT_GT(cyan, 4);
}

TEST(TextureHooksTest, TheImageIsLentForTheCallOnly) {
  std::unique_ptr<Engine> engine = Started("kept", R"(
function api:modifyTexture(name, image)
  if name == 'maze/wall' then api.kept = image end
  return false
end
function api:hasEpisodeFinished()
  local ok, why = pcall(function() return api.kept:sum() end)
  see(tostring(ok), why)
  return false
end
)");
  ASSERT_NE(engine, nullptr);
  double reward = 0;
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  EXPECT_THAT(Seen(*engine), HasSubstr("false"));
  EXPECT_THAT(Seen(*engine), HasSubstr("texture 'maze/wall'"));
}

TEST(TextureHooksTest, UpdateTextureReplacesOneLater) {
  std::unique_ptr<Engine> plain = Started("plain_update", "");
  std::unique_ptr<Engine> engine = Started("update", R"(
function api:modifyControl(c)
  local image = tensor.ByteTensor(8, 8, 4):fill(0)
  image:narrow(1, 1, 4):fill(255)
  game:updateTexture('maze/ceiling', image:transpose(1, 2))  -- any layout
  local ok, why = pcall(game.updateTexture, game, 'maze/sky', image)
  see(why)
  ok, why = pcall(game.updateTexture, game, FLOOR, tensor.ByteTensor(8, 8, 3))
  see(why)
  ok, why = pcall(game.updateTexture, game, FLOOR, tensor.DoubleTensor(8, 8, 4))
  see(why)
end
)");
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(engine, nullptr);
  EXPECT_TRUE(SameFrames(*plain, *engine));
  double reward = 0;
  const absl::StatusOr<EpisodeStatus> advanced = engine->Advance(1, &reward);
  ASSERT_TRUE(advanced.ok()) << advanced.status();
  ASSERT_TRUE(plain->Advance(1, &reward).ok());
  EXPECT_FALSE(SameFrames(*plain, *engine));
  EXPECT_EQ(std::memcmp(Frame(*plain) + 84 * 44 * 3, Frame(*engine) + 84 * 44 * 3, 84 * 40 * 3),
            0);  // the floor half is as it was
  const std::string seen = Seen(*engine);
  EXPECT_THAT(seen, HasSubstr("the maze has no texture named 'maze/sky'"));
  EXPECT_THAT(seen, HasSubstr("'updateTexture' (a ByteTensor of H x W x 4 (RGBA) expected)"));
}

TEST(TextureHooksTest, BadAnswersAreErrorsNamingTheTexture) {
  const struct {
    const char* callbacks;
    const char* says;
  } cases[] = {
      {"function api:replaceTextureName(name) return 5 end",
       "'replaceTextureName' for 'maze/wall' must return a texture name or nil, not number"},
      {"function api:replaceTextureName(name) return string.rep('x', 300) end",
       "returned a name of 300 bytes; at most 256"},
      {"function api:replaceTextureName(name) return 'textures/lg_sky' end",
       "the texture 'textures/lg_sky' (replaceTextureName's name for 'maze/wall') is neither "
       "the maze's nor given by loadTexture"},
      {"function api:loadTexture(name) return tensor.ByteTensor(4, 4, 3) end",
       "'loadTexture' for 'maze/wall': a ByteTensor of H x W x 4 (RGBA) expected"},
      {"function api:loadTexture(name) return {} end",
       "'loadTexture' for 'maze/wall': a ByteTensor of H x W x 4 (RGBA) or nil expected, got "
       "table"},
      {"function api:loadTexture(name) return tensor.ByteTensor(1025, 1, 4) end",
       "a texture is 1 to 1024 texels a side, not 1025 x 1"},
      {"function api:loadTexture(name) return tensor.ByteTensor(4, 1, 4):narrow(2, 1, 0) end",
       "a texture is 1 to 1024 texels a side, not 4 x 0"},
      {"function api:modifyTexture(name, image) end",
       "'modifyTexture' for 'maze/wall' must return true or false, not nil"},
      {"function api:modifyTexture(name, image) error('no paint') end", "no paint"},
  };
  for (const auto& [callbacks, says] : cases) {
    SCOPED_TRACE(callbacks);
    std::unique_ptr<Engine> engine = InitEngine(WriteLevel("bad_texture", Source(callbacks)));
    ASSERT_NE(engine, nullptr);
    const absl::Status started = engine->Start(0, 0);
    EXPECT_FALSE(started.ok());
    EXPECT_THAT(std::string(started.message()), HasSubstr(says));
  }
}

TEST(TextureHooksTest, TexturesAreChargedToTheLevelsTensorBudget) {
  // The level's 4 MiB texture fits its 6 MiB; the maze's copy does not.
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("big_texture", Source(R"(
function api:loadTexture(name)
  if name == FLOOR then return tensor.ByteTensor(1024, 1024, 4) end
end
)")),
                                              {{"tensorMemoryLimitMegabytes", "6"}});
  ASSERT_NE(engine, nullptr);
  const absl::Status started = engine->Start(0, 0);
  EXPECT_FALSE(started.ok());
  EXPECT_THAT(std::string(started.message()),
              HasSubstr("'loadTexture' for '" + std::string(kFloor) + "'"));
  EXPECT_THAT(std::string(started.message()), HasSubstr("would exceed the tensor memory limit"));
}

// A pickup's model has a skin, loaded through the same callbacks, as
// DeepMind Lab's human_recognisable_pickups colours its objects: the
// sprite's body takes the mean colour the callbacks leave.
TEST(TextureHooksTest, ModelSkinsColourTheirPickups) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("skins", Source(R"(
function api:nextMap() return "*******\n*P A  *\n*******\n" end
function api:createPickup(class)
  return {name = 'cake', classname = class, type = 9, quantity = 1,
          model = 'HRP_7:models/hr_cake.md3%scale{1.5}'}
end
function api:replaceTextureName(name)
  if name:sub(1, 4) == 'HRP_' then return name:match('.*:(.*)') end
end
function api:loadTexture(name) see('load', name) end
function api:modifyTexture(name, image)
  if name:sub(1, 4) == 'HRP_' then
    see('modify', name, image:size(1), image(1, 1, 4):val())
    image:select(3, 1):fill(255)
    image:select(3, 2):fill(0)
    image:narrow(1, 1, 32):select(3, 3):fill(0)
    image:narrow(1, 33, 32):select(3, 3):fill(100)
    return true
  end
  return false
end
)")));
  ASSERT_NE(engine, nullptr);
  const absl::Status started = engine->Start(0, 0);
  ASSERT_TRUE(started.ok()) << started;
  const std::string seen = Seen(*engine);
  EXPECT_THAT(seen,
              HasSubstr("load models/hr_cake_d.tga,modify HRP_7:models/hr_cake_d.tga 64 255"));
  const std::vector<hosts::maze::Pickup>& pickups = MazeWorldOf(*engine)->pickups();
  ASSERT_EQ(pickups.size(), 1u);
  ASSERT_TRUE(pickups[0].skin.has_value());
  EXPECT_EQ(*pickups[0].skin, (hosts::maze::Rgb{255, 0, 50}));  // the mean of the skin
}

}  // namespace
}  // namespace engine_plugin
