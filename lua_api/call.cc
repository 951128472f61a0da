#include "lua_api/call.h"

#include <string>

#include "lua_api/native_code.h"

namespace lua_api {
namespace {

// The message handler: appends debug.traceback to the error.
int Traceback(lua_State* L) {
  if (!lua_isstring(L, 1)) {
    // A non-string error (a table, nil): describe it instead.
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    lua_replace(L, 1);
  }
  lua_getglobal(L, "debug");
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "traceback");
    if (lua_isfunction(L, -1)) {
      lua_pushvalue(L, 1);
      lua_pushinteger(L, 2);
      lua_call(L, 2, 1);
      return 1;
    }
  }
  lua_settop(L, 1);
  return 1;
}

}  // namespace

NResultsOr Call(lua_State* L, int nargs, int nresults) {
  const int function = lua_gettop(L) - nargs;
  lua_pushcfunction(L, &Traceback);
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
