#include "hosts/dmlab/model_access.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine_plugin/model/geometry.h"

namespace hosts::dmlab {
namespace {

using engine_plugin::model::Affine;
using engine_plugin::model::Model;
using engine_plugin::model::Surface;

const Model& Of(const void* data) { return *static_cast<const Model*>(data); }
ModelBuilder& Builder(void* data) { return *static_cast<ModelBuilder*>(data); }

void CopyName(const std::string& value, std::size_t max_length, char* out) {
  if (max_length == 0) return;
  const std::size_t n = std::min(value.size(), max_length - 1);
  std::memcpy(out, value.data(), n);
  out[n] = '\0';
}

const Surface* SurfaceAt(const void* data, std::size_t surface) {
  const Model& m = Of(data);
  return surface < m.surfaces.size() ? &m.surfaces[surface] : nullptr;
}

// Vertex `vertex`'s `count` values from `first` (0 position, 3 normal, 6
// st), or zeros.
void ReadVertex(const void* data, std::size_t surface, std::size_t vertex, int first, int count,
                float* out) {
  const Surface* s = SurfaceAt(data, surface);
  const bool known = s != nullptr && vertex < s->vertex_count();
  for (int i = 0; i < count; ++i) out[i] = known ? s->vertices[vertex * 8 + first + i] : 0.0f;
}

const Affine* TagAt(const void* data, std::size_t tag) {
  const Model& m = Of(data);
  return tag < m.locators.size() ? &m.locators[tag].second : nullptr;
}

DmlabModelGetters MakeGetters() {
  DmlabModelGetters g{};
  g.get_name = [](const void* d, std::size_t max, char* name) { CopyName(Of(d).name, max, name); };
  g.get_surface_count = [](const void* d) { return Of(d).surfaces.size(); };
  g.get_surface_name = [](const void* d, std::size_t s, std::size_t max, char* name) {
    const Surface* surface = SurfaceAt(d, s);
    CopyName(surface == nullptr ? "" : surface->name, max, name);
  };
  g.get_surface_vertex_count = [](const void* d, std::size_t s) {
    const Surface* surface = SurfaceAt(d, s);
    return surface == nullptr ? std::size_t{0} : surface->vertex_count();
  };
  g.get_surface_vertex_location = [](const void* d, std::size_t s, std::size_t v, float out[3]) {
    ReadVertex(d, s, v, 0, 3, out);
  };
  g.get_surface_vertex_normal = [](const void* d, std::size_t s, std::size_t v, float out[3]) {
    ReadVertex(d, s, v, 3, 3, out);
  };
  g.get_surface_vertex_st = [](const void* d, std::size_t s, std::size_t v, float out[2]) {
    ReadVertex(d, s, v, 6, 2, out);
  };
  g.get_surface_face_count = [](const void* d, std::size_t s) {
    const Surface* surface = SurfaceAt(d, s);
    return surface == nullptr ? std::size_t{0} : surface->face_count();
  };
  g.get_surface_face = [](const void* d, std::size_t s, std::size_t f, int out[3]) {
    const Surface* surface = SurfaceAt(d, s);
    const bool known = surface != nullptr && f < surface->face_count();
    for (int i = 0; i < 3; ++i) out[i] = known ? surface->indices[f * 3 + i] : 0;
  };
  // One shader a surface, as DeepMind Lab's.
  g.get_surface_shader_count = [](const void*, std::size_t) { return std::size_t{1}; };
  g.get_surface_shader = [](const void* d, std::size_t s, std::size_t, std::size_t max,
                            char* name) {
    const Surface* surface = SurfaceAt(d, s);
    CopyName(surface == nullptr ? "" : surface->shader_name, max, name);
  };
  g.get_tag_count = [](const void* d) { return Of(d).locators.size(); };
  g.get_tag_name = [](const void* d, std::size_t t, std::size_t max, char* name) {
    CopyName(t < Of(d).locators.size() ? Of(d).locators[t].first : "", max, name);
  };
  g.get_tag_axis = [](const void* d, std::size_t t, std::size_t axis, float out[3]) {
    const Affine* tag = TagAt(d, t);
    for (int i = 0; i < 3; ++i) out[i] = tag != nullptr && axis < 3 ? tag->at(i, axis) : 0.0f;
  };
  g.get_tag_origin = [](const void* d, std::size_t t, float out[3]) {
    const Affine* tag = TagAt(d, t);
    for (int i = 0; i < 3; ++i) out[i] = tag != nullptr ? tag->at(i, 3) : 0.0f;
  };
  return g;
}

// The surface `surface` of the model being built, or null (an error noted).
Surface* SurfaceToSet(void* d, std::size_t surface) {
  ModelBuilder& b = Builder(d);
  if (surface < b.model.surfaces.size()) return &b.model.surfaces[surface];
  if (b.error.empty()) b.error = absl::StrCat("surface ", surface, " is not in the model");
  return nullptr;
}

void WriteVertex(void* d, std::size_t surface, std::size_t vertex, int first, int count,
                 const float* values) {
  Surface* s = SurfaceToSet(d, surface);
  if (s == nullptr) return;
  if (vertex >= s->vertex_count()) {
    ModelBuilder& b = Builder(d);
    if (b.error.empty()) b.error = absl::StrCat("vertex ", vertex, " is not in its surface");
    return;
  }
  std::copy(values, values + count, s->vertices.begin() + vertex * 8 + first);
}

// Whether `count` more vertices keep the model within bounds.
bool Fits(ModelBuilder& b, std::size_t count) {
  double total = static_cast<double>(count);
  for (const Surface& s : b.model.surfaces) total += static_cast<double>(s.vertex_count());
  if (total <= engine_plugin::model::kMaxVertices) return true;
  if (b.error.empty()) {
    b.error = absl::StrCat("more than ", engine_plugin::model::kMaxVertices, " vertices");
  }
  return false;
}

Affine* TagToSet(void* d, std::size_t tag) {
  ModelBuilder& b = Builder(d);
  if (tag < b.model.locators.size()) return &b.model.locators[tag].second;
  if (b.error.empty()) b.error = absl::StrCat("tag ", tag, " is not in the model");
  return nullptr;
}

DmlabModelSetters MakeSetters() {
  DmlabModelSetters s{};
  s.set_name = [](void* d, const char* name) { Builder(d).model.name = name; };
  s.set_surface_count = [](void* d, std::size_t count) {
    if (Fits(Builder(d), count)) Builder(d).model.surfaces.resize(count);
  };
  s.set_surface_name = [](void* d, std::size_t surface, const char* name) {
    if (Surface* s = SurfaceToSet(d, surface)) s->name = name;
  };
  s.set_surface_vertex_count = [](void* d, std::size_t surface, std::size_t count) {
    Surface* s = SurfaceToSet(d, surface);
    if (s != nullptr && Fits(Builder(d), count)) s->vertices.resize(count * 8);
  };
  s.set_surface_vertex_location = [](void* d, std::size_t surface, std::size_t v, float p[3]) {
    WriteVertex(d, surface, v, 0, 3, p);
  };
  s.set_surface_vertex_normal = [](void* d, std::size_t surface, std::size_t v, float n[3]) {
    WriteVertex(d, surface, v, 3, 3, n);
  };
  s.set_surface_vertex_st = [](void* d, std::size_t surface, std::size_t v, float st[2]) {
    WriteVertex(d, surface, v, 6, 2, st);
  };
  s.set_surface_face_count = [](void* d, std::size_t surface, std::size_t count) {
    Surface* s = SurfaceToSet(d, surface);
    if (s == nullptr) return;
    if (count <= 2 * engine_plugin::model::kMaxVertices) {
      s->indices.resize(count * 3);
    } else if (Builder(d).error.empty()) {
      Builder(d).error = absl::StrCat("more than ", 2 * engine_plugin::model::kMaxVertices, " faces");
    }
  };
  s.set_surface_face = [](void* d, std::size_t surface, std::size_t face, int indices[3]) {
    Surface* s = SurfaceToSet(d, surface);
    if (s == nullptr) return;
    if (face < s->face_count()) {
      std::copy(indices, indices + 3, s->indices.begin() + face * 3);
    } else if (Builder(d).error.empty()) {
      Builder(d).error = absl::StrCat("face ", face, " is not in its surface");
    }
  };
  // DeepMind Lab keeps a surface's first shader, or "default" for none.
  s.set_surface_shader_count = [](void* d, std::size_t surface, std::size_t count) {
    if (Surface* s = SurfaceToSet(d, surface); s != nullptr && count == 0) s->shader_name = "default";
  };
  s.set_surface_shader = [](void* d, std::size_t surface, std::size_t shader, const char* name) {
    if (Surface* s = SurfaceToSet(d, surface); s != nullptr && shader == 0) s->shader_name = name;
  };
  // Tags arrive in order (set_tag_name adds each).
  s.set_tag_count = [](void*, std::size_t) {};
  s.set_tag_name = [](void* d, std::size_t tag, const char* name) {
    ModelBuilder& b = Builder(d);
    if (tag != b.model.locators.size()) {
      if (b.error.empty()) b.error = absl::StrCat("tag ", tag, " named out of order");
      return;
    }
    b.model.locators.emplace_back(name, Affine::Identity());
  };
  s.set_tag_axis = [](void* d, std::size_t tag, std::size_t axis, float values[3]) {
    Affine* t = TagToSet(d, tag);
    if (t == nullptr || axis >= 3) return;
    for (int i = 0; i < 3; ++i) t->at(i, axis) = values[i];
  };
  s.set_tag_origin = [](void* d, std::size_t tag, float origin[3]) {
    if (Affine* t = TagToSet(d, tag)) {
      for (int i = 0; i < 3; ++i) t->at(i, 3) = origin[i];
    }
  };
  return s;
}

}  // namespace

const DmlabModelGetters& ModelGetters() {
  static const DmlabModelGetters getters = MakeGetters();
  return getters;
}

const DmlabModelSetters& ModelSetters() {
  static const DmlabModelSetters setters = MakeSetters();
  return setters;
}

std::string ModelBuilder::Finish(engine_plugin::model::Model* out) {
  if (!error.empty()) return error;
  for (const Surface& s : model.surfaces) {
    for (const int i : s.indices) {
      if (i < 0 || static_cast<std::size_t>(i) >= s.vertex_count()) {
        return absl::StrCat("surface '", s.name, "' has a face on vertex ", i, " of ",
                            s.vertex_count());
      }
    }
  }
  *out = std::move(model);
  return {};
}

}  // namespace hosts::dmlab
