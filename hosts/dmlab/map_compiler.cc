#include "hosts/dmlab/map_compiler.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

extern char** environ;

namespace hosts::dmlab {
namespace {

// The last `count` lines of the file at `path`.
std::string Tail(const std::string& path, int count) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const std::size_t from = lines.size() > static_cast<std::size_t>(count) ? lines.size() - count : 0;
  return absl::StrJoin(lines.begin() + from, lines.end(), "\n");
}

// Runs `argv` in `folder` with its output appended to `log`; `step` names
// it in the error.
absl::Status Run(const std::string& step, const std::vector<std::string>& argv,
                 const std::string& folder, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  // zip is found on PATH; the engine's tools are named by their paths.
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "compiling the map: cannot run ", argv[0], " (", std::strerror(spawned), ")"));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return absl::InternalError("compiling the map: waitpid failed");
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return absl::OkStatus();
  const std::string how = WIFEXITED(status)
                              ? absl::StrCat("exit status ", WEXITSTATUS(status))
                              : absl::StrCat("signal ", WTERMSIG(status));
  return absl::InternalError(absl::StrCat("compiling the map: ", step, " failed (", how, "); ",
                                          log, " ends:\n", Tail(log, 12)));
}

// Writes `text` to `path` unless it holds it already: false when it did.
bool WriteIfChanged(const std::string& path, const std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::ostringstream old;
    old << in.rdbuf();
    if (old.str() == text) return false;
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return true;
}

}  // namespace

absl::Status CompileMap(const MapTools& tools, const std::string& folder,
                        const std::string& name, bool bots) {
  namespace fs = std::filesystem;
  const std::string base = (fs::path(folder) / name).string();
  const std::string log = base + ".log";
  std::error_code ignored;
  fs::remove(log, ignored);
  const std::vector<std::string> q3map2 = {tools.q3map2, "-fs_basepath", tools.runfiles,
                                           "-fs_game", "baselab"};
  auto with = [&](std::vector<std::string> head, std::initializer_list<std::string> tail) {
    head.insert(head.end(), tail);
    return head;
  };
  // DeepMind Lab's settings (its compile_map.sh), so that maps light alike.
  absl::Status status =
      Run("q3map2 -meta", with(q3map2, {"-meta", "-patchmeta", "-threads", "1", base}), folder, log);
  if (status.ok()) {
    status = Run("q3map2 -vis", with(q3map2, {"-vis", "-threads", "8", base}), folder, log);
  }
  if (status.ok()) {
    status = Run("q3map2 -light",
                 with(q3map2, {"-light", "-threads", "8", "-fast", "-patchshadows", "-samples",
                               "2", "-bounce", "3", "-gamma", "2", "-compensate", "4", "-dirty",
                               base}),
                 folder, log);
  }
  if (status.ok() && bots) {
    status = Run("bspc -bsp2aas",
                 {tools.bspc, "-optimize", "-forcesidesvisible", "-bsp2aas", base + ".bsp",
                  "-output", folder},
                 folder, log);
  }
  const fs::path maps = fs::path(folder) / "maps";
  if (status.ok()) {
    fs::create_directories(maps, ignored);
    std::vector<std::string> zip = {"zip", "-q", "-X", name + ".pk3", "maps/" + name + ".bsp"};
    for (const char* extension : {".bsp", ".aas"}) {
      if (extension == std::string(".aas") && !bots) continue;
      fs::rename(base + extension, maps / (name + extension), ignored);
      if (ignored) {
        status = absl::InternalError(
            absl::StrCat("compiling the map: q3map2 or bspc left no ", name, extension));
      }
    }
    if (bots) zip.push_back("maps/" + name + ".aas");
    fs::remove(base + ".pk3", ignored);
    if (status.ok()) status = Run("zip", zip, folder, log);
  }
  for (const char* extension : {".bsp", ".aas", ".prt", ".srf"}) {
    fs::remove(base + extension, ignored);
    fs::remove(maps / (name + extension), ignored);
  }
  return status;
}

std::string LevelCacheKey(const std::string& name, bool bots, const std::string& map_text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(map_text.data(), map_text.size(), digest, &length, EVP_md5(), nullptr);
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) absl::StrAppend(&hex, absl::Hex(digest[i], absl::kZeroPad2));
  return absl::StrCat(name, bots ? "_aas_" : "_noaas_", hex);
}

namespace {

// The map's pk3 in `folder`: from the level cache when it has the map
// (DeepMind Lab asks it first, every time), else compiled when
// `stale` (the map's text changed or its pk3 is not this one) and then
// handed to the cache. <name>.bots marks a pk3 with the bots' navigation.
absl::Status CompileOrFetch(const MapTools& tools, const engine_plugin::LevelCache* cache,
                            const std::string& folder, const std::string& name, bool bots,
                            const std::string& map, bool stale) {
  const std::string base = folder + "/" + name;
  const std::string key = cache == nullptr ? "" : LevelCacheKey(name, bots, map);
  std::error_code ignored;
  if (cache != nullptr) {
    absl::StatusOr<bool> fetched = cache->fetch(key, base + ".pk3");
    if (!fetched.ok()) {
      return absl::Status(fetched.status().code(),
                          absl::StrCat("the level cache, fetching '", key, "': ",
                                       fetched.status().message()));
    }
    if (*fetched) {
      if (bots) {
        std::ofstream(base + ".bots") << "";
      } else {
        std::filesystem::remove(base + ".bots", ignored);
      }
      return absl::OkStatus();
    }
  }
  if (stale) {
    std::filesystem::remove(base + ".pk3", ignored);
    std::filesystem::remove(base + ".bots", ignored);
    if (absl::Status status = CompileMap(tools, folder, name, bots); !status.ok()) return status;
    if (bots) std::ofstream(base + ".bots") << "";
  }
  if (cache != nullptr) {
    if (absl::Status written = cache->write(key, base + ".pk3"); !written.ok()) {
      return absl::Status(written.code(), absl::StrCat("the level cache, writing '", key, "': ",
                                                       written.message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status MapToolsPresent(const MapTools& tools) {
  for (const std::string& tool : {tools.q3map2, tools.bspc}) {
    if (access(tool.c_str(), X_OK) != 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("the engine's map compiler ", tool,
                       " is missing (./lab dmlab builds it beside the engine library)"));
    }
  }
  return absl::OkStatus();
}

absl::Status MakePk3(const MapTools& tools, const engine_plugin::LevelCache* cache,
                     const std::string& folder, const std::string& name, bool bots,
                     const std::string& map) {
  std::error_code ignored;
  std::filesystem::create_directories(folder, ignored);
  const std::string base = folder + "/" + name;
  // The pk3 there is this map's when the text is the same and it was
  // compiled with the bots' navigation as asked now (<name>.bots marks it).
  const bool compiled = std::filesystem::exists(base + ".pk3", ignored) &&
                        std::filesystem::exists(base + ".bots", ignored) == bots;
  const bool changed = WriteIfChanged(base + ".map", map);
  absl::Status status = CompileOrFetch(tools, cache, folder, name, bots, map, changed || !compiled);
  if (!status.ok()) std::filesystem::remove(base + ".map", ignored);  // compiled again next time
  return status;
}

}  // namespace hosts::dmlab
