// The sandbox's `io`: a level may write to the process's stdout and
// stderr, and nothing else.
//
// DeepMind Lab's scripts log through io (common.log writes io.stdout;
// common.helpers does `require 'io'` and tries io.open), so a sandboxed
// level gets an io table with only what cannot reach outside the VM:
//   io.write(...)                      to stdout
//   io.stdout:write(...), io.stderr:write(...) (each returns the stream)
//   io.stdout:flush(), io.stderr:flush(), io.flush()
//   io.open(...)                       nil and a message: no files
//   io.close(stream)                   nil and a message: the standard
//                                      streams stay open
// and `print`, as Lua's, writing to stdout through the same budget.
// Writes take strings and numbers, as Lua's do. Each callback may write
// kOutputBytesPerCall bytes in all (io and print together); past that its output is dropped, and
// one line on stderr says so, so a chatty level cannot fill a disk or
// stall the host on a slow terminal.
#ifndef ENGINE_PLUGIN_SANDBOX_IO_H_
#define ENGINE_PLUGIN_SANDBOX_IO_H_

#include <cstddef>

#include "absl/status/status.h"
#include "lua_api/lua/lua.h"

namespace engine_plugin {

inline constexpr std::size_t kOutputBytesPerCall = std::size_t{1} << 20;

// What one callback has written; the Sandbox resets `used` per callback.
struct OutputBudget {
  std::size_t used = 0;
};

// [-0, +0, -] Sets the globals `io` (and package.loaded.io) and `print` to
// the sandbox's, writing against `budget` (which must outlive the state).
absl::Status OpenSandboxIo(lua_State* L, OutputBudget* budget);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_SANDBOX_IO_H_
