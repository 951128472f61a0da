// DeepMind Lab's filledRectangles on the maze's frames: placed in Quake
// III's 640 x 480 virtual screen whatever the frame's size, blended by
// alpha over the rendered frame that the host observes, and bad returns
// named.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

constexpr char kLevel[] = R"(
local api = {}
function api:nextMap() return "*******\n*P   G*\n*******\n" end
%s
return api
)";

std::unique_ptr<Engine> Started(const std::string& name, const char* overlay) {
  char source[2048];
  std::snprintf(source, sizeof source, kLevel, overlay);
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel(name, source));
  if (engine == nullptr || !engine->Start(0, 0).ok()) return nullptr;
  return engine;
}

// The frame's pixel (x, y), channel c.
std::uint8_t Pixel(Engine& engine, int x, int y, int c) {
  const std::uint8_t* rgb = Bytes(*engine.Observation(ObservationIndex(engine, "RGB_INTERLEAVED")));
  return rgb[(y * 84 + x) * 3 + c];
}

TEST(ScreenOverlayTest, RectanglesCoverTheirShareOfTheFrameBlendedByAlpha) {
  std::unique_ptr<Engine> plain = Started("plain", "");
  std::unique_ptr<Engine> covered = Started("covered", R"(
function api:filledRectangles(args)
  assert(args.width == 640 and args.height == 480)
  return {
    {x = 0, y = 0, width = 320, height = 240, rgba = {1, 0, 0, 1}},      -- top-left quarter
    {x = 320, y = 240, width = 999, height = 999, rgba = {0, 0, 1, 0.5}} -- the rest, clipped
  }
end
)");
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(covered, nullptr);
  // 84 pixels for 640 virtual units: the quarter is pixels [0, 42).
  for (const auto& [x, y] : {std::pair{0, 0}, std::pair{41, 41}, std::pair{20, 30}}) {
    EXPECT_EQ(Pixel(*covered, x, y, 0), 255);
    EXPECT_EQ(Pixel(*covered, x, y, 1), 0);
    EXPECT_EQ(Pixel(*covered, x, y, 2), 0);
  }
  for (const auto& [x, y] : {std::pair{42, 42}, std::pair{83, 83}, std::pair{60, 50}}) {
    for (int c = 0; c < 3; ++c) {
      const double under = Pixel(*plain, x, y, c);
      const double expected = (c == 2 ? 255 * 0.5 : 0) + under * 0.5;
      EXPECT_EQ(Pixel(*covered, x, y, c), std::lround(expected)) << x << ", " << y << ", " << c;
    }
  }
  // Elsewhere the frame is as rendered.
  for (const auto& [x, y] : {std::pair{42, 41}, std::pair{41, 42}, std::pair{70, 10}}) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(Pixel(*covered, x, y, c), Pixel(*plain, x, y, c));
  }
}

TEST(ScreenOverlayTest, BadRectanglesAreErrorsNamingThem) {
  const struct {
    const char* overlay;
    const char* says;
  } cases[] = {
      {"function api:filledRectangles() return 7 end",
       "'filledRectangles' must return a list of rectangles, not number"},
      {"function api:filledRectangles() return {{x = 0, y = 0, width = 1, rgba = {1, 1, 1, 1}}} "
       "end",
       "rectangle 1: height: number expected, got nil"},
      {"function api:filledRectangles() return {{x = 0/0, y = 0, width = 1, height = 1, "
       "rgba = {1, 1, 1, 1}}} end",
       "rectangle 1: x: finite number expected"},
      {"function api:filledRectangles() return {{x = 0, y = 0, width = 1, height = 1, "
       "rgba = {1, 1, 1}}} end",
       "rectangle 1: rgba: a list of four numbers expected"},
      {"function api:filledRectangles() local r = {} for i = 1, 1025 do r[i] = {} end "
       "return r end",
       "returned 1025 rectangles; at most 1024 a frame"},
      {"function api:filledRectangles() local r = {} for i = 1, 17 do r[i] = {x = -1, y = -1, "
       "width = 1e9, height = 1e9, rgba = {0, 0, 0, 1}} end return r end",
       "returned rectangles covering 17 frames' worth of pixels; at most 16"},
  };
  for (const auto& [overlay, says] : cases) {
    SCOPED_TRACE(overlay);
    char source[2048];
    std::snprintf(source, sizeof source, kLevel, overlay);
    std::unique_ptr<Engine> engine = InitEngine(WriteLevel("bad_overlay", source));
    ASSERT_NE(engine, nullptr);
    const absl::Status started = engine->Start(0, 0);
    EXPECT_FALSE(started.ok());
    EXPECT_THAT(std::string(started.message()), HasSubstr(says));
  }
}

}  // namespace
}  // namespace engine_plugin
