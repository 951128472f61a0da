// Models and transforms as Lua values, in DeepMind Lab's format (its
// model_lua.cc and transform_lua.cc):
//   model = {
//     name = 'cube',
//     surfaces = {
//       [surfaceName] = {
//         vertices = FloatTensor N x 8,   -- position, normal, texture s t
//         indices = Int32Tensor M x 3,    -- 1-based vertex numbers
//         shaderName = 'textures/model/beam',
//       }, ...
//     },
//     locators = {[locatorName] = FloatTensor 4 x 4, ...},
//   }
// A transform is a contiguous 4 x 4 FloatTensor over an Affine's
// coefficients (affine.h: read row-major, the transpose).
//
// Tensors made here are charged to the level's tensor budget. A model read
// holds at most kMaxVertices vertices in all.
#ifndef ENGINE_PLUGIN_MODEL_MODEL_LUA_H_
#define ENGINE_PLUGIN_MODEL_MODEL_LUA_H_

#include <string>

#include "engine_plugin/model/model.h"
#include "lua_api/lua/lua.h"

namespace engine_plugin::model {

// [-0, +1, m] Pushes `model`; or pushes nothing and returns why not (the
// tensor budget).
std::string PushModel(lua_State* L, const Model& model);

// [-0, +0, -] Reads the model at `index` into *out; or returns why not,
// naming the field ("surfaces.cube_surface.indices: ...").
std::string ReadModel(lua_State* L, int index, Model* out);

// [-0, +1, m] Pushes `affine` as a 4 x 4 FloatTensor, or returns why not.
std::string PushAffine(lua_State* L, const Affine& affine);

// [-0, +0, -] Reads the transform at `index`; or returns why not.
std::string ReadAffine(lua_State* L, int index, Affine* out);

}  // namespace engine_plugin::model

#endif  // ENGINE_PLUGIN_MODEL_MODEL_LUA_H_
