// Read: Lua values into C++, with the checks and the messages that
// Lua-facing functions need.
//
// Each Read* returns an empty string on success and otherwise the
// parenthesised part of a Lua argument error ("integer expected, got
// 2.5"). ArgumentError wraps it the way luaL_argerror does.
//
// Example:
//   std::int64_t dim;
//   if (std::string why = ReadInteger(L, 2, &dim); !why.empty())
//     return ArgumentError("narrow", 1, why);
//   // "bad argument #1 to 'narrow' (integer expected, got 2.5)"
#ifndef LUA_API_LUA_READ_H_
#define LUA_API_LUA_READ_H_

#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"

#include "lua_api/lua/lua.h"

namespace lua_api {

// [-0, +1, -] Pushes t[key] of the table at `index`, raw: C++ code reads
// script tables this way, so no metamethod (script code, which may raise
// an error) runs while C++ objects are alive or outside a protected call.
void PushRawField(lua_State* L, int index, const char* key);

// "nil", "number", "table", ..., or the type name of a tensor userdata
// (its metatable's __name field) for userdata that have one.
std::string TypeNameAt(lua_State* L, int index);

// "<what> expected, got <type at index>".
std::string Expected(lua_State* L, int index, absl::string_view what);

// ReadNumber and ReadInteger are inline, their errors not: methods read
// their arguments on every call, and the success path is a few loads.

// A number; NaN and infinities are numbers too.
inline std::string ReadNumber(lua_State* L, int index, double* value) {
  if (lua_type(L, index) != LUA_TNUMBER) [[unlikely]] {
    return Expected(L, index, "number");
  }
  *value = lua_tonumber(L, index);
  return {};
}

// A finite number that fits in int64, truncated toward zero as Lua 5.1's
// lua_tointeger does: DeepMind Lab's and Torch7's C code read their integer
// arguments (sizes, dims, indices, seeds) so, and levels written for them
// pass 2.7 for 2. NaN, infinities and numbers outside int64, where their
// C code would be undefined, are errors.
inline std::string ReadInteger(lua_State* L, int index, std::int64_t* value) {
  if (lua_type(L, index) == LUA_TNUMBER) [[likely]] {
    const double number = lua_tonumber(L, index);
    // 2^63 is exact in double, and every double in range truncates into
    // int64; NaN is out of range.
    if (number >= -0x1p63 && number < 0x1p63) [[likely]] {
      *value = static_cast<std::int64_t>(number);
      return {};
    }
  }
  return Expected(L, index, "integer");
}

// A string (not a number converted to one).
std::string ReadString(lua_State* L, int index, std::string* value);

// "bad argument #<argument> to '<function>' (<why>)". For methods,
// argument 1 is the first after self, as luaL_argerror counts; under an
// ArgumentNumbering for `function`, shifted by it.
std::string ArgumentError(absl::string_view function, int argument, absl::string_view why);

// How a function that calls a method counts its arguments: ArgumentError
// adds `shift` to the numbers of `function`'s (tensor.pow(x, 'a') calls
// x:pow('a'), whose argument #1 is the module function's #2).
struct ArgumentNumbering {
  const char* function = nullptr;  // none
  int shift = 0;
};

// Makes `numbering` this thread's, until the next call, and returns the
// one it replaces. Set and restored by hand around a lua_pcall: a Lua
// error would skip a destructor.
ArgumentNumbering SetArgumentNumbering(ArgumentNumbering numbering);

}  // namespace lua_api

#endif  // LUA_API_LUA_READ_H_
