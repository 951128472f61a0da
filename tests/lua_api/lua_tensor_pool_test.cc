// The per-thread pool of LuaTensor blocks (lua_api/tensor/lua_tensor.cc): views
// made and collected in bursts reuse blocks and keep their values, and a
// tensor freed after its thread closed the pool goes back to operator
// delete. The sanitizer leg of `./lab test --full` checks the second for
// leaks and uses after free.
#include <thread>

#include "gtest/gtest.h"
#include "lua_api/lua/lua.h"
#include "lua_api/tensor/tensor_module.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace lua_api {
namespace {

class LuaTensorPoolTest : public LuaStateTest {
 protected:
  LuaTensorPoolTest() {
    RegisterTensorModule(L);
    EXPECT_EQ(Run("tensor = require 'dmlab.system.tensor'"), "");
  }
};

TEST_F(LuaTensorPoolTest, BurstsOfViewsKeepTheirValues) {
  EXPECT_EQ(Run(R"lua(
    local m = tensor.DoubleTensor{range = {100}}:reshape{10, 10}
    local kept = {}
    for i = 1, 5000 do
      local row = i % 10 + 1
      local view = i % 2 == 0 and m:select(1, row) or m:narrow(1, row, 1)
      if i % 97 == 0 then kept[#kept + 1] = {view = view, row = row} end
      if i % 1000 == 0 then collectgarbage() end
    end
    collectgarbage()
    for _, k in ipairs(kept) do
      local first = k.view:nDimension() == 1 and k.view(1) or k.view(1, 1)
      assert(first:val() == (k.row - 1) * 10 + 1, 'row ' .. k.row)
    end
  )lua"),
            "");
}

// Closes its Lua state when its thread exits. Made before the thread frees
// any tensor, it is destroyed after the pool's closer, so the tensors alive
// then are freed through a closed pool.
struct StateClosedAtThreadExit {
  ~StateClosedAtThreadExit() {
    if (L != nullptr) lua_close(L);
  }
  lua_State* L = nullptr;
};

TEST(LuaTensorPoolThreadTest, TensorsFreedAfterTheirThreadClosedItsPool) {
  std::thread([] {
    thread_local StateClosedAtThreadExit state;
    state.L = luaL_newstate();
    luaL_openlibs(state.L);
    RegisterTensorModule(state.L);
    const char* code = R"lua(
      local tensor = require 'dmlab.system.tensor'
      local m = tensor.DoubleTensor(10, 10)
      kept = {}
      for i = 1, 1000 do
        local view = m:select(1, i % 10 + 1)
        if i % 10 == 0 then kept[#kept + 1] = view end
      end
      collectgarbage()  -- the garbage views go to the pool
    )lua";
    ASSERT_EQ(luaL_dostring(state.L, code), 0) << lua_tostring(state.L, -1);
  }).join();
}

}  // namespace
}  // namespace lua_api
