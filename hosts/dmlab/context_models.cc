// Context's model hooks (context.h), as DeepMind Lab's context serves
// them: the engine asks the level for a model it cannot find as a file
// (api:createModel(name), a model table of dmlab.system.model's format),
// reads the one found through the getters (model_access.h) and clears it;
// and it asks the level for another name before loading any model
// (api:replaceModelName(name): a name, and a prefix for its textures).
// model:loadMD3 and model:saveMD3 go to the engine's file system.
#include <cstddef>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/model/model_lua.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/lua_fields.h"
#include "hosts/dmlab/model_access.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {
namespace {

using engine_plugin::model::Model;

// The most bytes of a model's MD3 the engine is handed: it allocates the
// MD3 in its 24 MB zone and ends the process when that fails. 4 MB holds
// a dozen surfaces of the most vertices the engine draws (it skips
// surfaces of 1000 or more).
constexpr double kMaxEngineModelBytes = 4 << 20;

// The MD3's size as the engine computes it (dmlab_save_model.c): header
// 108, frame 56, tags 112, a surface 108 + its shader 68 + 12 a triangle
// + 16 a vertex.
double Md3Bytes(const Model& m) {
  double bytes = 108 + 56 + 112.0 * static_cast<double>(m.locators.size());
  for (const auto& s : m.surfaces) {
    bytes += 108 + 68 + 12.0 * static_cast<double>(s.face_count()) +
             16.0 * static_cast<double>(s.vertex_count());
  }
  return bytes;
}

std::string CheckForEngine(const Model& m) {
  const double bytes = Md3Bytes(m);
  if (bytes <= kMaxEngineModelBytes) return {};
  return absl::StrCat("the model's MD3 would take ", bytes, " bytes, more than the engine's ",
                      kMaxEngineModelBytes);
}

// A path in the engine's file system: relative, without "..".
std::string CheckPath(const std::string& path) {
  if (path.empty() || path.size() >= 256 || path[0] == '/' || absl::StrContains(path, "..") ||
      absl::StrContains(path, "\\") || absl::StrContains(path, ":")) {
    return absl::StrCat("'", path, "' is not a path in the engine's file system (relative, "
                        "without '..', ':' or '\\', under 256 characters)");
  }
  return {};
}

}  // namespace

std::string Context::EngineModelFiles::Load(const std::string& path, Model* out) {
  if (std::string why = CheckPath(path); !why.empty()) return why;
  const DmlabCalls* calls = context_->calls();
  if (calls == nullptr) return "the engine is not running";
  ModelBuilder builder;
  if (!calls->load_model(path.c_str(), &ModelSetters(), &builder)) {
    return absl::StrCat("unable to open model file: ", path);
  }
  if (std::string why = builder.Finish(out); !why.empty()) {
    return absl::StrCat("the model file ", path, ": ", why);
  }
  return {};
}

std::string Context::EngineModelFiles::Save(const Model& model, const std::string& path) {
  if (std::string why = CheckPath(path); !why.empty()) return why;
  if (std::string why = CheckForEngine(model); !why.empty()) return why;
  const DmlabCalls* calls = context_->calls();
  if (calls == nullptr) return "the engine is not running";
  if (!calls->save_model(&ModelGetters(), const_cast<Model*>(&model), path.c_str())) {
    return absl::StrCat("unable to save model file: ", path);
  }
  return {};
}

bool Context::FindModel(const char* name) {
  model_.reset();
  CallLevel(
      "createModel", 1,
      [&](lua_State* L) {
        lua_pushstring(L, name);
        return 1;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        Model m;
        std::string why = engine_plugin::model::ReadModel(L, first, &m);
        if (why.empty()) why = CheckForEngine(m);
        if (!why.empty()) {
          return absl::InvalidArgumentError(
              absl::StrCat("[createModel] - the model for '", name, "': ", why));
        }
        model_ = std::move(m);
        return absl::OkStatus();
      });
  return model_.has_value();
}

void Context::GetModelGetters(DmlabModelGetters* getters, void** model_data) {
  // Without a model found (the engine asks only after one is), an empty
  // one: the engine reads no surface.
  if (!model_.has_value()) model_.emplace();
  *getters = ModelGetters();
  *model_data = &*model_;
}

bool Context::ReplaceModelName(const char* name, char* new_name, int new_name_size,
                               char* texture_prefix, int texture_prefix_size) {
  bool replaced = false;
  CallLevel(
      "replaceModelName", 2,
      [&](lua_State* L) {
        lua_pushstring(L, name);
        return 1;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) {
          if (lua_isnil(L, first + 1)) return absl::OkStatus();
          return absl::InvalidArgumentError(
              "[replaceModelName] - Return arg2 (texturePrefix) must be nil if return arg1 "
              "(newModelName) is nil.");
        }
        if (lua_type(L, first) != LUA_TSTRING ||
            (!lua_isnil(L, first + 1) && lua_type(L, first + 1) != LUA_TSTRING)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[replaceModelName] - must return a model name and optionally a texture prefix "
              "(strings), not ",
              luaL_typename(L, first), " and ", luaL_typename(L, first + 1)));
        }
        const char* prefix = lua_isnil(L, first + 1) ? "" : lua_tostring(L, first + 1);
        if (!CopyString(lua_tostring(L, first), new_name, new_name_size) ||
            !CopyString(prefix, texture_prefix, texture_prefix_size)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[replaceModelName] - the name or prefix for '", name, "' is longer than the "
              "engine's ", new_name_size - 1, " and ", texture_prefix_size - 1, " characters"));
        }
        replaced = true;
        return absl::OkStatus();
      });
  return replaced;
}

}  // namespace hosts::dmlab
