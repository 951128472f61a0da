#include "engine_plugin/model/model_module.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine_plugin/model/geometry.h"
#include "engine_plugin/model/model_lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"

namespace engine_plugin::model {
namespace {

using lua_api::ArgumentError;
using lua_api::NResultsOr;

constexpr int kMaxDepth = 64;
constexpr int kMaxNodes = 65536;

ModelFiles& Files(lua_State* L) {
  return *static_cast<ModelFiles*>(lua_touserdata(L, lua_upvalueindex(1)));
}

// The options table: the last argument, as DeepMind Lab reads it (so ':'
// and '.' calls both work).
class Options {
 public:
  Options(lua_State* L, const char* function) : L_(L), function_(function) {}

  // "" when the last argument is a table.
  std::string Check() {
    index_ = lua_gettop(L_);
    if (index_ >= 1 && lua_istable(L_, index_)) return {};
    return ArgumentError(function_, 1, lua_api::Expected(L_, std::max(index_, 1), "table"));
  }

  // Each: false when the field is absent; an error (in error_) when it is
  // of another type.
  bool Number(const char* key, float* out) {
    double value = 0;
    if (!Field(key, [&] { return lua_api::ReadNumber(L_, -1, &value); })) return false;
    *out = static_cast<float>(value);
    return true;
  }
  bool Integer(const char* key, std::int64_t* out) {
    return Field(key, [&] { return lua_api::ReadInteger(L_, -1, out); });
  }
  bool String(const char* key, std::string* out) {
    return Field(key, [&] { return lua_api::ReadString(L_, -1, out); });
  }

  const std::string& error() const { return error_; }

 private:
  template <typename ReadFn>
  bool Field(const char* key, const ReadFn& read) {
    lua_api::PushRawField(L_, index_, key);
    bool found = false;
    if (!lua_isnil(L_, -1)) {
      std::string why = read();
      if (why.empty()) {
        found = true;
      } else if (error_.empty()) {
        error_ = ArgumentError(function_, 1, absl::StrCat("'", key, "': ", why));
      }
    }
    lua_pop(L_, 1);
    return found;
  }

  lua_State* L_;
  const char* function_;
  int index_ = 0;
  std::string error_;
};

// [-0, +1, -] The built model, or the error naming `function`.
NResultsOr Result(lua_State* L, const char* function, const std::string& why, const Model& model) {
  if (!why.empty()) return absl::StrCat("'", function, "': ", why);
  if (std::string e = PushModel(L, model); !e.empty()) return absl::StrCat("'", function, "': ", e);
  return 1;
}

NResultsOr CreateCube(lua_State* L) {
  constexpr char kName[] = "model:cube";
  Options o(L, kName);
  if (std::string e = o.Check(); !e.empty()) return e;
  Cube c;
  if (o.Number("size", &c.width)) {
    c.depth = c.height = c.width;
  } else {
    o.Number("width", &c.width);
    o.Number("height", &c.height);
    o.Number("depth", &c.depth);
  }
  if (o.Integer("segments", &c.width_segments)) {
    c.height_segments = c.depth_segments = c.width_segments;
  } else {
    o.Integer("widthSegments", &c.width_segments);
    o.Integer("heightSegments", &c.height_segments);
    o.Integer("depthSegments", &c.depth_segments);
  }
  o.String("shaderName", &c.shader_name);
  if (!o.error().empty()) return o.error();
  Model m;
  return Result(L, kName, Build(c, &m), m);
}

// A cone's or a cylinder's fields (the same names).
template <typename Shape>
NResultsOr CreateRound(lua_State* L, const char* name) {
  Options o(L, name);
  if (std::string e = o.Check(); !e.empty()) return e;
  Shape c;
  if (o.Number("radius", &c.width_radius)) {
    c.depth_radius = c.width_radius;
  } else {
    o.Number("widthRadius", &c.width_radius);
    o.Number("depthRadius", &c.depth_radius);
  }
  o.Number("height", &c.height);
  o.Integer("phiSegments", &c.phi_segments);
  o.Integer("radiusSegments", &c.radius_segments);
  o.Integer("heightSegments", &c.height_segments);
  o.String("shaderName", &c.shader_name);
  if (!o.error().empty()) return o.error();
  Model m;
  return Result(L, name, Build(c, &m), m);
}

NResultsOr CreateCone(lua_State* L) { return CreateRound<Cone>(L, "model:cone"); }
NResultsOr CreateCylinder(lua_State* L) { return CreateRound<Cylinder>(L, "model:cylinder"); }

NResultsOr CreateSphere(lua_State* L) {
  constexpr char kName[] = "model:sphere";
  Options o(L, kName);
  if (std::string e = o.Check(); !e.empty()) return e;
  Sphere c;
  if (o.Number("radius", &c.width_radius)) {
    c.height_radius = c.depth_radius = c.width_radius;
  } else {
    o.Number("widthRadius", &c.width_radius);
    o.Number("heightRadius", &c.height_radius);
    o.Number("depthRadius", &c.depth_radius);
  }
  o.Integer("phiSegments", &c.phi_segments);
  o.Integer("thetaSegments", &c.theta_segments);
  o.String("shaderName", &c.shader_name);
  if (!o.error().empty()) return o.error();
  Model m;
  return Result(L, kName, Build(c, &m), m);
}

// A hierarchy being flattened into `out`.
struct Flattening {
  Model out;
  double vertices = 0;
  int nodes = 0;
  Vec3 low = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
              std::numeric_limits<float>::max()};
  Vec3 high = {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest(),
               std::numeric_limits<float>::lowest()};
};

// Flattens the node at `index` (absolute) and its children, depth first,
// as DeepMind Lab's RecurseHierarchy: the node's model moved by `frame`
// (times its `transform`, times its `locator`'s inverse), then each child
// at frame * the locator it is keyed by.
std::string Flatten(lua_State* L, int index, const std::string& prefix, Affine frame, int depth,
                    Flattening* f) {
  if (depth > kMaxDepth) return absl::StrCat("more than ", kMaxDepth, " levels at ", prefix);
  if (++f->nodes > kMaxNodes) return absl::StrCat("more than ", kMaxNodes, " nodes");
  if (!lua_checkstack(L, 8)) return "the Lua stack is full";
  if (!lua_istable(L, index)) return absl::StrCat("the node at ", prefix, " must be a table");
  Model m;
  lua_api::PushRawField(L, index, "model");
  std::string why = ReadModel(L, -1, &m);
  lua_pop(L, 1);
  if (!why.empty()) return absl::StrCat("failed to load the model at ", prefix, ": ", why);
  for (const Surface& s : m.surfaces) f->vertices += static_cast<double>(s.vertex_count());
  if (f->vertices > kMaxVertices) {
    return absl::StrCat("the hierarchy has more than ", kMaxVertices, " vertices");
  }

  lua_api::PushRawField(L, index, "transform");
  if (!lua_isnil(L, -1)) {
    Affine transform;
    why = ReadAffine(L, -1, &transform);
    if (why.empty()) frame = frame * transform;
  }
  lua_pop(L, 1);
  if (!why.empty()) return absl::StrCat("the transform at ", prefix, ": ", why);

  lua_api::PushRawField(L, index, "locator");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) {
      why = absl::StrCat("the locator at ", prefix, ": ", lua_api::Expected(L, -1, "string"));
    } else if (const Affine* locator = m.Locator(lua_tostring(L, -1)); locator == nullptr) {
      why = absl::StrCat("failed to find ", lua_tostring(L, -1), " amongst model locators at ",
                         prefix);
    } else {
      frame = frame * locator->Inverse();
    }
  }
  lua_pop(L, 1);
  if (!why.empty()) return why;

  const std::array<float, 9> inverse = frame.LinearInverse();
  for (Surface& s : m.surfaces) {
    for (std::size_t v = 0; v < s.vertices.size(); v += 8) {
      float* vertex = &s.vertices[v];
      const Vec3 position = frame.Apply({vertex[0], vertex[1], vertex[2]});
      const Vec3 normal = MoveNormal({vertex[3], vertex[4], vertex[5]}, inverse);
      for (int c = 0; c < 3; ++c) {
        vertex[c] = position[c];
        vertex[3 + c] = normal[c];
        f->low[c] = std::min(f->low[c], position[c]);
        f->high[c] = std::max(f->high[c], position[c]);
      }
    }
    s.name = prefix + s.name;
    f->out.surfaces.push_back(std::move(s));
  }

  lua_api::PushRawField(L, index, "children");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return {};
  }
  if (!lua_istable(L, -1)) {
    why = absl::StrCat("the children at ", prefix, ": ", lua_api::Expected(L, -1, "table"));
    lua_pop(L, 1);
    return why;
  }
  const int children = lua_gettop(L);
  int i = 0;
  lua_pushnil(L);
  while (lua_next(L, children) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      why = absl::StrCat("the children at ", prefix, " must be keyed by locator names, not ",
                         luaL_typename(L, -2));
    } else if (const Affine* locator = m.Locator(lua_tostring(L, -2)); locator == nullptr) {
      why = absl::StrCat("failed to find ", lua_tostring(L, -2), " amongst model locators at ",
                         prefix);
    } else {
      why = Flatten(L, lua_gettop(L), absl::StrCat(prefix, "c", i, ":"), frame * *locator,
                    depth + 1, f);
    }
    lua_pop(L, 1);
    ++i;
    if (!why.empty()) {
      lua_pop(L, 2);
      return why;
    }
  }
  lua_pop(L, 1);
  return {};
}

NResultsOr CreateHierarchy(lua_State* L) {
  constexpr char kName[] = "model:hierarchy";
  const int top = lua_gettop(L);
  if (top < 1 || !lua_istable(L, top)) {
    return ArgumentError(kName, 1, lua_api::Expected(L, std::max(top, 1), "table"));
  }
  Flattening f;
  f.out.name = "hierarchy";
  if (std::string why = Flatten(L, top, "root_", Affine::Identity(), 0, &f); !why.empty()) {
    lua_settop(L, top);
    return absl::StrCat("'", kName, "': ", why);
  }
  if (f.vertices > 0) {
    const Vec3 centre = {(f.high[0] + f.low[0]) * 0.5f, (f.high[1] + f.low[1]) * 0.5f,
                         (f.high[2] + f.low[2]) * 0.5f};
    Model box;
    if (AddBoxLocators(f.high[0] - f.low[0], f.high[1] - f.low[1], f.high[2] - f.low[2], centre,
                       &box)) {
      f.out.locators = std::move(box.locators);
    }
  }
  return Result(L, kName, "", f.out);
}

// The layouts' (number, count) arguments: the last two.
template <std::string (*Make)(float, std::int64_t, Model*)>
NResultsOr CreateLayout(lua_State* L, const char* name) {
  const int top = lua_gettop(L);
  double size = 0;
  std::int64_t n = 0;
  if (top < 2) return ArgumentError(name, 1, lua_api::Expected(L, std::max(top, 1), "number"));
  if (std::string why = lua_api::ReadNumber(L, top - 1, &size); !why.empty()) {
    return ArgumentError(name, 1, why);
  }
  if (std::string why = lua_api::ReadInteger(L, top, &n); !why.empty()) {
    return ArgumentError(name, 2, why);
  }
  Model m;
  return Result(L, name, Make(static_cast<float>(size), n, &m), m);
}

NResultsOr CreateCircularLayout(lua_State* L) {
  return CreateLayout<&CircularLayout>(L, "model:circularLayout");
}
NResultsOr CreateLinearLayout(lua_State* L) {
  return CreateLayout<&LinearLayout>(L, "model:linearLayout");
}

NResultsOr LoadMD3(lua_State* L) {
  constexpr char kName[] = "model:loadMD3";
  std::string path;
  if (std::string why = lua_api::ReadString(L, lua_gettop(L), &path); !why.empty()) {
    return ArgumentError(kName, 1, why);
  }
  Model m;
  return Result(L, kName, Files(L).Load(path, &m), m);
}

NResultsOr SaveMD3(lua_State* L) {
  constexpr char kName[] = "model:saveMD3";
  const int top = lua_gettop(L);
  std::string path;
  if (top < 2) return ArgumentError(kName, 1, lua_api::Expected(L, std::max(top, 1), "model table"));
  if (std::string why = lua_api::ReadString(L, top, &path); !why.empty()) {
    return ArgumentError(kName, 2, why);
  }
  Model m;
  if (std::string why = ReadModel(L, top - 1, &m); !why.empty()) return ArgumentError(kName, 1, why);
  if (std::string why = Files(L).Save(m, path); !why.empty()) {
    return absl::StrCat("'", kName, "': ", why);
  }
  return 0;
}

// [-0, +1, m] The loader in package.preload; upvalue 1: the ModelFiles.
int Open(lua_State* L) {
  static constexpr std::pair<const char*, lua_CFunction> kFunctions[] = {
      {"cone", &lua_api::Raising<&CreateCone>},
      {"cube", &lua_api::Raising<&CreateCube>},
      {"cylinder", &lua_api::Raising<&CreateCylinder>},
      {"sphere", &lua_api::Raising<&CreateSphere>},
      {"hierarchy", &lua_api::Raising<&CreateHierarchy>},
      {"circularLayout", &lua_api::Raising<&CreateCircularLayout>},
      {"linearLayout", &lua_api::Raising<&CreateLinearLayout>},
      {"loadMD3", &lua_api::Raising<&LoadMD3>},
      {"saveMD3", &lua_api::Raising<&SaveMD3>},
  };
  lua_createtable(L, 0, sizeof kFunctions / sizeof kFunctions[0]);
  for (const auto& [name, function] : kFunctions) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, function, 1);
    lua_setfield(L, -2, name);
  }
  return 1;
}

}  // namespace

void RegisterModelModule(lua_State* L, ModelFiles* files) {
  lua_api::SetPreload(L, "dmlab.system.model", &Open, files);
}

}  // namespace engine_plugin::model
