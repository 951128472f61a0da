#include "lua_api/lua/class.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/push.h"
#include "lua_api/lua/read.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace lua_api {
namespace {

using ::testing::HasSubstr;

// Counts live objects, to show which destructors ran.
struct Tracker {
  static inline int live = 0;
  Tracker() { ++live; }
  ~Tracker() { --live; }
};

class Counter {
 public:
  static inline int destroyed = 0;

  explicit Counter(double start) : value_(start) {}
  ~Counter() { ++destroyed; }

  // [-0, +1, e] c:add(n) -> the new value
  NResultsOr Add(lua_State* L) {
    Tracker tracker;  // Must be destroyed even when this returns an error.
    double n;
    if (std::string why = ReadNumber(L, 2, &n); !why.empty()) return ArgumentError("add", 1, why);
    value_ += n;
    Push(L, value_);
    return 1;
  }

  // [-0, +1, -] c:get()
  NResultsOr Get(lua_State* L) {
    Push(L, value_);
    return 1;
  }

  double value() const { return value_; }

 private:
  double value_;
};

// [-0, +1, -] A method as a free function, the other form Member accepts.
NResultsOr Describe(Counter& self, lua_State* L) {
  Push(L, absl::StrCat("Counter(", self.value(), ")"));
  return 1;
}

class Other {};

class ClassTest : public LuaStateTest {
 protected:
  ClassTest() {
    Counter::destroyed = 0;
    Tracker::live = 0;
    for (const char* name : {"demo.Counter", "demo.OtherCounter"}) {
      Class<Counter>::Register(L, name,
                               {{"add", &Class<Counter>::Member<&Counter::Add>},
                                {"get", &Class<Counter>::Member<&Counter::Get>},
                                {"__tostring", &Class<Counter>::Member<&Describe>}});
    }
    Class<Other>::Register(L, "demo.Other", {});
  }

  // [-0, +0, m] Sets global `name` to a new Counter.
  void NewCounter(const char* name, double start, const char* type = "demo.Counter") {
    Class<Counter>::CreateObject(L, type, start);
    lua_setglobal(L, name);
  }
};

TEST_F(ClassTest, MethodsWork) {
  NewCounter("c", 1);
  EXPECT_EQ(Run("assert(c:add(2) == 3); assert(c:add(0.5) == 3.5); assert(c:get() == 3.5)"), "");
  EXPECT_EQ(Run("assert(tostring(c) == 'Counter(3.5)', tostring(c))"), "");
  EXPECT_EQ(Run("assert(getmetatable(c) == 'demo.Counter')"), "");
}

TEST_F(ClassTest, MethodErrorsAreLuaErrors) {
  NewCounter("c", 1);
  EXPECT_EQ(Run("c:add('x')"), "bad argument #1 to 'add' (number expected, got string)");
  EXPECT_EQ(Run("c:add()"), "bad argument #1 to 'add' (number expected, got no value)");
  EXPECT_EQ(Run("assert(c:get() == 1)"), "") << "a failed call changes nothing";
}

TEST_F(ClassTest, AnErrorDestroysTheMethodsLocalsBeforeRaising) {
  NewCounter("c", 1);
  ASSERT_NE(Run("c:add({})"), "");
  EXPECT_EQ(Tracker::live, 0) << "lua_error skipped a destructor";
  ASSERT_EQ(Run("c:add(1)"), "");
  EXPECT_EQ(Tracker::live, 0);
}

TEST_F(ClassTest, DotInsteadOfColonSaysToUseColon) {
  NewCounter("c", 1);
  EXPECT_EQ(Run("c.add(1)"),
            "calling 'add' on bad self (demo.Counter expected, got number 1); "
            "call methods with ':', as in x:add(...)");
  EXPECT_EQ(Run("c.get()"),
            "calling 'get' on bad self (demo.Counter expected, got no value); "
            "call methods with ':', as in x:get(...)");
  EXPECT_THAT(Run("c.add({}, 1)"), HasSubstr("(demo.Counter expected, got table)"));
}

TEST_F(ClassTest, AnotherClassIsBadSelf) {
  NewCounter("c", 1);
  Class<Other>::CreateObject(L, "demo.Other");
  lua_setglobal(L, "o");
  EXPECT_THAT(Run("c.get(o)"), HasSubstr("(demo.Counter expected, got demo.Other)"));
}

TEST_F(ClassTest, AnyOfTheTypesMetatablesIsSelf) {
  NewCounter("c", 1);
  NewCounter("d", 10, "demo.OtherCounter");
  EXPECT_EQ(Run("assert(d:add(1) == 11); assert(c.get(d) == 11)"), "");
  EXPECT_EQ(Run("assert(getmetatable(d) == 'demo.OtherCounter')"), "");
}

TEST_F(ClassTest, ASharedMetatableHasTheFamilysVeryMethods) {
  Class<Counter>::Share(L, "demo.Counter", "demo.SharedCounter");
  NewCounter("c", 1);
  NewCounter("s", 5, "demo.SharedCounter");
  EXPECT_EQ(Run("assert(s:add(1) == 6); assert(tostring(s) == 'Counter(6)')"), "");
  EXPECT_EQ(Run("assert(c.add == s.add, 'one closure for the family')"), "");
  EXPECT_EQ(Run("assert(getmetatable(s) == 'demo.SharedCounter')"), "");
  EXPECT_EQ(Run("assert(getmetatable(c) == 'demo.Counter')"), "") << "the family keeps its labels";
  EXPECT_THAT(Run("s.get()"), HasSubstr("(demo.Counter expected, got no value)"));
  EXPECT_EQ(Run("s = nil; collectgarbage(); collectgarbage()"), "");
  EXPECT_EQ(Counter::destroyed, 1) << "the shared metatable has __gc";
}

TEST_F(ClassTest, GarbageCollectionRunsTheDestructor) {
  NewCounter("c", 1);
  NewCounter("d", 2);
  EXPECT_EQ(Run("c = nil; collectgarbage(); collectgarbage()"), "");
  EXPECT_EQ(Counter::destroyed, 1);
  EXPECT_EQ(Run("for i = 1, 100 do local c = d end; d = nil; collectgarbage(); collectgarbage()"),
            "");
  EXPECT_EQ(Counter::destroyed, 2);
}

TEST_F(ClassTest, ClosingTheStateDestroysTheRest) {
  NewCounter("c", 1);
  NewCounter("d", 2);
  lua_close(L);
  L = luaL_newstate();  // for the fixture's destructor
  EXPECT_EQ(Counter::destroyed, 2);
}

TEST_F(ClassTest, ReadObjectRejectsEverythingElse) {
  NewCounter("c", 1);
  lua_getglobal(L, "c");
  Counter* counter = Class<Counter>::ReadObject(L, -1);
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->value(), 1);
  EXPECT_EQ(Class<Other>::ReadObject(L, -1), nullptr) << "a Counter is not an Other";

  lua_pushnil(L);
  lua_pushnumber(L, 1);
  lua_newtable(L);
  static int somewhere;
  lua_pushlightuserdata(L, &somewhere);
  lua_newuserdata(L, sizeof(Counter));  // no metatable
  lua_newuserdata(L, sizeof(Counter));  // someone else's metatable
  luaL_newmetatable(L, "demo.Foreign");
  lua_setmetatable(L, -2);
  Class<Other>::CreateObject(L, "demo.Other");
  lua_newtable(L);  // a table with a Counter metatable
  luaL_getmetatable(L, "demo.Counter");
  lua_setmetatable(L, -2);
  for (int index = 2; index <= lua_gettop(L); ++index) {
    EXPECT_EQ(Class<Counter>::ReadObject(L, index), nullptr)
        << "index " << index << ": " << luaL_typename(L, index);
  }
  EXPECT_EQ(Class<Counter>::ReadObject(L, 20), nullptr) << "no value";
}

TEST_F(ClassTest, TheGcOfAForeignValueDoesNothing) {
  // __gc called by hand on something else must not destroy anything.
  NewCounter("c", 1);
  EXPECT_EQ(
      Run("local gc = debug.getmetatable(c).__gc; gc({}); gc(newproxy and newproxy() or {})"),
      "");
  EXPECT_EQ(Counter::destroyed, 0);
}

TEST_F(ClassTest, TheMetatableIsHiddenFromScripts) {
  NewCounter("c", 1);
  EXPECT_EQ(Run("assert(getmetatable(c) == 'demo.Counter')"), "");
  EXPECT_NE(Run("setmetatable(c, nil)"), "");
}

TEST_F(ClassTest, AGcCalledByHandDestroysOnceAndLeavesTheObjectUnusable) {
  NewCounter("c", 1);
  EXPECT_EQ(Run("local gc = debug.getmetatable(c).__gc; gc(c); gc(c)"), "");
  EXPECT_EQ(Counter::destroyed, 1);
  EXPECT_NE(Run("c:add(1)"), "");
  lua_gc(L, LUA_GCCOLLECT, 0);
  EXPECT_EQ(Counter::destroyed, 1);
}

}  // namespace
}  // namespace lua_api
