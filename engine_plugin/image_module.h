// dmlab.system.image: DeepMind Lab's image module for level scripts.
//
//   local image = require 'dmlab.system.image'
//   local img = image.load('textures/wall.png')           -- {rows, cols, channels}
//   local png = image.load('content:.png', bytes)          -- from a string
//   local small = image.scale(img, 32, 32)                 -- or ..., 'nearest'
//   image.setHue(img, 120)                                 -- in place; returns img
//   image.setMaskedPattern(img, pattern, {255, 0, 0}, {0, 0, 255})
//
// Functions are called with '.', as in DeepMind Lab. The operations are
// image.h's. Files are PNGs found as level_files.h says (inside the
// level's directory or its gameScriptsDirectory; DeepMind Lab's
// runFiles() names too), at most kMaxLevelFileBytes; the file's bytes and
// every image made are charged to the level's tensor budget. Errors name
// the function and the argument.
#ifndef ENGINE_PLUGIN_IMAGE_MODULE_H_
#define ENGINE_PLUGIN_IMAGE_MODULE_H_

#include "engine_plugin/level_files.h"
#include "lua_api/lua/lua.h"

namespace engine_plugin {

// [-0, +0, m] Makes require 'dmlab.system.image' load the module, reading
// files by `paths`, which must outlive L.
void RegisterImageModule(lua_State* L, const LevelPaths* paths);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_IMAGE_MODULE_H_
