#include "lua_api/lua/call.h"

#include <string>

#include "lua_api/lua/native_code.h"

namespace lua_api {
namespace {

// How many frames a traceback shows from the top and from the bottom of a
// deep stack, as Lua 5.1's debug.traceback does.
constexpr int kFramesFromTop = 12;
constexpr int kFramesFromBottom = 10;

// [-0, +1, m] One traceback line for the frame that `frame` describes.
void PushFrameLine(lua_State* L, lua_Debug* frame) {
  lua_getinfo(L, "Snl", frame);
  if (frame->currentline > 0) {
    lua_pushfstring(L, "\n\t%s:%d:", frame->short_src, frame->currentline);
  } else {
    lua_pushfstring(L, "\n\t%s:", frame->short_src);
  }
  if (frame->namewhat != nullptr && *frame->namewhat != '\0') {
    lua_pushfstring(L, " in function '%s'", frame->name);
  } else if (*frame->what == 'm') {
    lua_pushliteral(L, " in main chunk");
  } else if (*frame->what == 'C' || *frame->what == 't') {
    lua_pushliteral(L, " ?");
  } else {
    lua_pushfstring(L, " in function <%s:%d>", frame->short_src, frame->linedefined);
  }
  lua_concat(L, 2);  // two strings: no metamethod can run
}

// [-0, +1, -] The first level that is not on L's stack (1 when only the handler is).
// lua_getstack walks down from the top each time, so probing level after
// level costs the square of the depth, for every error: seconds at Lua's
// limit of 20000 calls, which a level reaches by recursing, and none of it
// counted by the instruction watchdog. So: double, then bisect.
int StackDepth(lua_State* L) {
  lua_Debug frame;
  if (!lua_getstack(L, 1, &frame)) return 1;
  int present = 1;  // a level on the stack
  int absent = 2;   // until shown otherwise
  while (lua_getstack(L, absent, &frame)) {
    present = absent;
    absent *= 2;
  }
  while (absent - present > 1) {
    const int middle = present + (absent - present) / 2;
    (lua_getstack(L, middle, &frame) ? present : absent) = middle;
  }
  return absent;
}

// [-1, +1, m] The message handler: appends a traceback of the stack that raised the
// error. It is C through and through, and reads nothing a script can
// replace (the global debug.traceback, or a metatable on debug): a level
// could otherwise make the handler loop, and Lua runs the handler of an
// error raised from a hook (the instruction watchdog's) with hooks off.
int Traceback(lua_State* L) {
  if (!lua_isstring(L, 1)) {
    // A non-string error (a table, nil): describe it instead.
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    lua_replace(L, 1);
  }
  lua_settop(L, 1);
  lua_pushliteral(L, "\nstack traceback:");
  // Level 0 is this handler; level 1 raised the error.
  lua_Debug frame;
  const int depth = StackDepth(L);
  for (int level = 1; level < depth; ++level) {
    if (level == kFramesFromTop + 1 && depth - level > kFramesFromBottom) {
      lua_pushliteral(L, "\n\t...");
      lua_concat(L, 2);
      level = depth - kFramesFromBottom - 1;
      continue;
    }
    lua_getstack(L, level, &frame);
    PushFrameLine(L, &frame);
    lua_concat(L, 2);
  }
  lua_concat(L, 2);
  return 1;
}

// [-0, +1, m] Traceback as a function value, made once per state and kept
// in the registry (lua_pushcfunction makes a new closure each time).
const char kTracebackKey = 0;
void PushTraceback(lua_State* L) {
  lua_pushlightuserdata(L, const_cast<char*>(&kTracebackKey));
  lua_rawget(L, LUA_REGISTRYINDEX);
  if (!lua_isnil(L, -1)) return;
  lua_pop(L, 1);
  lua_pushcfunction(L, &Traceback);
  lua_pushlightuserdata(L, const_cast<char*>(&kTracebackKey));
  lua_pushvalue(L, -2);
  lua_rawset(L, LUA_REGISTRYINDEX);
}

}  // namespace

NResultsOr Call(lua_State* L, int nargs, int nresults) {
  const int function = lua_gettop(L) - nargs;
  PushTraceback(L);
  lua_insert(L, function);
  int status;
  {
    InNativeCode script(false);  // what runs is script code, even when C++ called it
    status = lua_pcall(L, nargs, nresults, function);
  }
  lua_remove(L, function);
  if (status != 0) {
    std::string message = lua_tostring(L, -1) ? lua_tostring(L, -1) : "(unknown error)";
    lua_pop(L, 1);
    return message;
  }
  return lua_gettop(L) - function + 1;
}

}  // namespace lua_api
