// Compiling a .map into the pk3 DeepMind Lab's engine loads, with the
// engine's own tools (built beside it by ./lab dmlab): q3map2 three times
// (BSP with meta-surfaces, visibility, light: DeepMind Lab's settings),
// bspc for the bots' navigation (AAS) when asked, then zip. MakePk3 is
// what the text levels' map maker and the engine's make_pk3_from_map
// both call: the level cache first, no compile when the pk3 is the map's.
//
// Example:
//   MapTools tools{"/x/.dmlab/q3map2", "/x/.dmlab/bspc", "/x/.dmlab/run"};
//   absl::Status done = MakePk3(tools, nullptr, "/tmp/home/baselab", "my_map", false, text);
//   // /tmp/home/baselab/my_map.pk3 holds maps/my_map.bsp
#ifndef HOSTS_DMLAB_MAP_COMPILER_H_
#define HOSTS_DMLAB_MAP_COMPILER_H_

#include <string>

#include "absl/status/status.h"
#include "engine_plugin/level_cache.h"

namespace hosts::dmlab {

struct MapTools {
  std::string q3map2;
  std::string bspc;
  std::string runfiles;  // holds baselab/ with the assets the compile reads
};

// Compiles `folder`/`name`.map into `folder`/`name`.pk3, with the AAS file
// when `bots`. The tools' output goes to `folder`/`name`.log; an error
// names the step that failed and ends with the log's last lines.
absl::Status CompileMap(const MapTools& tools, const std::string& folder,
                        const std::string& name, bool bots);

// An error naming the tool that is missing or not executable.
absl::Status MapToolsPresent(const MapTools& tools);

// Makes `folder`/`name`.pk3 from the map source `map` (kept beside it as
// `name`.map), with the AAS file when `bots`: fetched from `cache` (may be
// null) when it has the map, else compiled unless the pk3 there is this
// map's already, and then handed to `cache`.
absl::Status MakePk3(const MapTools& tools, const engine_plugin::LevelCache* cache,
                     const std::string& folder, const std::string& name, bool bots,
                     const std::string& map);

// DeepMind Lab's level cache key for map `name` of source `map_text`:
// "<name>_aas_<md5>" with the bots' navigation, else "<name>_noaas_<md5>",
// the md5 in lower-case hex (engine_plugin/level_cache.h).
std::string LevelCacheKey(const std::string& name, bool bots, const std::string& map_text);

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_MAP_COMPILER_H_
