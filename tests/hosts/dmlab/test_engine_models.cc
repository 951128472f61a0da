#include "tests/hosts/dmlab/test_engine_models.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace test_engine {
namespace {

// A model as an MD3 holds it.
struct Md3 {
  std::string name;
  struct Surface {
    std::string name, shader;
    std::vector<float> vertices;  // x, y, z, nx, ny, nz, s, t
    std::vector<int> faces;
  };
  std::vector<Surface> surfaces;
  struct Tag {
    std::string name;
    float axes[3][3], origin[3];
  };
  std::vector<Tag> tags;
};

// The engine's files: models/box.md3 (a square of 4 vertices and 2
// faces, shader textures/box, tag tag_top), then those saved.
std::map<std::string, Md3> files;

Md3 Box() {
  Md3 box{"box", {}, {}};
  Md3::Surface s{"box_surface", "textures/box", {}, {0, 1, 2, 0, 2, 3}};
  const float corners[4][2] = {{-8, -8}, {8, -8}, {8, 8}, {-8, 8}};
  for (const auto& c : corners) s.vertices.insert(s.vertices.end(), {c[0], c[1], 0, 0, 0, 1, 0, 0});
  box.surfaces.push_back(s);
  box.tags.push_back({"tag_top", {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {0, 0, 16}});
  return box;
}

// Reads a model through the getters, as the engine's serialiser does.
Md3 Read(const DmlabModelGetters* g, const void* data) {
  Md3 m;
  char name[64];
  g->get_name(data, sizeof(name), name);
  m.name = name;
  for (std::size_t s = 0; s < g->get_surface_count(data); ++s) {
    Md3::Surface surface;
    g->get_surface_name(data, s, sizeof(name), name);
    surface.name = name;
    if (g->get_surface_shader_count(data, s) > 0) {
      g->get_surface_shader(data, s, 0, sizeof(name), name);
      surface.shader = name;
    }
    for (std::size_t v = 0; v < g->get_surface_vertex_count(data, s); ++v) {
      float p[3], n[3], st[2];
      g->get_surface_vertex_location(data, s, v, p);
      g->get_surface_vertex_normal(data, s, v, n);
      g->get_surface_vertex_st(data, s, v, st);
      surface.vertices.insert(surface.vertices.end(), {p[0], p[1], p[2], n[0], n[1], n[2], st[0], st[1]});
    }
    for (std::size_t f = 0; f < g->get_surface_face_count(data, s); ++f) {
      int face[3];
      g->get_surface_face(data, s, f, face);
      surface.faces.insert(surface.faces.end(), face, face + 3);
    }
    m.surfaces.push_back(surface);
  }
  for (std::size_t t = 0; t < g->get_tag_count(data); ++t) {
    Md3::Tag tag;
    g->get_tag_name(data, t, sizeof(name), name);
    tag.name = name;
    for (std::size_t a = 0; a < 3; ++a) g->get_tag_axis(data, t, a, tag.axes[a]);
    g->get_tag_origin(data, t, tag.origin);
    m.tags.push_back(tag);
  }
  return m;
}

// Hands a model to the setters, as the engine's loader does.
void Write(const Md3& m, const DmlabModelSetters* s, void* data) {
  s->set_name(data, m.name.c_str());
  s->set_surface_count(data, m.surfaces.size());
  for (std::size_t i = 0; i < m.surfaces.size(); ++i) {
    const Md3::Surface& surface = m.surfaces[i];
    s->set_surface_name(data, i, surface.name.c_str());
    s->set_surface_vertex_count(data, i, surface.vertices.size() / 8);
    for (std::size_t v = 0; v < surface.vertices.size() / 8; ++v) {
      float p[3], n[3], st[2];
      for (int c = 0; c < 3; ++c) {
        p[c] = surface.vertices[v * 8 + c];
        n[c] = surface.vertices[v * 8 + 3 + c];
      }
      st[0] = surface.vertices[v * 8 + 6];
      st[1] = surface.vertices[v * 8 + 7];
      s->set_surface_vertex_location(data, i, v, p);
      s->set_surface_vertex_normal(data, i, v, n);
      s->set_surface_vertex_st(data, i, v, st);
    }
    s->set_surface_face_count(data, i, surface.faces.size() / 3);
    for (std::size_t f = 0; f < surface.faces.size() / 3; ++f) {
      int face[3] = {surface.faces[f * 3], surface.faces[f * 3 + 1], surface.faces[f * 3 + 2]};
      s->set_surface_face(data, i, f, face);
    }
    s->set_surface_shader_count(data, i, 1);
    s->set_surface_shader(data, i, 0, surface.shader.c_str());
  }
  s->set_tag_count(data, m.tags.size());
  for (std::size_t t = 0; t < m.tags.size(); ++t) {
    Md3::Tag tag = m.tags[t];
    s->set_tag_name(data, t, tag.name.c_str());
    for (std::size_t a = 0; a < 3; ++a) s->set_tag_axis(data, t, a, tag.axes[a]);
    s->set_tag_origin(data, t, tag.origin);
  }
}

void Log(const std::string& home, const std::string& name, const Md3* m, const std::string& prefix) {
  std::FILE* log = std::fopen((home + "/models.log").c_str(), "a");
  if (log == nullptr) return;
  if (m == nullptr) {
    std::fprintf(log, "model %s missing\n", name.c_str());
  } else {
    for (const Md3::Surface& s : m->surfaces) {
      std::fprintf(log, "model %s surface %s shader %s%s vertices %zu faces %zu first %g %g %g\n",
                   name.c_str(), s.name.c_str(), prefix.c_str(), s.shader.c_str(),
                   s.vertices.size() / 8, s.faces.size() / 3, s.vertices.empty() ? 0.0 : s.vertices[0],
                   s.vertices.empty() ? 0.0 : s.vertices[1], s.vertices.empty() ? 0.0 : s.vertices[2]);
    }
    std::fprintf(log, "model %s tags %zu\n", name.c_str(), m->tags.size());
  }
  std::fclose(log);
}

}  // namespace

void InstallModelCalls(DmlabCalls* calls) {
  files = {{"models/box.md3", Box()}};
  calls->deserialise_model = [](const void*, const DmlabModelSetters*, void*) { return false; };
  calls->load_model = [](const char* path, const DmlabModelSetters* setters, void* data) {
    auto file = files.find(path);
    if (file == files.end()) return false;
    Write(file->second, setters, data);
    return true;
  };
  // The test engine's "MD3" is a pointer to the model read.
  calls->serialised_model_size = [](const DmlabModelGetters*, void*) { return sizeof(Md3*); };
  calls->serialise_model = [](const DmlabModelGetters* getters, void* data, void* buffer) {
    *static_cast<Md3**>(buffer) = new Md3(Read(getters, data));
  };
  calls->save_model = [](const DmlabModelGetters* getters, void* data, const char* path) {
    files[path] = Read(getters, data);
    return true;
  };
}

void RegisterModel(const DmlabContext& context, const std::string& name, const std::string& home) {
  char replaced[64], prefix[64] = "";
  std::string file = name;
  if (context.hooks.replace_model_name(context.userdata, name.c_str(), replaced, sizeof(replaced),
                                       prefix, sizeof(prefix))) {
    file = replaced;
  }
  if (auto found = files.find(file); found != files.end()) {
    Log(home, name, &found->second, prefix);
    return;
  }
  // R_RegisterDMLab: one level of detail a call, while the level has one.
  bool any = false;
  for (int lod = 0; lod < 3; ++lod) {
    if (!context.hooks.find_model(context.userdata, name.c_str())) break;
    DmlabModelGetters getters;
    void* data = nullptr;
    context.hooks.model_getters(context.userdata, &getters, &data);
    Md3* md3 = nullptr;
    context.calls.serialise_model(&getters, data, &md3);
    context.hooks.clear_model(context.userdata);
    if (lod == 0) Log(home, name, md3, "");
    delete md3;
    any = true;
  }
  if (!any) Log(home, name, nullptr, "");
}

}  // namespace test_engine
