// FindModelArray: one of mjModel's arrays by its name (body_mass,
// geom_size, actuator_ctrlrange, ...), as MuJoCo's own list of them
// (mjxmacro.h) gives it: element type, address and shape.
//
// Example:
//   std::optional<ModelArray> mass = FindModelArray(*model, "body_mass");
//   // mass->dtype == kFloat64, mass->rows == model->nbody, mass->columns == 1
#ifndef HOSTS_MUJOCO_MODEL_ARRAYS_H_
#define HOSTS_MUJOCO_MODEL_ARRAYS_H_

#include <mujoco/mujoco.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "tensor/dtype.h"

namespace hosts::mujoco {

struct ModelArray {
  tensor::DType dtype;  // mjtNum: float64, float: float32, int: int32, bytes and chars: uint8
  void* data;
  std::int64_t rows;
  std::int64_t columns;
  std::size_t bytes;
};

std::optional<ModelArray> FindModelArray(const mjModel& model, absl::string_view name);

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_MODEL_ARRAYS_H_
