#include "hosts/mujoco/state_lending.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "hosts/mujoco/model_arrays.h"
#include "lua_api/lua/read.h"
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

std::string FieldNames() {
  std::string names;
  for (const Field& field : kFields) absl::StrAppend(&names, names.empty() ? "" : ", ", field.name);
  return names + ", time, model";
}

// The codes of state's keys that are not fields (fields are 1 + their
// index in kFields).
constexpr int kTimeCode = -1;
constexpr int kModelCode = -2;

// state.<key> = value: refused. (The state is a userdata, not a table,
// so rawset cannot hide a field from later calls either.)
lua_api::NResultsOr NewIndex(lua_State* L) {
  const std::string key = lua_type(L, 2) == LUA_TSTRING
                              ? absl::StrCat("'", lua_tostring(L, 2), "'")
                              : absl::StrCat("a ", lua_api::TypeNameAt(L, 2), " key");
  return absl::StrCat(kStateLender, ": ", key,
                      " cannot be assigned; write into the arrays' tensors instead (as in "
                      "state.ctrl:val{...})");
}

// [-0, +1, m] An object of the state's (the state, its model): a userdata,
// so that rawset cannot hide a field from later calls, whose fields are
// looked up in the value at `index` (a table, or a function); getmetatable
// says kStateLender.
void PushLendingObject(lua_State* L, int index) {
  index = index < 0 ? lua_gettop(L) + index + 1 : index;
  lua_newuserdata(L, 0);
  lua_createtable(L, 0, 3);
  lua_pushvalue(L, index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, &lua_api::Raising<&NewIndex>);
  lua_setfield(L, -2, "__newindex");
  lua_pushstring(L, kStateLender);
  lua_setfield(L, -2, "__metatable");  // getmetatable shows this, not the table
  lua_setmetatable(L, -2);
}

}  // namespace

StateLending::StateLending() {
  for (std::size_t f = 0; f < kFieldCount; ++f) {
    field_copies_[f].name = absl::StrCat("state.", kFields[f].name);
  }
}

std::string StateLending::CheckCurrent(const char* key) const {
  if (calling_) return {};
  return absl::StrCat(kStateLender, ": '", key,
                      "' read from a state kept past the callback it was lent to");
}

lua_api::NResultsOr StateLending::Index(lua_State* L) {
  auto* self = static_cast<StateLending*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (lua_type(L, 2) != LUA_TSTRING) {
    return absl::StrCat(kStateLender, ": fields are named by strings (", FieldNames(), ")");
  }
  const char* key = lua_tostring(L, 2);
  if (std::string why = self->CheckCurrent(key); !why.empty()) return why;
  // The names were interned when the table was made: a raw lookup, no hash.
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(2));
  const int code = lua_isnil(L, -1) ? 0 : static_cast<int>(lua_tointeger(L, -1));
  lua_pop(L, 1);
  if (code == 0) {
    return absl::StrCat(kStateLender, " has no field '", key, "' (it has ", FieldNames(), ")");
  }
  if (code == kTimeCode) {
    lua_pushnumber(L, self->data_->time);
    return 1;
  }
  if (code == kModelCode) {
    self->PushModel(L);
    return 1;
  }
  const std::size_t f = static_cast<std::size_t>(code - 1);
  absl::StatusOr<const tensor::Layout*> layout = self->FieldLayout(f);
  if (!layout.ok()) return std::string(layout.status().message());
  const Field& field = kFields[f];
  void* data = self->data_->*field.array;
  const std::size_t bytes = static_cast<std::size_t>((*layout)->num_elements()) * sizeof(mjtNum);
  // Only computed fields come here: the writable ones are in the table.
  Copy& copy = self->field_copies_[f];
  absl::StatusOr<void*> taken = self->ReadOnlyCopy(L, copy, data, bytes);
  if (!taken.ok()) return std::string(taken.status().message());
  if (absl::Status lent = copy.slot.Push(L, tensor::DType::kFloat64, **layout, *taken, bytes);
      !lent.ok()) {
    return std::string(lent.message());
  }
  return 1;
}

absl::StatusOr<const tensor::Layout*> StateLending::FieldLayout(std::size_t f) {
  // The model's sizes are fixed: each field's layout is made once.
  std::optional<tensor::Layout>& layout = field_layouts_[f];
  if (!layout) {
    const Field& field = kFields[f];
    const std::int64_t shape[2] = {model_->*field.rows, field.columns};
    absl::StatusOr<tensor::Layout> made = tensor::Layout::Contiguous(
        absl::Span<const std::int64_t>(shape, field.columns == 0 ? 1 : 2));
    if (!made.ok()) return made.status();
    layout = *std::move(made);
  }
  return &*layout;
}

lua_api::LentTensorSlot& StateLending::WritableSlot(std::size_t f) {
  std::optional<lua_api::LentTensorSlot>& slot = field_slots_[f];
  if (!slot.has_value()) slot.emplace(kStateLender);
  return *slot;
}

lua_api::NResultsOr StateLending::ModelIndex(lua_State* L) {
  auto* self = static_cast<StateLending*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (lua_type(L, 2) != LUA_TSTRING) {
    return absl::StrCat(kStateLender, ": model arrays are named by strings (body_mass, ...)");
  }
  const char* key = lua_tostring(L, 2);
  if (std::string why = self->CheckCurrent(key); !why.empty()) return why;
  const std::optional<ModelArray> array = FindModelArray(*self->model_, key);
  if (!array) {
    return absl::StrCat(kStateLender, ": the model has no array '", key,
                        "' (mjModel's arrays: body_mass, geom_size, actuator_ctrlrange, ...)");
  }
  const std::int64_t shape[2] = {array->rows, array->columns};
  absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous(
      absl::Span<const std::int64_t>(shape, array->columns == 1 ? 1 : 2));
  if (!layout.ok()) return std::string(layout.status().message());
  auto found = self->model_copies_.find(absl::string_view(key));
  if (found == self->model_copies_.end()) {
    found = self->model_copies_.try_emplace(key).first;
    found->second.name = absl::StrCat("state.model.", key);
  }
  Copy& copy = found->second;
  absl::StatusOr<void*> taken = self->ReadOnlyCopy(L, copy, array->data, array->bytes);
  if (!taken.ok()) return std::string(taken.status().message());
  if (absl::Status lent = copy.slot.Push(L, array->dtype, *layout, *taken, array->bytes);
      !lent.ok()) {
    return std::string(lent.message());
  }
  return 1;
}

absl::Status StateLending::PushState(lua_State* L) {
  const void* registry = lua_topointer(L, LUA_REGISTRYINDEX);
  if (registry != registry_) {  // a new Lua state: objects of its own
    registry_ = registry;
    state_ = fields_ = model_object_ = LUA_NOREF;
  }
  if (state_ == LUA_NOREF) {
    // The codes of the names Index answers: the computed fields, time and
    // model (the writable fields are found in the table below).
    lua_createtable(L, 0, static_cast<int>(kFieldCount) + 2);
    for (std::size_t f = 0; f < kFieldCount; ++f) {
      if (!kFields[f].computed) continue;
      lua_pushinteger(L, static_cast<lua_Integer>(f + 1));
      lua_setfield(L, -2, kFields[f].name);
    }
    lua_pushinteger(L, kTimeCode);
    lua_setfield(L, -2, "time");
    lua_pushinteger(L, kModelCode);
    lua_setfield(L, -2, "model");
    // The writable fields' tensors, found by the VM without a call; the
    // rest through Index.
    lua_createtable(L, 0, static_cast<int>(kFieldCount));
    lua_createtable(L, 0, 1);
    lua_pushlightuserdata(L, this);
    lua_pushvalue(L, -4);
    lua_pushcclosure(L, &lua_api::Raising<&StateLending::Index>, 2);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_remove(L, -2);
    PushLendingObject(L, -1);
    state_ = luaL_ref(L, LUA_REGISTRYINDEX);
    fields_ = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  // Each call lends the writable fields again, without a call from Lua.
  lua_rawgeti(L, LUA_REGISTRYINDEX, fields_);
  for (std::size_t f = 0; f < kFieldCount; ++f) {
    const Field& field = kFields[f];
    if (field.computed) continue;
    absl::StatusOr<const tensor::Layout*> layout = FieldLayout(f);
    if (!layout.ok()) {
      lua_pop(L, 1);
      return layout.status();
    }
    void* data = data_->*field.array;
    const std::size_t bytes = static_cast<std::size_t>((*layout)->num_elements()) * sizeof(mjtNum);
    lua_api::LentTensorSlot& slot = WritableSlot(f);
    if (slot.Relend(L, tensor::DType::kFloat64, **layout, data, bytes)) continue;
    if (absl::Status lent = slot.Push(L, tensor::DType::kFloat64, **layout, data, bytes);
        !lent.ok()) {
      lua_pop(L, 1);
      return lent;
    }
    lua_setfield(L, -2, field.name);
  }
  lua_pop(L, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, state_);
  return absl::OkStatus();
}

void StateLending::PushModel(lua_State* L) {
  if (model_object_ == LUA_NOREF) {
    lua_pushlightuserdata(L, this);
    lua_pushcclosure(L, &lua_api::Raising<&StateLending::ModelIndex>, 1);
    PushLendingObject(L, -1);
    model_object_ = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pop(L, 1);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, model_object_);
}

absl::StatusOr<void*> StateLending::ReadOnlyCopy(lua_State* L, Copy& copy, const void* data,
                                                  std::size_t bytes) {
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

absl::Status StateLending::EndCall(const char* callback) {
  for (std::optional<lua_api::LentTensorSlot>& slot : field_slots_) {
    if (slot.has_value()) slot->Revoke();
  }
  absl::Status status;
  for (Copy* copy : lent_) {
    copy->slot.Revoke();
    if (!status.ok() || copy->bytes.empty() ||
        std::memcmp(copy->array, copy->bytes.data(), copy->bytes.size()) == 0) {
      continue;
    }
    status = absl::InvalidArgumentError(absl::StrCat(
        "level callback '", callback, "' wrote into ", copy->name,
        ", which is read-only (MuJoCo computes it, or it is the model): the write went into a "
        "copy and had no effect; write qpos, qvel, act, ctrl, qfrc_applied, xfrc_applied or "
        "mocap_pos/quat instead"));
  }
  lent_.clear();
  return status;
}

absl::StatusOr<bool> StateLending::Call(
    engine_plugin::Level& level, mjModel* model, mjData* data, const char* name,
    int num_results, absl::FunctionRef<absl::Status(lua_State* L, int first)> read_results) {
  absl::Status lent;
  absl::StatusOr<bool> called = level.Call(
      name, num_results,
      [&](lua_State* L) {
        ++call_;
        model_ = model;
        data_ = data;
        calling_ = true;
        lent = PushState(L);
        if (!lent.ok()) lua_pushnil(L);
        return 1;
      },
      read_results);
  if (!calling_) return called;  // no such callback: nothing was lent
  calling_ = false;
  absl::Status unwritten = EndCall(name);
  if (!lent.ok()) return lent;
  if (!unwritten.ok()) return unwritten;
  return called;
}

}  // namespace hosts::mujoco
