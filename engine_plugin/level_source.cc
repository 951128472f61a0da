#include "engine_plugin/level_source.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine_plugin/host_registry.h"
#include "engine_plugin/level_files.h"
#include "levels/builtin_levels.h"

namespace engine_plugin {
namespace {

bool IsPath(absl::string_view level) {
  return absl::StrContains(level, '/') || absl::EndsWith(level, ".lua");
}

}  // namespace

std::string HostNamedBy(absl::string_view source) {
  for (absl::string_view line : absl::StrSplit(source, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    if (!absl::ConsumePrefix(&line, "--")) break;  // the first line of code
    line = absl::StripLeadingAsciiWhitespace(line);
    if (absl::ConsumePrefix(&line, "host:")) {
      line = absl::StripAsciiWhitespace(line);
      if (!line.empty()) return std::string(line);
    }
  }
  return kDefaultHost;
}

absl::StatusOr<LevelSource> FindLevel(const std::string& level) {
  LevelSource found;
  if (IsPath(level)) {
    const std::size_t slash = level.rfind('/');
    std::string directory = slash == std::string::npos ? "." : level.substr(0, slash);
    if (directory.empty()) directory = "/";
    std::error_code error;
    if (std::filesystem::weakly_canonical(directory, error) == "/" && !error) {
      return absl::PermissionDeniedError(absl::StrCat(
          "level '", level, "' lies in the filesystem's root; a level may read every file of "
          "its folder, so put it in a folder of its own"));
    }
    absl::StatusOr<std::string> source = ReadLevelFile(level);
    if (!source.ok()) return source.status();
    found = {*std::move(source), "@" + level, std::move(directory), "", /*builtin=*/false};
  } else {
    std::optional<absl::string_view> builtin = levels::FindBuiltinLevelFile(level + ".lua");
    if (!builtin) {
      return absl::NotFoundError(absl::StrCat("no built-in level '", level, "' (levels/", level,
                                              ".lua); give a path to load a level script from "
                                              "a file"));
    }
    found = {std::string(*builtin), absl::StrCat("@levels/", level, ".lua"), "", "",
             /*builtin=*/true};
  }
  found.host = HostNamedBy(found.source);
  return found;
}

std::vector<BuiltinLevel> RunnableBuiltinLevels() {
  const std::vector<std::string> hosts = HostNames();
  std::vector<BuiltinLevel> runnable;
  for (absl::string_view path : levels::BuiltinLevelFiles()) {
    absl::string_view name = path;
    // Level scripts lie at the top; maps/ and models/ hold their data.
    if (absl::StrContains(name, '/') || !absl::ConsumeSuffix(&name, ".lua")) continue;
    std::string host = HostNamedBy(*levels::FindBuiltinLevelFile(path));
    if (!std::binary_search(hosts.begin(), hosts.end(), host)) continue;
    runnable.push_back({std::string(name), std::move(host)});
  }
  return runnable;
}

}  // namespace engine_plugin
