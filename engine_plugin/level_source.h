// LevelSource: a level script found by name or path, and the host it
// names.
//
// A level names its host in its leading comment lines:
//   -- host: ball
// A level that names none runs on "maze", the reference host.
#ifndef ENGINE_PLUGIN_LEVEL_SOURCE_H_
#define ENGINE_PLUGIN_LEVEL_SOURCE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace engine_plugin {

inline constexpr char kDefaultHost[] = "maze";

struct LevelSource {
  std::string source;
  std::string chunk_name;  // "@levels/demo_maze.lua", "@path/to/level.lua"
  std::string directory;   // the script's folder; empty for a built-in level
  std::string host;
  // Where the level came from: the binary (trusted, no sandbox by
  // default) or a file (untrusted). Never inferred from `directory`.
  bool builtin = false;
};

// `level` is a built-in level's name ("demo_maze", from levels/) or a path
// to a level script (anything containing '/' or ending in ".lua"). A
// level reads the files of its folder, so a script whose folder is the
// filesystem's root is refused (PermissionDenied): it would read them all.
absl::StatusOr<LevelSource> FindLevel(const std::string& level);

// The host named by `source`'s leading comment lines, or kDefaultHost.
std::string HostNamedBy(absl::string_view source);

struct BuiltinLevel {
  std::string name;  // "demo_maze"
  std::string host;  // "maze"
};

// The built-in levels (levels/*.lua) whose hosts this binary has
// registered (host_registry.h), sorted by name.
std::vector<BuiltinLevel> RunnableBuiltinLevels();

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_LEVEL_SOURCE_H_
