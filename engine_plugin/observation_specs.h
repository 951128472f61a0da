// ObservationSpecs: an engine's observations, the host's and the level's,
// and which of them the level computes.
//
// A level's spec of a host's name replaces the host's for that level, in
// its place (DeepMind Lab's debug_observations declares its own
// DEBUG.CAMERA.TOP_DOWN and DEBUG.POS.*), except the frame, which the host
// renders into; its other specs follow the host's.
//
// Example:
//   absl::StatusOr<ObservationSpecs> specs =
//       ObservationSpecs::Merge(host->ObservationSpecs(), host->frame_observation(),
//                                /*frames=*/players, custom);
//   if (specs->from_level[i]) ... the level computes observation i ...
#ifndef ENGINE_PLUGIN_OBSERVATION_SPECS_H_
#define ENGINE_PLUGIN_OBSERVATION_SPECS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "engine_plugin/observation.h"

namespace engine_plugin {

struct ObservationSpecs {
  std::vector<ObservationSpec> specs;
  std::vector<bool> from_level;  // per spec: the level computes it

  // The host's specs (`frame`: the index of its first frame, or -1;
  // `frames` of them, one per player, from there on) with the level's
  // merged in. InvalidArgument for a name the level declares twice, or a
  // frame's.
  static absl::StatusOr<ObservationSpecs> Merge(std::vector<ObservationSpec> host, int frame,
                                                int frames,
                                                const std::vector<ObservationSpec>& level);
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_OBSERVATION_SPECS_H_
