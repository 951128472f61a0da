// Observation: what an engine instance hands out, described by a spec.
//
// A value is either a tensor over owned storage (bytes: uint8; doubles:
// float64; floats: float32), contiguous and of the spec's shape, or a string. Copying a
// value shares the tensor's storage; that is how a host retains a buffer
// (see ObservationPool and env_c_api.h).
#ifndef ENGINE_PLUGIN_OBSERVATION_H_
#define ENGINE_PLUGIN_OBSERVATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace engine_plugin {

enum class ObservationType { kBytes, kDoubles, kFloats, kString };

// The element type of a tensor observation: uint8, float64, float32.
inline tensor::DType ElementType(ObservationType type) {
  switch (type) {
    case ObservationType::kDoubles: return tensor::DType::kFloat64;
    case ObservationType::kFloats: return tensor::DType::kFloat32;
    default: return tensor::DType::kUInt8;
  }
}

// The range every element of an observation lies in, min <= max (either
// may be infinite): a grey image in [0, 1], a unit vector in [-1, 1].
struct ObservationBounds {
  double min = 0;
  double max = 0;
};

struct ObservationSpec {
  std::string name;
  ObservationType type = ObservationType::kBytes;
  // Extents; empty for strings. A level's extent of 0 is dynamic, as in
  // DeepMind Lab: each value has its own (a host's are all fixed).
  std::vector<std::int64_t> shape;
  // Declared by the level (customObservationSpec's min= and max=), which
  // then answers for its values: one outside is an error. None: the type's
  // own range.
  std::optional<ObservationBounds> bounds;
};

struct ObservationValue {
  ObservationType type = ObservationType::kBytes;
  // kBytes, kDoubles, kFloats: contiguous, owned storage; on the CPU, except
  // RGB_INTERLEAVED with the setting observationDevice=cuda:N and a level
  // observation whose tensor the level made on a device.
  tensor::Tensor tensor;
  std::string text;       // kString
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_OBSERVATION_H_
