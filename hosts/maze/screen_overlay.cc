#include "hosts/maze/screen_overlay.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "hosts/maze/glyphs.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/read.h"

namespace hosts::maze {
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

// A list of four numbers, each clamped to [0, 1].
std::string ReadRgba(lua_State* L, int index, std::array<double, 4>* rgba) {
  if (!lua_istable(L, index) || lua_objlen(L, index) != 4) {
    return absl::StrCat("rgba: a list of four numbers expected, got ",
                        lua_api::TypeNameAt(L, index));
  }
  std::string why;
  for (int i = 0; i < 4 && why.empty(); ++i) {
    lua_rawgeti(L, index, i + 1);
    double& channel = (*rgba)[i];
    why = lua_api::ReadNumber(L, -1, &channel);
    if (why.empty() && !std::isfinite(channel)) why = "finite number expected";
    if (!why.empty()) why = absl::StrCat("rgba[", i + 1, "]: ", why);
    channel = std::clamp(channel, 0.0, 1.0);
    lua_pop(L, 1);
  }
  return why;
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
  std::string why = ReadRgba(L, lua_gettop(L), &rectangle->rgba);
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

// Blends `rgba` over the frame's pixel (x, y) by its alpha.
void Blend(const std::array<double, 4>& rgba, const Frame& frame, int x, int y) {
  std::uint8_t* pixel = frame.rgb + (static_cast<std::size_t>(y) * frame.width + x) * 3;
  const double alpha = rgba[3];
  for (int c = 0; c < 3; ++c) {
    pixel[c] =
        static_cast<std::uint8_t>(std::lround(rgba[c] * 255 * alpha + pixel[c] * (1 - alpha)));
  }
}

void Draw(const Rectangle& rectangle, const Frame& frame) {
  const auto [left, right, top, bottom] = PixelsOf(rectangle, frame);
  for (int y = top; y < bottom; ++y) {
    for (int x = left; x < right; ++x) Blend(rectangle.rgba, frame, x, y);
  }
}

// Messages, as DeepMind Lab draws them: Quake III's big characters (16 x
// 16 virtual units, lines 20 apart), an optional black shadow 2 units
// down and right, and Quake's colour codes (^ and a letter or digit)
// changing the colour of what follows.
constexpr double kCharSize = 16;
constexpr double kShadowOffset = 2;
constexpr int kLineHeight = 20;
constexpr int kMaxMessageLength = 79;
constexpr int kMaxMessages = 1024;
constexpr int kLeft = 0, kRight = 1, kCentre = 2;  // alignments

struct Message {
  std::string text;
  double x = 0, y = 0;
  int alignment = kLeft;
  bool shadow = true;
  std::array<double, 4> rgba = {1, 1, 1, 1};
};

bool IsColourCode(const std::string& text, std::size_t i) {
  return text[i] == '^' && i + 1 < text.size() &&
         std::isalnum(static_cast<unsigned char>(text[i + 1]));
}

// Quake III's eight colours, which ^0..^7 (and other characters, by their
// low three bits) select.
std::array<double, 3> CodeColour(char code) {
  const int index = (code - '0') & 7;
  return {static_cast<double>(index & 1), static_cast<double>(index >> 1 & 1),
          static_cast<double>(index >> 2 & 1)};
}

int PrintedLength(const std::string& text) {
  int length = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (IsColourCode(text, i)) {
      ++i;
    } else {
      ++length;
    }
  }
  return length;
}

// Reads the optional number field `key` into *value.
std::string ReadOptionalNumber(lua_State* L, int index, const char* key, double* value) {
  lua_api::PushRawField(L, index, key);
  const bool present = !lua_isnil(L, -1);
  lua_pop(L, 1);
  return present ? ReadField(L, index, key, value) : std::string();
}

std::string ReadMessage(lua_State* L, int index, Message* message) {
  if (!lua_istable(L, index)) return lua_api::Expected(L, index, "table");
  lua_api::PushRawField(L, index, "message");
  std::string why = lua_type(L, -1) == LUA_TSTRING ? lua_api::ReadString(L, -1, &message->text)
                                                   : lua_api::Expected(L, -1, "string");
  lua_pop(L, 1);
  if (!why.empty()) return absl::StrCat("message: ", why);
  if (message->text.size() > kMaxMessageLength) {
    return absl::StrCat("message: ", message->text.size(), " characters; at most ",
                        kMaxMessageLength);
  }
  double alignment = kLeft;
  for (const auto& [key, value] : {std::pair<const char*, double*>{"x", &message->x},
                                   {"y", &message->y},
                                   {"alignment", &alignment}}) {
    if (why = ReadOptionalNumber(L, index, key, value); !why.empty()) return why;
  }
  if (alignment != kLeft && alignment != kRight && alignment != kCentre) {
    return "alignment: 0 (left), 1 (right) or 2 (centre) expected";
  }
  message->alignment = static_cast<int>(alignment);
  lua_api::PushRawField(L, index, "shadow");
  if (lua_isboolean(L, -1)) {
    message->shadow = lua_toboolean(L, -1);
  } else if (!lua_isnil(L, -1)) {
    why = absl::StrCat("shadow: ", lua_api::Expected(L, -1, "boolean"));
  }
  lua_pop(L, 1);
  if (!why.empty()) return why;
  lua_api::PushRawField(L, index, "rgba");
  if (!lua_isnil(L, -1)) why = ReadRgba(L, lua_gettop(L), &message->rgba);
  lua_pop(L, 1);
  return why;
}

// Where the message's first character goes, in virtual units.
std::pair<double, double> Origin(const Message& message) {
  const double width = PrintedLength(message.text) * kCharSize;
  const double shift = message.alignment == kRight    ? width
                       : message.alignment == kCentre ? width / 2
                                                      : 0;
  return {message.x - shift, message.y + 2};  // DeepMind Lab moves text 2 units down
}

// The frame pixels a message may touch.
PixelBox PixelsOf(const Message& message, const Frame& frame) {
  const auto [x, y] = Origin(message);
  const double margin = message.shadow ? kShadowOffset : 0;
  return PixelsOf(
      Rectangle{x, y, PrintedLength(message.text) * kCharSize + margin, kCharSize + margin, {}},
      frame);
}

// Draws one character's glyph with its cell at (left, top), in virtual units.
void DrawCharacter(unsigned char c, double left, double top, const std::array<double, 4>& rgba,
                   const Frame& frame) {
  const Glyph& glyph = GlyphOf(c);
  const double scale_x = frame.width / kVirtualWidth;
  const double scale_y = frame.height / kVirtualHeight;
  const auto [x_begin, x_end] = PixelSpan(left, kCharSize, scale_x, frame.width);
  const auto [y_begin, y_end] = PixelSpan(top, kCharSize, scale_y, frame.height);
  // A glyph pixel is 2 x 2 virtual units (an 8 x 8 cell in 16 x 16); each
  // frame pixel shows the glyph pixel under its centre.
  constexpr double kUnitsPerGlyphPixel = kCharSize / 8;
  for (int y = y_begin; y < y_end; ++y) {
    const int row = static_cast<int>(std::floor(((y + 0.5) / scale_y - top) / kUnitsPerGlyphPixel));
    if (row < 0 || row >= kGlyphHeight) continue;
    for (int x = x_begin; x < x_end; ++x) {
      // Column 0 of the cell is space; the glyph's five follow.
      const int column =
          static_cast<int>(std::floor(((x + 0.5) / scale_x - left) / kUnitsPerGlyphPixel)) - 1;
      if (column < 0 || column >= kGlyphWidth) continue;
      if (glyph[row] >> (kGlyphWidth - 1 - column) & 1) Blend(rgba, frame, x, y);
    }
  }
}

// Draws the text from (x, y); colour codes change the colour unless
// `fixed` (the shadow is black throughout).
void DrawText(const std::string& text, double x, double y, std::array<double, 4> rgba, bool fixed,
              const Frame& frame) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (IsColourCode(text, i)) {
      if (!fixed) {
        const std::array<double, 3> colour = CodeColour(text[i + 1]);
        std::copy(colour.begin(), colour.end(), rgba.begin());
      }
      ++i;
      continue;
    }
    DrawCharacter(static_cast<unsigned char>(text[i]), x, y, rgba, frame);
    x += kCharSize;
  }
}

void Draw(const Message& message, const Frame& frame) {
  const auto [x, y] = Origin(message);
  if (message.shadow) {
    DrawText(message.text, x + kShadowOffset, y + kShadowOffset, {0, 0, 0, message.rgba[3]},
             /*fixed=*/true, frame);
  }
  DrawText(message.text, x, y, message.rgba, /*fixed=*/false, frame);
}

// Reads the list at `first` with `read`, at most `limit` items.
template <typename Item, typename Read>
absl::Status ReadList(lua_State* L, int first, const char* noun, std::size_t limit, Read read,
                      std::vector<Item>* items) {
  if (!lua_istable(L, first)) {
    return absl::InvalidArgumentError(
        absl::StrCat("must return a list of ", noun, "s, not ", lua_api::TypeNameAt(L, first)));
  }
  const std::size_t count = lua_objlen(L, first);
  if (count > limit) {
    return absl::InvalidArgumentError(
        absl::StrCat("returned ", count, " ", noun, "s; at most ", limit, " a frame"));
  }
  items->resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    lua_rawgeti(L, first, static_cast<int>(i + 1));
    std::string why = read(L, lua_gettop(L), &(*items)[i]);
    lua_pop(L, 1);
    if (!why.empty()) return absl::InvalidArgumentError(absl::StrCat(noun, " ", i + 1, ": ", why));
  }
  return absl::OkStatus();
}

// Calls the level's `callback` with {width = 640, height = 480, extra...}
// and draws the list it returns, item by item, in order. Drawing is work
// no instruction counts: the pixels it may touch are bounded by the
// frame's size, as rendering is.
template <typename Item, typename Read>
absl::Status CallAndDraw(engine_plugin::Level& level, const char* callback, const char* noun,
                         std::size_t limit, absl::FunctionRef<void(lua_State*)> extra, Read read,
                         const Frame& frame) {
  std::vector<Item> items;
  absl::StatusOr<bool> called = level.Call(
      callback, 1,
      [&](lua_State* L) {
        lua_createtable(L, 0, 4);
        lua_pushnumber(L, kVirtualWidth);
        lua_setfield(L, -2, "width");
        lua_pushnumber(L, kVirtualHeight);
        lua_setfield(L, -2, "height");
        extra(L);
        return 1;
      },
      [&](lua_State* L, int first) { return ReadList(L, first, noun, limit, read, &items); });
  if (!called.ok()) return called.status();
  std::int64_t area = 0;
  for (const Item& item : items) area += PixelsOf(item, frame).area();
  const std::int64_t frame_area = std::int64_t{frame.width} * frame.height;
  if (area > kMaxCoverage * frame_area) {
    return absl::InvalidArgumentError(
        absl::StrCat("level callback '", callback, "' returned ", noun, "s covering ",
                     area / frame_area, " frames' worth of pixels; at most ", kMaxCoverage));
  }
  for (const Item& item : items) Draw(item, frame);
  return absl::OkStatus();
}

}  // namespace

absl::Status DrawScreenOverlays(engine_plugin::Level& level, const Frame& frame) {
  // Messages first, then rectangles, as DeepMind Lab draws them.
  absl::Status drawn = CallAndDraw<Message>(
      level, "screenMessages", "message", kMaxMessages,
      [](lua_State* L) {
        lua_pushnumber(L, kLineHeight);
        lua_setfield(L, -2, "line_height");
        lua_pushnumber(L, kMaxMessageLength);
        lua_setfield(L, -2, "max_string_length");
      },
      ReadMessage, frame);
  if (!drawn.ok()) return drawn;
  return CallAndDraw<Rectangle>(
      level, "filledRectangles", "rectangle", kMaxRectangles, [](lua_State*) {}, ReadRectangle,
      frame);
}

}  // namespace hosts::maze
