// Sandbox: a level's Lua VM and the limits its script runs under.
//
// Level scripts come from many hands, and a level loaded from a path is
// untrusted. Whatever such a script does, the host must keep running. A
// Sandbox owns the lua_State of one level and applies, as LevelLimits say:
//
//  - Restricted libraries (`restrict_libraries`, the engine's `sandbox`
//    setting). The script gets base, package, string, table, math,
//    coroutine and os.clock/date/difftime/time, and nothing that reaches
//    outside the VM:
//      - of io only writing to the process's stdout and stderr
//        (io.write, io.stdout:write, io.stderr:write, flush), at most
//        kOutputBytesPerCall bytes a callback (sandbox_io.h): no files;
//      - no dofile, loadfile, newproxy (user finalizers), and no
//        os.execute, exit, getenv, remove, rename, tmpname, setlocale;
//      - of debug only debug.traceback and debug.getinfo's 'S', 'l', 'n'
//        and 'u' fields of the calling coroutine's stack (never 'f': no
//        function is handed out), which read just the script's own stack
//        (the engine's errors take their traceback in C, never through
//        these, which the script may replace);
//      - load and loadstring refuse binary chunks, which Lua 5.1 runs
//        unverified (crafted bytecode can crash the host);
//      - require finds only the preloaded modules (dmlab.system.*) and
//        pure-Lua files beside the level and in the gameScriptsDirectory
//        tree: `require 'a.b'` reads <directory>/a/b.lua, for names of
//        letters, digits and '_' between dots, and only a file that lies
//        inside its directory once links are resolved. No C modules,
//        package.loadlib, package.path or package.cpath;
//      - the tensor file constructor ({file = ...}) is refused.
//    Under LuaJIT, the jit and ffi modules are not opened either.
//  - A memory cap (`memory_bytes`, lua_api/lua/lua_memory.h): the VM's
//    allocator refuses to grow the Lua heap past it while script code
//    runs, which the script sees as Lua's "not enough memory" error. The
//    engine's own small allocations between callbacks are never refused,
//    so a full heap cannot make the engine fail outside a protected call.
//    Lua 5.1 has no emergency collection: garbage not yet collected
//    counts, so leave headroom. Inside the modules' C++ functions nothing
//    is refused (a refusal would longjmp over their destructors): the
//    script's next allocation is, and the functions whose results grow
//    with their input (val()) check the room left first. The C++ side of
//    each tensor the script holds counts too.
//  - An instruction watchdog (`instruction_limit`): a count hook that
//    aborts a callback once it has run that many Lua VM instructions
//    (checked every 1000, in every coroutine), with an error that names
//    the limit. Once tripped, the hook re-raises at every further
//    instruction of that callback, so pcall cannot swallow it; and since
//    Lua runs the message handler of a hook's error with hooks off,
//    xpcall then skips the script's handlers. Tensor kernels charge the
//    elements they visit to the same count (tensor/work_meter.h), so one
//    C call cannot run for hours either. Lua's own C functions (a long
//    string.rep, a backtracking string.find) count as one instruction.
//    LuaJIT runs count hooks only in its interpreter, and a hook set from
//    another thread (a timer) does not reach compiled loops either
//    (tests/third_party/luajit_hooks_test.cc), so under LuaJIT a Sandbox
//    with a limit turns the JIT compiler off.
//    Some work hides inside one instruction however it is counted: Lua
//    5.1 interns every string, and strings whose sampled characters
//    collide share one hash chain, so each new one is compared with all
//    before it (60,000 such strings ran 51 s). So the hook also checks
//    the clock: a callback that runs longer than WatchdogSeconds(limit)
//    (the limit at 10 ns an instruction, seven times what one takes here,
//    and at least 5 s, room for a slow or loaded machine and sanitizer
//    builds) is stopped as the count stops it, with an error
//    that says so. The count is what bounds a level; the clock is a
//    backstop, which a level within its count never reaches.
//  - Tensor limits (`tensors`, see lua_api/tensor/tensor_limits.h): the bytes of
//    tensor storage alive at once, and whether files may be read.
//
// Example:
//   LevelLimits limits{.restrict_libraries = true, .memory_bytes = 64 << 20,
//                      .instruction_limit = 10'000'000};
//   absl::StatusOr<std::unique_ptr<Sandbox>> vm = Sandbox::Create(limits, "/levels/mine");
//   absl::Status loaded = (*vm)->Load(source, "@/levels/mine/level.lua");
//   lua_api::NResultsOr api = (*vm)->Call(/*nargs=*/0, /*nresults=*/1);
#ifndef ENGINE_PLUGIN_SANDBOX_H_
#define ENGINE_PLUGIN_SANDBOX_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/sandbox_io.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/lua_memory.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/work_meter.h"

namespace engine_plugin {

struct LevelLimits {
  bool restrict_libraries = false;
  std::size_t memory_bytes = 0;        // the Lua heap; 0: no cap
  std::int64_t instruction_limit = 0;  // per Call; 0: no limit
  lua_api::TensorLimits tensors;
};

// The limits settings as a host gave them; those not given take the
// defaults of the sandbox or of a trusted level.
struct LimitSettings {
  std::optional<bool> sandbox;
  std::optional<std::int64_t> memory_megabytes;
  std::optional<std::int64_t> instruction_limit;
  std::optional<std::int64_t> tensor_memory_megabytes;
};

// The largest megabytes a limit setting takes: 1 TiB.
inline constexpr std::int64_t kMaxLimitMegabytes = std::int64_t{1} << 20;

// The limits of a level: `from_path` says it was loaded from a file (so
// sandboxed unless the settings say otherwise), not built in. In the
// sandbox the defaults are generous for a level and small enough that a
// runaway one is stopped within seconds and some hundreds of MiB: 256 MiB
// of Lua memory, 10^9 instructions per callback, 1 GiB of tensors.
LevelLimits ResolveLimits(const LimitSettings& settings, bool from_path);

// The wall-clock bound of a callback under an instruction limit: the
// limit at 10 ns an instruction, and at least 5 s.
double WatchdogSeconds(std::int64_t instruction_limit);

// [-0, +0, -] Moves the watchdog's clock deadline of the callback running
// in L's state `nanoseconds` later: time a module spent waiting for work
// outside the VM that its own bound limits (the dmlab host's map
// compiler, bounded by the map's size), which is no runaway of the level.
// The instruction count is untouched. Does nothing outside a watched call.
void ExcludeFromWatchdogClock(lua_State* L, std::int64_t nanoseconds);

class Sandbox {
 public:
  // A new VM with the libraries the limits allow. `directories` are where
  // require finds Lua modules, in order (the level's own directory, then
  // gameScriptsDirectory); none for a built-in level.
  static absl::StatusOr<std::unique_ptr<Sandbox>> Create(
      const LevelLimits& limits, const std::vector<std::string>& directories);
  ~Sandbox();

  lua_State* state() const { return L_; }
  const LevelLimits& limits() const { return limits_; }

  // [-0, +1 or +0, -] Compiles `source` under the memory cap and pushes
  // the chunk. Restricted, a binary chunk is refused.
  absl::Status Load(absl::string_view source, const std::string& chunk_name);

  // [-(nargs + 1), +n, -] lua_api::Call under the memory cap and the
  // watchdog. When a limit stopped the call, the message names it and
  // the setting that sets it. A Call made while another runs (a host
  // calling the level from inside a callback) runs under the outer call's
  // limits and leaves them as they were.
  lua_api::NResultsOr Call(int nargs, int nresults);

  // Whether a Call is running.
  bool in_call() const { return depth_ > 0; }

  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  // The watchdog's state; public for the C callbacks only.
  struct Watchdog {
    std::int64_t limit = 0;
    std::int64_t executed = 0;
    std::int64_t deadline_ns = 0;  // steady clock; see WatchdogSeconds
    bool armed = false;
    bool tripped = false;
    bool timed_out = false;  // tripped by the deadline, not the count
  };

 private:
  // Charges the tensor kernels' work to the watchdog (tensor/work_meter.h).
  class InstructionMeter final : public tensor::WorkMeter {
   public:
    explicit InstructionMeter(Sandbox* sandbox) : sandbox_(sandbox) {}
    absl::Status Spend(std::int64_t units) override;

   private:
    Sandbox* const sandbox_;
  };

  explicit Sandbox(const LevelLimits& limits) : limits_(limits) {}

  LevelLimits limits_;
  lua_api::LuaMemoryCap memory_;
  Watchdog watchdog_;
  OutputBudget output_;
  InstructionMeter meter_{this};
  int depth_ = 0;  // Calls running, nested ones included
  lua_State* L_ = nullptr;
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_SANDBOX_H_
