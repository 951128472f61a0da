// lua_run: the standalone Lua interpreter of this project, with
// dmlab.system.tensor, dmlab.system.torch, dmlab.system.random and
// dmlab.system.host_test preloaded, `require 'torch'` (which, as in
// Torch7, also sets the global `torch`) and Torch's `paths`.
//
//   lua_run FILE [ARGS...]   runs FILE as `lua FILE ARGS...` would: the
//                            global `arg` has arg[0] = FILE, arg[1..] = ARGS
//                            and arg[-1] = this program; the chunk's `...`
//                            is ARGS. FILE's directory is put first on
//                            package.path, so a script finds its siblings
//                            (tests/lua/*.lua find testing.lua). A Lua error
//                            prints "lua_run: <message>" and the traceback
//                            to stderr and exits 1.
//   lua_run                  a REPL on stdin. Each line is first tried as
//                            `return <line>`, so expressions print their
//                            values (with print, hence tostring); otherwise
//                            it is a statement, continued on further lines
//                            while incomplete. Prompts "> " and ">> " are
//                            shown when stdin is a terminal. EOF exits.
//
// Under `bazel run` it first changes to the directory bazel was run from
// (BUILD_WORKING_DIRECTORY), so that FILE and `require` resolve there.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "lua_api/lua/call.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/tensor/host_test.h"
#include "lua_api/tensor/random.h"
#include "lua_api/torch/paths_module.h"
#include "lua_api/torch/torch_module.h"

namespace {

using lua_api::Call;
using lua_api::NResultsOr;

void PrintError(const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "lua_run: %s\n", message.c_str());
  std::fflush(stderr);
}

// [-1, +0, -] Prints and pops the error message of a failed load.
void PrintLoadError(lua_State* L) {
  const char* message = lua_tostring(L, -1);
  PrintError(message != nullptr ? message : "(error object is not a string)");
  lua_pop(L, 1);
}

// [-0, +0, m] Puts "<dir of script>/?.lua;" in front of package.path.
void AddScriptDirectory(lua_State* L, const std::string& script) {
  const std::size_t slash = script.find_last_of('/');
  const std::string directory = slash == std::string::npos ? "." : script.substr(0, slash + 1);
  lua_getglobal(L, "package");
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  lua_getfield(L, -1, "path");
  const char* path = lua_tostring(L, -1);
  std::string entry = directory;
  if (entry.back() != '/') entry += '/';
  entry += "?.lua;";
  if (path != nullptr) entry += path;
  lua_pop(L, 1);
  lua_pushlstring(L, entry.data(), entry.size());
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
}

// [-0, +0, m] The global `arg`, laid out as the standalone `lua` does.
void SetArg(lua_State* L, int argc, char** argv) {
  lua_createtable(L, argc - 2, 2);
  for (int i = 0; i < argc; ++i) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - 1);  // argv[0] -> arg[-1], script -> arg[0].
  }
  lua_setglobal(L, "arg");
}

// [-0, +0, -]
int RunScript(lua_State* L, int argc, char** argv) {
  const std::string script = argv[1];
  SetArg(L, argc, argv);
  AddScriptDirectory(L, script);
  if (luaL_loadfile(L, script.c_str()) != 0) {
    PrintLoadError(L);
    return 1;
  }
  for (int i = 2; i < argc; ++i) lua_pushstring(L, argv[i]);
  if (NResultsOr result = Call(L, argc - 2, 0); !result.ok()) {
    PrintError(result.error());
    return 1;
  }
  return 0;
}

// One line from stdin without its newline; false at EOF.
bool ReadLine(bool interactive, const char* prompt, std::string* line) {
  if (interactive) {
    std::fputs(prompt, stdout);
    std::fflush(stdout);
  }
  line->clear();
  int c;
  while ((c = std::fgetc(stdin)) != EOF && c != '\n') line->push_back(static_cast<char>(c));
  if (c == EOF && line->empty()) return false;
  if (!line->empty() && line->back() == '\r') line->pop_back();
  return true;
}

// Whether the syntax error on top of the stack is "more input needed", as
// lua.c decides it: the message ends at '<eof>'.
bool Incomplete(lua_State* L) {
  std::size_t length;
  const char* message = lua_tolstring(L, -1, &length);
  constexpr char kEof[] = "'<eof>'";
  constexpr std::size_t kEofLength = sizeof(kEof) - 1;
  return message != nullptr && length >= kEofLength &&
         std::strcmp(message + length - kEofLength, kEof) == 0;
}

// [-0, +1, m]
int Load(lua_State* L, const std::string& chunk) {
  return luaL_loadbuffer(L, chunk.data(), chunk.size(), "=stdin");
}

// [-0, +1, m] Compiles the next input: `return <line>` if that parses,
// else the statement(s), reading continuation lines while incomplete.
// Returns luaL_loadbuffer's status (the function or the message is on top),
// or -1 at EOF before any line.
int ReadChunk(lua_State* L, bool interactive) {
  std::string line;
  if (!ReadLine(interactive, "> ", &line)) return -1;
  // Lua 5.1's own REPL takes "=expr" for "return expr".
  if (!line.empty() && line[0] == '=') line = "return " + line.substr(1);
  if (Load(L, "return " + line) == 0) return 0;
  lua_pop(L, 1);
  std::string chunk = line;
  while (true) {
    const int status = Load(L, chunk);
    if (status != LUA_ERRSYNTAX || !Incomplete(L)) return status;
    if (!ReadLine(interactive, ">> ", &line)) return status;  // EOF: report it.
    lua_pop(L, 1);
    chunk += "\n" + line;
  }
}

// [-?, +0, -]
int Repl(lua_State* L) {
  const bool interactive = isatty(STDIN_FILENO);
  while (true) {
    lua_settop(L, 0);
    const int status = ReadChunk(L, interactive);
    if (status == -1) break;
    if (status != 0) {
      PrintLoadError(L);
      continue;
    }
    NResultsOr result = Call(L, 0);
    if (!result.ok()) {
      PrintError(result.error());
      continue;
    }
    if (result.n_results() > 0) {
      lua_getglobal(L, "print");
      lua_insert(L, 1);
      if (NResultsOr printed = Call(L, result.n_results(), 0); !printed.ok()) {
        PrintError(printed.error());
      }
    }
  }
  if (interactive) std::fputs("\n", stdout);
  return 0;
}

// [-0, +1, e] package.preload.torch: dmlab.system.torch, also set as the global
// `torch`, for Torch7 scripts that start with require 'torch'.
int OpenTorchGlobal(lua_State* L) {
  lua_getglobal(L, "require");
  lua_pushstring(L, "dmlab.system.torch");
  lua_call(L, 1, 1);
  lua_pushvalue(L, -1);
  lua_setglobal(L, "torch");
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  // `bazel run` starts us in the runfiles tree; FILE is relative to where
  // the user typed the command.
  if (const char* directory = std::getenv("BUILD_WORKING_DIRECTORY");
      directory != nullptr && directory[0] != '\0' && chdir(directory) != 0) {
    std::fprintf(stderr, "lua_run: cannot change to %s\n", directory);
    return 1;
  }
  lua_State* L = luaL_newstate();
  if (L == nullptr) {
    std::fprintf(stderr, "lua_run: cannot create a Lua state\n");
    return 1;
  }
  luaL_openlibs(L);
  lua_api::RegisterTorchModule(L);
  lua_api::SetPreload(L, "torch", &OpenTorchGlobal);
  lua_api::RegisterPathsModule(L);
  lua_api::RegisterRandomModule(L);
  lua_api::RegisterHostTestModule(L);
  const int exit_code = argc > 1 ? RunScript(L, argc, argv) : Repl(L);
  lua_close(L);  // Runs every __gc, so the sanitizers see no leak.
  std::fflush(stdout);
  return exit_code;
}
