#include "lua_api/lua/call.h"

#include <algorithm>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace lua_api {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

using CallTest = LuaStateTest;

void Load(lua_State* L, const char* code) {
  ASSERT_EQ(luaL_loadstring(L, code), 0) << lua_tostring(L, -1);
}

TEST_F(CallTest, ReturnsAllResultsInPlaceOfFunctionAndArguments) {
  lua_pushstring(L, "below");
  Load(L, "local a, b = ... return a + b, a * b, 'x'");
  lua_pushnumber(L, 3);
  lua_pushnumber(L, 4);
  NResultsOr result = Call(L, 2);
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result.n_results(), 3);
  ASSERT_EQ(lua_gettop(L), 4);
  EXPECT_STREQ(lua_tostring(L, 1), "below");
  EXPECT_EQ(lua_tonumber(L, 2), 7);
  EXPECT_EQ(lua_tonumber(L, 3), 12);
  EXPECT_STREQ(lua_tostring(L, 4), "x");
}

TEST_F(CallTest, AFixedResultCountPadsOrTruncates) {
  Load(L, "return 1, 2, 3");
  NResultsOr one = Call(L, 0, 1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one.n_results(), 1);
  EXPECT_EQ(lua_gettop(L), 1);
  Load(L, "return");
  NResultsOr two = Call(L, 0, 2);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two.n_results(), 2);
  EXPECT_TRUE(lua_isnil(L, -1));
  EXPECT_EQ(lua_gettop(L), 3);
}

TEST_F(CallTest, ErrorsCarryTheMessageAndATraceback) {
  lua_pushstring(L, "below");
  Load(L, "local function inner() error('boom') end\n inner()");
  NResultsOr result = Call(L, 0);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error(), StartsWith("[string \"local function inner() error('boom') end...\"]:1: boom"));
  EXPECT_THAT(result.error(), HasSubstr("stack traceback:"));
  EXPECT_THAT(result.error(), HasSubstr("inner"));
  // Nothing is left of the call: only what was below it.
  ASSERT_EQ(lua_gettop(L), 1);
  EXPECT_STREQ(lua_tostring(L, 1), "below");
}

TEST_F(CallTest, NonStringErrorsAreDescribed) {
  Load(L, "error({code = 1})");
  NResultsOr table = Call(L, 0);
  ASSERT_FALSE(table.ok());
  EXPECT_THAT(table.error(), StartsWith("(error object is a table value)"));
  Load(L, "error(nil)");
  NResultsOr nil = Call(L, 0);
  ASSERT_FALSE(nil.ok());
  EXPECT_THAT(nil.error(), StartsWith("(error object is a nil value)"));
  Load(L, "error(42, 0)");  // Numbers are strings to Lua.
  NResultsOr number = Call(L, 0);
  ASSERT_FALSE(number.ok());
  EXPECT_THAT(number.error(), StartsWith("42"));
  EXPECT_EQ(lua_gettop(L), 0);
}

TEST_F(CallTest, ErrorsInCFunctionsAndNonFunctions) {
  lua_getglobal(L, "string");
  lua_getfield(L, -1, "rep");
  lua_remove(L, -2);
  NResultsOr rep = Call(L, 0);
  ASSERT_FALSE(rep.ok());
  EXPECT_THAT(rep.error(), HasSubstr("bad argument #1 to '"));
  lua_pushnumber(L, 1);
  NResultsOr not_a_function = Call(L, 0);
  ASSERT_FALSE(not_a_function.ok());
  EXPECT_THAT(not_a_function.error(), HasSubstr("attempt to call a number value"));
  EXPECT_EQ(lua_gettop(L), 0);
}

// The handler is C: nothing a script replaces runs in it. A looping
// debug.traceback (or __index on debug) would otherwise hang the call,
// since Lua runs the handler of a hook's error with hooks off.
TEST_F(CallTest, TheTracebackIgnoresWhatTheScriptReplaced) {
  for (const char* replacing : {
           "debug.traceback = function() while true do end end",
           "debug = setmetatable({}, {__index = function() while true do end end})",
           "debug = nil",
       }) {
    SCOPED_TRACE(replacing);
    ASSERT_EQ(Run(replacing), "");
    Load(L, "local function failing() error('plain', 0) end failing()");
    NResultsOr result = Call(L, 0);
    ASSERT_FALSE(result.ok());
    EXPECT_THAT(result.error(), StartsWith("plain\nstack traceback:"));
    EXPECT_THAT(result.error(), HasSubstr("in function 'failing'"));
  }
}

TEST_F(CallTest, ADeepStackIsElidedInTheMiddle) {
  Load(L, "local function deep(n) if n == 0 then error('bottom') end deep(n - 1) end deep(100)");
  NResultsOr result = Call(L, 0);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error(), HasSubstr("\n\t..."));
  EXPECT_LT(std::count(result.error().begin(), result.error().end(), '\n'), 30);
}

// Found by level_program: levels nesting host calls deep, each error's
// traceback probing the stack level by level (the square of its depth).
// At 12000 frames, 1500 errors took two minutes; the test times out on that.
TEST_F(CallTest, TracebacksOfVeryDeepStacksAreCheap) {
  Load(L, "return function(n) local function deep(k) if k == 0 then error('bottom') end "
          "deep(k - 1) end deep(n) end");
  ASSERT_TRUE(Call(L, 0, 1).ok());
  for (int i = 0; i < 1500; ++i) {
    lua_pushvalue(L, -1);
    lua_pushinteger(L, 12000);
    NResultsOr result = Call(L, 1, 0);
    ASSERT_FALSE(result.ok());
    ASSERT_THAT(result.error(), HasSubstr("bottom"));
    ASSERT_THAT(result.error(), HasSubstr("\n\t..."));
  }
  // The depth is found exactly: "stack traceback:", then error, deep six
  // times (5 down to 0) and the function, and nothing past the bottom.
  lua_pushvalue(L, -1);
  lua_pushinteger(L, 5);
  NResultsOr shallow = Call(L, 1, 0);
  EXPECT_EQ(std::count(shallow.error().begin(), shallow.error().end(), '\n'), 9);
}

}  // namespace
}  // namespace lua_api
