// The level scripts and maps of levels/, compiled into the engine so that
// every host (run_level, the C ABI, Python) finds the built-in levels
// without knowing where the repository is.
//
// Example:
//   std::optional<absl::string_view> script = FindBuiltinLevelFile("demo_maze.lua");
//   std::optional<absl::string_view> map = FindBuiltinLevelFile("maps/demo_maze.txt");
#ifndef LEVELS_BUILTIN_LEVELS_H_
#define LEVELS_BUILTIN_LEVELS_H_

#include <optional>
#include <vector>

#include "absl/strings/string_view.h"

namespace levels {

// The contents of levels/<path>, or nullopt.
std::optional<absl::string_view> FindBuiltinLevelFile(absl::string_view path);

// The paths of every file, sorted ("demo_maze.lua", "maps/demo_maze.txt").
std::vector<absl::string_view> BuiltinLevelFiles();

}  // namespace levels

#endif  // LEVELS_BUILTIN_LEVELS_H_
