#include "lua_api/tensor/host_test.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lua_api/tensor/tensor_module.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace lua_api {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class HostTestModuleTest : public LuaStateTest {
 protected:
  HostTestModuleTest() {
    RegisterTensorModule(L);
    RegisterHostTestModule(L);
    EXPECT_EQ(Run("host_test = require 'dmlab.system.host_test'"), "");
  }
};

TEST_F(HostTestModuleTest, LendsANonOwningFilledTensorAndReturnsFnsResults) {
  EXPECT_EQ(Run(R"(
    local a, b, c = host_test.lend('DoubleTensor', {2, 3}, 7, function(t, x, y)
      assert(t:type() == 'dmlab.system.tensor.DoubleTensor', t:type())
      assert(t:ownsStorage() == false)
      assert(t:sum() == 42, t:sum())
      return t:sum() + x, y, nil
    end, 1, 'two')
    assert(a == 43 and b == 'two' and c == nil)
    assert(select('#', host_test.lend('ByteTensor', {1}, 0, function() return 1, nil, nil end)) == 3)
    assert(select('#', host_test.lend('ByteTensor', {1}, 0, function() end)) == 0)
  )"),
            "");
}

TEST_F(HostTestModuleTest, EverySevenTypes) {
  EXPECT_EQ(Run(R"(
    for _, name in ipairs{'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
                          'Int64Tensor', 'FloatTensor', 'DoubleTensor'} do
      host_test.lend(name, {4}, 2, function(t)
        assert(t:type() == 'dmlab.system.tensor.' .. name, t:type())
        assert(t:sum() == 8, name)
      end)
    end
  )"),
            "");
}

TEST_F(HostTestModuleTest, TheTensorIsInvalidAfterwards) {
  EXPECT_EQ(Run("host_test.lend('DoubleTensor', {2}, 1, function(t) kept = t end)"), "");
  EXPECT_THAT(Run("kept:sum()"),
              AllOf(HasSubstr("invalid"), HasSubstr("DoubleTensor"), HasSubstr("sum"),
                    HasSubstr("host_test.lend buffer")));
}

TEST_F(HostTestModuleTest, FnsErrorIsReRaisedUnchangedAfterTheLoanEnds) {
  EXPECT_EQ(Run(R"(
    local e = {}
    local ok, err = pcall(host_test.lend, 'DoubleTensor', {2}, 1, function(t)
      kept = t
      error(e)
    end)
    assert(not ok and rawequal(err, e), 'the same error object')
    ok, err = pcall(host_test.lend, 'DoubleTensor', {2}, 1, function() error('boom', 0) end)
    assert(not ok and err == 'boom', err)
  )"),
            "");
  EXPECT_THAT(Run("kept:sum()"), HasSubstr("invalid"));
}

TEST_F(HostTestModuleTest, NestedLoansEndInOrder) {
  EXPECT_EQ(Run(R"(
    host_test.lend('DoubleTensor', {1}, 1, function(a)
      host_test.lend('DoubleTensor', {1}, 2, function(b) inner = b end)
      assert(not pcall(function() return inner:sum() end), 'inner ended')
      assert(a:sum() == 1, 'outer still valid')
    end)
  )"),
            "");
}

TEST_F(HostTestModuleTest, ZeroExtents) {
  EXPECT_EQ(Run("host_test.lend('Int32Tensor', {0, 3}, 5, function(t) assert(t:sum() == 0) end)"),
            "");
}

TEST_F(HostTestModuleTest, BadArgumentsAreErrors) {
  const auto lend = [this](const std::string& args) {
    return Run("host_test.lend(" + args + ")");
  };
  const std::string fn = "function() end";
  EXPECT_EQ(lend("nil, {1}, 0, " + fn), "bad argument #1 to 'lend' (string expected, got nil)");
  EXPECT_THAT(lend("'HalfTensor', {1}, 0, " + fn), HasSubstr("unknown tensor type 'HalfTensor'"));
  EXPECT_EQ(lend("'DoubleTensor', 3, 0, " + fn),
            "bad argument #2 to 'lend' (table of extents expected, got number 3)");
  EXPECT_EQ(lend("'DoubleTensor', {}, 0, " + fn),
            "bad argument #2 to 'lend' (the shape has no extents)");
  EXPECT_EQ(lend("'DoubleTensor', {2, -1}, 0, " + fn),
            "bad argument #2 to 'lend' (extent 2: extent >= 0 expected, got number -1)");
  EXPECT_EQ(lend("'DoubleTensor', {1/0}, 0, " + fn),
            "bad argument #2 to 'lend' (extent 1: integer expected, got number inf)");
  EXPECT_THAT(lend("'DoubleTensor', {2^31, 2^31}, 0, " + fn), HasSubstr("byte limit"));
  EXPECT_THAT(lend("'DoubleTensor', {2^62, 2^62}, 0, " + fn), HasSubstr("bad argument #2"));
  EXPECT_EQ(lend("'DoubleTensor', {1}, 'x', " + fn),
            "bad argument #3 to 'lend' (number expected, got string)");
  EXPECT_THAT(lend("'ByteTensor', {1}, 256, " + fn), HasSubstr("does not fit"));
  EXPECT_THAT(lend("'ByteTensor', {1}, -1, " + fn), HasSubstr("does not fit"));
  EXPECT_THAT(lend("'Int32Tensor', {1}, 1.5, " + fn), HasSubstr("does not fit"));
  EXPECT_THAT(lend("'Int64Tensor', {1}, 2^63, " + fn), HasSubstr("does not fit"));
  EXPECT_THAT(lend("'Int64Tensor', {1}, 0/0, " + fn), HasSubstr("does not fit"));
  EXPECT_THAT(lend("'FloatTensor', {1}, 1e39, " + fn), HasSubstr("does not fit"));
  EXPECT_EQ(lend("'DoubleTensor', {1}, 0, nil"),
            "bad argument #4 to 'lend' (function expected, got nil)");
  // Values the types do hold.
  EXPECT_EQ(lend("'Int64Tensor', {1}, -2^63, " + fn), "");
  EXPECT_EQ(lend("'FloatTensor', {1}, 1/0, " + fn), "");
  EXPECT_EQ(lend("'DoubleTensor', {1}, 0/0, " + fn), "");
}

TEST(HostTestModuleWithoutTensorTest, SaysTheTensorModuleIsMissing) {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  RegisterHostTestModule(L);
  // luaL_dostring's value is a boolean here (loadstring || pcall).
  ASSERT_TRUE(luaL_dostring(L, "require('dmlab.system.host_test').lend('DoubleTensor', {1}, 0, "
                               "function() end)"));
  EXPECT_THAT(lua_tostring(L, -1), HasSubstr("cannot load dmlab.system.tensor"));
  lua_close(L);
}

}  // namespace
}  // namespace lua_api
