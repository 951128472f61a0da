// ReadLevelFile: the one way the plugin reads a file a level names (its
// script, the modules beside it, its maps, its images); InsideDirectory:
// whether a path stays inside a tree the level may read.
//
// A path can name anything: a directory, /dev/zero (endless), a FIFO (a
// read that never returns). Only a regular file of at most
// kMaxLevelFileBytes is read; anything else is a clear error, before a
// byte is read.
//
// Example:
//   absl::StatusOr<std::string> source = ReadLevelFile("levels/mine.lua");
#ifndef ENGINE_PLUGIN_LEVEL_FILES_H_
#define ENGINE_PLUGIN_LEVEL_FILES_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"

namespace engine_plugin {

inline constexpr std::size_t kMaxLevelFileBytes = std::size_t{64} << 20;

// The file's contents. NotFound when it cannot be opened; InvalidArgument
// when it is not a regular file or is larger than kMaxLevelFileBytes.
absl::StatusOr<std::string> ReadLevelFile(const std::string& path);

// Whether `path` lies inside `directory` once symbolic links and ".." are
// resolved: a file of the tree cannot be a link out of it.
bool InsideDirectory(const std::string& directory, const std::string& path);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_LEVEL_FILES_H_
