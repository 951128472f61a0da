#include <string>

#include "gtest/gtest.h"
#include "lua.hpp"

namespace {

TEST(LuaWiringTest, RunsAChunkAndReadsTheResult) {
  lua_State* L = luaL_newstate();
  ASSERT_NE(L, nullptr);
  luaL_openlibs(L);
  ASSERT_EQ(luaL_dostring(L, "return 6 * 7, _VERSION, jit ~= nil"), 0) << lua_tostring(L, -1);
  EXPECT_EQ(lua_tonumber(L, -3), 42);
  EXPECT_EQ(std::string(lua_tostring(L, -2)), "Lua 5.1");
#ifdef EXPECT_LUAJIT
  EXPECT_TRUE(lua_toboolean(L, -1)) << "expected to be linked against LuaJIT";
#else
  EXPECT_FALSE(lua_toboolean(L, -1)) << "expected to be linked against PUC Lua 5.1";
#endif
  lua_close(L);
}

}  // namespace
