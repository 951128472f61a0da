// Tensor limits (lua_api/tensor/tensor_limits.h): the tensor memory of a state is
// counted and bounded, garbage is collected before a refusal, storage may
// outlive its state, and the file constructor can be switched off.
#include "lua_api/tensor/tensor_limits.h"

#include <algorithm>
#include <cstddef>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_module.h"
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

// Far below the limit, the collector is paced by tensor bytes too: garbage
// tensors never hold more than a few times the Lua heap.
TEST_F(TensorLimitsTest, GarbageTensorsAreCollectedLongBeforeTheLimit) {
  std::size_t most = 0;
  for (int i = 0; i < 200; ++i) {
    ASSERT_EQ(Run("tensor.DoubleTensor(256, 256)"), "");  // 512 KiB of garbage
    most = std::max(most, TensorMemoryInUse(L));
  }
  const std::size_t heap = static_cast<std::size_t>(lua_gc(L, LUA_GCCOUNT, 0)) << 10;
  EXPECT_LE(most, 4 * heap + (std::size_t{512} << 10)) << "Lua heap: " << heap << " bytes";
  EXPECT_LT(most, std::size_t{100} << 20);  // of the 200 * 512 KiB made
}

// A __gc metamethod that raises an error while an allocation collects is
// dropped: the allocating call still succeeds, and no error unwinds
// through the module's C++ frames.
TEST_F(TensorLimitsTest, AnErroringFinalizerDuringACollectionIsDropped) {
  ASSERT_EQ(Run("for i = 1, 100 do\n"
                "  local p = newproxy(true)\n"
                "  getmetatable(p).__gc = function() error('finalizer ' .. i) end\n"
                "end"),
            "");
  SetTensorLimits(L, {.memory_bytes = 1 << 20});
  EXPECT_EQ(Run("for i = 1, 50 do tensor.ByteTensor(512, 1024) end"), "");
  ASSERT_EQ(Run("big = tensor.ByteTensor(1024, 1024)"), "");
}

// At Lua's C-call limit (a host nesting calls into the state 200 deep) no
// protected call can run, so the collection before a refusal must give up
// at once: it used to retry 10000 times for every allocation, each retry
// allocating a closure, which is what this counts.
struct CountingAllocator {
  lua_Alloc inner;
  void* inner_data;
  long calls = 0;

  static void* Allocate(void* self, void* block, std::size_t old_size, std::size_t size) {
    auto* counting = static_cast<CountingAllocator*>(self);
    ++counting->calls;
    return counting->inner(counting->inner_data, block, old_size, size);
  }
};

struct AtTheLimit {
  CountingAllocator* counter;
  long calls_for_refusal = -1;
  bool refused = false;
};

int NestUntilTheLimit(lua_State* L) {
  auto* at = static_cast<AtTheLimit*>(lua_touserdata(L, 1));
  lua_pushcfunction(L, &NestUntilTheLimit);
  lua_pushlightuserdata(L, at);
  if (lua_pcall(L, 1, 0, 0) == 0 || at->calls_for_refusal >= 0) return 0;
  lua_pop(L, 1);  // "C stack overflow": the deepest level
  const long before = at->counter->calls;
  absl::StatusOr<void*> block = TensorAllocator(L).Allocate(2 << 20, /*zeroed=*/false);
  at->calls_for_refusal = at->counter->calls - before;
  at->refused = !block.ok();
  return 0;
}

TEST_F(TensorLimitsTest, AtTheCCallLimitARefusalIsCheap) {
  SetTensorLimits(L, {.memory_bytes = 1 << 20});
  CountingAllocator counter;
  counter.inner = lua_getallocf(L, &counter.inner_data);
  lua_setallocf(L, &CountingAllocator::Allocate, &counter);
  AtTheLimit at{&counter};
  lua_pushcfunction(L, &NestUntilTheLimit);
  lua_pushlightuserdata(L, &at);
  ASSERT_EQ(lua_pcall(L, 1, 0, 0), 0) << lua_tostring(L, -1);
  lua_setallocf(L, counter.inner, counter.inner_data);
  EXPECT_TRUE(at.refused);
  ASSERT_GE(at.calls_for_refusal, 0);
  EXPECT_LT(at.calls_for_refusal, 10);
  // Away from the limit, collections work as before.
  EXPECT_EQ(Run("for i = 1, 50 do tensor.ByteTensor(512, 1024) end"), "");
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

TEST_F(TensorLimitsTest, AHostsChargeCountsLikeATensorUntilReleased) {
  SetTensorLimits(L, {.memory_bytes = 1 << 20});
  absl::StatusOr<TensorMemoryCharge> charge = ChargeTensorMemory(L, 600'000);
  ASSERT_TRUE(charge.ok()) << charge.status();
  EXPECT_EQ(charge->bytes(), 600'000u);
  EXPECT_EQ(TensorMemoryInUse(L), 600'000u);
  EXPECT_THAT(Run("tensor.ByteTensor(500000)"),
              HasSubstr("would exceed the tensor memory limit of this Lua state, 1 MiB "
                        "(600000 bytes are in use)"));
  // A charge that does not fit is refused, after a collection of garbage.
  ASSERT_EQ(Run("garbage = tensor.ByteTensor(400000) garbage = nil"), "");
  absl::StatusOr<TensorMemoryCharge> second = ChargeTensorMemory(L, 400'000);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_THAT(std::string(ChargeTensorMemory(L, 100'000).status().message()),
              HasSubstr("the host's memory for this state of 100000 bytes would exceed"));
  // Moving keeps one charge; destroying it gives the room back.
  TensorMemoryCharge moved = *std::move(charge);
  EXPECT_EQ(TensorMemoryInUse(L), 1'000'000u);
  moved = TensorMemoryCharge();
  EXPECT_EQ(TensorMemoryInUse(L), 400'000u);
  EXPECT_EQ(Run("tensor.ByteTensor(500000)"), "");
}

TEST_F(TensorLimitsTest, AChargeMayOutliveItsState) {
  absl::StatusOr<TensorMemoryCharge> charge = ChargeTensorMemory(L, 1000);
  ASSERT_TRUE(charge.ok());
  lua_close(L);
  L = luaL_newstate();  // for the fixture's destructor
  EXPECT_EQ(charge->bytes(), 1000u);
  // Released here, after the state: the budget lives until then.
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
  EXPECT_THAT(std::string(ChargeTensorMemory(L, 8).status().message()),
              HasSubstr("RegisterTensorModule"));
  lua_close(L);
}

}  // namespace
}  // namespace lua_api
