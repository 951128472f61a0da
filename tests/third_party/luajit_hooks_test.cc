// Why a sandbox with an instruction limit turns LuaJIT's compiler off
// (engine_plugin/sandbox.h): nothing a host can do from outside stops a
// compiled loop. Issue 49 asked for a mechanism that bounds compiled code;
// these are the ones tried, pinned so that a LuaJIT that gains one shows
// up here as a failure:
//   - a count hook: LuaJIT calls hooks only in its interpreter, and a
//     compiled loop never returns there;
//   - a hook set asynchronously by a timer (what lua.c's Ctrl-C handler
//     does, and the only way in from outside the VM): it stops the
//     interpreter at once, and compiled code not at all. Tried on
//     `while true do end`, a table loop, a string loop and a loop of Lua
//     calls, JIT on: each still ran 3 s after the hook was set. Pinned
//     below on finite loops, which run to their end.
// What is left, a counter the compiler cannot drop (source rewriting of
// every loop, goto label and function, in load and loadstring too), was
// not attempted: it trusts a Lua lexer of ours with the sandbox's
// soundness. So the JIT stays off rather than the watchdog weakening.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "lua.hpp"  // LuaJIT's includes luajit.h, in extern "C"

namespace {

// The loop counter `n` where the hook stopped the loop.
double stopped_at = -1;

// The hook can fire inside a function the loop calls, so `n` is looked
// for in every frame from the innermost out.
void Stop(lua_State* L, lua_Debug*) {
  lua_Debug frame;
  for (int level = 0; stopped_at < 0 && lua_getstack(L, level, &frame); ++level) {
    for (int i = 1; const char* name = lua_getlocal(L, &frame, i); ++i) {
      if (std::string(name) == "n") stopped_at = lua_tonumber(L, -1);
      lua_pop(L, 1);
    }
  }
  luaL_error(L, "stopped by the hook");
}

// Runs `code` (a loop of about a second that counts in `n` to kEnd) with
// the JIT on or off, setting a count hook from another thread 20 ms in;
// where the hook stopped it.
constexpr double kEnd = 1e9;
double TimerHookStopsAt(const char* code, bool jit) {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | (jit ? LUAJIT_MODE_ON : LUAJIT_MODE_OFF));
  stopped_at = -1;
  std::atomic<bool> done{false};
  std::thread timer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!done) lua_sethook(L, &Stop, LUA_MASKCOUNT, 1);
  });
  if (luaL_loadstring(L, code) == 0) lua_pcall(L, 0, 0, 0);
  done = true;
  timer.join();
  lua_close(L);
  return stopped_at;
}

// Finite, so that a compiled run ends by itself: the hook then fires at
// the first interpreted instruction after the loop.
constexpr const char* kLoops[] = {
    "local n = 0 while n < 1e9 do n = n + 1 end",
    "local t, n = {}, 0 while n < 1e9 do n = n + 1 t[n % 100 + 1] = n end",
    "local function f(x) return x + 1 end local n = 0 while n < 1e9 do n = f(n) end",
};

TEST(LuajitHooksTest, ATimerHookStopsTheInterpreter) {
  for (const char* code : kLoops) {
    const double at = TimerHookStopsAt(code, /*jit=*/false);
    EXPECT_GE(at, 0) << code;
    EXPECT_LT(at, kEnd) << code;
  }
}

// The hook fires only when the trace leaves for the interpreter: at the
// loop's last test (its final iteration is the interpreter's), having run
// the whole loop.
TEST(LuajitHooksTest, ATimerHookDoesNotStopCompiledLoops) {
  for (const char* code : kLoops) EXPECT_GE(TimerHookStopsAt(code, /*jit=*/true), kEnd - 1) << code;
}

TEST(LuajitHooksTest, CountHooksAreNotCalledFromCompiledLoops) {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_ON);
  lua_sethook(L, &Stop, LUA_MASKCOUNT, 1000000);
  // 1e8 iterations: 100 hook calls were it interpreted.
  EXPECT_EQ(luaL_dostring(L, "for i = 1, 1e8 do end"), 0);
  lua_close(L);
}

}  // namespace
