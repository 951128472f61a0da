#include "engine_plugin/level_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

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

}  // namespace engine_plugin
