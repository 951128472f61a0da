#include "hosts/mujoco/model_arrays.h"

#include <mujoco/mjxmacro.h>

#include <type_traits>

namespace hosts::mujoco {
namespace {

template <typename T>
constexpr tensor::DType DTypeOfElement() {
  if constexpr (std::is_same_v<T, mjtNum>) {
    return tensor::DType::kFloat64;
  } else if constexpr (std::is_same_v<T, float>) {
    return tensor::DType::kFloat32;
  } else if constexpr (std::is_same_v<T, int>) {
    return tensor::DType::kInt32;
  } else {
    static_assert(sizeof(T) == 1, "mjModel holds mjtNum, float, int and byte arrays");
    return tensor::DType::kUInt8;
  }
}

}  // namespace

std::optional<ModelArray> FindModelArray(const mjModel& model, absl::string_view name) {
  const mjModel* m = &model;
  MJMODEL_POINTERS_PREAMBLE(m)
  // One comparison per array: a level asks for a few, once per callback.
#define X(type, field, rows, columns)                                                       \
  if (name == #field) {                                                                     \
    const std::int64_t r = m->rows;                                                         \
    const std::int64_t c = (columns);                                                       \
    return ModelArray{DTypeOfElement<type>(), static_cast<void*>(m->field), r, c,           \
                      static_cast<std::size_t>(r * c) * sizeof(type)};                      \
  }
  MJMODEL_POINTERS
#undef X
  return std::nullopt;
}

}  // namespace hosts::mujoco
