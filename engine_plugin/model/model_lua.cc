#include "engine_plugin/model/model_lua.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/model/geometry.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/elementwise.h"
#include "tensor/loan.h"

namespace engine_plugin::model {
namespace {

// [-0, +1, m] A new contiguous tensor of `shape` over a copy of `data`.
template <typename T>
std::string PushCopy(lua_State* L, tensor::DType dtype, std::int64_t rows, std::int64_t columns,
                     const T* data) {
  absl::StatusOr<tensor::Tensor> t =
      tensor::Tensor::Uninitialized(dtype, {rows, columns}, lua_api::TensorAllocator(L));
  if (!t.ok()) return std::string(t.status().message());
  if (rows * columns > 0) {
    std::memcpy(*t->data(), data, static_cast<std::size_t>(rows * columns) * sizeof(T));
  }
  lua_api::LuaTensor::Push(L, *std::move(t));
  return {};
}

// The tensor at `index` when it is a valid `dtype` tensor of 2 dimensions,
// the second `columns`; its rows in *rows. Else why not.
std::string ReadMatrix(lua_State* L, int index, tensor::DType dtype, std::int64_t columns,
                       const tensor::Tensor** out, std::int64_t* rows) {
  const lua_api::LuaTensor* t = lua_api::LuaTensor::Read(L, index);
  const std::string expected = absl::StrCat(lua_api::LuaTensor::TypeName(dtype), " N x ", columns);
  if (t == nullptr || t->tensor().dtype() != dtype) return lua_api::Expected(L, index, expected);
  const auto& shape = t->tensor().layout().shape();
  if (shape.size() != 2 || shape[1] != columns) {
    return absl::StrCat(expected, " expected, got one of ", shape.size(), " dimensions",
                        shape.size() == 2 ? absl::StrCat(" ", shape[0], " x ", shape[1]) : "");
  }
  if (absl::Status valid = t->tensor().CheckValid(); !valid.ok()) {
    return std::string(valid.message());
  }
  *out = &t->tensor();
  *rows = shape[0];
  return {};
}

// Copies `source` (any layout) into `out`, row-major.
template <typename T>
std::string CopyOut(const tensor::Tensor& source, std::int64_t rows, std::int64_t columns,
                    std::vector<T>* out) {
  out->resize(static_cast<std::size_t>(rows * columns));
  if (out->empty()) return {};
  tensor::ScopedLoan loan("a model being read");
  absl::StatusOr<tensor::Tensor> target =
      tensor::Tensor::Lend(source.dtype(), *tensor::Layout::Contiguous({rows, columns}),
                           out->data(), out->size() * sizeof(T), loan.token());
  absl::Status copied = target.ok() ? tensor::ApplyComponents(*target, tensor::ElementOp::kAssign, source)
                                    : target.status();
  return copied.ok() ? std::string() : std::string(copied.message());
}

// Reads surface `name` from the table at `index`; adds its vertices to
// *total.
std::string ReadSurface(lua_State* L, int index, const std::string& name, Surface* s,
                        double* total) {
  s->name = name;
  const std::string field = absl::StrCat("surfaces.", name);
  if (!lua_istable(L, index)) return absl::StrCat(field, ": ", lua_api::Expected(L, index, "table"));
  lua_api::PushRawField(L, index, "shaderName");
  const bool has_shader = lua_type(L, -1) == LUA_TSTRING;
  if (has_shader) s->shader_name = lua_tostring(L, -1);
  std::string why = has_shader ? "" : lua_api::Expected(L, -1, "string");
  lua_pop(L, 1);
  if (!why.empty()) return absl::StrCat(field, ".shaderName: ", why);

  const tensor::Tensor* vertices = nullptr;
  std::int64_t vertex_rows = 0;
  lua_api::PushRawField(L, index, "vertices");
  why = ReadMatrix(L, -1, tensor::DType::kFloat32, 8, &vertices, &vertex_rows);
  if (why.empty()) {
    *total += vertex_rows;
    if (*total > kMaxVertices) {
      why = absl::StrCat("the model has more than ", kMaxVertices, " vertices");
    } else {
      why = CopyOut(*vertices, vertex_rows, 8, &s->vertices);
    }
  }
  lua_pop(L, 1);
  if (!why.empty()) return absl::StrCat(field, ".vertices: ", why);

  const tensor::Tensor* indices = nullptr;
  std::int64_t face_rows = 0;
  lua_api::PushRawField(L, index, "indices");
  why = ReadMatrix(L, -1, tensor::DType::kInt32, 3, &indices, &face_rows);
  if (why.empty() && face_rows > 2 * kMaxVertices) {
    why = absl::StrCat("more than ", 2 * kMaxVertices, " triangles");
  }
  if (why.empty()) why = CopyOut(*indices, face_rows, 3, &s->indices);
  lua_pop(L, 1);
  if (!why.empty()) return absl::StrCat(field, ".indices: ", why);
  for (int& i : s->indices) {
    if (i < 1 || i > vertex_rows) {
      return absl::StrCat(field, ".indices: vertex ", i, " is outside 1 to ", vertex_rows);
    }
    --i;
  }
  return {};
}

}  // namespace

std::string PushAffine(lua_State* L, const Affine& affine) {
  return PushCopy(L, tensor::DType::kFloat32, 4, 4, affine.m.data());
}

std::string ReadAffine(lua_State* L, int index, Affine* out) {
  const lua_api::LuaTensor* t = lua_api::LuaTensor::Read(L, index);
  const bool matrix = t != nullptr && t->tensor().dtype() == tensor::DType::kFloat32 &&
                      t->tensor().layout().shape().size() == 2 &&
                      t->tensor().layout().shape()[0] == 4 && t->tensor().layout().shape()[1] == 4;
  if (!matrix) {
    return lua_api::Expected(L, index, "FloatTensor 4 x 4");
  }
  std::vector<float> values;
  if (std::string why = CopyOut(t->tensor(), 4, 4, &values); !why.empty()) return why;
  std::copy(values.begin(), values.end(), out->m.begin());
  return {};
}

std::string PushModel(lua_State* L, const Model& model) {
  const int top = lua_gettop(L);
  lua_createtable(L, 0, 3);
  lua_pushstring(L, model.name.c_str());
  lua_setfield(L, -2, "name");
  lua_createtable(L, 0, static_cast<int>(model.surfaces.size()));
  std::string why;
  for (const Surface& s : model.surfaces) {
    lua_createtable(L, 0, 4);
    lua_pushstring(L, s.name.c_str());
    lua_setfield(L, -2, "name");
    why = PushCopy(L, tensor::DType::kFloat32, static_cast<std::int64_t>(s.vertex_count()), 8,
                   s.vertices.data());
    if (!why.empty()) break;
    lua_setfield(L, -2, "vertices");
    std::vector<int> one_based(s.indices);
    for (int& i : one_based) ++i;
    why = PushCopy(L, tensor::DType::kInt32, static_cast<std::int64_t>(s.face_count()), 3,
                   one_based.data());
    if (!why.empty()) break;
    lua_setfield(L, -2, "indices");
    lua_pushstring(L, s.shader_name.c_str());
    lua_setfield(L, -2, "shaderName");
    lua_setfield(L, -2, s.name.c_str());
  }
  if (why.empty()) {
    lua_setfield(L, -2, "surfaces");
    lua_createtable(L, 0, static_cast<int>(model.locators.size()));
    for (const auto& [name, frame] : model.locators) {
      why = PushAffine(L, frame);
      if (!why.empty()) break;
      lua_setfield(L, -2, name.c_str());
    }
  }
  if (!why.empty()) {
    lua_settop(L, top);
    return why;
  }
  lua_setfield(L, -2, "locators");
  return {};
}

std::string ReadModel(lua_State* L, int index, Model* out) {
  if (index < 0) index = lua_gettop(L) + index + 1;
  if (!lua_istable(L, index)) return lua_api::Expected(L, index, "model table");
  *out = Model{};
  lua_api::PushRawField(L, index, "name");
  const int name_type = lua_type(L, -1);
  if (name_type == LUA_TSTRING) out->name = lua_tostring(L, -1);
  std::string why = name_type == LUA_TSTRING || name_type == LUA_TNIL
                        ? ""
                        : absl::StrCat("name: ", lua_api::Expected(L, -1, "string"));
  lua_pop(L, 1);
  if (!why.empty()) return why;

  lua_api::PushRawField(L, index, "surfaces");
  if (!lua_istable(L, -1)) {
    why = absl::StrCat("surfaces: ", lua_api::Expected(L, -1, "table"));
    lua_pop(L, 1);
    return why;
  }
  double total = 0;
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      why = absl::StrCat("surfaces: names must be strings, got ", luaL_typename(L, -2));
    } else {
      out->surfaces.emplace_back();
      why = ReadSurface(L, lua_gettop(L), lua_tostring(L, -2), &out->surfaces.back(), &total);
    }
    lua_pop(L, 1);
    if (!why.empty()) {
      lua_pop(L, 2);
      return why;
    }
  }
  lua_pop(L, 1);

  lua_api::PushRawField(L, index, "locators");
  if (!lua_isnil(L, -1)) {
    if (!lua_istable(L, -1)) {
      why = absl::StrCat("locators: ", lua_api::Expected(L, -1, "table"));
    } else {
      lua_pushnil(L);
      while (lua_next(L, -2) != 0) {
        if (lua_type(L, -2) != LUA_TSTRING) {
          why = absl::StrCat("locators: names must be strings, got ", luaL_typename(L, -2));
        } else if (out->locators.size() >= kMaxVertices) {
          why = absl::StrCat("locators: more than ", kMaxVertices);
        } else {
          Affine frame;
          why = ReadAffine(L, -1, &frame);
          if (why.empty()) {
            out->locators.emplace_back(lua_tostring(L, -2), frame);
          } else {
            why = absl::StrCat("locators.", lua_tostring(L, -2), ": ", why);
          }
        }
        lua_pop(L, 1);
        if (!why.empty()) {
          lua_pop(L, 1);
          break;
        }
      }
    }
  }
  lua_pop(L, 1);
  return why;
}

}  // namespace engine_plugin::model
