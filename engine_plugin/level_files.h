// The files a level may read. ReadLevelFile: the one way the plugin reads
// a file a level names (its script, the modules beside it, its maps, its
// images); InsideDirectory: whether a path stays inside a tree the level
// may read; LevelPaths and ReadNamedLevelFile: where a level's files are,
// and the one way a file a level names at run time (image.load,
// game:loadFileToString) is found and read.
//
// A path can name anything: a directory, /dev/zero (endless), a FIFO (a
// read that never returns). Only a regular file of at most
// kMaxLevelFileBytes is read; anything else is a clear error, before a
// byte is read.
//
// A level reads only inside its own directory and its gameScriptsDirectory,
// once links and ".." are resolved. DeepMind Lab's levels name their
// game_scripts tree as game:runFiles() .. '/baselab/game_scripts/...':
// runFiles() is kRunFilesRoot here, and that prefix maps into
// gameScriptsDirectory.
//
// Example:
//   absl::StatusOr<std::string> source = ReadLevelFile("levels/mine.lua");
//   const LevelPaths paths{.level_directory = "/levels/mine",
//                          .game_scripts_directory = "/lab/game_scripts"};
//   ReadNamedLevelFile(paths, "art/wall.png");     // /levels/mine/art/wall.png
//   ReadNamedLevelFile(paths, "/dmlab/runfiles/baselab/game_scripts/a.png");
//                                                   // /lab/game_scripts/a.png
#ifndef ENGINE_PLUGIN_LEVEL_FILES_H_
#define ENGINE_PLUGIN_LEVEL_FILES_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace engine_plugin {

inline constexpr std::size_t kMaxLevelFileBytes = std::size_t{64} << 20;

// The file's contents. NotFound when it cannot be opened; InvalidArgument
// when it is not a regular file or is larger than kMaxLevelFileBytes.
absl::StatusOr<std::string> ReadLevelFile(const std::string& path);

// Whether `path` lies inside `directory` once symbolic links and ".." are
// resolved: a file of the tree cannot be a link out of it.
bool InsideDirectory(const std::string& directory, const std::string& path);

// What game:runFiles() returns. No such directory exists: only the names
// below it that ReadNamedLevelFile maps mean anything.
inline constexpr char kRunFilesRoot[] = "/dmlab/runfiles";

struct LevelPaths {
  std::string level_directory;         // empty for a built-in level
  std::string game_scripts_directory;  // empty without the setting

  // The directories `require` searches, in order: the level's, then the
  // game scripts'.
  std::vector<std::string> ModuleDirectories() const;
};

// The contents of the file `name`: relative to the level's directory, or
// absolute, or under kRunFilesRoot/baselab/game_scripts/. PermissionDenied
// when it lies outside both directories; ReadLevelFile's errors (a missing
// file, one that is not regular or larger than kMaxLevelFileBytes) else.
absl::StatusOr<std::string> ReadNamedLevelFile(const LevelPaths& paths, const std::string& name);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_LEVEL_FILES_H_
