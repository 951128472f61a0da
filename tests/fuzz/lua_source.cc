// lua_source: the input bytes as Lua source, run in a fresh VM with
// dmlab.system.tensor, .random and .host_test (and the harness's
// fuzz_host lender) loaded, under FuzzLua's memory cap and instruction
// budget. Compile errors and Lua errors are normal outcomes; a crash, a
// sanitizer report or a leak is a finding.
//
// Binary chunks are refused here as they are inside the VM (FuzzLua):
// Lua 5.1 runs precompiled bytecode unchecked, so a crash there would be
// the interpreter's, not ours.
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "tests/fuzz/fuzz_lua.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const absl::string_view source(reinterpret_cast<const char*>(data), size);
  if (!source.empty() && source[0] == '\x1b') return 0;  // LUA_SIGNATURE[0]
  fuzz::FuzzLua lua(/*instruction_budget=*/1'000'000);
  lua.Run(source, "=lua_source");
  return 0;
}
