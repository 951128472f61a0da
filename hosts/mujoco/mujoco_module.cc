#include "hosts/mujoco/mujoco_module.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "engine_plugin/module_support.h"
#include "hosts/mujoco/lua_sources.h"
#include "hosts/mujoco/tolerance.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"

namespace hosts::mujoco {
namespace {

using engine_plugin::CheckModuleSelf;
using engine_plugin::HostOf;
using lua_api::NResultsOr;

constexpr char kModule[] = "mujoco";

// The model, or the error of `function` called before it loaded.
const mjModel* ModelOf(lua_State* L, const char* function, std::string* error) {
  *error = CheckModuleSelf(L, kModule, function);
  if (!error->empty()) return nullptr;
  const mjModel* model = HostOf<ModelHost>(L)->model();
  if (model == nullptr) {
    *error = absl::StrCat("'mujoco:", function,
                          "': the model loads after init; call it from reset() on");
  }
  return model;
}

// The 0-based id of argument 2, an object of `type`, or -1 with `error`.
int IdOf(lua_State* L, const mjModel* model, const char* function, mjtObj type,
         std::string* error) {
  std::string name;
  if (std::string why = lua_api::ReadString(L, 2, &name); !why.empty()) {
    *error = lua_api::ArgumentError(function, 1, why);
    return -1;
  }
  const int id = mj_name2id(model, type, name.c_str());
  if (id < 0) {
    *error = absl::StrCat("'mujoco:", function, "': the model has no ", function, " named '",
                          name, "'");
  }
  return id;
}

// [-0, +1, e]
template <mjtObj kType>
NResultsOr NamedId(lua_State* L, const char* function) {
  std::string error;
  const mjModel* model = ModelOf(L, function, &error);
  if (model == nullptr) return error;
  const int id = IdOf(L, model, function, kType, &error);
  if (id < 0) return error;
  lua_pushinteger(L, id + 1);
  return 1;
}

NResultsOr Body(lua_State* L) { return NamedId<mjOBJ_BODY>(L, "body"); }
NResultsOr Joint(lua_State* L) { return NamedId<mjOBJ_JOINT>(L, "joint"); }
NResultsOr Geom(lua_State* L) { return NamedId<mjOBJ_GEOM>(L, "geom"); }
NResultsOr Site(lua_State* L) { return NamedId<mjOBJ_SITE>(L, "site"); }
NResultsOr Sensor(lua_State* L) { return NamedId<mjOBJ_SENSOR>(L, "sensor"); }
NResultsOr Actuator(lua_State* L) { return NamedId<mjOBJ_ACTUATOR>(L, "actuator"); }
NResultsOr Camera(lua_State* L) { return NamedId<mjOBJ_CAMERA>(L, "camera"); }

// [-0, +1, e]
NResultsOr QposIndex(lua_State* L) {
  std::string error;
  const mjModel* model = ModelOf(L, "qposIndex", &error);
  if (model == nullptr) return error;
  const int id = IdOf(L, model, "qposIndex", mjOBJ_JOINT, &error);
  if (id < 0) return error;
  lua_pushinteger(L, model->jnt_qposadr[id] + 1);
  return 1;
}

// [-0, +1, e]
NResultsOr QvelIndex(lua_State* L) {
  std::string error;
  const mjModel* model = ModelOf(L, "qvelIndex", &error);
  if (model == nullptr) return error;
  const int id = IdOf(L, model, "qvelIndex", mjOBJ_JOINT, &error);
  if (id < 0) return error;
  lua_pushinteger(L, model->jnt_dofadr[id] + 1);
  return 1;
}

// [-0, +2, e]
NResultsOr SensorIndex(lua_State* L) {
  std::string error;
  const mjModel* model = ModelOf(L, "sensorIndex", &error);
  if (model == nullptr) return error;
  const int id = IdOf(L, model, "sensorIndex", mjOBJ_SENSOR, &error);
  if (id < 0) return error;
  lua_pushinteger(L, model->sensor_adr[id] + 1);
  lua_pushinteger(L, model->sensor_dim[id]);
  return 2;
}

// [-0, +1, e]
NResultsOr Sizes(lua_State* L) {
  std::string error;
  const mjModel* model = ModelOf(L, "sizes", &error);
  if (model == nullptr) return error;
  const std::pair<const char*, int> sizes[] = {
      {"nq", model->nq},         {"nv", model->nv},       {"nu", model->nu},
      {"na", model->na},         {"nbody", model->nbody}, {"ngeom", model->ngeom},
      {"nsite", model->nsite},   {"nsensordata", model->nsensordata},
      {"nmocap", model->nmocap}};
  lua_createtable(L, 0, std::size(sizes));
  for (const auto& [name, value] : sizes) {
    lua_pushinteger(L, value);
    lua_setfield(L, -2, name);
  }
  return 1;
}

// [-0, +1, e]
NResultsOr Timestep(lua_State* L) {
  std::string error;
  const mjModel* model = ModelOf(L, "timestep", &error);
  if (model == nullptr) return error;
  lua_pushnumber(L, model->opt.timestep);
  return 1;
}

// [-0, +1, e]
NResultsOr ControlTimestep(lua_State* L) {
  std::string error;
  const mjModel* model = ModelOf(L, "controlTimestep", &error);
  if (model == nullptr) return error;
  lua_pushnumber(L, model->opt.timestep * HostOf<ModelHost>(L)->frame_skip());
  return 1;
}

// [-0, +1, e]
int Open(lua_State* L) {
  static constexpr lua_api::MethodEntry kFunctions[] = {
      {"body", &lua_api::Raising<&Body>},
      {"joint", &lua_api::Raising<&Joint>},
      {"geom", &lua_api::Raising<&Geom>},
      {"site", &lua_api::Raising<&Site>},
      {"sensor", &lua_api::Raising<&Sensor>},
      {"actuator", &lua_api::Raising<&Actuator>},
      {"camera", &lua_api::Raising<&Camera>},
      {"qposIndex", &lua_api::Raising<&QposIndex>},
      {"qvelIndex", &lua_api::Raising<&QvelIndex>},
      {"sensorIndex", &lua_api::Raising<&SensorIndex>},
      {"sizes", &lua_api::Raising<&Sizes>},
      {"timestep", &lua_api::Raising<&Timestep>},
      {"controlTimestep", &lua_api::Raising<&ControlTimestep>},
  };
  engine_plugin::PushModuleTable(L, lua_touserdata(L, lua_upvalueindex(1)), kFunctions);
  return 1;
}

// The Lua modules compiled in from hosts/mujoco/lua/, and what the loader
// hands each chunk as its argument (`...`), if anything.
struct LuaModule {
  const char* name;
  const char* file;
  void (*push_argument)(lua_State* L);
};
constexpr LuaModule kLuaModules[] = {
    {"dmlab.system.mujoco.rewards", "rewards.lua", &PushToleranceMaker},
    {"dmlab.system.mujoco.tasks.cartpole", "tasks/cartpole.lua", nullptr},
};

// [-0, +1, e] package.preload's loader of one of kLuaModules (upvalue 1): runs its
// embedded chunk.
int OpenLuaModule(lua_State* L) {
  const auto* module = static_cast<const LuaModule*>(lua_touserdata(L, lua_upvalueindex(1)));
  const std::optional<absl::string_view> source = FindMujocoLuaSource(module->file);
  if (!source) return luaL_error(L, "%s is not compiled in", module->name);
  lua_pushfstring(L, "@hosts/mujoco/lua/%s", module->file);
  const int loaded = luaL_loadbuffer(L, source->data(), source->size(), lua_tostring(L, -1));
  if (loaded != 0) return lua_error(L);
  int arguments = 0;
  if (module->push_argument != nullptr) {
    module->push_argument(L);
    arguments = 1;
  }
  lua_call(L, arguments, 1);
  return 1;
}

}  // namespace

void RegisterMujocoModule(lua_State* L, ModelHost* host) {
  lua_api::SetPreload(L, "dmlab.system.mujoco", &Open, host);
  for (const LuaModule& module : kLuaModules) {
    lua_api::SetPreload(L, module.name, &OpenLuaModule, const_cast<LuaModule*>(&module));
  }
}

}  // namespace hosts::mujoco
