// LevelCache: DeepMind Lab's level cache, which a host that compiles its
// levels' maps (the DeepMind Lab host) asks before compiling one and hands
// each one it compiled, so that a map is compiled once across processes
// and machines. The caller owns the storage: a folder, a bucket, a
// dictionary (DeepMind Lab's Python `level_cache` object, fetch and write).
//
// Keys are DeepMind Lab's: "<map name>_aas_<md5>" or "<map name>_noaas_
// <md5>" (with or without the bots' navigation), the md5 that of the map's
// source, which this project writes byte for byte as DeepMind Lab does, so
// a cache DeepMind Lab filled serves this project and back.
#ifndef ENGINE_PLUGIN_LEVEL_CACHE_H_
#define ENGINE_PLUGIN_LEVEL_CACHE_H_

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace engine_plugin {

struct LevelCache {
  // Copies the compiled map of `key` to `path`: true; false when the cache
  // has none; or an error, which fails the start that asked.
  std::function<absl::StatusOr<bool>(const std::string& key, const std::string& path)> fetch;
  // Stores the compiled map at `path` under `key`; an error fails the start.
  std::function<absl::Status(const std::string& key, const std::string& path)> write;
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_LEVEL_CACHE_H_
