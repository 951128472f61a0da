// Context's screen overlays (context.h): the level's text and filled
// rectangles, which the engine's HUD draws over each frame, as DeepMind
// Lab's api:screenMessages and api:filledRectangles give them.
#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/lua_fields.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {
namespace {

// The engine draws each one every frame: more is a level's mistake.
constexpr int kMaxOverlays = 1024;

// [-0, +0, -] The optional field rgba = {r, g, b, a} of the table at
// `index`.
absl::Status ReadRgba(lua_State* L, int index, const char* callback, bool required,
                      std::array<float, 4>* rgba) {
  lua_getfield(L, index, "rgba");
  absl::Status status;
  if (lua_isnil(L, -1)) {
    if (required) {
      status = absl::InvalidArgumentError(absl::StrCat("[", callback, "] - must supply rgba"));
    }
  } else if (!lua_istable(L, -1)) {
    status = absl::InvalidArgumentError(
        absl::StrCat("[", callback, "] - rgba must be {r, g, b, a}"));
  } else {
    for (int i = 0; i < 4 && status.ok(); ++i) {
      lua_rawgeti(L, -1, i + 1);
      if (lua_type(L, -1) != LUA_TNUMBER) {
        status = absl::InvalidArgumentError(
            absl::StrCat("[", callback, "] - rgba must be {r, g, b, a} of numbers"));
      } else {
        (*rgba)[i] = static_cast<float>(lua_tonumber(L, -1));
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return status;
}

// [-0, +0, -] The list of tables at `index`, each read by `read`.
template <typename Read>
absl::Status ReadList(lua_State* L, int index, const char* callback, Read read) {
  if (!lua_istable(L, index)) {
    return absl::InvalidArgumentError(
        absl::StrCat("[", callback, "] - must return a list, not ", luaL_typename(L, index)));
  }
  const int count = static_cast<int>(lua_objlen(L, index));
  if (count > kMaxOverlays) {
    return absl::InvalidArgumentError(
        absl::StrCat("[", callback, "] - ", count, " entries: at most ", kMaxOverlays));
  }
  for (int i = 1; i <= count; ++i) {
    lua_rawgeti(L, index, i);
    absl::Status status =
        lua_istable(L, -1) ? read(lua_gettop(L))
                           : absl::InvalidArgumentError(
                                 absl::StrCat("[", callback, "] - entry ", i, " must be a table"));
    lua_pop(L, 1);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace

int Context::MakeScreenMessages(int width, int height, int line_height, int buffer_size) {
  screen_messages_.clear();
  screen_message_bytes_ = std::max(buffer_size, 1);
  std::vector<ScreenMessage> made;
  CallLevel(
      "screenMessages", 1,
      [&](lua_State* L) {
        lua_createtable(L, 0, 4);
        lua_pushinteger(L, width);
        lua_setfield(L, -2, "width");
        lua_pushinteger(L, height);
        lua_setfield(L, -2, "height");
        lua_pushinteger(L, line_height);
        lua_setfield(L, -2, "line_height");
        lua_pushinteger(L, screen_message_bytes_ - 1);
        lua_setfield(L, -2, "max_string_length");
        return 1;
      },
      [&](lua_State* L, int first) {
        return ReadList(L, first, "screenMessages", [&](int entry) {
          ScreenMessage m;
          absl::Status s = StringField(L, entry, "message", &m.text, "screenMessages", true);
          if (s.ok() && m.text.size() >= static_cast<std::size_t>(screen_message_bytes_)) {
            s = absl::InvalidArgumentError(
                absl::StrCat("[screenMessages] - a message of ", m.text.size(),
                             " characters: at most ", screen_message_bytes_ - 1));
          }
          if (s.ok()) s = IntField(L, entry, "x", &m.x, "screenMessages", false);
          if (s.ok()) s = IntField(L, entry, "y", &m.y, "screenMessages", false);
          if (s.ok()) s = IntField(L, entry, "alignment", &m.alignment, "screenMessages", false);
          if (s.ok()) s = ReadRgba(L, entry, "screenMessages", false, &m.rgba);
          if (s.ok()) {
            lua_getfield(L, entry, "shadow");
            if (!lua_isnil(L, -1)) m.shadow = lua_toboolean(L, -1);
            lua_pop(L, 1);
            made.push_back(std::move(m));
          }
          return s;
        });
      });
  if (error_.ok()) screen_messages_ = std::move(made);
  return static_cast<int>(screen_messages_.size());
}

void Context::GetScreenMessage(int id, char* buffer, int* x, int* y, int* alignment,
                               int* shadow, float rgba[4]) const {
  if (id < 0 || id >= static_cast<int>(screen_messages_.size())) {
    buffer[0] = '\0';
    return;
  }
  const ScreenMessage& m = screen_messages_[id];
  CopyString(m.text, buffer, screen_message_bytes_);  // made to fit
  *x = m.x;
  *y = m.y;
  *alignment = m.alignment;
  *shadow = m.shadow ? 1 : 0;
  std::copy(m.rgba.begin(), m.rgba.end(), rgba);
}

int Context::MakeFilledRectangles(int width, int height) {
  rectangles_.clear();
  std::vector<FilledRectangle> made;
  CallLevel(
      "filledRectangles", 1,
      [&](lua_State* L) {
        lua_createtable(L, 0, 2);
        lua_pushinteger(L, width);
        lua_setfield(L, -2, "width");
        lua_pushinteger(L, height);
        lua_setfield(L, -2, "height");
        return 1;
      },
      [&](lua_State* L, int first) {
        return ReadList(L, first, "filledRectangles", [&](int entry) {
          FilledRectangle r;
          absl::Status s = IntField(L, entry, "x", &r.x, "filledRectangles", true);
          if (s.ok()) s = IntField(L, entry, "y", &r.y, "filledRectangles", true);
          if (s.ok()) s = IntField(L, entry, "width", &r.width, "filledRectangles", true);
          if (s.ok()) s = IntField(L, entry, "height", &r.height, "filledRectangles", true);
          if (s.ok()) s = ReadRgba(L, entry, "filledRectangles", true, &r.rgba);
          if (s.ok()) made.push_back(r);
          return s;
        });
      });
  if (error_.ok()) rectangles_ = std::move(made);
  return static_cast<int>(rectangles_.size());
}

void Context::GetFilledRectangle(int id, int* x, int* y, int* width, int* height,
                                 float rgba[4]) const {
  if (id < 0 || id >= static_cast<int>(rectangles_.size())) {
    *x = *y = *width = *height = 0;
    std::fill(rgba, rgba + 4, 0.0f);
    return;
  }
  const FilledRectangle& r = rectangles_[id];
  *x = r.x;
  *y = r.y;
  *width = r.width;
  *height = r.height;
  std::copy(r.rgba.begin(), r.rgba.end(), rgba);
}

}  // namespace hosts::dmlab
