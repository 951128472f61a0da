// The Lua modules of the MuJoCo host (hosts/mujoco/lua/), compiled in.
//
// Example:
//   std::optional<absl::string_view> rewards = FindMujocoLuaSource("rewards.lua");
#ifndef HOSTS_MUJOCO_LUA_SOURCES_H_
#define HOSTS_MUJOCO_LUA_SOURCES_H_

#include <optional>

#include "absl/strings/string_view.h"

namespace hosts::mujoco {

// The contents of hosts/mujoco/lua/<path>, or nullopt.
std::optional<absl::string_view> FindMujocoLuaSource(absl::string_view path);

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_LUA_SOURCES_H_
