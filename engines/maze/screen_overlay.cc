#include "engines/maze/screen_overlay.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lua_api/lua.h"
#include "lua_api/read.h"

namespace maze {
namespace {

// Quake III's virtual screen, in which DeepMind Lab's overlays are placed.
constexpr double kVirtualWidth = 640;
constexpr double kVirtualHeight = 480;

struct Rectangle {
  double x, y, width, height;
  std::array<double, 4> rgba;
};

// A finite number in field `key` of the table at `index`.
std::string ReadField(lua_State* L, int index, const char* key, double* value) {
  lua_api::PushRawField(L, index, key);
  std::string why = lua_api::ReadNumber(L, -1, value);
  lua_pop(L, 1);
  if (why.empty() && !std::isfinite(*value)) why = "finite number expected";
  return why.empty() ? why : absl::StrCat(key, ": ", why);
}

std::string ReadRectangle(lua_State* L, int index, Rectangle* rectangle) {
  if (!lua_istable(L, index)) return lua_api::Expected(L, index, "table");
  const std::pair<const char*, double*> fields[] = {{"x", &rectangle->x},
                                                    {"y", &rectangle->y},
                                                    {"width", &rectangle->width},
                                                    {"height", &rectangle->height}};
  for (const auto& [key, value] : fields) {
    if (std::string why = ReadField(L, index, key, value); !why.empty()) return why;
  }
  lua_api::PushRawField(L, index, "rgba");
  std::string why;
  if (!lua_istable(L, -1) || lua_objlen(L, -1) != 4) {
    why = absl::StrCat("rgba: a list of four numbers expected, got ", lua_api::TypeNameAt(L, -1));
  }
  for (int i = 0; i < 4 && why.empty(); ++i) {
    lua_rawgeti(L, -1, i + 1);
    double& channel = rectangle->rgba[i];
    why = lua_api::ReadNumber(L, -1, &channel);
    if (why.empty() && !std::isfinite(channel)) why = "finite number expected";
    if (!why.empty()) why = absl::StrCat("rgba[", i + 1, "]: ", why);
    channel = std::clamp(channel, 0.0, 1.0);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return why;
}

// The pixel range [begin, end) of [start, start + extent) in virtual units.
std::pair<int, int> PixelSpan(double start, double extent, double scale, int limit) {
  const double begin = std::clamp(std::round(start * scale), 0.0, static_cast<double>(limit));
  const double end =
      std::clamp(std::round((start + extent) * scale), 0.0, static_cast<double>(limit));
  return {static_cast<int>(begin), static_cast<int>(std::max(begin, end))};
}

struct PixelBox {
  int left, right, top, bottom;
  std::int64_t area() const { return std::int64_t{right - left} * (bottom - top); }
};

PixelBox PixelsOf(const Rectangle& rectangle, const Frame& frame) {
  const auto [left, right] =
      PixelSpan(rectangle.x, rectangle.width, frame.width / kVirtualWidth, frame.width);
  const auto [top, bottom] =
      PixelSpan(rectangle.y, rectangle.height, frame.height / kVirtualHeight, frame.height);
  return {left, right, top, bottom};
}

void Draw(const Rectangle& rectangle, const Frame& frame) {
  const auto [left, right, top, bottom] = PixelsOf(rectangle, frame);
  const double alpha = rectangle.rgba[3];
  for (int y = top; y < bottom; ++y) {
    std::uint8_t* pixel = frame.rgb + (static_cast<std::size_t>(y) * frame.width + left) * 3;
    for (int x = left; x < right; ++x, pixel += 3) {
      for (int c = 0; c < 3; ++c) {
        pixel[c] = static_cast<std::uint8_t>(
            std::lround(rectangle.rgba[c] * 255 * alpha + pixel[c] * (1 - alpha)));
      }
    }
  }
}

}  // namespace

absl::Status DrawFilledRectangles(engine_plugin::Level& level, const Frame& frame) {
  std::vector<Rectangle> rectangles;
  absl::StatusOr<bool> called = level.Call(
      "filledRectangles", 1,
      [](lua_State* L) {
        lua_createtable(L, 0, 2);
        lua_pushnumber(L, kVirtualWidth);
        lua_setfield(L, -2, "width");
        lua_pushnumber(L, kVirtualHeight);
        lua_setfield(L, -2, "height");
        return 1;
      },
      [&](lua_State* L, int first) {
        if (!lua_istable(L, first)) {
          return absl::InvalidArgumentError(absl::StrCat("must return a list of rectangles, not ",
                                                         lua_api::TypeNameAt(L, first)));
        }
        const std::size_t count = lua_objlen(L, first);
        if (count > static_cast<std::size_t>(kMaxRectangles)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "returned ", count, " rectangles; at most ", kMaxRectangles, " a frame"));
        }
        rectangles.resize(count);
        for (std::size_t i = 0; i < count; ++i) {
          lua_rawgeti(L, first, static_cast<int>(i + 1));
          std::string why = ReadRectangle(L, lua_gettop(L), &rectangles[i]);
          lua_pop(L, 1);
          if (!why.empty()) {
            return absl::InvalidArgumentError(absl::StrCat("rectangle ", i + 1, ": ", why));
          }
        }
        return absl::OkStatus();
      });
  if (!called.ok()) return called.status();
  // Drawing is work no instruction counts: bounded by the frame's size, as
  // rendering it is.
  std::int64_t area = 0;
  for (const Rectangle& rectangle : rectangles) area += PixelsOf(rectangle, frame).area();
  const std::int64_t frame_area = std::int64_t{frame.width} * frame.height;
  if (area > kMaxCoverage * frame_area) {
    return absl::InvalidArgumentError(
        absl::StrCat("level callback 'filledRectangles' returned rectangles covering ",
                     area / frame_area, " frames' worth of pixels; at most ", kMaxCoverage));
  }
  for (const Rectangle& rectangle : rectangles) Draw(rectangle, frame);
  return absl::OkStatus();
}

}  // namespace maze
