// `paths`: Torch's file-system helpers, for lua_run and hosts that allow
// scripts the file system (never the level sandbox, which has none).
//
//   local paths = require 'paths'
//   paths.dirp('/tmp'), paths.filep(name), paths.mkdir(d), paths.rmdir(d),
//   paths.rmall(d, 'yes'), paths.dir(d), paths.files(d [, pattern]),
//   paths.iterdirs(d), paths.iterfiles(d), paths.concat(a, b, ...),
//   paths.basename(p [, ext]), paths.dirname(p), paths.extname(p), paths.cwd()
//
// The system calls are C++ (this file); the rest is Lua (torch/paths.lua).
#ifndef LUA_API_TORCH_PATHS_MODULE_H_
#define LUA_API_TORCH_PATHS_MODULE_H_

#include "lua_api/lua/lua.h"

namespace lua_api {

// [-0, +0, m] Sets package.preload.paths.
void RegisterPathsModule(lua_State* L);

}  // namespace lua_api

#endif  // LUA_API_TORCH_PATHS_MODULE_H_
