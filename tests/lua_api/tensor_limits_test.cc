// Tensor limits (lua_api/tensor_limits.h): the tensor memory of a state is
// counted and bounded, garbage is collected before a refusal, storage may
// outlive its state, and the file constructor can be switched off.
#include "lua_api/tensor_limits.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lua_api/lua_tensor.h"
#include "lua_api/tensor_module.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace lua_api {
namespace {

using ::testing::HasSubstr;

class TensorLimitsTest : public LuaStateTest {
 protected:
  TensorLimitsTest() {
    RegisterTensorModule(L);
    EXPECT_EQ(Run("tensor = require 'dmlab.system.tensor'"), "");
  }
};

TEST_F(TensorLimitsTest, RegisteringGivesTheDefaults) {
  EXPECT_EQ(GetTensorLimits(L).memory_bytes, kDefaultTensorMemoryBytes);
  EXPECT_TRUE(GetTensorLimits(L).file_access);
  EXPECT_THAT(Run("tensor.DoubleTensor(1e5, 1e5)"),
              HasSubstr("'DoubleTensor': a tensor of 80000000000 bytes would exceed the tensor "
                        "memory limit of this Lua state, 4096 MiB"));
}

TEST_F(TensorLimitsTest, LiveTensorsAreCountedUntilCollected) {
  ASSERT_EQ(Run("kept = tensor.ByteTensor(1000, 1000)"), "");
  EXPECT_EQ(TensorMemoryInUse(L), 1000u * 1000);
  ASSERT_EQ(Run("view = kept:narrow(1, 1, 10) clone = view:clone()"), "");
  EXPECT_EQ(TensorMemoryInUse(L), 1000u * 1000 + 10 * 1000);  // a view costs nothing
  ASSERT_EQ(Run("kept, view, clone = nil, nil, nil collectgarbage()"), "");
  EXPECT_EQ(TensorMemoryInUse(L), 0u);
}

TEST_F(TensorLimitsTest, EveryAllocatingMethodIsBounded) {
  SetTensorLimits(L, {.memory_bytes = 3 << 20});
  ASSERT_EQ(Run("m = tensor.ByteTensor(1024, 1024)"), "");  // 1 MiB of the 3
  ASSERT_EQ(Run("a = m:clone() b = m:byte()"), "");
  for (const char* call : {"m:clone()", "m:char()", "m:int16()", "m:double()",
                           "m:val(m:val())", "tensor.Int32Tensor{range = {2^18}}",
                           "tensor.ByteTensor(1024, 1024)"}) {
    SCOPED_TRACE(call);
    EXPECT_THAT(Run(call), HasSubstr("tensor memory limit of this Lua state, 3 MiB"));
  }
  ASSERT_EQ(Run("a, b = nil, nil collectgarbage() f = tensor.FloatTensor(1024, 1)"), "");
  EXPECT_THAT(Run("f:mmul(f:transpose(1, 2))"), HasSubstr("'mmul': a tensor of 4194304 bytes"));
}

TEST_F(TensorLimitsTest, GarbageIsCollectedBeforeARefusal) {
  SetTensorLimits(L, {.memory_bytes = 8 << 20});
  // 100 MiB in all, never more than a few MiB alive.
  EXPECT_EQ(Run("for i = 1, 100 do tensor.ByteTensor(1024, 1024):clone() end"), "");
  EXPECT_LE(TensorMemoryInUse(L), std::size_t{8} << 20);
}

TEST_F(TensorLimitsTest, StorageMayOutliveItsState) {
  ASSERT_EQ(Run("kept = tensor.DoubleTensor{1, 2, 3}"), "");
  lua_getglobal(L, "kept");
  tensor::Tensor kept = LuaTensor::Read(L, -1)->tensor();
  lua_pop(L, 1);
  lua_close(L);
  L = luaL_newstate();  // for the fixture's destructor
  // The allocator lives until its last block is freed, with `kept`.
  EXPECT_EQ(reinterpret_cast<const double*>(*kept.data())[2], 3);
}

TEST_F(TensorLimitsTest, FileAccessCanBeSwitchedOff) {
  SetTensorLimits(L, {.file_access = false});
  EXPECT_THAT(Run("tensor.ByteTensor{file = {name = '/proc/self/environ'}}"),
              HasSubstr("bad argument #1 to 'ByteTensor' (file: reading files is not allowed "
                        "in this Lua state)"));
}

TEST(TensorLimitsWithoutModuleTest, AStateWithoutLimitsRefusesEveryAllocation) {
  lua_State* L = luaL_newstate();
  absl::StatusOr<void*> block = TensorAllocator(L).Allocate(8, /*zeroed=*/true);
  EXPECT_THAT(std::string(block.status().message()), HasSubstr("RegisterTensorModule"));
  lua_close(L);
}

}  // namespace
}  // namespace lua_api
