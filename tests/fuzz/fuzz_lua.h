// FuzzLua: a fresh Lua 5.1 state for one fuzz input, with the project's
// modules registered and limits that keep a hostile program from taking
// the fuzzer down with it.
//
// The limits turn a runaway input into a Lua error, which the fuzzers
// treat as a normal outcome; only crashes, sanitizer reports and leaks are
// findings:
//   * memory: the capped lua_Alloc of lua_memory.h, refusing to grow past
//     kMemoryCap, which Lua reports as "not enough memory" (as the engine's
//     sandbox does), and tensor limits (tensor_limits.h)
//     of kTensorMemoryCap, so a huge tensor is an error and a merely large
//     one cannot slow every run down;
//   * time: a count hook that raises once the instruction budget is spent
//     or kTimeLimit has passed (C functions such as string.rep do much
//     work in one instruction), and from then on at every instruction, so
//     a loop of pcalls cannot swallow the error forever.
// The environment keeps the base, string, table, math and coroutine
// libraries, without what would reach outside the process (io, os,
// package.loadlib, C modules) or undo the limits (debug.sethook), and
// without binary chunks, whose loader Lua 5.1 does not check.
//
// Example:
//   FuzzLua lua(/*instruction_budget=*/1'000'000);
//   lua.Run(source);   // a Lua error is a normal outcome
#ifndef TESTS_FUZZ_FUZZ_LUA_H_
#define TESTS_FUZZ_FUZZ_LUA_H_

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/lua_memory.h"

namespace fuzz {

struct Lender;  // fuzz_lua.cc

class FuzzLua {
 public:
  static constexpr std::size_t kMemoryCap = std::size_t{32} << 20;
  static constexpr std::size_t kTensorMemoryCap = std::size_t{16} << 20;
  // Well under ./lab fuzz's -timeout, which would count as a finding.
  static constexpr std::chrono::milliseconds kTimeLimit{1000};

  // Registers dmlab.system.tensor, .random and .host_test, plus the
  // harness's own lender `fuzz_host` (see fuzz_lua.cc): lend(slot, typeName,
  // shape, fillValue) returns a tensor over a harness buffer, and
  // revoke(slot) ends that loan and frees the buffer at once, at any point
  // of the program, even inside an apply callback over that very tensor.
  // `instruction_budget` VM instructions (counted in steps of 100) may run
  // before every further one raises; so may kTimeLimit from construction.
  explicit FuzzLua(long instruction_budget);
  // Closes the state (running every __gc), then frees what is still lent.
  ~FuzzLua();

  FuzzLua(const FuzzLua&) = delete;
  FuzzLua& operator=(const FuzzLua&) = delete;

  lua_State* state() const { return L_; }

  // Compiles `source` as a text chunk named `chunk_name` and runs it in
  // protected mode. Returns "" or the Lua error (compile or run time).
  std::string Run(absl::string_view source, const char* chunk_name = "=fuzz");

 private:
  // The count hook: raises once budget_ is spent.
  static void CountInstructions(lua_State* L, lua_Debug* debug);

  std::unique_ptr<Lender> lender_;
  // Enforced throughout: every input runs in a protected call, and inside
  // the modules' C++ functions the allocator never refuses (lua_memory.h).
  lua_api::LuaMemoryCap memory_{.limit = kMemoryCap, .enforcing = true};
  struct Budget {
    long instructions_left;
    std::chrono::steady_clock::time_point deadline;
  } budget_;
  lua_State* L_ = nullptr;
};

}  // namespace fuzz

#endif  // TESTS_FUZZ_FUZZ_LUA_H_
