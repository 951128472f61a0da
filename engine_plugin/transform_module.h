// dmlab.system.transform: DeepMind Lab's 4x4 transformation matrices, for
// models and their placement.
//
// Lua API (`local transform = require 'dmlab.system.transform'`; '.'):
//   transform.translate{x, y, z}
//   transform.rotate(degrees, {x, y, z})   about a unit axis
//   transform.scale{x, y, z}
// Each returns a new 4x4 FloatTensor holding the matrix's coefficients in
// column-major order, as DeepMind Lab's does: read row-major, the tensor is
// the transpose (translate puts {x, y, z, 1} in its fourth row). Computed
// in float, as there. Storage is charged to the level's tensor budget.
//
// Example:
//   local lift = transform.translate{0, 0, 16}
//   assert(lift(4, 3):val() == 16)
#ifndef ENGINE_PLUGIN_TRANSFORM_MODULE_H_
#define ENGINE_PLUGIN_TRANSFORM_MODULE_H_

#include "lua_api/lua/lua.h"

namespace engine_plugin {

// [-0, +0, m] Makes require 'dmlab.system.transform' load the module.
void RegisterTransformModule(lua_State* L);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_TRANSFORM_MODULE_H_
