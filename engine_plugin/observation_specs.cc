#include "engine_plugin/observation_specs.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace engine_plugin {

absl::StatusOr<ObservationSpecs> ObservationSpecs::Merge(
    std::vector<ObservationSpec> host, int frame, int frames,
    const std::vector<ObservationSpec>& level) {
  ObservationSpecs merged;
  merged.specs = std::move(host);
  merged.from_level.assign(merged.specs.size(), false);
  for (const ObservationSpec& spec : level) {
    const auto same_name = [&](const ObservationSpec& other) { return other.name == spec.name; };
    if (std::count_if(level.begin(), level.end(), same_name) > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("customObservationSpec: the name '", spec.name, "' is declared twice"));
    }
    const auto host_spec = std::find_if(merged.specs.begin(), merged.specs.end(), same_name);
    const int at = static_cast<int>(host_spec - merged.specs.begin());
    if (frame >= 0 && at >= frame && at < frame + frames) {
      return absl::InvalidArgumentError(absl::StrCat(
          "customObservationSpec: '", spec.name,
          "' is the frame the host renders, which a level cannot replace"));
    }
    if (host_spec == merged.specs.end()) {
      merged.specs.push_back(spec);
      merged.from_level.push_back(true);
    } else {
      *host_spec = spec;
      merged.from_level[at] = true;
    }
  }
  return merged;
}

}  // namespace engine_plugin
