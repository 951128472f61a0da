#include "engines/mujoco/state_lending.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "lua_api/lua_tensor.h"
#include "lua_api/n_results_or.h"
#include "tensor/tensor.h"

namespace mujoco_host {
namespace {

struct Field {
  const char* name;
  mjtNum* mjData::*array;
  int mjModel::*rows;
  int columns;
};

constexpr Field kFields[] = {
    {"qpos", &mjData::qpos, &mjModel::nq, 0},
    {"qvel", &mjData::qvel, &mjModel::nv, 0},
    {"qacc", &mjData::qacc, &mjModel::nv, 0},
    {"qfrc_applied", &mjData::qfrc_applied, &mjModel::nv, 0},
    {"act", &mjData::act, &mjModel::na, 0},
    {"ctrl", &mjData::ctrl, &mjModel::nu, 0},
    {"actuator_force", &mjData::actuator_force, &mjModel::nu, 0},
    {"sensordata", &mjData::sensordata, &mjModel::nsensordata, 0},
    {"xpos", &mjData::xpos, &mjModel::nbody, 3},
    {"xquat", &mjData::xquat, &mjModel::nbody, 4},
    {"xmat", &mjData::xmat, &mjModel::nbody, 9},
    {"xfrc_applied", &mjData::xfrc_applied, &mjModel::nbody, 6},
    {"subtree_com", &mjData::subtree_com, &mjModel::nbody, 3},
    {"cvel", &mjData::cvel, &mjModel::nbody, 6},
    {"site_xpos", &mjData::site_xpos, &mjModel::nsite, 3},
    {"site_xmat", &mjData::site_xmat, &mjModel::nsite, 9},
    {"geom_xpos", &mjData::geom_xpos, &mjModel::ngeom, 3},
    {"geom_xmat", &mjData::geom_xmat, &mjModel::ngeom, 9},
    {"mocap_pos", &mjData::mocap_pos, &mjModel::nmocap, 3},
    {"mocap_quat", &mjData::mocap_quat, &mjModel::nmocap, 4},
};

std::string FieldNames() {
  std::string names;
  for (const Field& field : kFields) absl::StrAppend(&names, names.empty() ? "" : ", ", field.name);
  return names + ", time";
}

// The registry key of the states' metatable, per lua_State (each instance
// has its own state, so the StateLending pointer is unique there too).
const char kMetatableKey = 0;

}  // namespace

lua_api::NResultsOr StateLending::Index(lua_State* L) {
  auto* self = static_cast<StateLending*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (lua_type(L, 2) != LUA_TSTRING) {
    return absl::StrCat(kStateLender, ": fields are named by strings (", FieldNames(), ")");
  }
  const char* key = lua_tostring(L, 2);
  if (self->loan_ == nullptr || lua_topointer(L, 1) != self->table_) {
    return absl::StrCat(kStateLender, ": '", key,
                        "' read from a state kept past the callback it was lent to");
  }
  if (std::strcmp(key, "time") == 0) {
    lua_pushnumber(L, self->data_->time);
    return 1;
  }
  for (const Field& field : kFields) {
    if (std::strcmp(key, field.name) != 0) continue;
    const std::int64_t rows = self->model_->*field.rows;
    const std::int64_t shape[2] = {rows, field.columns};
    const std::size_t rank = field.columns == 0 ? 1 : 2;
    const std::int64_t count = rows * (field.columns == 0 ? 1 : field.columns);
    absl::StatusOr<tensor::Layout> layout =
        tensor::Layout::Contiguous(absl::Span<const std::int64_t>(shape, rank));
    if (!layout.ok()) return std::string(layout.status().message());
    absl::StatusOr<tensor::Tensor> lent = tensor::Tensor::Lend(
        tensor::DType::kFloat64, *std::move(layout), self->data_->*field.array,
        static_cast<std::size_t>(count) * sizeof(mjtNum), self->loan_->token());
    if (!lent.ok()) return std::string(lent.status().message());
    lua_api::LuaTensor::Push(L, *std::move(lent));
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, 1);  // later reads in this call find it directly
    return 1;
  }
  return absl::StrCat(kStateLender, " has no field '", key, "' (it has ", FieldNames(), ")");
}

void StateLending::PushState(lua_State* L) {
  lua_createtable(L, 0, 4);
  lua_pushlightuserdata(L, const_cast<char*>(&kMetatableKey));
  lua_rawget(L, LUA_REGISTRYINDEX);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushlightuserdata(L, this);
    lua_pushcclosure(L, &lua_api::Raising<&StateLending::Index>, 1);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, kStateLender);
    lua_setfield(L, -2, "__metatable");  // getmetatable shows this, not the table
    lua_pushlightuserdata(L, const_cast<char*>(&kMetatableKey));
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
  }
  lua_setmetatable(L, -2);
  table_ = lua_topointer(L, -1);
}

absl::StatusOr<bool> StateLending::Call(
    engine_plugin::Level& level, const mjModel* model, mjData* data, const char* name,
    int num_results, absl::FunctionRef<absl::Status(lua_State* L, int first)> read_results) {
  // Made only when the level has the callback: most steps of most levels
  // call one of beforeStep and afterStep, not both.
  std::optional<tensor::ScopedLoan> loan;
  absl::StatusOr<bool> called = level.Call(
      name, num_results,
      [&](lua_State* L) {
        loan.emplace(kStateLender);
        model_ = model;
        data_ = data;
        loan_ = &*loan;
        PushState(L);
        return 1;
      },
      read_results);
  loan_ = nullptr;
  table_ = nullptr;
  return called;
}

}  // namespace mujoco_host
