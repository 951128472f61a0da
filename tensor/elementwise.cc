#include "tensor/elementwise.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/base/attributes.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/device_ops.h"
#include "tensor/internal/copy.h"
#include "tensor/internal/device_dispatch.h"
#include "tensor/internal/elementwise_kernel.h"
#include "tensor/internal/in_double_kernels.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/pairing.h"
#include "tensor/internal/scalar_cast.h"
#include "tensor/internal/strided_loop.h"
#include "tensor/internal/vector_width.h"

namespace tensor {
namespace {

using internal::CpuData;
using internal::ForEachRun;
using internal::LoopPlan;
using internal::OperandOf;
using internal::Order;
using internal::PlanLoop;
using internal::MapInPlace;

// Integer arithmetic is done in an unsigned type at least as wide as
// unsigned int, where overflow wraps instead of being undefined (uint16 *
// uint16 would otherwise promote to a signed int and overflow).
template <typename T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                    std::make_unsigned_t<T>>;

// x op v in T's arithmetic. REQUIRES: v != 0 for integer kDiv.
template <ElementOp kOp, typename T>
inline T Combine(T x, ComputeType<T> v) {
  if constexpr (kOp == ElementOp::kAssign) {
    return static_cast<T>(v);
  } else if constexpr (kIsInteger<T>) {
    using U = WrapType<T>;
    const U a = static_cast<U>(x), b = static_cast<U>(v);
    if constexpr (kOp == ElementOp::kAdd) return static_cast<T>(a + b);
    if constexpr (kOp == ElementOp::kSub) return static_cast<T>(a - b);
    if constexpr (kOp == ElementOp::kMul) return static_cast<T>(a * b);
    if constexpr (kOp == ElementOp::kDiv) {
      // INT_MIN / -1 overflows; negating in unsigned wraps it to INT_MIN.
      if (std::is_signed_v<T> && v == static_cast<T>(-1)) return static_cast<T>(U{0} - a);
      return static_cast<T>(x / v);
    }
  } else {
    const ComputeType<T> a = static_cast<ComputeType<T>>(x);
    if constexpr (kOp == ElementOp::kAdd) return static_cast<T>(a + v);
    if constexpr (kOp == ElementOp::kSub) return static_cast<T>(a - v);
    if constexpr (kOp == ElementOp::kMul) return static_cast<T>(a * v);
    if constexpr (kOp == ElementOp::kDiv) return static_cast<T>(a / v);
  }
}

// Calls f(std::integral_constant<ElementOp, op>) for the runtime `op`.
template <typename F>
decltype(auto) DispatchOp(ElementOp op, F&& f) {
  switch (op) {
    case ElementOp::kAssign: return f(std::integral_constant<ElementOp, ElementOp::kAssign>{});
    case ElementOp::kAdd: return f(std::integral_constant<ElementOp, ElementOp::kAdd>{});
    case ElementOp::kSub: return f(std::integral_constant<ElementOp, ElementOp::kSub>{});
    case ElementOp::kMul: return f(std::integral_constant<ElementOp, ElementOp::kMul>{});
    case ElementOp::kDiv: break;
  }
  return f(std::integral_constant<ElementOp, ElementOp::kDiv>{});
}

template <ElementOp kOp, typename T>
void ApplyScalarDense(T* x, Index n, ComputeType<T> v) {
  internal::AtVectorWidth(n, [x, n, v]() TENSOR_VECTOR_LOOP {
    for (Index i = 0; i < n; ++i) x[i] = Combine<kOp, T>(x[i], v);
  });
}

template <ElementOp kOp, typename T>
void ApplyScalarRuns(const LoopPlan<1>& plan, ComputeType<T> v) {
  ForEachRun(plan, [v](auto p, Index n, auto s) {
    if (s[0] == sizeof(T)) {
      ApplyScalarDense<kOp, T>(reinterpret_cast<T*>(p[0]), n, v);
    } else {
      for (Index i = 0; i < n; ++i) {
        T* x = reinterpret_cast<T*>(p[0] + i * s[0]);
        *x = Combine<kOp, T>(*x, v);
      }
    }
    return true;
  });
}

// Calls visit(element, value) for every element of `tensor` (origin
// `origin`, valid and on the CPU) with its value: values[0], or values[j]
// at last-dimension index j. Stops when visit returns false; whether it
// never did.
template <typename T, typename V, typename Visit>
bool ForEachWithValue(const Tensor& tensor, std::byte* origin, absl::Span<const V> values,
                      Visit visit) {
  if (values.size() == 1) {
    return ForEachRun(PlanLoop<1>(tensor.shape(), {OperandOf(tensor, origin)}, Order::kAny),
                      [&](auto p, Index n, auto s) {
                        for (Index i = 0; i < n; ++i) {
                          if (!visit(reinterpret_cast<T*>(p[0] + i * s[0]), values[0])) return false;
                        }
                        return true;
                      });
  }
  const Layout& layout = tensor.layout();
  const Index last_stride = layout.strides().back() * static_cast<Index>(sizeof(T));
  Shape outer_shape(layout.shape().begin(), layout.shape().end() - 1);
  Strides outer_strides(layout.strides().begin(), layout.strides().end() - 1);
  if (outer_shape.empty()) {
    outer_shape.push_back(1);
    outer_strides.push_back(1);
  }
  internal::Operand outer{origin, &outer_strides, static_cast<Index>(sizeof(T))};
  return ForEachRun(PlanLoop<1>(outer_shape, {outer}, Order::kAny), [&](auto p, Index n, auto s) {
    for (Index i = 0; i < n; ++i) {
      for (size_t j = 0; j < values.size(); ++j) {
        T* x = reinterpret_cast<T*>(p[0] + i * s[0] + static_cast<Index>(j) * last_stride);
        if (!visit(x, values[j])) return false;
      }
    }
    return true;
  });
}

absl::Status NotForBool(const char* operation) {
  return absl::InvalidArgumentError(
      absl::StrCat(operation, ": arithmetic is not defined for bool tensors"));
}

// ApplyScalars' checks of the values count and the dtype, shared by the
// CPU kernel and the device dispatch.
absl::Status CheckScalarsFor(const Tensor& tensor, ElementOp op, absl::Span<const double> values,
                             const char* name) {
  const Index last = tensor.rank() == 0 ? 0 : tensor.shape().back();
  if (values.size() != 1 && (tensor.rank() == 0 || static_cast<Index>(values.size()) != last)) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": ", values.size(), " values do not match the last dimension of shape ",
        tensor.layout().ShapeString(), "; give one value, or one per entry of that dimension"));
  }
  if (tensor.dtype() == DType::kBool && op != ElementOp::kAssign) return NotForBool(name);
  return absl::OkStatus();
}

// ApplyScalars' checks of each value against T, the tensor's type.
template <typename T>
absl::Status CheckScalarValues(DType dtype, ElementOp op, absl::Span<const double> values,
                               const char* name) {
  for (double v : values) {
    if (!internal::ScalarRepresentable<T>(v)) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": ", v, " is not a value of ", DTypeName(dtype)));
    }
    if (kIsInteger<T> && op == ElementOp::kDiv && v == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("div: integer division by zero; nothing was changed"));
    }
  }
  return absl::OkStatus();
}

// ApplyComponents' checks that need no element, for op != kAssign.
absl::Status CheckComponentsFor(const Tensor& dst, const Tensor& src, const char* name) {
  if (absl::Status s = internal::CheckSameCount(dst, src, name); !s.ok()) return s;
  if (absl::Status s = internal::CheckSameDType(dst, src, name); !s.ok()) return s;
  if (dst.dtype() == DType::kBool) return NotForBool(name);
  return internal::CheckWritable(dst, name);
}

// Whether the op writes one value into every element (fill): then the
// order of writes cannot matter, and a view that names some elements more
// than once (an expanded one) may be written, as Torch7 lets it be.
bool WritesOneValue(ElementOp op, absl::Span<const double> values) {
  return op == ElementOp::kAssign && values.size() == 1;
}

absl::Status ApplyScalarsOnDevice(const Tensor& tensor, ElementOp op,
                                  absl::Span<const double> values, const char* name) {
  absl::StatusOr<const DeviceOps*> ops =
      internal::DeviceOpsWith({&tensor}, &DeviceOps::apply_scalars, name);
  if (!ops.ok()) return ops.status();
  if (absl::Status s = CheckScalarsFor(tensor, op, values, name); !s.ok()) return s;
  if (!WritesOneValue(op, values)) {
    if (absl::Status s = internal::CheckWritable(tensor, name); !s.ok()) return s;
  }
  absl::Status values_ok = DispatchDType(tensor.dtype(), [&](auto tag) {
    return CheckScalarValues<typename decltype(tag)::type>(tensor.dtype(), op, values, name);
  });
  if (!values_ok.ok()) return values_ok;
  return (*ops)->apply_scalars(tensor, op, values);
}

// kAssign copies between any pair of the CPU and a device, through the
// device's backend; the other ops need both operands on one device.
// NB: the backend checks what needs the elements: values the destination
// type cannot hold, and integer division by a zero in src.
absl::Status ApplyComponentsOnDevice(const Tensor& dst, ElementOp op, const Tensor& src,
                                     const char* name) {
  if (op != ElementOp::kAssign) {
    absl::StatusOr<const DeviceOps*> ops =
        internal::DeviceOpsWith({&dst, &src}, &DeviceOps::apply_components, name);
    if (!ops.ok()) return ops.status();
    if (absl::Status s = CheckComponentsFor(dst, src, name); !s.ok()) return s;
    return (*ops)->apply_components(dst, op, src);
  }
  for (const Tensor* t : {&dst, &src}) {
    if (absl::Status s = t->CheckValid(); !s.ok()) return s;
  }
  const Device device = dst.device().is_cpu() ? src.device() : dst.device();
  absl::StatusOr<const DeviceOps*> ops = DeviceOpsFor(device, name);
  if (!ops.ok()) return ops.status();
  if ((*ops)->copy == nullptr) return internal::NotAvailableOn(device, name);
  if (absl::Status s = internal::CheckSameCount(dst, src, name); !s.ok()) return s;
  if (absl::Status s = internal::CheckWritable(dst, name); !s.ok()) return s;
  return (*ops)->copy(dst, src);
}

template <typename T>
absl::Status CheckDivisorsNonZero(const Tensor& divisor, std::byte* origin) {
  const bool no_zero = ForEachRun(
      PlanLoop<1>(divisor.shape(), {OperandOf(divisor, origin)}, Order::kAny),
      [](auto p, Index n, auto s) {
        for (Index i = 0; i < n; ++i) {
          if (*reinterpret_cast<const T*>(p[0] + i * s[0]) == 0) return false;
        }
        return true;
      });
  if (no_zero) return absl::OkStatus();
  return absl::InvalidArgumentError(
      "cdiv: integer division by zero (the divisor has a zero element); nothing was changed");
}

template <ElementOp kOp, typename T>
void ApplyComponentRuns(const LoopPlan<2>& plan) {
  ForEachRun(plan, [](auto p, Index n, auto s) {
    if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
      T* x = reinterpret_cast<T*>(p[0]);
      const T* y = reinterpret_cast<const T*>(p[1]);
      internal::AtVectorWidth<internal::Reads::kSeveralArrays>(n, [x, y, n]() TENSOR_VECTOR_LOOP {
        for (Index i = 0; i < n; ++i) {
          x[i] = Combine<kOp, T>(x[i], static_cast<ComputeType<T>>(y[i]));
        }
      });
    } else {
      for (Index i = 0; i < n; ++i) {
        T* x = reinterpret_cast<T*>(p[0] + i * s[0]);
        const T y = *reinterpret_cast<const T*>(p[1] + i * s[1]);
        *x = Combine<kOp, T>(*x, static_cast<ComputeType<T>>(y));
      }
    }
    return true;
  });
}

// `whole` (an integer-valued double) as a T, saturated to T's range.
template <typename T>
T BoundOf(double whole) {
  if (internal::FloatFitsInteger<T>(whole)) return static_cast<T>(whole);
  return whole < 0 ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

template <Rounding kRounding, typename T>
T RoundValue(T x) {
  const ComputeType<T> v = static_cast<ComputeType<T>>(x);
  if constexpr (kRounding == Rounding::kFloor) return static_cast<T>(std::floor(v));
  if constexpr (kRounding == Rounding::kCeil) return static_cast<T>(std::ceil(v));
  if constexpr (kRounding == Rounding::kRound) return static_cast<T>(std::round(v));
}

// ApplyScalarsAs' loops that need a plan: several values, or a layout that
// is not contiguous. Out of line, so the contiguous case saves no registers
// for them.
template <typename T, ElementOp kOp>
ABSL_ATTRIBUTE_NOINLINE void ApplyScalarsPlanned(const Tensor& tensor, std::byte* origin,
                                                 absl::Span<const double> values) {
  if (tensor.num_elements() == 0) return;
  if (values.size() > 1) {
    const absl::InlinedVector<ComputeType<T>, 4> converted(values.begin(), values.end());
    ForEachWithValue<T>(tensor, origin, absl::MakeConstSpan(converted), [](T* x, ComputeType<T> v) {
      *x = Combine<kOp, T>(*x, v);
      return true;
    });
    return;
  }
  ApplyScalarRuns<kOp, T>(PlanLoop<1>(tensor.shape(), {OperandOf(tensor, origin)}, Order::kAny),
                          static_cast<ComputeType<T>>(values[0]));
}

// ApplyScalars after the checks that need no element type, for one type
// and op: the values against T, then the work.
template <typename T, ElementOp kOp>
absl::Status ApplyScalarsAs(const Tensor& tensor, std::byte* origin, bool contiguous,
                            absl::Span<const double> values) {
  if (absl::Status s = CheckScalarValues<T>(tensor.dtype(), kOp, values, ElementOpName(kOp));
      !s.ok()) {
    return s;
  }
  if (values.size() == 1 && contiguous) {
    // The common case needs no loop plan.
    ApplyScalarDense<kOp, T>(reinterpret_cast<T*>(origin), tensor.num_elements(),
                             static_cast<ComputeType<T>>(values[0]));
  } else {
    ApplyScalarsPlanned<T, kOp>(tensor, origin, values);
  }
  return absl::OkStatus();
}

using ScalarKernel = absl::Status (*)(const Tensor&, std::byte*, bool, absl::Span<const double>);
using ScalarKernelsByOp = std::array<ScalarKernel, 5>;

template <typename T>
constexpr ScalarKernelsByOp ScalarKernelsOf() {
  return {&ApplyScalarsAs<T, ElementOp::kAssign>, &ApplyScalarsAs<T, ElementOp::kAdd>,
          &ApplyScalarsAs<T, ElementOp::kSub>, &ApplyScalarsAs<T, ElementOp::kMul>,
          &ApplyScalarsAs<T, ElementOp::kDiv>};
}

template <std::size_t... kDType>
constexpr std::array<ScalarKernelsByOp, sizeof...(kDType)> ScalarKernelTable(
    std::index_sequence<kDType...>) {
  return {ScalarKernelsOf<typename DTypeTraits<kAllDTypes[kDType]>::type>()...};
}

// ApplyScalarsAs by [dtype][op]: one indirect call, where nested dispatch
// lambdas cost a small tensor's add 55 instructions more (callgrind).
constexpr auto kScalarKernels =
    ScalarKernelTable(std::make_index_sequence<std::size(kAllDTypes)>());
static_assert([] {
  for (std::size_t i = 0; i < std::size(kAllDTypes); ++i) {
    if (static_cast<std::size_t>(kAllDTypes[i]) != i) return false;
  }
  return true;
}(), "kScalarKernels is indexed by DType: kAllDTypes must list them in order");

}  // namespace

absl::Status ApplyScalars(const Tensor& tensor, ElementOp op, absl::Span<const double> values) {
  const char* name = ElementOpName(op);
  if (!tensor.device().is_cpu()) [[unlikely]] {
    return ApplyScalarsOnDevice(tensor, op, values, name);
  }
  // On the CPU, data() is CpuData without its device check.
  absl::StatusOr<std::byte*> origin = tensor.data();
  if (!origin.ok()) return origin.status();
  // One value for a tensor that is not bool passes every check here: small
  // tensors in level scripts pay for each step, so it asks once.
  if (values.size() != 1 || tensor.dtype() == DType::kBool) {
    if (absl::Status s = CheckScalarsFor(tensor, op, values, name); !s.ok()) return s;
  }
  // A contiguous layout never overlaps itself: small tensors in level
  // scripts pay for every step, so the common case asks once.
  const bool contiguous = tensor.layout().IsContiguous();
  if (!contiguous && !WritesOneValue(op, values)) {
    if (absl::Status s = internal::CheckWritable(tensor, name); !s.ok()) return s;
  }
  return kScalarKernels[static_cast<int>(tensor.dtype())][static_cast<int>(op)](
      tensor, *origin, contiguous, values);
}

namespace {

double CombineInDouble(ElementOp op, double x, double v) {
  switch (op) {
    case ElementOp::kAssign: return v;
    case ElementOp::kAdd: return x + v;
    case ElementOp::kSub: return x - v;
    case ElementOp::kMul: return x * v;
    case ElementOp::kDiv: break;
  }
  return x / v;
}

// ApplyScalarsInDouble on an integer tensor, after the checks that need no
// element: first every result is checked, then written.
template <typename T>
absl::Status ApplyInDoubleAs(const Tensor& tensor, std::byte* origin, ElementOp op,
                             absl::Span<const double> values) {
  const char* name = ElementOpName(op);
  auto cannot_hold = [&](double result, const std::string& how) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": ", how, " gives ", result, ", which ",
                                                   DTypeName(tensor.dtype()),
                                                   " cannot hold; nothing was changed"));
  };
  if (op == ElementOp::kAssign) {
    absl::InlinedVector<double, 4> whole(values.size());
    for (size_t j = 0; j < values.size(); ++j) {
      if (!internal::FloatFitsInteger<T>(values[j])) {
        return absl::InvalidArgumentError(absl::StrCat(name, ": ", DTypeName(tensor.dtype()),
                                                       " cannot hold ", values[j],
                                                       "; nothing was changed"));
      }
      whole[j] = std::trunc(values[j]);
    }
    return ApplyScalars(tensor, op, whole);
  }
  if (op == ElementOp::kDiv && std::find(values.begin(), values.end(), 0.0) != values.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": integer division by zero; nothing was changed"));
  }
  // One value over a contiguous tensor: one check of the extremes and one
  // vectorised pass (internal/in_double_kernels.h). If a result does not
  // fit, the element-by-element check below names the first.
  if (values.size() == 1 && tensor.layout().IsContiguous() && tensor.num_elements() > 0) {
    const double v = values[0];
    const bool done = DispatchOp(op, [&](auto op_tag) {
      return internal::InDoubleDense(reinterpret_cast<T*>(origin), tensor.num_elements(),
                                     [v](double x) TENSOR_VECTOR_LOOP {
                                       return CombineInDouble(decltype(op_tag)::value, x, v);
                                     });
    });
    if (done) return absl::OkStatus();
  }
  static constexpr const char* kSymbols[] = {"=", "+", "-", "*", "/"};
  double bad_x = 0, bad_v = 0;
  const bool all_fit = ForEachWithValue<T>(tensor, origin, values, [&](T* x, double v) {
    if (internal::FloatFitsInteger<T>(CombineInDouble(op, static_cast<double>(*x), v))) {
      return true;
    }
    bad_x = static_cast<double>(*x);
    bad_v = v;
    return false;
  });
  if (!all_fit) {
    return cannot_hold(CombineInDouble(op, bad_x, bad_v),
                       absl::StrCat(bad_x, " ", kSymbols[static_cast<int>(op)], " ", bad_v));
  }
  ForEachWithValue<T>(tensor, origin, values, [op](T* x, double v) {
    *x = static_cast<T>(std::trunc(CombineInDouble(op, static_cast<double>(*x), v)));
    return true;
  });
  return absl::OkStatus();
}

}  // namespace

namespace internal {

absl::Status ApplyIntegerScalarsInDouble(const Tensor& tensor, ElementOp op,
                                         absl::Span<const double> values) {
  if (!tensor.device().is_cpu()) return ApplyScalars(tensor, op, values);
  const char* name = ElementOpName(op);
  absl::StatusOr<std::byte*> origin = CpuData(tensor, name);
  if (!origin.ok()) return origin.status();
  if (absl::Status s = CheckScalarsFor(tensor, op, values, name); !s.ok()) return s;
  if (!WritesOneValue(op, values)) {
    if (absl::Status s = internal::CheckWritable(tensor, name); !s.ok()) return s;
  }
  return DispatchDType(tensor.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (kIsInteger<T>) {
      return ApplyInDoubleAs<T>(tensor, *origin, op, values);
    } else {
      return ApplyScalars(tensor, op, values);  // not reached: the caller checked the dtype
    }
  });
}

}  // namespace internal

absl::Status ApplyComponents(const Tensor& dst, ElementOp op, const Tensor& src) {
  static constexpr const char* kNames[] = {"copy", "cadd", "csub", "cmul", "cdiv"};
  const char* name = kNames[static_cast<int>(op)];
  if (!dst.device().is_cpu() || !src.device().is_cpu()) [[unlikely]] {
    return ApplyComponentsOnDevice(dst, op, src, name);
  }
  absl::StatusOr<std::byte*> dst_origin = CpuData(dst, name);
  if (!dst_origin.ok()) return dst_origin.status();
  absl::StatusOr<std::byte*> src_origin = CpuData(src, name);
  if (!src_origin.ok()) return src_origin.status();
  if (op == ElementOp::kAssign) {
    if (absl::Status s = internal::CheckSameCount(dst, src, name); !s.ok()) return s;
    if (absl::Status s = internal::CheckWritable(dst, name); !s.ok()) return s;
  } else if (absl::Status s = CheckComponentsFor(dst, src, name); !s.ok()) {
    return s;
  }
  if (dst.num_elements() == 0) return absl::OkStatus();
  // The common case, equal shapes and separate memory, pairs the tensors as
  // they are; anything else goes through PairInLayoutOrder.
  std::optional<std::pair<Tensor, Tensor>> paired;
  if (dst.shape() != src.shape() || internal::MayAlias(dst, src)) {
    absl::StatusOr<std::pair<Tensor, Tensor>> pair =
        internal::PairInLayoutOrder(dst, src, /*b_before_a=*/true);
    if (!pair.ok()) return pair.status();
    paired = *std::move(pair);
  }
  const Tensor& target = paired ? paired->first : dst;
  const Tensor& source = paired ? paired->second : src;
  if (op == ElementOp::kAssign) return internal::CopyElements(target, source);
  absl::StatusOr<std::byte*> target_origin = paired ? target.data() : dst_origin;
  absl::StatusOr<std::byte*> source_origin = paired ? source.data() : src_origin;
  if (!target_origin.ok()) return target_origin.status();
  if (!source_origin.ok()) return source_origin.status();
  return DispatchDType(dst.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (kIsInteger<T>) {
      if (op == ElementOp::kDiv) {
        absl::Status s = CheckDivisorsNonZero<T>(source, *source_origin);
        if (!s.ok()) return s;
      }
    }
    const LoopPlan<2> plan = PlanLoop<2>(
        target.shape(), {OperandOf(target, *target_origin), OperandOf(source, *source_origin)},
        Order::kAny);
    DispatchOp(op, [&](auto op_tag) { ApplyComponentRuns<decltype(op_tag)::value, T>(plan); });
    return absl::OkStatus();
  });
}

absl::Status Round(const Tensor& tensor, Rounding rounding) {
  absl::StatusOr<std::byte*> origin = CpuData(tensor, "round");
  if (!origin.ok()) return origin.status();
  if (absl::Status s = internal::CheckWritable(tensor, "round"); !s.ok()) return s;
  return DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloating<T>) {
      auto round = [&](auto kind) {
        MapInPlace<T, 1>(tensor.shape(), {OperandOf(tensor, *origin)},
                         [](T x) { return RoundValue<decltype(kind)::value>(x); });
      };
      switch (rounding) {
        case Rounding::kFloor: round(std::integral_constant<Rounding, Rounding::kFloor>{}); break;
        case Rounding::kCeil: round(std::integral_constant<Rounding, Rounding::kCeil>{}); break;
        case Rounding::kRound: round(std::integral_constant<Rounding, Rounding::kRound>{}); break;
      }
    }
    return absl::OkStatus();
  });
}

absl::Status Clamp(const Tensor& tensor, std::optional<double> min, std::optional<double> max) {
  absl::StatusOr<std::byte*> origin = CpuData(tensor, "clamp");
  if (!origin.ok()) return origin.status();
  if ((min && std::isnan(*min)) || (max && std::isnan(*max))) {
    return absl::InvalidArgumentError("clamp: a bound is NaN");
  }
  if (min && max && *min > *max) {
    return absl::InvalidArgumentError(
        absl::StrCat("clamp: min ", *min, " must not exceed max ", *max));
  }
  if (absl::Status s = internal::CheckWritable(tensor, "clamp"); !s.ok()) return s;
  return DispatchDType(tensor.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    C lo = std::numeric_limits<C>::lowest(), hi = std::numeric_limits<C>::max();
    if constexpr (kIsFloating<T>) {
      if (min) lo = static_cast<C>(*min);
      if (max) hi = static_cast<C>(*max);
    } else {
      // The nearest values of T inside the bounds; a bound past T's range
      // limits nothing, unless it shuts out every value.
      const double lowest = static_cast<double>(std::numeric_limits<T>::lowest());
      const double highest = static_cast<double>(std::numeric_limits<T>::max());
      const double whole_min = min ? std::ceil(*min) : lowest;
      const double whole_max = max ? std::floor(*max) : highest;
      if (whole_min > whole_max || whole_min > highest || whole_max < lowest) {
        return absl::InvalidArgumentError(absl::StrCat(
            "clamp: no ", DTypeName(tensor.dtype()), " value lies in [",
            min ? absl::StrCat(*min) : "-inf", ", ", max ? absl::StrCat(*max) : "inf", "]"));
      }
      lo = BoundOf<T>(whole_min);
      hi = BoundOf<T>(whole_max);
    }
    MapInPlace<T, 1>(tensor.shape(), {OperandOf(tensor, *origin)}, [lo, hi](T x) {
      const C v = static_cast<C>(x);
      return v < lo ? static_cast<T>(lo) : v > hi ? static_cast<T>(hi) : x;
    });
    return absl::OkStatus();
  });
}

}  // namespace tensor
