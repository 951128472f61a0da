#include "tensor/internal/copy.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/scalar_cast.h"
#include "tensor/internal/strided_loop.h"

namespace tensor::internal {
namespace {

// Whether every value of From converts to To without a check.
template <typename To, typename From>
constexpr bool kAlwaysConvertible = [] {
  if constexpr (kIsFloating<To> || std::is_same_v<To, bool> || std::is_same_v<From, bool>) {
    return true;
  } else if constexpr (kIsFloating<From>) {
    return false;
  } else {
    return std::numeric_limits<To>::min() <= std::numeric_limits<From>::min() &&
           std::numeric_limits<To>::max() >= std::numeric_limits<From>::max();
  }
}();

// Fails on the first value of src that To cannot hold.
template <typename To, typename From>
absl::Status CheckConvertible(const Tensor& src, std::byte* origin) {
  LoopPlan<1> plan = PlanLoop<1>(src.shape(), {OperandOf(src, origin)}, Order::kAny);
  double bad = 0;
  const bool ok = ForEachRun(plan, [&](auto p, Index n, auto s) {
    for (Index i = 0; i < n; ++i) {
      const From value = *reinterpret_cast<const From*>(p[0] + i * s[0]);
      if (!Convertible<To>(value)) {
        bad = static_cast<double>(Widen(value));
        return false;
      }
    }
    return true;
  });
  if (ok) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("copy: the value ", bad, " cannot be held by ",
                                                 DTypeName(DTypeOf<To>()), "; nothing was copied"));
}

// dst is row-major R x C (unit inner stride); src walks the same elements
// with a unit outer stride, i.e. it is the transpose in memory. Copying
// tile by tile keeps both the rows written and the columns read in cache.
template <typename To, typename From>
void CopyTransposedTiles(const LoopPlan<2>& plan) {
  constexpr Index kTile = 32;
  const Index rows = plan.extents[0], cols = plan.extents[1];
  const Index dst_row = plan.byte_strides[0][0] / static_cast<Index>(sizeof(To));
  const Index src_col = plan.byte_strides[1][1] / static_cast<Index>(sizeof(From));
  To* dst = reinterpret_cast<To*>(plan.origins[0]);
  const From* src = reinterpret_cast<const From*>(plan.origins[1]);
  for (Index r0 = 0; r0 < rows; r0 += kTile) {
    const Index r1 = std::min(rows, r0 + kTile);
    for (Index c0 = 0; c0 < cols; c0 += kTile) {
      const Index c1 = std::min(cols, c0 + kTile);
      for (Index r = r0; r < r1; ++r) {
        To* out = dst + r * dst_row;
        const From* in = src + r;
        for (Index c = c0; c < c1; ++c) out[c] = ConvertUnchecked<To>(in[c * src_col]);
      }
    }
  }
}

template <typename To, typename From>
void CopyRuns(const LoopPlan<2>& plan) {
  constexpr Index kTo = sizeof(To), kFrom = sizeof(From);
  if (plan.rank() == 2 && plan.inner_stride(0) == kTo && plan.byte_strides[1][0] == kFrom &&
      plan.inner_stride(1) != kFrom) {
    CopyTransposedTiles<To, From>(plan);
    return;
  }
  ForEachRun(plan, [](auto p, Index n, auto s) {
    if (s[0] == kTo && s[1] == kFrom) {
      if constexpr (std::is_same_v<To, From>) {
        std::memmove(p[0], p[1], n * kTo);
      } else {
        To* out = reinterpret_cast<To*>(p[0]);
        const From* in = reinterpret_cast<const From*>(p[1]);
        for (Index i = 0; i < n; ++i) out[i] = ConvertUnchecked<To>(in[i]);
      }
    } else {
      for (Index i = 0; i < n; ++i) {
        *reinterpret_cast<To*>(p[0] + i * s[0]) =
            ConvertUnchecked<To>(*reinterpret_cast<const From*>(p[1] + i * s[1]));
      }
    }
    return true;
  });
}

}  // namespace

absl::Status CopyElements(const Tensor& dst, const Tensor& src) {
  if (dst.num_elements() == 0) return absl::OkStatus();
  absl::StatusOr<std::byte*> dst_origin = dst.data();
  if (!dst_origin.ok()) return dst_origin.status();
  absl::StatusOr<std::byte*> src_origin = src.data();
  if (!src_origin.ok()) return src_origin.status();
  return DispatchDType(dst.dtype(), [&](auto to_tag) {
    using To = typename decltype(to_tag)::type;
    return DispatchDType(src.dtype(), [&](auto from_tag) {
      using From = typename decltype(from_tag)::type;
      if constexpr (!kAlwaysConvertible<To, From>) {
        if (absl::Status s = CheckConvertible<To, From>(src, *src_origin); !s.ok()) return s;
      }
      CopyRuns<To, From>(PlanLoop<2>(
          dst.shape(), {OperandOf(dst, *dst_origin), OperandOf(src, *src_origin)}, Order::kAny));
      return absl::OkStatus();
    });
  });
}

}  // namespace tensor::internal
