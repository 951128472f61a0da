// The Lua modules of the MuJoCo host (engines/mujoco/lua/), compiled in.
//
// Example:
//   std::optional<absl::string_view> rewards = FindMujocoLuaSource("rewards.lua");
#ifndef ENGINES_MUJOCO_LUA_SOURCES_H_
#define ENGINES_MUJOCO_LUA_SOURCES_H_

#include <optional>

#include "absl/strings/string_view.h"

namespace mujoco_host {

// The contents of engines/mujoco/lua/<path>, or nullopt.
std::optional<absl::string_view> FindMujocoLuaSource(absl::string_view path);

}  // namespace mujoco_host

#endif  // ENGINES_MUJOCO_LUA_SOURCES_H_
