// mujoco_model: a MuJoCo level's model, as the host loads it (LoadModel,
// hosts/mujoco/model_files.h): the scan of every file a model refers to,
// the bounds checked before MuJoCo compiles it, and MuJoCo's compiler,
// under a 16 MiB budget. A crash, a sanitizer report, a loaded model
// larger than the budget, or an input slower than libFuzzer's -timeout
// (an unbounded scan or compile) is a finding; an error status is a
// normal outcome.
//
// Input: parts separated by NUL bytes. The first is the MJCF text a level
// returns; each later one is written as a file of the level's folder, part
// k as f<k>.xml (so `<include file="f1.xml"/>` reaches part 1), except
// that a part starting with '@' names the file itself up to its first
// newline ("@meshes/a.stl\n...bytes"), which may also be a link: "@>name
// target" makes name a symbolic link to target.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "hosts/mujoco/model_files.h"

namespace fuzz {
namespace {

constexpr std::size_t kBudget = std::size_t{16} << 20;
constexpr std::size_t kMaxParts = 16;

// The level's folder, made once per process and emptied before each input.
const std::string& Folder() {
  static const std::string* const folder = [] {
    std::string pattern = std::filesystem::temp_directory_path() / "mujoco_model_XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      std::perror("mujoco_model fuzzer: mkdtemp");
      std::abort();
    }
    return new std::string(pattern);
  }();
  static const bool removed_at_exit = [] {
    return std::atexit([] {
      std::error_code error;
      std::filesystem::remove_all(Folder(), error);
    }) == 0;
  }();
  (void)removed_at_exit;
  return *folder;
}

void Empty(const std::string& folder) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    std::filesystem::remove_all(entry.path(), error);
  }
}

// A relative name without '..', kept inside the folder (the fuzzer's
// writes must not leave it, whatever the model may then try to read).
bool SafeName(absl::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '/') return false;
  for (absl::string_view part : absl::StrSplit(name, '/')) {
    if (part.empty() || part == "." || part == "..") return false;
  }
  return true;
}

// Whether `name`'s folders under `folder` hold no link (the fuzzer must
// never write through one, out of the folder).
bool NoLinkOnTheWay(const std::string& folder, absl::string_view name) {
  std::filesystem::path path = folder;
  const std::vector<absl::string_view> parts = absl::StrSplit(name, '/');
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    path /= std::string(parts[i]);
    std::error_code error;
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, error))) return false;
  }
  return true;
}

void WritePart(const std::string& folder, std::size_t k, absl::string_view part) {
  std::string name = absl::StrCat("f", k, ".xml");
  if (!part.empty() && part.front() == '@') {
    const std::size_t newline = part.find('\n');
    absl::string_view header = part.substr(1, newline == absl::string_view::npos
                                                  ? absl::string_view::npos
                                                  : newline - 1);
    part = newline == absl::string_view::npos ? absl::string_view() : part.substr(newline + 1);
    if (!header.empty() && header.front() == '>') {
      // A link: any target, inside the folder or out of it.
      const std::vector<absl::string_view> words = absl::StrSplit(header.substr(1), ' ');
      if (words.size() == 2 && SafeName(words[0]) && NoLinkOnTheWay(folder, words[0])) {
        const std::filesystem::path path = std::filesystem::path(folder) / std::string(words[0]);
        std::error_code error;
        std::filesystem::create_directories(path.parent_path(), error);
        std::filesystem::create_symlink(std::string(words[1]), path, error);
      }
      return;
    }
    if (!SafeName(header)) return;
    name = std::string(header);
  }
  if (!NoLinkOnTheWay(folder, name)) return;
  const std::filesystem::path path = std::filesystem::path(folder) / name;
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  // A new file only: never through a link an earlier part made.
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return;
  std::size_t done = 0;
  while (done < part.size()) {
    const ssize_t wrote = write(fd, part.data() + done, part.size() - done);
    if (wrote <= 0) break;
    done += static_cast<std::size_t>(wrote);
  }
  close(fd);
}

}  // namespace
}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  const std::vector<absl::string_view> parts = absl::StrSplit(input, '\0');
  const std::string& folder = fuzz::Folder();
  fuzz::Empty(folder);
  for (std::size_t k = 1; k < parts.size() && k <= fuzz::kMaxParts; ++k) {
    fuzz::WritePart(folder, k, parts[k]);
  }
  hosts::mujoco::ModelRequest request;
  // An empty input splits into no parts at all.
  const absl::string_view main = parts.empty() ? absl::string_view() : parts[0];
  // A main part starting with '@' names a file of the folder instead.
  if (!main.empty() && main.front() == '@') {
    request.file = std::string(main.substr(1));
  } else {
    request.xml = std::string(main);
  }
  absl::StatusOr<hosts::mujoco::LoadedModel> loaded =
      hosts::mujoco::LoadModel(request, folder, fuzz::kBudget);
  if (loaded.ok() && loaded->bytes > fuzz::kBudget) {
    std::fprintf(stderr, "mujoco_model fuzzer: a model of %zu bytes loaded under %zu\n",
                 loaded->bytes, fuzz::kBudget);
    std::abort();
  }
  return 0;
}
