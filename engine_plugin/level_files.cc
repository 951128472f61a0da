#include "engine_plugin/level_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace engine_plugin {

namespace {

// Closes a descriptor on every path out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  const int fd_;
};

}  // namespace

absl::StatusOr<std::string> ReadLevelFile(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer. It does not
  // change how a regular file reads.
  Descriptor file(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (file.get() < 0) {
    return absl::NotFoundError(absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  }
  struct stat status;
  if (fstat(file.get(), &status) != 0 || !S_ISREG(status.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", path, "' is not a regular file (",
        S_ISDIR(status.st_mode) ? "a directory" : "a device, pipe or socket", ")"));
  }
  if (static_cast<std::size_t>(status.st_size) > kMaxLevelFileBytes) {
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' has ", status.st_size,
                                                   " bytes; a level's files may have at most ",
                                                   kMaxLevelFileBytes >> 20, " MiB"));
  }
  std::string contents(static_cast<std::size_t>(status.st_size), '\0');
  std::size_t done = 0;
  while (done < contents.size()) {
    const ssize_t got = read(file.get(), contents.data() + done, contents.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      return absl::DataLossError(absl::StrCat("cannot read '", path, "': ", std::strerror(errno)));
    }
    if (got == 0) break;  // the file shrank while we read
    done += static_cast<std::size_t>(got);
  }
  contents.resize(done);
  return contents;
}

bool InsideDirectory(const std::string& directory, const std::string& path) {
  std::error_code error;
  const std::filesystem::path root = std::filesystem::weakly_canonical(directory, error);
  if (error) return false;
  const std::filesystem::path file = std::filesystem::weakly_canonical(path, error);
  if (error) return false;
  const auto [root_end, file_at] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
  return root_end == root.end();
}

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
