#include "engine_plugin/host_registry.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace engine_plugin {
namespace {

// Built on first use: registrations run during static initialisation, in
// no set order.
std::map<std::string, HostFactory, std::less<>>& Registry() {
  static auto* registry = new std::map<std::string, HostFactory, std::less<>>;
  return *registry;
}

}  // namespace

bool RegisterHost(const char* name, HostFactory factory) {
  Registry().emplace(name, factory);
  return true;
}

absl::StatusOr<std::unique_ptr<Host>> CreateHost(absl::string_view name) {
  auto found = Registry().find(name);
  if (found == Registry().end()) {
    const std::vector<std::string> names = HostNames();
    return absl::NotFoundError(absl::StrCat(
        "no host '", name, "' in this binary; it has: ",
        names.empty() ? "none" : absl::StrJoin(names, ", ")));
  }
  return found->second();
}

std::vector<std::string> HostNames() {
  std::vector<std::string> names;
  for (const auto& entry : Registry()) names.push_back(entry.first);
  return names;
}

}  // namespace engine_plugin
