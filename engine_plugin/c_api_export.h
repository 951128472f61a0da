// The C ABI's view of observations: a value exported with the shape,
// strides and payload pointers that EnvCApi_Observation points at.
// Internal to env_c_api (c_api_*.cc).
#ifndef ENGINE_PLUGIN_C_API_EXPORT_H_
#define ENGINE_PLUGIN_C_API_EXPORT_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine_plugin/env_c_api.h"
#include "engine_plugin/observation.h"

namespace engine_plugin {
namespace c_api {

// An observation as C sees it. `value` keeps the storage alive (copies of
// an ObservationValue share it); `shape` and `strides` back the spec's
// pointers. Always heap-allocated and never moved once `c` is filled: a
// short string's characters live inside `value.text` itself.
struct ExportedObservation {
  ObservationValue value;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  EnvCApi_Observation c = {};
};

// An event's values in C form; `c` points into `values`.
struct ExportedEvent {
  std::vector<std::unique_ptr<ExportedObservation>> values;
  std::vector<EnvCApi_Observation> c;
};

EnvCApi_ObservationType ToC(ObservationType type);

std::vector<std::int64_t> RowMajorStrides(absl::Span<const std::int64_t> shape);

// Where Export leaves an observation that is on a device.
enum class Payload { kOnHost, kWhereItIs };

absl::StatusOr<std::unique_ptr<ExportedObservation>> Export(ObservationValue value,
                                                            Payload payload = Payload::kOnHost);

}  // namespace c_api
}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_C_API_EXPORT_H_
