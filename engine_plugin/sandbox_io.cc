#include "engine_plugin/sandbox_io.h"

#include <cstdio>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"

namespace engine_plugin {
namespace {

// Upvalue 1 of every function: the budget; upvalue 2 of a stream's
// methods: the FILE*.
OutputBudget* BudgetOf(lua_State* L) {
  return static_cast<OutputBudget*>(lua_touserdata(L, lua_upvalueindex(1)));
}

// Writes the strings and numbers from `first` on to `file`, within the
// budget; a non-string argument is an error naming it.
lua_api::NResultsOr WriteArguments(lua_State* L, int first, std::FILE* file, const char* what) {
  const int top = lua_gettop(L);
  for (int i = first; i <= top; ++i) {
    if (lua_type(L, i) != LUA_TSTRING && lua_type(L, i) != LUA_TNUMBER) {
      return lua_api::ArgumentError(what, i - first + 1,
                                    lua_api::Expected(L, i, "string or number"));
    }
  }
  OutputBudget& budget = *BudgetOf(L);
  for (int i = first; i <= top && budget.used <= kOutputBytesPerCall; ++i) {
    std::size_t length = 0;
    const char* text = lua_tolstring(L, i, &length);
    const std::size_t room = kOutputBytesPerCall - budget.used;
    if (length > room) {
      // Over the budget: what fits, one note, then nothing more this callback.
      std::fwrite(text, 1, room, file);
      std::fprintf(stderr,
                   "\n[the level wrote more than %zu bytes in one callback; the rest of its "
                   "output in this callback is dropped]\n",
                   kOutputBytesPerCall);
      budget.used = kOutputBytesPerCall + 1;
      break;
    }
    std::fwrite(text, 1, length, file);
    budget.used += length;
  }
  return 0;
}

std::FILE* StreamOf(lua_State* L) {
  return static_cast<std::FILE*>(lua_touserdata(L, lua_upvalueindex(2)));
}

// stream:write(...) -> stream
lua_api::NResultsOr StreamWrite(lua_State* L) {
  lua_api::NResultsOr written = WriteArguments(L, 2, StreamOf(L), "write");
  if (!written.ok()) return written;
  lua_pushvalue(L, 1);
  return 1;
}

// stream:flush() -> stream
lua_api::NResultsOr StreamFlush(lua_State* L) {
  std::fflush(StreamOf(L));
  lua_pushvalue(L, 1);
  return 1;
}

// io.write(...) -> io.stdout
lua_api::NResultsOr Write(lua_State* L) {
  lua_api::NResultsOr written = WriteArguments(L, 1, stdout, "write");
  if (!written.ok()) return written;
  lua_getfield(L, lua_upvalueindex(2), "stdout");
  return 1;
}

lua_api::NResultsOr Flush(lua_State*) {
  std::fflush(stdout);
  return 0;
}

// nil, message: what Lua's io returns when it cannot.
lua_api::NResultsOr NotInTheSandbox(lua_State* L) {
  lua_pushnil(L);
  lua_pushstring(L, "io: the sandbox has no files; a level may only write to io.stdout and "
                    "io.stderr");
  return 2;
}

// [-n, +0, e] print(...): Lua's print (each argument through the global
// tostring, tabs between, a newline after), written through the budgeted
// io.write (upvalue 1), so print spends the same budget. Plain Lua API
// and no C++ object in scope: tostring may raise.
int Print(lua_State* L) {
  const int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  luaL_Buffer line;
  luaL_buffinit(L, &line);
  for (int i = 1; i <= n; ++i) {
    lua_getglobal(L, "tostring");
    lua_pushvalue(L, i);
    lua_call(L, 1, 1);
    if (lua_type(L, -1) != LUA_TSTRING && lua_type(L, -1) != LUA_TNUMBER) {
      return luaL_error(L, "'tostring' must return a string to 'print'");
    }
    if (i > 1) luaL_addchar(&line, '\t');
    luaL_addvalue(&line);
  }
  luaL_addchar(&line, '\n');
  luaL_pushresult(&line);
  lua_call(L, 1, 0);
  return 0;
}

// [-0, +1, m] A stream table with write and flush for `file`.
void PushStream(lua_State* L, OutputBudget* budget, std::FILE* file) {
  lua_createtable(L, 0, 2);
  const std::pair<const char*, lua_CFunction> kMethods[] = {
      {"write", &lua_api::Raising<&StreamWrite>},
      {"flush", &lua_api::Raising<&StreamFlush>},
  };
  for (const auto& [name, method] : kMethods) {
    lua_pushlightuserdata(L, budget);
    lua_pushlightuserdata(L, file);
    lua_pushcclosure(L, method, 2);
    lua_setfield(L, -2, name);
  }
}

// [-1, +0, m] Sets up `io` from the argument: the io table.
int Populate(lua_State* L) {
  auto* budget = static_cast<OutputBudget*>(lua_touserdata(L, 1));
  lua_createtable(L, 0, 6);
  const int io = lua_gettop(L);
  PushStream(L, budget, stdout);
  lua_setfield(L, io, "stdout");
  PushStream(L, budget, stderr);
  lua_setfield(L, io, "stderr");
  lua_pushlightuserdata(L, budget);
  lua_pushvalue(L, io);
  lua_pushcclosure(L, &lua_api::Raising<&Write>, 2);
  lua_pushvalue(L, -1);
  lua_pushcclosure(L, &Print, 1);
  lua_setglobal(L, "print");
  lua_setfield(L, io, "write");
  lua_pushcfunction(L, &lua_api::Raising<&Flush>);
  lua_setfield(L, io, "flush");
  for (const char* name : {"open", "close", "lines", "read", "popen", "tmpfile", "input",
                           "output"}) {
    lua_pushcfunction(L, &lua_api::Raising<&NotInTheSandbox>);
    lua_setfield(L, io, name);
  }
  lua_pushvalue(L, io);
  lua_setglobal(L, "io");
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "loaded");
  lua_pushvalue(L, io);
  lua_setfield(L, -2, "io");
  return 0;
}

}  // namespace

absl::Status OpenSandboxIo(lua_State* L, OutputBudget* budget) {
  if (lua_cpcall(L, &Populate, budget) != 0) {
    std::string message = lua_tostring(L, -1);
    lua_pop(L, 1);
    return absl::ResourceExhaustedError(absl::StrCat("cannot open the sandbox's io: ", message));
  }
  return absl::OkStatus();
}

}  // namespace engine_plugin
