// The maps the engine loads: compiled (.bsp) in the runfiles, made by the
// map maker into the engine's home, or source maps (.map) compiled here.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/map_compiler.h"

namespace hosts::dmlab {
namespace {

namespace fs = std::filesystem;

// A source map larger than this is refused (DeepMind Lab's largest text
// level's .map is under 2 MB).
constexpr std::uintmax_t kMaxSourceMapBytes = 64 << 20;

struct SourceMap {
  fs::path path;
  bool bots;  // in maps/ (the bots' navigation compiled too), not maps_no_ai/
};

// Where the engine's make_map finds map `name`'s source: its home before
// its runfiles (FS_SV_FOpenFileRead's order), maps/ before maps_no_ai/.
std::optional<SourceMap> FindSource(const std::string& home, const std::string& runfiles,
                                    const std::string& name) {
  std::error_code error;
  for (const auto& [folder, bots] : {std::pair{"maps", true}, std::pair{"maps_no_ai", false}}) {
    for (const std::string& root : {home, runfiles}) {
      const fs::path path = fs::path(root) / "baselab" / folder / (name + ".map");
      if (fs::is_regular_file(path, error)) return SourceMap{path, bots};
    }
  }
  return std::nullopt;
}

bool IsMapName(const std::string& name) {
  return !name.empty() && name.find_first_of("/\\\"") == std::string::npos &&
         name.find("..") == std::string::npos;
}

}  // namespace

MapTools Context::map_tools() const {
  return {tools_folder_ + "/q3map2", tools_folder_ + "/bspc", runfiles_};
}

std::string Context::PrepareMap(const std::string& name) {
  // A name is a file name in the engine's maps/ folder: no paths.
  if (!IsMapName(name)) return absl::StrCat("'", name, "' is not a map name");
  const fs::path maps = fs::path(runfiles_) / "baselab" / "maps";
  std::error_code error;
  if (fs::exists(maps / (name + ".bsp"), error)) return {};
  if (std::optional<SourceMap> source = FindSource(temp_folder_, runfiles_, name)) {
    const absl::Status made = CompileSource(source->path, name, source->bots);
    return made.ok() ? "" : std::string(made.message());
  }
  // A map the map maker made earlier in this process, in the engine's home.
  if (fs::exists(fs::path(temp_folder_) / "baselab" / (name + ".pk3"), error)) return {};
  return absl::StrCat("map '", name, "' is not in ", maps.string(), " (as .bsp or .map)");
}

std::string Context::AnyMap() const {
  std::error_code error;
  std::string first;
  for (const auto& entry :
       fs::directory_iterator(fs::path(runfiles_) / "baselab" / "maps", error)) {
    if (entry.path().extension() != ".bsp") continue;
    const std::string stem = entry.path().stem().string();
    if (first.empty() || stem < first) first = stem;
  }
  return first;
}

void Context::MakePk3FromMap(const char* map_path, const char* map_name, bool bots) {
  const std::string name = map_name == nullptr ? "" : map_name;
  const std::string relative = map_path == nullptr ? "" : map_path;
  if (!IsMapName(name) || relative.find("..") != std::string::npos ||
      fs::path(relative).is_absolute()) {
    Record(absl::InvalidArgumentError(absl::StrCat(
        "make_pk3_from_map: the engine asked for map '", name, "' from '", relative, "'")));
    return;
  }
  std::error_code error;
  fs::path source = fs::path(temp_folder_) / relative;
  if (!fs::is_regular_file(source, error)) source = fs::path(runfiles_) / relative;
  Record(CompileSource(source, name, bots));
}

absl::Status Context::CompileSource(const fs::path& source, const std::string& name, bool bots) {
  auto failed = [&](absl::string_view why) {
    return absl::FailedPreconditionError(
        absl::StrCat("map '", name, "' (", source.string(), "): ", why));
  };
  std::error_code error;
  const std::uintmax_t size = fs::file_size(source, error);
  if (error) return failed(absl::StrCat("cannot be read (", error.message(), ")"));
  if (size > kMaxSourceMapBytes) {
    return failed(absl::StrCat("is ", size, " bytes; a source map may have at most ",
                               kMaxSourceMapBytes));
  }
  std::ifstream in(source, std::ios::binary);
  if (!in.is_open()) return failed("cannot be opened");
  std::ostringstream text;
  text << in.rdbuf();
  const MapTools tools = map_tools();
  if (absl::Status present = MapToolsPresent(tools); !present.ok()) {
    return failed(present.message());
  }
  const absl::Status made =
      MakePk3(tools, level_cache_, temp_folder_ + "/baselab", name, bots, text.str());
  return made.ok() ? made : failed(made.message());
}

}  // namespace hosts::dmlab
