// Helpers for the Lua modules of the plugin and of its hosts (events, the
// maze host's game, a host's own): modules
// whose functions are closures over a host pointer and are called with ':'.
#ifndef ENGINE_PLUGIN_MODULE_SUPPORT_H_
#define ENGINE_PLUGIN_MODULE_SUPPORT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"

namespace engine_plugin {

// "" when argument 1 is the module table (the function was called with
// ':'), else the error that says how to call it.
inline std::string CheckModuleSelf(lua_State* L, const char* module, const char* function) {
  if (lua_istable(L, 1)) return {};
  return absl::StrCat("'", module, ".", function, "' must be called with ':' (", module, ":",
                      function, "(...))");
}

// The host pointer bound as upvalue 1 of every function of the module.
template <typename Host>
Host* HostOf(lua_State* L) {
  return static_cast<Host*>(lua_touserdata(L, lua_upvalueindex(1)));
}

// [-0, +1, m] A table of closures, each over the light userdata `host`:
// the module's functions are methods of that table (called with ':').
template <std::size_t N>
void PushModuleTable(lua_State* L, void* host, const lua_api::MethodEntry (&functions)[N]) {
  lua_createtable(L, 0, N);
  for (const lua_api::MethodEntry& entry : functions) {
    lua_pushlightuserdata(L, host);
    lua_pushcclosure(L, entry.function, 1);
    lua_setfield(L, -2, entry.name);
  }
}

// [-0, +0, e] Stores a new dmlab.system.random generator seeded 0 in the
// registry under the light userdata `key`: a module's own generator, as
// DeepMind Lab's map_maker:randomGen() returns (fetched with lua_rawget).
void StoreNewGenerator(lua_State* L, void* key);

// [-0, +1 or +0, e] Pushes `contents`, a file's bytes that `function`
// ("game:loadFileToString") read for a level, as a string: the reading is
// charged as work (tensor/work_meter.h) and the string to the Lua heap's
// cap. "" when pushed, else the error (nothing pushed).
std::string PushFileContents(lua_State* L, const absl::StatusOr<std::string>& contents,
                             const char* function);

// Reads the player id at stack `index`, argument `argument` of `function`
// as its errors name them ("game:addScore", 1): an integer from 1 to
// `players`, into *player counted from 0. "" or the error.
std::string ReadPlayerId(lua_State* L, int index, int players, const char* function,
                         int argument, int* player);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_MODULE_SUPPORT_H_
