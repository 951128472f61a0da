#include "hosts/dmlab/lua_fields.h"

#include <cmath>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"

namespace hosts::dmlab {

// [-0, +1, m] t[key] of the table at `index`, with no metamethod run: a
// level's __index must not raise through the C++ frames reading it.
void PushRawField(lua_State* L, int index, const char* key) {
  if (index < 0 && index > LUA_REGISTRYINDEX) index = lua_gettop(L) + index + 1;
  lua_pushstring(L, key);
  lua_rawget(L, index);
}

bool CopyString(const std::string& value, char* out, int size) {
  if (size <= 0 || value.size() + 1 > static_cast<std::size_t>(size)) return false;
  std::memcpy(out, value.c_str(), value.size() + 1);
  return true;
}

namespace {

// [-0, +0, -] The field `key` of the table at `index`, read by `read` (on
// top, of Lua type `type`, named `type_name` in the error): absent leaves
// what `read` would set (an error when `required`); another type is an
// error; `read` may refuse with an error of its own.
template <typename Read>
absl::Status Field(lua_State* L, int index, const char* key, const char* callback, bool required,
                   int type, const char* type_name, Read read) {
  PushRawField(L, index, key);
  absl::Status status;
  if (lua_isnil(L, -1)) {
    if (required) {
      status = absl::InvalidArgumentError(
          absl::StrCat("[", callback, "] - the table has no '", key, "'"));
    }
  } else if (lua_type(L, -1) == type) {
    status = read();
  } else {
    status = absl::InvalidArgumentError(absl::StrCat("[", callback, "] - '", key, "' must be ",
                                                     type_name, ", not ", luaL_typename(L, -1)));
  }
  lua_pop(L, 1);
  return status;
}

}  // namespace

absl::Status StringField(lua_State* L, int index, const char* key, std::string* out,
                         const char* callback, bool required) {
  return Field(L, index, key, callback, required, LUA_TSTRING, "a string", [&] {
    std::size_t length = 0;
    const char* chars = lua_tolstring(L, -1, &length);
    out->assign(chars, length);
    return absl::OkStatus();
  });
}

absl::Status IntField(lua_State* L, int index, const char* key, int* out, const char* callback,
                      bool required) {
  return Field(L, index, key, callback, required, LUA_TNUMBER, "a number", [&] {
    const double value = lua_tonumber(L, -1);
    if (!(std::abs(value) < 2147483648.0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("[", callback, "] - '", key, "' is out of range"));
    }
    *out = static_cast<int>(value);
    return absl::OkStatus();
  });
}

absl::Status NumberField(lua_State* L, int index, const char* key, double* out,
                         const char* callback, bool required) {
  return Field(L, index, key, callback, required, LUA_TNUMBER, "a number", [&] {
    *out = lua_tonumber(L, -1);
    return absl::OkStatus();
  });
}

absl::Status BoolField(lua_State* L, int index, const char* key, bool* out,
                       const char* callback, bool required) {
  return Field(L, index, key, callback, required, LUA_TBOOLEAN, "a boolean", [&] {
    *out = lua_toboolean(L, -1);
    return absl::OkStatus();
  });
}

absl::Status ReadBool(lua_State* L, int index, const char* callback, bool* out) {
  if (lua_isnil(L, index) || lua_isnone(L, index)) return absl::OkStatus();
  if (!lua_isboolean(L, index)) {
    return absl::InvalidArgumentError(absl::StrCat("[", callback, "] - must return a boolean, not ",
                                                   luaL_typename(L, index)));
  }
  *out = lua_toboolean(L, index);
  return absl::OkStatus();
}

}  // namespace hosts::dmlab
