// dmlab.system.model: DeepMind Lab's model generation, for levels that
// build the models the engine draws (api:createModel(name) returns one).
// The primitives are DeepMind Lab's vertex for vertex (geometry.h); models
// are tables (model_lua.h).
//
// Lua API (`local model = require 'dmlab.system.model'`; ':' or '.'):
//   model:cube{size =, or width =, depth =, height =;
//              segments =, or widthSegments =, ...; shaderName =}
//   model:cone{radius =, or widthRadius =, depthRadius =; height =;
//              phiSegments =, radiusSegments =, heightSegments =; shaderName =}
//   model:cylinder{...as cone}
//   model:sphere{radius =, or widthRadius =, heightRadius =, depthRadius =;
//                phiSegments =, thetaSegments =; shaderName =}
//   model:hierarchy{model =, transform =, locator =, children = {[locator] = node}}
//     flattens a tree of models into one: each child node attaches at its
//     parent's locator of that name (its own `locator`, if given, meets
//     it); surfaces are renamed "root_", "root_c<i>:", ...; the result's
//     locators are the defaults of its bounding box (none for a flat or
//     empty one, where DeepMind Lab's are not finite)
//   model:circularLayout(radius, n), model:linearLayout(length, n)
//     models of no surface whose locators layout_0 .. are the places
//   model:loadMD3(path), model:saveMD3(model, path)
//     through the host's model files (the engine's file system); a host
//     without them refuses, saying why
//
// Bad arguments are errors naming the function and the field; a
// hierarchy is at most 64 levels deep and 65536 nodes, a model at most
// kMaxVertices vertices.
//
// Example:
//   local model = require 'dmlab.system.model'
//   local transform = require 'dmlab.system.transform'
//   local pole = model:hierarchy{
//       model = model:cylinder{radius = 1, height = 20, shaderName = 'textures/model/beam'},
//       children = {centre_top_centre_p = {
//           locator = 'centre_bottom_centre_s',
//           model = model:sphere{radius = 3, shaderName = 'textures/model/apple_d'}}}}
#ifndef ENGINE_PLUGIN_MODEL_MODEL_MODULE_H_
#define ENGINE_PLUGIN_MODEL_MODEL_MODULE_H_

#include <string>
#include <utility>

#include "engine_plugin/model/model.h"
#include "lua_api/lua/lua.h"

namespace engine_plugin::model {

// A host's model files: the MD3 files its engine reads and writes.
class ModelFiles {
 public:
  virtual ~ModelFiles() = default;
  // "" and the model at `path`, or why not.
  virtual std::string Load(const std::string& path, Model* out) = 0;
  // "" once `model` is written to `path`, or why not.
  virtual std::string Save(const Model& model, const std::string& path) = 0;
};

// The files of a host that has none: each call refuses, saying why.
class NoModelFiles : public ModelFiles {
 public:
  explicit NoModelFiles(std::string why) : why_(std::move(why)) {}
  std::string Load(const std::string&, Model*) override { return why_; }
  std::string Save(const Model&, const std::string&) override { return why_; }

 private:
  std::string why_;
};

// [-0, +0, m] Makes require 'dmlab.system.model' load the module, whose
// loadMD3 and saveMD3 go to `files` (which outlives L).
void RegisterModelModule(lua_State* L, ModelFiles* files);

}  // namespace engine_plugin::model

#endif  // ENGINE_PLUGIN_MODEL_MODEL_MODULE_H_
