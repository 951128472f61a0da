#include "lua_api/lua/push.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace lua_api {
namespace {

using PushTest = LuaStateTest;

TEST_F(PushTest, NilAndBooleans) {
  Push(L, nullptr);
  Push(L, true);
  Push(L, false);
  ASSERT_EQ(lua_gettop(L), 3);
  EXPECT_TRUE(lua_isnil(L, 1));
  EXPECT_EQ(lua_type(L, 2), LUA_TBOOLEAN);
  EXPECT_TRUE(lua_toboolean(L, 2));
  EXPECT_EQ(lua_type(L, 3), LUA_TBOOLEAN);
  EXPECT_FALSE(lua_toboolean(L, 3));
}

TEST_F(PushTest, StringsKeepEmbeddedZeros) {
  const std::string with_zero("a\0b", 3);
  Push(L, with_zero);
  Push(L, absl::string_view(with_zero));
  Push(L, "plain");
  for (int index : {1, 2}) {
    std::size_t length;
    const char* data = lua_tolstring(L, index, &length);
    EXPECT_EQ(lua_type(L, index), LUA_TSTRING);
    EXPECT_EQ(std::string(data, length), with_zero);
  }
  EXPECT_STREQ(lua_tostring(L, 3), "plain");
}

TEST_F(PushTest, ArithmeticTypesBecomeNumbers) {
  Push(L, 3);
  Push(L, 2.5);
  Push(L, std::int64_t{1} << 53);
  Push(L, std::uint8_t{255});
  Push(L, -1.5f);
  EXPECT_EQ(lua_type(L, 1), LUA_TNUMBER);
  EXPECT_EQ(lua_tonumber(L, 1), 3);
  EXPECT_EQ(lua_tonumber(L, 2), 2.5);
  EXPECT_EQ(lua_tonumber(L, 3), 9007199254740992.0);
  EXPECT_EQ(lua_tonumber(L, 4), 255);
  EXPECT_EQ(lua_tonumber(L, 5), -1.5);
}

TEST_F(PushTest, VectorsBecomeOneBasedArrays) {
  Push(L, std::vector<std::int64_t>{4, 5});
  lua_setglobal(L, "shape");
  EXPECT_EQ(Run("assert(#shape == 2 and shape[1] == 4 and shape[2] == 5)"), "");
  Push(L, std::vector<std::string>{"x", "y"});
  lua_setglobal(L, "names");
  EXPECT_EQ(Run("assert(#names == 2 and names[1] == 'x' and names[2] == 'y')"), "");
  Push(L, std::vector<double>{});
  lua_setglobal(L, "empty");
  EXPECT_EQ(Run("assert(type(empty) == 'table' and next(empty) == nil)"), "");
  EXPECT_EQ(lua_gettop(L), 0);
}

TEST_F(PushTest, SpansAsWell) {
  const int values[] = {7, 8, 9};
  Push(L, absl::Span<const int>(values));
  lua_setglobal(L, "t");
  EXPECT_EQ(Run("assert(#t == 3 and t[1] == 7 and t[3] == 9)"), "");
}

}  // namespace
}  // namespace lua_api
