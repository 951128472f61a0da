#include "engine_plugin/level_paths.h"

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/level_files.h"

namespace engine_plugin {

std::vector<std::string> LevelPaths::ModuleDirectories() const {
  std::vector<std::string> directories;
  for (const std::string* directory : {&level_directory, &game_scripts_directory}) {
    if (!directory->empty()) directories.push_back(*directory);
  }
  return directories;
}

absl::StatusOr<std::string> ReadNamedLevelFile(const LevelPaths& paths, const std::string& name) {
  if (name.empty()) return absl::InvalidArgumentError("a file name expected, got ''");
  const std::string game_scripts = absl::StrCat(kRunFilesRoot, "/baselab/game_scripts/");
  std::string path;
  if (absl::StartsWith(name, game_scripts)) {
    if (paths.game_scripts_directory.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "'", name, "' names DeepMind Lab's game_scripts; set gameScriptsDirectory to read it"));
    }
    path = absl::StrCat(paths.game_scripts_directory, "/", name.substr(game_scripts.size()));
  } else if (name[0] == '/') {
    path = name;
  } else if (!paths.level_directory.empty()) {
    path = absl::StrCat(paths.level_directory, "/", name);
  } else {
    return absl::FailedPreconditionError(
        absl::StrCat("'", name,
                     "' is relative, and this level has no directory (it was given as source "
                     "text)"));
  }
  const std::vector<std::string> directories = paths.ModuleDirectories();
  for (const std::string& directory : directories) {
    if (InsideDirectory(directory, path)) return ReadLevelFile(path);
  }
  return absl::PermissionDeniedError(
      absl::StrCat("'", path,
                   "' lies outside the level's directory and gameScriptsDirectory, and a level "
                   "reads files only inside them"));
}

}  // namespace engine_plugin
