#include "lua_api/lua/read.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace lua_api {

void PushRawField(lua_State* L, int index, const char* key) {
  index = index < 0 && index > LUA_REGISTRYINDEX ? lua_gettop(L) + index + 1 : index;
  lua_pushstring(L, key);
  lua_rawget(L, index);
}

std::string TypeNameAt(lua_State* L, int index) {
  if (lua_type(L, index) == LUA_TUSERDATA && lua_getmetatable(L, index)) {
    PushRawField(L, -1, "__name");
    std::string name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "userdata";
    lua_pop(L, 2);
    return name;
  }
  return luaL_typename(L, index);
}

std::string Expected(lua_State* L, int index, absl::string_view what) {
  std::string got = TypeNameAt(L, index);
  if (lua_type(L, index) == LUA_TNUMBER) {
    got = absl::StrCat(got, " ", absl::StrFormat("%.17g", lua_tonumber(L, index)));
  }
  return absl::StrCat(what, " expected, got ", got);
}

std::string ReadString(lua_State* L, int index, std::string* value) {
  if (lua_type(L, index) != LUA_TSTRING) return Expected(L, index, "string");
  std::size_t length;
  const char* data = lua_tolstring(L, index, &length);
  value->assign(data, length);
  return {};
}

namespace {

// One per thread: a Lua state runs on one thread at a time, and a method
// called by a module function raises its errors on the caller's thread.
thread_local ArgumentNumbering numbering;

}  // namespace

ArgumentNumbering SetArgumentNumbering(ArgumentNumbering next) {
  const ArgumentNumbering previous = numbering;
  numbering = next;
  return previous;
}

std::string ArgumentError(absl::string_view function, int argument, absl::string_view why) {
  if (numbering.function != nullptr && function == numbering.function) {
    argument += numbering.shift;
  }
  return absl::StrCat("bad argument #", argument, " to '", function, "' (", why, ")");
}

}  // namespace lua_api
