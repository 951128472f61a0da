#include "lua_api/lua/read.h"

#include <cstdint>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace lua_api {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

using ReadTest = LuaStateTest;

// Pushes the value of a Lua expression.
void PushValue(lua_State* L, const std::string& expression) {
  ASSERT_EQ(luaL_loadstring(L, ("return " + expression).c_str()), 0) << lua_tostring(L, -1);
  ASSERT_EQ(lua_pcall(L, 0, 1, 0), 0) << lua_tostring(L, -1);
}

TEST_F(ReadTest, ReadIntegerAcceptsWholeNumbersInInt64) {
  for (const auto& [expression, expected] :
       std::initializer_list<std::pair<const char*, std::int64_t>>{
           {"3", 3},
           {"-7", -7},
           {"0", 0},
           {"-0.0", 0},
           {"-2^63", INT64_MIN},
           {"2^63 - 1024", INT64_MAX - 1023},  // the largest double below 2^63
           // Fractions truncate toward zero, as lua_tointeger does.
           {"2.5", 2},
           {"2.999", 2},
           {"-2.7", -2},
           {"0.5", 0},
           {"-0.5", 0},
           {"51.2", 51},
       }) {
    PushValue(L, expression);
    std::int64_t value = 42;
    EXPECT_EQ(ReadInteger(L, -1, &value), "") << expression;
    EXPECT_EQ(value, expected) << expression;
    lua_pop(L, 1);
  }
}

TEST_F(ReadTest, ReadIntegerRejectsNaNInfinityAndOverflow) {
  for (const char* expression : {"0/0", "1/0", "-1/0", "2^63", "-2^63 - 2048", "1e300"}) {
    PushValue(L, expression);
    std::int64_t value = 42;
    EXPECT_THAT(ReadInteger(L, -1, &value), StartsWith("integer expected, got number "))
        << expression;
    EXPECT_EQ(value, 42) << "unchanged on failure: " << expression;
    lua_pop(L, 1);
  }
}

TEST_F(ReadTest, ReadIntegerMessagesShowTheValueOrType) {
  std::int64_t value;
  PushValue(L, "1/0");
  EXPECT_EQ(ReadInteger(L, -1, &value), "integer expected, got number inf");
  PushValue(L, "2^63");
  EXPECT_EQ(ReadInteger(L, -1, &value), "integer expected, got number 9.2233720368547758e+18");
  lua_pushnil(L);
  EXPECT_EQ(ReadInteger(L, -1, &value), "integer expected, got nil");
  lua_pushstring(L, "3");  // Strings are not converted, unlike luaL_checkinteger.
  EXPECT_EQ(ReadInteger(L, -1, &value), "integer expected, got string");
  EXPECT_EQ(ReadInteger(L, 10, &value), "integer expected, got no value");
}

TEST_F(ReadTest, ReadNumberAcceptsNaNAndInfinity) {
  double value = 0;
  PushValue(L, "1/0");
  EXPECT_EQ(ReadNumber(L, -1, &value), "");
  EXPECT_TRUE(std::isinf(value));
  PushValue(L, "0/0");
  EXPECT_EQ(ReadNumber(L, -1, &value), "");
  EXPECT_TRUE(std::isnan(value));
  lua_newtable(L);
  EXPECT_EQ(ReadNumber(L, -1, &value), "number expected, got table");
}

TEST_F(ReadTest, ReadStringKeepsZerosAndRejectsNumbers) {
  std::string value = "unchanged";
  lua_pushlstring(L, "a\0b", 3);
  EXPECT_EQ(ReadString(L, -1, &value), "");
  EXPECT_EQ(value, std::string("a\0b", 3));
  lua_pushnumber(L, 5);
  value = "unchanged";
  EXPECT_EQ(ReadString(L, -1, &value), "string expected, got number 5");
  EXPECT_EQ(value, "unchanged");
}

TEST_F(ReadTest, TypeNameAtUsesTheMetatableNameOfUserdata) {
  lua_newuserdata(L, 8);
  EXPECT_EQ(TypeNameAt(L, -1), "userdata");  // no metatable
  lua_newtable(L);
  lua_setmetatable(L, -2);
  EXPECT_EQ(TypeNameAt(L, -1), "userdata");  // a metatable without __name
  lua_newuserdata(L, 8);
  luaL_newmetatable(L, "demo.Thing");
  lua_pushstring(L, "demo.Thing");
  lua_setfield(L, -2, "__name");
  lua_setmetatable(L, -2);
  EXPECT_EQ(TypeNameAt(L, -1), "demo.Thing");
  // A table's metatable does not name it.
  lua_newtable(L);
  luaL_getmetatable(L, "demo.Thing");
  lua_setmetatable(L, -2);
  EXPECT_EQ(TypeNameAt(L, -1), "table");
  EXPECT_EQ(lua_gettop(L), 3);
}

TEST_F(ReadTest, ArgumentErrorReadsLikeLuas) {
  EXPECT_EQ(ArgumentError("narrow", 1, "integer expected, got nil"),
            "bad argument #1 to 'narrow' (integer expected, got nil)");
  lua_pushboolean(L, true);
  EXPECT_EQ(Expected(L, -1, "tensor"), "tensor expected, got boolean");
  EXPECT_THAT(ArgumentError("f", 3, Expected(L, -1, "x")), HasSubstr("#3 to 'f' (x expected"));
}

}  // namespace
}  // namespace lua_api
