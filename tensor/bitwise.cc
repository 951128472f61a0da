#include "tensor/bitwise.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tensor/convert.h"
#include "tensor/internal/row_major_fill.h"
#include "tensor/internal/strided_loop.h"

namespace tensor {
namespace {

using internal::FillRowMajor;
using internal::WritableData;

constexpr const char* OpName(BitOp op) {
  switch (op) {
    case BitOp::kAnd: return "bitand";
    case BitOp::kOr: return "bitor";
    case BitOp::kXor: return "bitxor";
    case BitOp::kLeftShift: return "lshift";
    case BitOp::kRightShift: break;
  }
  return "rshift";
}

// The elements of `tensor` in row-major order, as T.
template <typename T>
std::vector<T> RowMajorValues(const Tensor& tensor, std::byte* origin) {
  std::vector<T> values;
  values.reserve(static_cast<std::size_t>(tensor.num_elements()));
  const internal::LoopPlan<1> plan = internal::PlanLoop<1>(
      tensor.shape(), {internal::OperandOf(tensor, origin)}, internal::Order::kRowMajor);
  internal::ForEachRun(plan, [&](const std::array<std::byte*, 1>& pointers, Index count,
                                 const std::array<Index, 1>& strides) {
    const std::byte* element = pointers[0];
    for (Index j = 0; j < count; ++j, element += strides[0]) {
      values.push_back(*reinterpret_cast<const T*>(element));
    }
    return true;
  });
  return values;
}

// x op y for one element, or nullopt where C leaves it undefined.
template <typename T>
std::optional<T> Combine(T x, BitOp op, std::int64_t y) {
  if constexpr (std::is_integral_v<T>) {
    using Unsigned = std::make_unsigned_t<T>;
    constexpr int kBits = std::numeric_limits<Unsigned>::digits;
    switch (op) {
      case BitOp::kAnd: return static_cast<T>(x & static_cast<T>(y));
      case BitOp::kOr: return static_cast<T>(x | static_cast<T>(y));
      case BitOp::kXor: return static_cast<T>(x ^ static_cast<T>(y));
      default: break;
    }
    if (y < 0 || y >= kBits) return std::nullopt;
    if (op == BitOp::kRightShift) return static_cast<T>(x >> y);
    const auto shifted = static_cast<T>(static_cast<Unsigned>(static_cast<Unsigned>(x) << y));
    if constexpr (std::is_signed_v<T>) {
      if ((shifted >> y) != x) return std::nullopt;  // overflow: undefined in C
    }
    return shifted;
  } else {
    const auto value = static_cast<double>(static_cast<ComputeType<T>>(x));
    const int exponent = static_cast<int>(std::clamp<std::int64_t>(y, -100000, 100000));
    return static_cast<T>(std::ldexp(value, op == BitOp::kLeftShift ? exponent : -exponent));
  }
}

// Computes every element, then writes them: nothing changes on error.
template <typename T, typename OperandOf>
absl::Status Apply(const Tensor& tensor, std::byte* origin, BitOp op, OperandOf&& operand) {
  std::vector<T> values = RowMajorValues<T>(tensor, origin);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::int64_t y = operand(i);
    std::optional<T> result = Combine<T>(values[i], op, y);
    if (!result.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          OpName(op), ": shifting ", static_cast<double>(static_cast<ComputeType<T>>(values[i])),
          " by ", y, " is out of ", DTypeTensorName(tensor.dtype()), "'s range"));
    }
    values[i] = *result;
  }
  FillRowMajor<T>(tensor, origin, [&](Index i) { return values[static_cast<std::size_t>(i)]; });
  return absl::OkStatus();
}

absl::Status CheckType(DType dtype, BitOp op) {
  const bool logical = op == BitOp::kAnd || op == BitOp::kOr || op == BitOp::kXor;
  if (dtype == DType::kBool || (logical && IsFloating(dtype))) {
    return absl::InvalidArgumentError(
        absl::StrCat(OpName(op), ": not defined for ", DTypeTensorName(dtype)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ApplyBitScalar(const Tensor& tensor, BitOp op, std::int64_t value) {
  if (absl::Status s = CheckType(tensor.dtype(), op); !s.ok()) return s;
  absl::StatusOr<std::byte*> origin = WritableData(tensor, OpName(op));
  if (!origin.ok()) return origin.status();
  return DispatchDType(tensor.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      const bool logical = op == BitOp::kAnd || op == BitOp::kOr || op == BitOp::kXor;
      if (logical && (value < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
                      static_cast<std::uint64_t>(value) >
                          static_cast<std::uint64_t>(std::numeric_limits<T>::max()))) {
        return absl::InvalidArgumentError(absl::StrCat(
            OpName(op), ": ", DTypeTensorName(tensor.dtype()), " cannot hold ", value));
      }
    }
    if constexpr (std::is_same_v<T, bool>) {
      return absl::OkStatus();  // refused by CheckType
    } else {
      return Apply<T>(tensor, *origin, op, [value](std::size_t) { return value; });
    }
  });
}

absl::Status ApplyBitComponents(const Tensor& destination, BitOp op, const Tensor& source) {
  if (absl::Status s = CheckType(destination.dtype(), op); !s.ok()) return s;
  if (source.dtype() != destination.dtype()) {
    return absl::InvalidArgumentError(absl::StrCat(
        OpName(op), ": the tensors differ in type (", DTypeTensorName(destination.dtype()),
        " and ", DTypeTensorName(source.dtype()), ")"));
  }
  if (source.num_elements() != destination.num_elements()) {
    return absl::InvalidArgumentError(absl::StrCat(OpName(op), ": ", source.num_elements(),
                                                   " elements for ",
                                                   destination.num_elements()));
  }
  // A copy, row-major: source may overlap destination.
  absl::StatusOr<Tensor> operands = Clone(source);
  if (!operands.ok()) return operands.status();
  absl::StatusOr<std::byte*> origin = WritableData(destination, OpName(op));
  if (!origin.ok()) return origin.status();
  absl::StatusOr<std::byte*> operand_data = operands->data();
  if (!operand_data.ok()) return operand_data.status();
  return DispatchDType(destination.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      return absl::OkStatus();  // refused by CheckType
    } else {
      const T* y = reinterpret_cast<const T*>(*operand_data);
      return Apply<T>(destination, *origin, op, [y](std::size_t i) {
        if constexpr (std::is_integral_v<T>) {
          return static_cast<std::int64_t>(y[i]);
        } else {
          const double v = static_cast<double>(static_cast<ComputeType<T>>(y[i]));
          return static_cast<std::int64_t>(std::clamp(v, -1e6, 1e6));
        }
      });
    }
  });
}

}  // namespace tensor
