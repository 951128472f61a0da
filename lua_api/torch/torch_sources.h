// The Lua half of dmlab.system.torch (lua_api/torch/*.lua), compiled in by
// tools/embed/embed_files.py.
//
// Example:
//   std::optional<absl::string_view> init = FindTorchSource("init.lua");
#ifndef LUA_API_TORCH_TORCH_SOURCES_H_
#define LUA_API_TORCH_TORCH_SOURCES_H_

#include <optional>

#include "absl/strings/string_view.h"

namespace lua_api {

// The contents of lua_api/torch/<path>, or nullopt.
std::optional<absl::string_view> FindTorchSource(absl::string_view path);

}  // namespace lua_api

#endif  // LUA_API_TORCH_TORCH_SOURCES_H_
