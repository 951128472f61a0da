// LuaStateTest: a gtest fixture that owns a fresh lua_State with the
// standard libraries, and runs Lua snippets in it.
//
// Example:
//   TEST_F(LuaStateTest, Adds) {
//     EXPECT_EQ(Run("x = 1 + 1"), "");
//     EXPECT_EQ(Run("error('boom', 0)"), "boom");
//   }
#ifndef TESTS_LUA_API_LUA_STATE_FIXTURE_H_
#define TESTS_LUA_API_LUA_STATE_FIXTURE_H_

#include <string>

#include "gtest/gtest.h"
#include "lua_api/lua/lua.h"

namespace lua_api {

class LuaStateTest : public ::testing::Test {
 protected:
  LuaStateTest() : L(luaL_newstate()) { luaL_openlibs(L); }
  ~LuaStateTest() override { lua_close(L); }

  // Runs `code` in protected mode and leaves the stack as it was. Returns
  // "" on success, otherwise the error message (no traceback).
  std::string Run(const std::string& code) {
    const int top = lua_gettop(L);
    std::string error;
    if (luaL_loadstring(L, code.c_str()) != 0 || lua_pcall(L, 0, 0, 0) != 0) {
      error = lua_isstring(L, -1) ? lua_tostring(L, -1) : "(non-string error)";
      if (error.empty()) error = "(empty error message)";
    }
    lua_settop(L, top);
    return error;
  }

  lua_State* L;
};

}  // namespace lua_api

#endif  // TESTS_LUA_API_LUA_STATE_FIXTURE_H_
