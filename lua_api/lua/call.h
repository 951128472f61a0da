// Call: run Lua from C++ in protected mode, with a traceback.
//
// Example:
//   lua_getglobal(L, "init");
//   lua_pushnumber(L, 1);
//   NResultsOr result = Call(L, 1);       // [-2, +n, -]
//   if (!result.ok()) std::cerr << result.error();  // message + traceback
#ifndef LUA_API_LUA_CALL_H_
#define LUA_API_LUA_CALL_H_

#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"

namespace lua_api {

// [-(nargs + 1), +n, -] Calls the function below the `nargs` arguments on
// top of the stack. On success the results replace them and their count
// is returned; on error nothing is left and the message, with a stack
// traceback, is returned.
NResultsOr Call(lua_State* L, int nargs, int nresults = LUA_MULTRET);

}  // namespace lua_api

#endif  // LUA_API_LUA_CALL_H_
