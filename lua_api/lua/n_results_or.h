// NResultsOr: what a Lua-facing C++ function returns.
//
// Either the number of results it pushed, or an error message. The caller
// raises the Lua error only after the C++ scope that made the message has
// closed, so lua_error's longjmp never skips a destructor.
//
// Example:
//   NResultsOr Narrow(lua_State* L) {
//     if (!lua_isnumber(L, 2)) return "bad argument #1 to 'narrow' (...)";
//     lua_pushnumber(L, 1);
//     return 1;
//   }
#ifndef LUA_API_LUA_N_RESULTS_OR_H_
#define LUA_API_LUA_N_RESULTS_OR_H_

#include <exception>
#include <new>
#include <string>
#include <utility>

#include "lua_api/lua/lua.h"
#include "lua_api/lua/native_code.h"

namespace lua_api {

class NResultsOr {
 public:
  NResultsOr(int n_results) : n_results_(n_results) {}  // NOLINT: implicit by design
  NResultsOr(std::string error) : error_(std::move(error)) {}  // NOLINT
  NResultsOr(const char* error) : error_(error) {}  // NOLINT

  bool ok() const { return error_.empty(); }
  int n_results() const { return n_results_; }
  const std::string& error() const { return error_; }

 private:
  int n_results_ = 0;
  std::string error_;
};

// Runs `function` (returning NResultsOr) and turns a C++ exception into
// an error: none may unwind through Lua's C frames, where it would end the
// process. Only std::exception is caught: LuaJIT raises its own errors by
// unwinding C++ frames, and those must pass.
template <typename Function>
NResultsOr Catching(Function&& function) {
  try {
    return function();
  } catch (const std::bad_alloc&) {
    return "not enough memory (a C++ allocation failed)";
  } catch (const std::exception& e) {
    return std::string("internal error: ") + e.what();
  }
}

// [-0, +r, e] Wraps a free NResultsOr function as a lua_CFunction that raises its
// error only after the function's C++ scope has closed.
//   lua_pushcfunction(L, &Raising<&Narrow>);
template <NResultsOr (*Function)(lua_State*)>
int Raising(lua_State* L) {
  {
    InNativeCode native;
    NResultsOr result = Catching([L] { return Function(L); });
    if (result.ok()) return result.n_results();
    lua_pushlstring(L, result.error().data(), result.error().size());
  }
  return lua_error(L);
}

}  // namespace lua_api

#endif  // LUA_API_LUA_N_RESULTS_OR_H_
