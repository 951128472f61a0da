#include "engine_plugin/sandbox.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "engine_plugin/level_files.h"
#include "lua_api/lua/call.h"
#include "lua_api/lua/lua_memory.h"
#include "lua_api/lua/native_code.h"
#include "lua_api/lua/read.h"

namespace engine_plugin {
namespace {

// The watchdog checks the count every this many instructions (or every
// `limit`, if smaller).
constexpr std::int64_t kHookStep = 1000;

// The registry key of the Watchdog, for the hook.
const char kWatchdogKey = 0;

// The first byte of a precompiled chunk (LUA_SIGNATURE).
constexpr char kBinaryChunk = '\033';

std::string Megabytes(std::size_t bytes) { return absl::StrCat(bytes >> 20, " MiB"); }

// [-(n + 1), +m, e] Calls the function under its n arguments with the cap
// enforced (upvalue 1 is the Memory). It runs inside Call's lua_pcall, so
// that only allocations under that protection can be refused: a refusal
// outside one would be an unprotected error, which aborts the host.
int RunCapped(lua_State* L) {
  auto* memory = static_cast<lua_api::LuaMemoryCap*>(lua_touserdata(L, lua_upvalueindex(1)));
  memory->enforcing = true;
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  memory->enforcing = false;
  return lua_gettop(L);
}

// [-0, +1, m] RunCapped bound to `memory`, made once per state and kept in
// the registry: a closure made per call cost a small callback a tenth of
// its time, and made garbage every call.
void PushRunCapped(lua_State* L, lua_api::LuaMemoryCap* memory) {
  lua_pushlightuserdata(L, memory);
  lua_rawget(L, LUA_REGISTRYINDEX);
  if (!lua_isnil(L, -1)) return;
  lua_pop(L, 1);
  lua_pushlightuserdata(L, memory);
  lua_pushcclosure(L, &RunCapped, 1);
  lua_pushlightuserdata(L, memory);
  lua_pushvalue(L, -2);
  lua_rawset(L, LUA_REGISTRYINDEX);
}

// [-0, +0, -] For lua_cpcall: a full collection.
int CollectGarbage(lua_State* L) {
  lua_gc(L, LUA_GCCOLLECT, 0);
  return 0;
}

// [-0, +0, -] What luaL_newstate's panic function does, for states made with
// lua_newstate: say why before Lua aborts.
int Panic(lua_State* L) {
  const char* message = lua_tostring(L, -1);
  std::fprintf(stderr, "PANIC: unprotected error in call to Lua API (%s)\n",
               message != nullptr ? message : "?");
  return 0;
}

std::string InstructionLimitMessage(std::int64_t limit) {
  return absl::StrCat("the level exceeded the instruction limit of ", limit,
                      " instructions in one callback (setting instructionLimit)");
}

std::string DeadlineMessage(std::int64_t limit) {
  return absl::StrCat("the level ran longer than ", WatchdogSeconds(limit),
                      " s in one callback, the watchdog's time bound for its instruction limit "
                      "of ", limit, " (setting instructionLimit; work that Lua counts as one "
                      "instruction, such as strings whose hashes collide, runs against it)");
}

std::int64_t NowNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The count hook. It holds no C++ objects, so its lua_error is safe.
void CountHook(lua_State* L, lua_Debug*) {
  lua_pushlightuserdata(L, const_cast<char*>(&kWatchdogKey));
  lua_rawget(L, LUA_REGISTRYINDEX);
  auto* watchdog = static_cast<Sandbox::Watchdog*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  if (watchdog == nullptr || !watchdog->armed) return;
  const std::int64_t step = std::min(watchdog->limit, kHookStep);
  if (!watchdog->tripped) {
    // Coroutines have counts of their own; the total is shared.
    watchdog->executed += lua_gethookcount(L);
    if (NowNanoseconds() > watchdog->deadline_ns) {
      watchdog->timed_out = true;
    } else if (watchdog->executed < watchdog->limit) {
      // A coroutine left at 1 by an earlier callback's trip.
      if (lua_gethookcount(L) != step) lua_sethook(L, &CountHook, LUA_MASKCOUNT, step);
      return;
    }
    watchdog->tripped = true;
  }
  // From now on every instruction fails, so a pcall in the script cannot
  // catch this and carry on.
  lua_sethook(L, &CountHook, LUA_MASKCOUNT, 1);
  if (watchdog->timed_out) {
    lua_pushfstring(L,
                    "the level ran longer than %f s in one callback, the watchdog's time bound "
                    "for its instruction limit of %f (setting instructionLimit; work that Lua "
                    "counts as one instruction, such as strings whose hashes collide, runs "
                    "against it)",
                    static_cast<lua_Number>(WatchdogSeconds(watchdog->limit)),
                    static_cast<lua_Number>(watchdog->limit));
  } else {
    lua_pushfstring(L,
                    "the level exceeded the instruction limit of %f instructions in one "
                    "callback (setting instructionLimit)",
                    static_cast<lua_Number>(watchdog->limit));
  }
  lua_error(L);
}

// [-0, +1, -] Whether the watchdog (upvalue 1) has tripped, for the guard
// of xpcall's handlers below.
int WatchdogTripped(lua_State* L) {
  const auto* watchdog = static_cast<Sandbox::Watchdog*>(lua_touserdata(L, lua_upvalueindex(1)));
  lua_pushboolean(L, watchdog->armed && watchdog->tripped);
  return 1;
}

// Run once in a VM with a watchdog, with WatchdogTripped as argument. Lua
// runs the message handler of an error raised from a hook with hooks off,
// so a level's handler that loops (xpcall(spin, spin)) would never be
// stopped: once the watchdog has tripped, handlers are skipped and the
// error goes on as it is. Before that, a handler runs with the hook on.
constexpr char kGuardHandlers[] = R"lua(
local rawXpcall, tripped = xpcall, ...
function xpcall(f, handler, ...)
  return rawXpcall(f, function(message)
    if tripped() then return message end
    return handler(message)
  end, ...)
end
)lua";

// Module names `require` may find beside the level: letters, digits and
// '_' between dots.
bool IsModuleName(absl::string_view name) {
  for (absl::string_view part : absl::StrSplit(name, '.')) {
    if (part.empty() || !std::all_of(part.begin(), part.end(), [](char c) {
          return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
        })) {
      return false;
    }
  }
  return true;
}

// [-1, +1, e] The sandbox's searcher for require(name): a pure-Lua
// <directory>/a/b.lua for 'a.b', in each directory of its upvalues in
// turn (the level's, then gameScriptsDirectory). As require expects, a
// module it cannot find gives a string saying where it looked.
constexpr std::int64_t kWorkPerSourceByte = 9;
constexpr std::size_t kCompiledBytesPerSourceByte = 8;

lua_api::NResultsOr LoadNeighbour(lua_State* L) {
  std::string name;
  if (std::string why = lua_api::ReadString(L, 1, &name); !why.empty()) {
    return absl::StrCat("require: module name: ", why);
  }
  std::string looked;
  if (!IsModuleName(name)) {
    looked = "\n\tno file beside the level (the sandbox loads only names of letters, digits and "
             "'_' between dots)";
  }
  for (int upvalue = 1; looked.empty() || IsModuleName(name); ++upvalue) {
    if (lua_isnone(L, lua_upvalueindex(upvalue))) break;
    const std::string directory = lua_tostring(L, lua_upvalueindex(upvalue));
    const std::string path =
        absl::StrCat(directory, "/", absl::StrReplaceAll(name, {{".", "/"}}), ".lua");
    absl::StatusOr<std::string> read = ReadLevelFile(path);
    if (absl::IsNotFound(read.status())) {
      absl::StrAppend(&looked, "\n\tno file '", path, "'");
      continue;
    }
    const std::string error = absl::StrCat("error loading module '", name, "' from '", path, "': ");
    if (!read.ok()) return absl::StrCat(error, read.status().message());
    if (!InsideDirectory(directory, path)) {
      return absl::StrCat(error, "it links outside '", directory, "', and the sandbox reads only "
                          "inside it");
    }
    const std::string& source = *read;
    if (!source.empty() && source[0] == kBinaryChunk) {
      return absl::StrCat(error, "binary chunks are not allowed in the sandbox");
    }
    // Compiling a byte took about 12.5 ns here, what 9 Lua instructions
    // do: a loop of requires of a large module is bounded like any loop.
    // The compiled function lands on the Lua heap, which refuses nothing
    // inside C++: at most 8 bytes of code and line numbers per byte of
    // source (`f()` is 2 instructions).
    if (absl::Status charged = tensor::ChargeWork(kWorkPerSourceByte *
                                                  static_cast<std::int64_t>(source.size()));
        !charged.ok()) {
      return error + std::string(charged.message());
    }
    if (std::string e = lua_api::CheckLuaMemory(L, kCompiledBytesPerSourceByte * source.size(),
                                                "require");
        !e.empty()) {
      return error + e;
    }
    // Protected inside: a syntax or memory error comes back as a status.
    if (luaL_loadbuffer(L, source.data(), source.size(), ("@" + path).c_str()) != 0) {
      std::string message = lua_tostring(L, -1);
      lua_pop(L, 1);
      return error + message;
    }
    return 1;
  }
  lua_pushlstring(L, looked.data(), looked.size());
  return 1;
}

// Run once in a restricted VM, with package.loaders' new searchers as
// arguments. It trims os, package and the base library to what cannot
// reach outside the VM, and makes load and loadstring refuse bytecode.
constexpr char kRestrict[] = R"lua(
local searchers = {...}
local keepOs = {clock = true, date = true, difftime = true, time = true}
for name in pairs(os) do
  if not keepOs[name] then os[name] = nil end
end
dofile, loadfile, newproxy = nil, nil, nil
-- Only the traceback and getinfo's source, line and name fields, which
-- read nothing but the script's own stack (DeepMind Lab's common/log.lua
-- prefixes each line with debug.getinfo(3)'s). getinfo never hands out a
-- function ('f') nor reads another coroutine.
local getinfo, findDisallowed = debug.getinfo, string.find
local function safeGetinfo(target, what)
  local kind = type(target)
  if kind ~= 'number' and kind ~= 'function' then
    error("bad argument #1 to 'getinfo' (a stack level or a function expected; the sandbox "
          .. "reads only the calling coroutine)", 2)
  end
  what = what or 'Slnu'
  if type(what) ~= 'string' or findDisallowed(what, '[^Slnu]') then
    error("bad argument #2 to 'getinfo' (the sandbox gives only 'S', 'l', 'n' and 'u')", 2)
  end
  -- Not a tail call: level 1 is this function, so the caller's levels
  -- move up by one.
  local info = getinfo(kind == 'number' and target + 1 or target, what)
  return info
end
debug, package.loaded.debug = {traceback = debug.traceback, getinfo = safeGetinfo}, nil
package.loadlib, package.path, package.cpath = nil, '', ''
table.insert(searchers, 1, package.loaders[1])  -- preload
package.loaders = searchers

local rawLoadstring, byte, concat, type = loadstring, string.byte, table.concat, type
local binary = 'binary chunks are not allowed in the sandbox'
function loadstring(chunk, name)
  if type(chunk) == 'string' and byte(chunk, 1) == 27 then return nil, binary end
  return rawLoadstring(chunk, name)
end
function load(reader, name)
  if type(reader) ~= 'function' then
    error("bad argument #1 to 'load' (function expected, got " .. type(reader) .. ")", 2)
  end
  local pieces = {}
  while true do
    local piece = reader()
    if piece == nil or piece == '' then break end
    if type(piece) ~= 'string' then return nil, 'reader function must return a string' end
    pieces[#pieces + 1] = piece
  end
  return loadstring(concat(pieces), name or '=(load)')
end
)lua";

// [-0, +0, -] Opens the libraries a restricted VM keeps, then restricts
// them. Runs before any script, unprotected by the cap.
absl::Status OpenRestricted(lua_State* L, const std::vector<std::string>& directories,
                            OutputBudget* output) {
  const std::pair<const char*, lua_CFunction> kLibraries[] = {
      {"", &luaopen_base},           {LUA_LOADLIBNAME, &luaopen_package},
      {LUA_TABLIBNAME, &luaopen_table}, {LUA_STRLIBNAME, &luaopen_string},
      {LUA_MATHLIBNAME, &luaopen_math}, {LUA_OSLIBNAME, &luaopen_os},
      {LUA_DBLIBNAME, &luaopen_debug},  // trimmed to debug.traceback below
  };
  for (const auto& [name, open] : kLibraries) {
    lua_pushcfunction(L, open);
    lua_pushstring(L, name);
    if (lua_pcall(L, 1, 0, 0) != 0) return absl::ResourceExhaustedError(lua_tostring(L, -1));
  }
  if (luaL_loadbuffer(L, kRestrict, sizeof(kRestrict) - 1, "=sandbox") != 0) {
    return absl::InternalError(lua_tostring(L, -1));
  }
  int searchers = 0;
  if (!directories.empty()) {
    for (const std::string& directory : directories) {
      lua_pushlstring(L, directory.data(), directory.size());
    }
    lua_pushcclosure(L, &lua_api::Raising<&LoadNeighbour>, static_cast<int>(directories.size()));
    ++searchers;
  }
  if (lua_api::NResultsOr restricted = lua_api::Call(L, searchers, 0); !restricted.ok()) {
    return absl::InternalError(absl::StrCat("cannot restrict the Lua libraries: ",
                                            restricted.error()));
  }
  return OpenSandboxIo(L, output);
}

constexpr std::int64_t kSandboxMemoryMegabytes = 256;
constexpr std::int64_t kSandboxInstructionLimit = 1'000'000'000;
constexpr std::int64_t kSandboxTensorMemoryMegabytes = 1024;

}  // namespace

void ExcludeFromWatchdogClock(lua_State* L, std::int64_t nanoseconds) {
  lua_pushlightuserdata(L, const_cast<char*>(&kWatchdogKey));
  lua_rawget(L, LUA_REGISTRYINDEX);
  auto* watchdog = static_cast<Sandbox::Watchdog*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  if (watchdog != nullptr && watchdog->armed && nanoseconds > 0) {
    watchdog->deadline_ns += nanoseconds;
  }
}

double WatchdogSeconds(std::int64_t instruction_limit) {
  return std::max(5.0, static_cast<double>(instruction_limit) * 10e-9);
}

LevelLimits ResolveLimits(const LimitSettings& settings, bool from_path) {
  LevelLimits limits;
  limits.restrict_libraries = settings.sandbox.value_or(from_path);
  const bool sandbox = limits.restrict_libraries;
  limits.memory_bytes = static_cast<std::size_t>(
                            settings.memory_megabytes.value_or(sandbox ? kSandboxMemoryMegabytes : 0))
                        << 20;
  limits.instruction_limit =
      settings.instruction_limit.value_or(sandbox ? kSandboxInstructionLimit : 0);
  limits.tensors.memory_bytes =
      settings.tensor_memory_megabytes
          ? static_cast<std::size_t>(*settings.tensor_memory_megabytes) << 20
          : sandbox ? static_cast<std::size_t>(kSandboxTensorMemoryMegabytes) << 20
                    : lua_api::kDefaultTensorMemoryBytes;
  limits.tensors.file_access = !sandbox;
  return limits;
}

absl::StatusOr<std::unique_ptr<Sandbox>> Sandbox::Create(
    const LevelLimits& limits, const std::vector<std::string>& directories) {
  std::unique_ptr<Sandbox> sandbox(new Sandbox(limits));
  lua_api::LuaMemoryCap& memory = sandbox->memory_;
  memory.limit = limits.memory_bytes;
  // Only a cap needs an allocator of ours; 64-bit LuaJIT without GC64
  // accepts none, so an uncapped VM keeps the default one.
  lua_State* L = memory.limit == 0 ? luaL_newstate() : lua_api::NewCappedState(&memory);
  if (L == nullptr) {
    return absl::ResourceExhaustedError(
        memory.limit == 0 ? "cannot create a Lua state"
                          : "cannot create a Lua state with a memory cap (64-bit LuaJIT needs a "
                            "GC64 build for that; set memoryLimitMegabytes=0)");
  }
  sandbox->L_ = L;
  if (memory.limit != 0) lua_atpanic(L, &Panic);
  lua_api::SetTensorLimits(L, limits.tensors);
  if (limits.restrict_libraries) {
    if (absl::Status opened = OpenRestricted(L, directories, &sandbox->output_); !opened.ok()) {
      return opened;
    }
  } else {
    luaL_openlibs(L);
  }
  if (limits.instruction_limit > 0) {
    sandbox->watchdog_.limit = limits.instruction_limit;
    lua_pushlightuserdata(L, const_cast<char*>(&kWatchdogKey));
    lua_pushlightuserdata(L, &sandbox->watchdog_);
    lua_rawset(L, LUA_REGISTRYINDEX);
#ifdef LUAJIT_VERSION
    // LuaJIT never calls count hooks from compiled code.
    luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF);
#endif
    if (luaL_loadbuffer(L, kGuardHandlers, sizeof(kGuardHandlers) - 1, "=sandbox") != 0) {
      return absl::InternalError(lua_tostring(L, -1));
    }
    lua_pushlightuserdata(L, &sandbox->watchdog_);
    lua_pushcclosure(L, &WatchdogTripped, 1);
    if (lua_api::NResultsOr guarded = lua_api::Call(L, 1, 0); !guarded.ok()) {
      return absl::InternalError(absl::StrCat("cannot guard xpcall: ", guarded.error()));
    }
  }
  return sandbox;
}

Sandbox::~Sandbox() {
  if (L_ != nullptr) lua_close(L_);
}

absl::Status Sandbox::Load(absl::string_view source, const std::string& chunk_name) {
  if (limits_.restrict_libraries && !source.empty() && source[0] == kBinaryChunk) {
    return absl::InvalidArgumentError(
        "cannot load the level: binary chunks are not allowed in the sandbox");
  }
  memory_.enforcing = memory_.limit != 0;
  memory_.refused = false;
  const int status = luaL_loadbuffer(L_, source.data(), source.size(), chunk_name.c_str());
  memory_.enforcing = false;
  if (status == 0) return absl::OkStatus();
  std::string message = lua_tostring(L_, -1);
  lua_pop(L_, 1);
  if (memory_.refused) {
    absl::StrAppend(&message, " (the level's Lua memory limit is ", Megabytes(memory_.limit),
                    ": setting memoryLimitMegabytes)");
  }
  return absl::InvalidArgumentError(absl::StrCat("cannot load the level: ", message));
}

absl::Status Sandbox::InstructionMeter::Spend(std::int64_t units) {
  Watchdog& watchdog = sandbox_->watchdog_;
  if (!watchdog.armed) return absl::OkStatus();
  if (!watchdog.tripped && units < watchdog.limit - watchdog.executed) {
    watchdog.executed += units;
    return absl::OkStatus();
  }
  // As when the hook trips: every later instruction fails too.
  watchdog.tripped = true;
  lua_sethook(sandbox_->L_, &CountHook, LUA_MASKCOUNT, 1);
  return absl::ResourceExhaustedError(absl::StrCat(
      InstructionLimitMessage(watchdog.limit),
      "; a tensor operation counts one instruction per element it visits"));
}

lua_api::NResultsOr Sandbox::Call(int nargs, int nresults) {
  // A host may call the level again from inside one of its callbacks (it
  // lists properties, then reads each). Such a nested call runs under the
  // outer call's limits: the count goes on, and nothing the outer call
  // armed is reset or switched off when the nested one returns.
  const bool outermost = depth_ == 0;
  const bool outer_refused = memory_.refused;
  const bool outer_enforcing = memory_.enforcing;
  memory_.refused = false;
  if (memory_.limit != 0) {
    PushRunCapped(L_, &memory_);
    lua_insert(L_, -(nargs + 2));
    ++nargs;  // the function itself becomes RunCapped's first argument
  }
  if (outermost) output_.used = 0;  // each callback has its own output budget
  if (outermost && watchdog_.limit > 0) {
    watchdog_ = {.limit = watchdog_.limit,
                 .executed = 0,
                 .deadline_ns = NowNanoseconds() +
                                static_cast<std::int64_t>(WatchdogSeconds(watchdog_.limit) * 1e9),
                 .armed = true,
                 .tripped = false,
                 .timed_out = false};
    lua_sethook(L_, &CountHook, LUA_MASKCOUNT,
                static_cast<int>(std::min(watchdog_.limit, kHookStep)));
  }
  ++depth_;
  lua_api::NResultsOr result = 0;
  {
    tensor::ScopedWorkMeter metered(watchdog_.limit > 0 ? &meter_ : nullptr);
    result = lua_api::Call(L_, nargs, nresults);
  }
  --depth_;
  memory_.enforcing = outer_enforcing;
  const bool refused = memory_.refused;
  memory_.refused = outer_refused || refused;
  if (outermost && watchdog_.limit > 0) {
    watchdog_.armed = false;
    lua_sethook(L_, nullptr, 0, 0);
  }
  if (result.ok()) return result;
  // The script may have caught the first error and raised another.
  std::string message = result.error();
  if (watchdog_.tripped && message.find("instruction limit") == std::string::npos) {
    message = absl::StrCat(watchdog_.timed_out ? DeadlineMessage(watchdog_.limit)
                                               : InstructionLimitMessage(watchdog_.limit),
                           ": ", message);
  }
  if (refused) {
    absl::StrAppend(&message, "\n(the level's Lua memory reached its limit of ",
                    Megabytes(memory_.limit), ": setting memoryLimitMegabytes)");
    // Lua 5.1 has no emergency collection: free the failed callback's
    // garbage now, so that the next one does not start at the cap.
    if (outermost) lua_cpcall(L_, &CollectGarbage, nullptr);
  }
  return message;
}

}  // namespace engine_plugin
