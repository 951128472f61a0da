#include "hosts/mujoco/state_lending.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "hosts/mujoco/model_arrays.h"
#include "lua_api/tensor/lua_tensor.h"
#include "tensor/tensor.h"

namespace hosts::mujoco {
namespace {

struct Field {
  const char* name;
  mjtNum* mjData::*array;
  int mjModel::*rows;
  int columns;    // 0: a vector
  bool computed;  // by MuJoCo from the state: read-only
};

constexpr Field kFields[] = {
    {"qpos", &mjData::qpos, &mjModel::nq, 0, false},
    {"qvel", &mjData::qvel, &mjModel::nv, 0, false},
    {"qfrc_applied", &mjData::qfrc_applied, &mjModel::nv, 0, false},
    {"act", &mjData::act, &mjModel::na, 0, false},
    {"ctrl", &mjData::ctrl, &mjModel::nu, 0, false},
    {"xfrc_applied", &mjData::xfrc_applied, &mjModel::nbody, 6, false},
    {"mocap_pos", &mjData::mocap_pos, &mjModel::nmocap, 3, false},
    {"mocap_quat", &mjData::mocap_quat, &mjModel::nmocap, 4, false},
    {"qacc", &mjData::qacc, &mjModel::nv, 0, true},
    {"actuator_force", &mjData::actuator_force, &mjModel::nu, 0, true},
    {"sensordata", &mjData::sensordata, &mjModel::nsensordata, 0, true},
    {"xpos", &mjData::xpos, &mjModel::nbody, 3, true},
    {"xquat", &mjData::xquat, &mjModel::nbody, 4, true},
    {"xmat", &mjData::xmat, &mjModel::nbody, 9, true},
    {"subtree_com", &mjData::subtree_com, &mjModel::nbody, 3, true},
    {"cvel", &mjData::cvel, &mjModel::nbody, 6, true},
    {"site_xpos", &mjData::site_xpos, &mjModel::nsite, 3, true},
    {"site_xmat", &mjData::site_xmat, &mjModel::nsite, 9, true},
    {"geom_xpos", &mjData::geom_xpos, &mjModel::ngeom, 3, true},
    {"geom_xmat", &mjData::geom_xmat, &mjModel::ngeom, 9, true},
};

static_assert(std::size(kFields) == kFieldCount);

// The index in kFields of the field named `key`, if any.
std::optional<std::size_t> FindField(absl::string_view key) {
  static const auto* const by_name = [] {
    auto* map = new absl::flat_hash_map<absl::string_view, std::size_t>;
    for (std::size_t f = 0; f < std::size(kFields); ++f) map->emplace(kFields[f].name, f);
    return map;
  }();
  const auto found = by_name->find(key);
  if (found == by_name->end()) return std::nullopt;
  return found->second;
}

std::string FieldNames() {
  std::string names;
  for (const Field& field : kFields) absl::StrAppend(&names, names.empty() ? "" : ", ", field.name);
  return names + ", time, model";
}

// Registry keys of the two metatables, per lua_State (each instance has
// its own state, so the StateLending bound in them is the instance's).
const char kStateMetatable = 0;
const char kModelMetatable = 0;

}  // namespace

std::string StateLending::CheckCurrent(lua_State* L, const void* table, const char* key) const {
  if (loan_ != nullptr && lua_topointer(L, 1) == table) return {};
  return absl::StrCat(kStateLender, ": '", key,
                      "' read from a state kept past the callback it was lent to");
}

std::string StateLending::Lend(lua_State* L, tensor::DType dtype, const tensor::Layout& layout,
                               void* data, std::size_t bytes) {
  absl::StatusOr<tensor::Tensor> lent =
      tensor::Tensor::Lend(dtype, layout, data, bytes, loan_->token());
  if (!lent.ok()) return std::string(lent.status().message());
  lua_api::LuaTensor::Push(L, *std::move(lent));
  lua_pushvalue(L, 2);
  lua_pushvalue(L, -2);
  lua_rawset(L, 1);  // later reads in this call find it directly
  return {};
}

lua_api::NResultsOr StateLending::Index(lua_State* L) {
  auto* self = static_cast<StateLending*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (lua_type(L, 2) != LUA_TSTRING) {
    return absl::StrCat(kStateLender, ": fields are named by strings (", FieldNames(), ")");
  }
  std::size_t length = 0;
  const char* key = lua_tolstring(L, 2, &length);
  const absl::string_view key_view(key, length);
  if (std::string why = self->CheckCurrent(L, self->state_table_, key); !why.empty()) return why;
  if (key_view == "time") {
    lua_pushnumber(L, self->data_->time);
    return 1;
  }
  if (key_view == "model") {
    self->PushTable(L, &kModelMetatable, &lua_api::Raising<&StateLending::ModelIndex>);
    self->model_table_ = lua_topointer(L, -1);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, 1);
    return 1;
  }
  if (const std::optional<std::size_t> f = FindField(key_view); f.has_value()) {
    const Field& field = kFields[*f];
    const std::int64_t rows = self->model_->*field.rows;
    const std::int64_t count = rows * (field.columns == 0 ? 1 : field.columns);
    void* data = self->data_->*field.array;
    const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(mjtNum);
    if (field.computed) {
      absl::StatusOr<void*> copy = self->ReadOnlyCopy(L, "state.", field.name, data, bytes);
      if (!copy.ok()) return std::string(copy.status().message());
      data = *copy;
    }
    // The model's sizes are fixed: each field's layout is made once.
    std::optional<tensor::Layout>& layout = self->field_layouts_[*f];
    if (!layout) {
      const std::int64_t shape[2] = {rows, field.columns};
      absl::StatusOr<tensor::Layout> made = tensor::Layout::Contiguous(
          absl::Span<const std::int64_t>(shape, field.columns == 0 ? 1 : 2));
      if (!made.ok()) return std::string(made.status().message());
      layout = *std::move(made);
    }
    if (std::string why = self->Lend(L, tensor::DType::kFloat64, *layout, data, bytes);
        !why.empty()) {
      return why;
    }
    return 1;
  }
  return absl::StrCat(kStateLender, " has no field '", key, "' (it has ", FieldNames(), ")");
}

lua_api::NResultsOr StateLending::ModelIndex(lua_State* L) {
  auto* self = static_cast<StateLending*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (lua_type(L, 2) != LUA_TSTRING) {
    return absl::StrCat(kStateLender, ": model arrays are named by strings (body_mass, ...)");
  }
  const char* key = lua_tostring(L, 2);
  if (std::string why = self->CheckCurrent(L, self->model_table_, key); !why.empty()) return why;
  const std::optional<ModelArray> array = FindModelArray(*self->model_, key);
  if (!array) {
    return absl::StrCat(kStateLender, ": the model has no array '", key,
                        "' (mjModel's arrays: body_mass, geom_size, actuator_ctrlrange, ...)");
  }
  const std::int64_t shape[2] = {array->rows, array->columns};
  absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous(
      absl::Span<const std::int64_t>(shape, array->columns == 1 ? 1 : 2));
  if (!layout.ok()) return std::string(layout.status().message());
  absl::StatusOr<void*> copy =
      self->ReadOnlyCopy(L, "state.model.", key, array->data, array->bytes);
  if (!copy.ok()) return std::string(copy.status().message());
  if (std::string why = self->Lend(L, array->dtype, *layout, *copy, array->bytes);
      !why.empty()) {
    return why;
  }
  return 1;
}

void StateLending::PushTable(lua_State* L, const char* metatable_key, lua_CFunction index) {
  lua_createtable(L, 0, 4);
  lua_pushlightuserdata(L, const_cast<char*>(metatable_key));
  lua_rawget(L, LUA_REGISTRYINDEX);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushlightuserdata(L, this);
    lua_pushcclosure(L, index, 1);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, kStateLender);
    lua_setfield(L, -2, "__metatable");  // getmetatable shows this, not the table
    lua_pushlightuserdata(L, const_cast<char*>(metatable_key));
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
  }
  lua_setmetatable(L, -2);
}

absl::StatusOr<void*> StateLending::ReadOnlyCopy(lua_State* L, const char* prefix,
                                                  absl::string_view key, const void* data,
                                                  std::size_t bytes) {
  auto [entry, made] = copies_.try_emplace(absl::StrCat(prefix, key));
  Copy& copy = entry->second;
  if (made) copy.name = entry->first;
  if (copy.call == call_) return copy.bytes.data();  // lent already in this call
  if (copy.bytes.size() != bytes) {                  // first read, or a new model
    copy.charge = {};
    copy.bytes = {};
    absl::StatusOr<lua_api::TensorMemoryCharge> charge = lua_api::ChargeTensorMemory(L, bytes);
    if (!charge.ok()) {
      return absl::Status(charge.status().code(),
                          absl::StrCat(kStateLender, ": a copy of read-only ", copy.name, ": ",
                                       charge.status().message()));
    }
    copy.charge = *std::move(charge);
    copy.bytes.resize(bytes);
  }
  if (bytes > 0) std::memcpy(copy.bytes.data(), data, bytes);
  copy.array = data;
  copy.call = call_;
  lent_.push_back(&copy);
  return copy.bytes.data();
}

absl::Status StateLending::CheckUnwritten(const char* callback) {
  absl::Status status;
  for (const Copy* copy : lent_) {
    if (copy->bytes.empty() ||
        std::memcmp(copy->array, copy->bytes.data(), copy->bytes.size()) == 0) {
      continue;
    }
    status = absl::InvalidArgumentError(absl::StrCat(
        "level callback '", callback, "' wrote into ", copy->name,
        ", which is read-only (MuJoCo computes it, or it is the model): the write went into a "
        "copy and had no effect; write qpos, qvel, act, ctrl, qfrc_applied, xfrc_applied or "
        "mocap_pos/quat instead"));
    break;
  }
  lent_.clear();
  return status;
}

absl::StatusOr<bool> StateLending::Call(
    engine_plugin::Level& level, mjModel* model, mjData* data, const char* name,
    int num_results, absl::FunctionRef<absl::Status(lua_State* L, int first)> read_results) {
  // Made only when the level has the callback: most steps of most levels
  // call one of beforeStep and afterStep, not both.
  std::optional<tensor::ScopedLoan> loan;
  absl::StatusOr<bool> called = level.Call(
      name, num_results,
      [&](lua_State* L) {
        loan.emplace(kStateLender);
        ++call_;
        model_ = model;
        data_ = data;
        loan_ = &*loan;
        PushTable(L, &kStateMetatable, &lua_api::Raising<&StateLending::Index>);
        state_table_ = lua_topointer(L, -1);
        return 1;
      },
      read_results);
  loan_ = nullptr;
  state_table_ = nullptr;
  model_table_ = nullptr;
  absl::Status unwritten = CheckUnwritten(name);
  if (!unwritten.ok()) return unwritten;
  return called;
}

}  // namespace hosts::mujoco
