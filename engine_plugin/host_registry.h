// The hosts a binary offers, by name. A host library registers its host
// at link time (a static initialiser, so its Bazel target is alwayslink);
// the binaries that offer hosts (_labenv.so, run_level, the C ABI
// library) link the ones they offer. engine_plugin/ itself links none.
//
// Example (in a host's .cc):
//   const bool kRegistered = engine_plugin::RegisterHost(
//       "ball", [] { return std::unique_ptr<engine_plugin::Host>(new BallHost); });
#ifndef ENGINE_PLUGIN_HOST_REGISTRY_H_
#define ENGINE_PLUGIN_HOST_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/host.h"

namespace engine_plugin {

using HostFactory = std::unique_ptr<Host> (*)();

// Returns true, so that it can initialise a namespace-scope constant.
// A second registration of `name` keeps the first.
bool RegisterHost(const char* name, HostFactory factory);

// A new host called `name`; an unknown name is an error that lists the
// hosts this binary has.
absl::StatusOr<std::unique_ptr<Host>> CreateHost(absl::string_view name);

// The registered names, sorted.
std::vector<std::string> HostNames();

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_HOST_REGISTRY_H_
