// DeepMind Lab's screenMessages and filledRectangles on the maze's frames:
// placed in Quake III's 640 x 480 virtual screen whatever the frame's size,
// text in the maze's font with shadows, alignment and colour codes, blended
// by alpha over the rendered frame that the host observes, and bad returns
// named.
#include <cmath>
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

using ::testing::HasSubstr;

constexpr char kLevel[] = R"(
local api = {}
function api:nextMap() return "*******\n*P   G*\n*******\n" end
%s
return api
)";

std::unique_ptr<Engine> Started(const std::string& name, const char* overlay, int width = 84,
                                int height = 84) {
  char source[4096];
  std::snprintf(source, sizeof source, kLevel, overlay);
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel(name, source), {{"width", absl::StrCat(width)}, {"height", absl::StrCat(height)}});
  if (engine == nullptr || !engine->Start(0, 0).ok()) return nullptr;
  return engine;
}

const std::uint8_t* Frame(Engine& engine) {
  return Bytes(*engine.Observation(ObservationIndex(engine, "RGB_INTERLEAVED")));
}

// The frame's pixel (x, y), channel c, in a frame `width` wide.
std::uint8_t Pixel(Engine& engine, int x, int y, int c, int width = 84) {
  return Frame(engine)[(y * width + x) * 3 + c];
}

// A level drawing `message` (Lua table fields) at 640 x 480, where a
// virtual unit is a pixel and each glyph pixel 2 x 2 of them.
std::unique_ptr<Engine> WithMessage(const std::string& name, const std::string& fields) {
  const std::string overlay = absl::StrCat(R"(
function api:screenMessages(args)
  assert(args.width == 640 and args.height == 480)
  assert(args.line_height == 20 and args.max_string_length == 79)
  return {{)",
                                           fields, R"(}}
end
)");
  return Started(name, overlay.c_str(), 640, 480);
}

bool IsColour(Engine& engine, int x, int y, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  return Pixel(engine, x, y, 0, 640) == r && Pixel(engine, x, y, 1, 640) == g &&
         Pixel(engine, x, y, 2, 640) == b;
}

bool SameFrames(Engine& a, Engine& b) {
  return std::memcmp(Frame(a), Frame(b), 640 * 480 * 3) == 0;
}

TEST(ScreenOverlayTest, MessagesAreDrawnInTheFontWhereDeepMindLabPutsThem) {
  std::unique_ptr<Engine> plain = Started("plain_message", "", 640, 480);
  std::unique_ptr<Engine> red =
      WithMessage("red_h", "message = 'H', x = 100, y = 100, shadow = false, rgba = {1, 0, 0, 1}");
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(red, nullptr);
  // The cell's top-left is (100, 102): DeepMind Lab moves text 2 down. 'H'
  // is |...| over rows 0-2 and 4-6, a bar across row 3; cell column 0 is
  // space, so its strokes are pixels 102-103 and 110-111.
  for (int y = 102; y < 116; ++y) {
    for (int x = 98; x < 118; ++x) {
      const bool stroke = (x == 102 || x == 103 || x == 110 || x == 111) && y < 116;
      const bool bar = y == 108 || y == 109;
      const bool inked = (stroke || (bar && x >= 102 && x < 112));
      if (inked) {
        EXPECT_TRUE(IsColour(*red, x, y, 255, 0, 0)) << x << ", " << y;
      } else {
        for (int c = 0; c < 3; ++c) {
          EXPECT_EQ(Pixel(*red, x, y, c, 640), Pixel(*plain, x, y, c, 640)) << x << ", " << y;
        }
      }
    }
  }
  // Nothing above the cell, below the glyph's seven rows or after it.
  for (int x = 98; x < 118; ++x) {
    EXPECT_EQ(Pixel(*red, x, 101, 0, 640), Pixel(*plain, x, 101, 0, 640));
    EXPECT_EQ(Pixel(*red, x, 116, 0, 640), Pixel(*plain, x, 116, 0, 640));
  }
}

TEST(ScreenOverlayTest, ShadowsAlignmentColourCodesAndAlpha) {
  // A shadow is black, 2 pixels down and right, under the text.
  std::unique_ptr<Engine> shadowed = WithMessage("shadowed", "message = 'H', x = 100, y = 100");
  ASSERT_NE(shadowed, nullptr);
  EXPECT_TRUE(IsColour(*shadowed, 102, 102, 255, 255, 255));  // the text, white by default
  EXPECT_TRUE(IsColour(*shadowed, 104, 104, 0, 0, 0));        // its shadow
  EXPECT_TRUE(IsColour(*shadowed, 112, 104, 0, 0, 0));

  // Right and centre alignment place the same text where left would.
  std::unique_ptr<Engine> left = WithMessage("left", "message = 'Hi!', x = 100, y = 50");
  std::unique_ptr<Engine> right =
      WithMessage("right", "message = 'Hi!', x = 148, y = 50, alignment = 1");
  std::unique_ptr<Engine> centre =
      WithMessage("centre", "message = 'Hi!', x = 124, y = 50, alignment = 2");
  ASSERT_NE(left, nullptr);
  ASSERT_NE(right, nullptr);
  ASSERT_NE(centre, nullptr);
  EXPECT_TRUE(SameFrames(*left, *right));
  EXPECT_TRUE(SameFrames(*left, *centre));

  // A colour code takes no room and colours what follows: ^2 is green.
  std::unique_ptr<Engine> coded =
      WithMessage("coded", "message = '^2H', x = 108, y = 100, alignment = 2, shadow = false");
  ASSERT_NE(coded, nullptr);
  EXPECT_TRUE(IsColour(*coded, 102, 102, 0, 255, 0));

  // Alpha blends the text over the frame.
  std::unique_ptr<Engine> plain = Started("plain_alpha", "", 640, 480);
  std::unique_ptr<Engine> faint = WithMessage(
      "faint", "message = 'H', x = 100, y = 100, shadow = false, rgba = {0, 0, 1, 0.5}");
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(faint, nullptr);
  for (int c = 0; c < 3; ++c) {
    const double expected = (c == 2 ? 127.5 : 0) + Pixel(*plain, 102, 102, c, 640) * 0.5;
    EXPECT_EQ(Pixel(*faint, 102, 102, c, 640), std::lround(expected)) << c;
  }
}

TEST(ScreenOverlayTest, MessagesScaleToSmallFrames) {
  std::unique_ptr<Engine> plain = Started("plain_small", "");
  std::unique_ptr<Engine> titled = Started("titled", R"(
function api:screenMessages(args)
  return {{message = 'FIND THE APPLE', x = 320, y = 200, alignment = 2}}
end
)");
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(titled, nullptr);
  // 14 characters of 16 units centred on 320 and a 2-unit shadow: units
  // 208-434 across and 202-220 down, pixels 27-57 and 35-38 of 84.
  int changed = 0;
  for (int y = 0; y < 84; ++y) {
    for (int x = 0; x < 84; ++x) {
      if (Pixel(*titled, x, y, 0) == Pixel(*plain, x, y, 0)) continue;
      ++changed;
      EXPECT_TRUE(x >= 27 && x <= 57 && y >= 35 && y <= 38) << x << ", " << y;
    }
  }
  EXPECT_GT(changed, 20);
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

TEST(ScreenOverlayTest, BadMessagesAndRectanglesAreErrorsNamingThem) {
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
      {"function api:screenMessages() return {{x = 1}} end",
       "'screenMessages' message 1: message: string expected, got nil"},
      {"function api:screenMessages() return {{message = 7}} end",
       "message 1: message: string expected, got number"},
      {"function api:screenMessages() return {{message = string.rep('x', 80)}} end",
       "message 1: message: 80 characters; at most 79"},
      {"function api:screenMessages() return {{message = 'a', alignment = 3}} end",
       "message 1: alignment: 0 (left), 1 (right) or 2 (centre) expected"},
      {"function api:screenMessages() return {{message = 'a', x = 1/0}} end",
       "message 1: x: finite number expected"},
      {"function api:screenMessages() return {{message = 'a', shadow = 1}} end",
       "message 1: shadow: boolean expected, got number"},
      {"function api:screenMessages() return {{message = 'a', rgba = {1, 1}}} end",
       "message 1: rgba: a list of four numbers expected"},
      {"function api:screenMessages() return 'hello' end",
       "'screenMessages' must return a list of messages, not string"},
      {"function api:screenMessages() local r = {} for i = 1, 1025 do r[i] = {message = 'a'} end "
       "return r end",
       "returned 1025 messages; at most 1024 a frame"},
      {"function api:screenMessages() local r = {} for i = 1, 1024 do "
       "r[i] = {message = string.rep('W', 79)} end return r end",
       "returned messages covering"},
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
