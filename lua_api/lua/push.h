// Push: C++ values onto the Lua stack.
//
// Numbers become Lua numbers (int64 beyond 2^53 loses precision, as any Lua
// 5.1 number does), strings Lua strings, vectors 1-based array tables.
//
// Example:
//   Push(L, 3.5);                                  // [-0, +1, m]
//   Push(L, std::vector<std::int64_t>{4, 5});      // {4, 5}
#ifndef LUA_API_LUA_PUSH_H_
#define LUA_API_LUA_PUSH_H_

#include <cstddef>
#include <string>
#include "absl/strings/string_view.h"
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "lua_api/lua/lua.h"

namespace lua_api {

inline void Push(lua_State* L, std::nullptr_t) { lua_pushnil(L); }
inline void Push(lua_State* L, bool value) { lua_pushboolean(L, value); }
inline void Push(lua_State* L, absl::string_view value) {
  lua_pushlstring(L, value.data(), value.size());
}
inline void Push(lua_State* L, const char* value) { lua_pushstring(L, value); }
inline void Push(lua_State* L, const std::string& value) {
  lua_pushlstring(L, value.data(), value.size());
}

template <typename T>
  requires std::is_arithmetic_v<T> && (!std::is_same_v<T, bool>)
void Push(lua_State* L, T value) {
  lua_pushnumber(L, static_cast<lua_Number>(value));
}

// [-0, +1, m]: a new array table {values[0], values[1], ...}.
template <typename T>
void Push(lua_State* L, absl::Span<const T> values) {
  lua_createtable(L, static_cast<int>(values.size()), 0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    Push(L, values[i]);
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
}

template <typename T>
void Push(lua_State* L, const std::vector<T>& values) {
  Push(L, absl::Span<const T>(values));
}

}  // namespace lua_api

#endif  // LUA_API_LUA_PUSH_H_
