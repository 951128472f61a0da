// LentTensorSlot (lua_api/tensor/lent_tensor_slot.h): the same memory lent
// again is the same userdata under the same loan, revoked in place
// between lends; other memory, another layout, a userdata the level made
// hold another tensor, or a state closed and opened again get a new one.
#include "lua_api/tensor/lent_tensor_slot.h"

#include <cstdint>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lua_api/lua/lua.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_module.h"
#include "tensor/layout.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace lua_api {
namespace {

using ::testing::HasSubstr;

class LentTensorSlotTest : public LuaStateTest {
 protected:
  LentTensorSlotTest() {
    RegisterTensorModule(L);
    EXPECT_EQ(Run("tensor = require 'dmlab.system.tensor'"), "");
  }

  // Lends `data` (4 doubles, or `shape`) as the global `name`.
  void Lend(const char* name, double* data, std::initializer_list<std::int64_t> shape = {4}) {
    ASSERT_TRUE(slot_.PushContiguous(L, tensor::DType::kFloat64, shape, data, 4 * sizeof(double))
                    .ok());
    lua_setglobal(L, name);
  }

  LentTensorSlot slot_{"test lender"};
};

TEST_F(LentTensorSlotTest, TheSameMemoryIsTheSameUserdataRevokedBetweenLends) {
  double data[4] = {1, 2, 3, 4};
  Lend("first", data);
  EXPECT_EQ(Run("view = first:narrow(1, 2, 2); assert(first:sum() == 10)"), "");
  slot_.Revoke();
  EXPECT_THAT(Run("first:sum()"), HasSubstr("test lender"));
  EXPECT_THAT(Run("view:sum()"), HasSubstr("test lender"));
  data[1] = 20;
  Lend("second", data);
  EXPECT_EQ(Run("assert(rawequal(first, second)); assert(view:sum() == 23)"), "");
  slot_.Revoke();
  EXPECT_THAT(Run("second:sum()"), HasSubstr("invalid"));
}

TEST_F(LentTensorSlotTest, RelendRenewsWithoutPushing) {
  double data[4] = {1, 2, 3, 4};
  Lend("first", data);
  slot_.Revoke();
  const absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous({4});
  const int top = lua_gettop(L);
  EXPECT_TRUE(slot_.Relend(L, tensor::DType::kFloat64, *layout, data, sizeof(data)));
  EXPECT_EQ(lua_gettop(L), top);
  EXPECT_EQ(Run("assert(first:sum() == 10)"), "");
  double other[4] = {};
  EXPECT_FALSE(slot_.Relend(L, tensor::DType::kFloat64, *layout, other, sizeof(other)));
  EXPECT_FALSE(slot_.Relend(L, tensor::DType::kFloat32, *layout, data, sizeof(data)));
}

TEST_F(LentTensorSlotTest, OtherMemoryOrShapeIsANewUserdataAndTheOldStaysRevoked) {
  double data[4] = {1, 2, 3, 4};
  double other[4] = {5, 6, 7, 8};
  Lend("first", data);
  Lend("second", other);
  EXPECT_EQ(Run("assert(not rawequal(first, second)); assert(second:sum() == 26)"), "");
  EXPECT_THAT(Run("first:sum()"), HasSubstr("test lender"));
  Lend("third", other, {2, 2});
  EXPECT_EQ(Run("assert(not rawequal(second, third)); assert(third:size(1) == 2)"), "");
  EXPECT_THAT(Run("second:sum()"), HasSubstr("test lender"));
  Lend("fourth", data);
  EXPECT_THAT(Run("first:sum()"), HasSubstr("test lender"));  // revoked for good
}

// The userdata was made to hold another tensor (LuaTensor::Reset, as
// dmlab.system.torch's set does): lent again, it would be that tensor, not
// the memory as lent.
TEST_F(LentTensorSlotTest, AUserdataMadeToHoldAnotherTensorIsReplaced) {
  double data[4] = {1, 2, 3, 4};
  Lend("first", data);
  lua_getglobal(L, "first");
  LuaTensor* first = LuaTensor::Read(L, -1);
  lua_pop(L, 1);
  ASSERT_NE(first, nullptr);
  first->Reset(*first->tensor().Narrow(0, 0, 2));  // the same storage, another layout
  Lend("second", data);
  EXPECT_EQ(Run("assert(not rawequal(first, second)); assert(second:sum() == 10)"), "");
}

TEST(LentTensorSlotStateTest, AStateClosedAndOpenedAgainGetsAUserdataOfItsOwn) {
  LentTensorSlot slot("test lender");
  double data[4] = {1, 2, 3, 4};
  for (int round = 0; round < 3; ++round) {
    lua_State* L = luaL_newstate();
    luaL_openlibs(L);
    RegisterTensorModule(L);
    ASSERT_EQ(luaL_dostring(L, "require 'dmlab.system.tensor'"), 0);
    ASSERT_TRUE(slot.PushContiguous(L, tensor::DType::kFloat64, {4}, data, sizeof(data)).ok());
    lua_setglobal(L, "lent");
    ASSERT_EQ(luaL_dostring(L, "assert(lent:sum() == 10)"), 0) << lua_tostring(L, -1);
    slot.Revoke();
    lua_close(L);
  }
}

}  // namespace
}  // namespace lua_api
