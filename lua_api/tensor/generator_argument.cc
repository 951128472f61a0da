#include "lua_api/tensor/generator_argument.h"

#include "absl/strings/str_cat.h"
#include "lua_api/lua/call.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"

namespace lua_api {

std::string PushDefaultGenerator(lua_State* L, const char* function, LuaRandom** out) {
  // Raw: no metamethod of the globals runs outside the protected call.
  lua_pushstring(L, "require");
  lua_rawget(L, LUA_GLOBALSINDEX);
  lua_pushstring(L, "dmlab.system.random");
  if (NResultsOr loaded = Call(L, 1, 1); !loaded.ok()) {
    return absl::StrCat("'", function, "': cannot load the default generator: ", loaded.error());
  }
  *out = LuaRandom::Read(L, -1);
  if (*out == nullptr) {
    return absl::StrCat("'", function, "': require 'dmlab.system.random' gave ",
                        TypeNameAt(L, -1), ", not a generator; pass one");
  }
  return {};
}

}  // namespace lua_api
