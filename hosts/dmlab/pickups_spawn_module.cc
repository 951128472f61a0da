#include "hosts/dmlab/pickups_spawn_module.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/module_support.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/spawn_vars.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"

namespace hosts::dmlab {
namespace {

// [-0, +0, e] pickups_spawn:spawn{...}
lua_api::NResultsOr Spawn(lua_State* L) {
  if (std::string e = engine_plugin::CheckModuleSelf(L, "pickups_spawn", "spawn"); !e.empty()) {
    return e;
  }
  SpawnVars vars;
  absl::Status read = lua_istable(L, 2) ? ReadSpawnTable(L, 2, "spawn", &vars)
                                        : absl::InvalidArgumentError(absl::StrCat(
                                              "[spawn] - expected a table of spawn variables, got ",
                                              luaL_typename(L, 2)));
  if (read.ok()) read = engine_plugin::HostOf<Context>(L)->SpawnDynamicEntity(std::move(vars));
  if (!read.ok()) return absl::StrCat("'pickups_spawn:spawn': ", read.message());
  return 0;
}

constexpr lua_api::MethodEntry kFunctions[] = {
    {"spawn", &lua_api::Raising<&Spawn>},
};

// [-0, +1, e]
int OpenPickupsSpawn(lua_State* L) {
  engine_plugin::PushModuleTable(L, lua_touserdata(L, lua_upvalueindex(1)), kFunctions);
  return 1;
}

}  // namespace

void RegisterPickupsSpawnModule(lua_State* L, Context* context) {
  lua_api::SetPreload(L, "dmlab.system.pickups_spawn", &OpenPickupsSpawn, context);
}

}  // namespace hosts::dmlab
