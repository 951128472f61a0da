#include "tensor/masked.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/convert.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/pairing.h"
#include "tensor/internal/scalar_cast.h"
#include "tensor/internal/strided_loop.h"

namespace tensor {
namespace {

using internal::CpuData;
using internal::ForEachRun;
using internal::LoopPlan;
using internal::OperandOf;
using internal::Order;
using internal::PlanLoop;

// The tensor and its mask, paired element by element in one shape.
struct Masked {
  Tensor tensor;
  Tensor mask;
  Index selected = 0;  // how many 1s the mask holds
};

// Checks `mask` against `tensor`, pairs them and counts the mask's 1s.
// `writes` says whether the tensor is about to be written: then a mask
// that shares its memory is copied first.
absl::StatusOr<Masked> PairWithMask(const Tensor& tensor, const Tensor& mask, bool writes,
                                    const char* operation) {
  if (absl::Status s = CpuData(tensor, operation).status(); !s.ok()) return s;
  if (absl::Status s = CpuData(mask, operation).status(); !s.ok()) return s;
  if (mask.dtype() != DType::kUInt8) {
    return absl::InvalidArgumentError(
        absl::StrCat(operation, ": the mask must be uint8 (", DTypeTensorName(DType::kUInt8),
                     "), got ", DTypeName(mask.dtype()), " (", DTypeTensorName(mask.dtype()), ")"));
  }
  if (mask.num_elements() != tensor.num_elements()) {
    return absl::InvalidArgumentError(absl::StrCat(
        operation, ": the mask has ", mask.num_elements(), " elements (shape ",
        mask.layout().ShapeString(), ") and the tensor ", tensor.num_elements(), " (shape ",
        tensor.layout().ShapeString(), "); they must have the same number"));
  }
  if (tensor.num_elements() == 0) return Masked{tensor, mask, 0};
  absl::StatusOr<std::pair<Tensor, Tensor>> pair =
      internal::PairInLayoutOrder(tensor, mask, /*b_before_a=*/writes);
  if (!pair.ok()) return pair.status();
  Masked masked{std::move(pair->first), std::move(pair->second), 0};
  absl::StatusOr<std::byte*> origin = masked.mask.data();
  if (!origin.ok()) return origin.status();
  int bad = 0;
  Index ones = 0;
  ForEachRun(PlanLoop<1>(masked.mask.shape(), {OperandOf(masked.mask, *origin)}, Order::kAny),
             [&](auto p, Index n, auto s) {
               for (Index i = 0; i < n; ++i) {
                 const std::uint8_t value = *reinterpret_cast<const std::uint8_t*>(p[0] + i * s[0]);
                 if (value > 1) {
                   bad = value;
                   return false;
                 }
                 ones += value;
               }
               return true;
             });
  if (bad != 0) {
    return absl::OutOfRangeError(
        absl::StrCat(operation, ": the mask holds ", bad, "; a mask holds only 0 and 1"));
  }
  masked.selected = ones;
  return masked;
}

// Calls visit(tensor element, mask element) for every pair, in row-major
// order of the paired shape (the order that counts the selected elements).
template <typename Visit>
absl::Status WalkMasked(const Masked& masked, Order order, Visit visit) {
  if (masked.selected == 0) return absl::OkStatus();
  absl::StatusOr<std::byte*> t_origin = masked.tensor.data();
  absl::StatusOr<std::byte*> m_origin = masked.mask.data();
  if (!t_origin.ok()) return t_origin.status();
  if (!m_origin.ok()) return m_origin.status();
  const LoopPlan<2> plan =
      PlanLoop<2>(masked.tensor.shape(),
                  {OperandOf(masked.tensor, *t_origin), OperandOf(masked.mask, *m_origin)}, order);
  ForEachRun(plan, [&](auto p, Index n, auto s) {
    for (Index i = 0; i < n; ++i) {
      if (*reinterpret_cast<const std::uint8_t*>(p[1] + i * s[1]) != 0) visit(p[0] + i * s[0]);
    }
    return true;
  });
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Tensor> MaskedSelect(const Tensor& tensor, const Tensor& mask,
                                    Allocator& allocator) {
  absl::StatusOr<Masked> masked = PairWithMask(tensor, mask, /*writes=*/false, "maskedSelect");
  if (!masked.ok()) return masked.status();
  absl::StatusOr<Tensor> result =
      Tensor::Uninitialized(tensor.dtype(), {masked->selected}, allocator);
  if (!result.ok() || masked->selected == 0) return result;
  absl::StatusOr<std::byte*> out = result->data();
  if (!out.ok()) return out.status();
  const std::size_t item = tensor.item_size();
  std::byte* next = *out;
  if (absl::Status s = WalkMasked(*masked, Order::kRowMajor,
                                  [&](std::byte* element) {
                                    std::memcpy(next, element, item);
                                    next += item;
                                  });
      !s.ok()) {
    return s;
  }
  return result;
}

absl::Status MaskedCopy(const Tensor& tensor, const Tensor& mask, const Tensor& source) {
  if (absl::Status s = CpuData(source, "maskedCopy").status(); !s.ok()) return s;
  if (absl::Status s = internal::CheckSameDType(tensor, source, "maskedCopy"); !s.ok()) return s;
  absl::StatusOr<Masked> masked = PairWithMask(tensor, mask, /*writes=*/true, "maskedCopy");
  if (!masked.ok()) return masked.status();
  if (masked->selected > source.num_elements()) {
    return absl::InvalidArgumentError(
        absl::StrCat("maskedCopy: the mask selects ", masked->selected,
                     " elements, but the source has only ", source.num_elements()));
  }
  if (absl::Status s = internal::CheckWritable(tensor, "maskedCopy"); !s.ok()) return s;
  if (masked->selected == 0) return absl::OkStatus();
  // The source's elements in row-major order, one after another, and apart
  // from the tensor's memory.
  Tensor rows = source;
  if (!source.layout().IsContiguous() || internal::MayAlias(tensor, source)) {
    absl::StatusOr<Tensor> copy = Clone(source);
    if (!copy.ok()) return copy.status();
    rows = *std::move(copy);
  }
  absl::StatusOr<std::byte*> from = rows.data();
  if (!from.ok()) return from.status();
  const std::size_t item = tensor.item_size();
  const std::byte* next = *from;
  return WalkMasked(*masked, Order::kRowMajor, [&](std::byte* element) {
    std::memcpy(element, next, item);
    next += item;
  });
}

absl::Status MaskedFill(const Tensor& tensor, const Tensor& mask, double value) {
  const bool representable = DispatchDType(tensor.dtype(), [&](auto tag) {
    return internal::ScalarRepresentable<typename decltype(tag)::type>(value);
  });
  if (!representable) {
    return absl::InvalidArgumentError(
        absl::StrCat("maskedFill: ", value, " is not a value of ", DTypeName(tensor.dtype())));
  }
  absl::StatusOr<Masked> masked = PairWithMask(tensor, mask, /*writes=*/true, "maskedFill");
  if (!masked.ok()) return masked.status();
  if (absl::Status s = internal::CheckWritable(tensor, "maskedFill"); !s.ok()) return s;
  return DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = static_cast<T>(static_cast<ComputeType<T>>(value));
    return WalkMasked(*masked, Order::kAny,
                      [v](std::byte* element) { *reinterpret_cast<T*>(element) = v; });
  });
}

absl::StatusOr<Tensor> NonZero(const Tensor& tensor, Index index_base, Allocator& allocator) {
  absl::StatusOr<std::byte*> origin = CpuData(tensor, "nonzero");
  if (!origin.ok()) return origin.status();
  const int rank = tensor.rank();
  return DispatchDType(tensor.dtype(), [&](auto tag) -> absl::StatusOr<Tensor> {
    using T = typename decltype(tag)::type;
    auto nonzero = [](const std::byte* p) {
      return static_cast<ComputeType<T>>(*reinterpret_cast<const T*>(p)) != ComputeType<T>(0);
    };
    Index count = 0;
    ForEachRun(PlanLoop<1>(tensor.shape(), {OperandOf(tensor, *origin)}, Order::kAny),
               [&](auto p, Index n, auto s) {
                 for (Index i = 0; i < n; ++i) count += nonzero(p[0] + i * s[0]);
                 return true;
               });
    absl::StatusOr<Tensor> result = Tensor::Uninitialized(DType::kInt64, {count, rank}, allocator);
    if (!result.ok() || count == 0) return result;
    absl::StatusOr<std::byte*> out = result->data();
    if (!out.ok()) return out.status();
    // A row-major walk that keeps the subscripts it is at.
    const Layout& layout = tensor.layout();
    auto* row = reinterpret_cast<std::int64_t*>(*out);
    Shape position(rank, 0);
    const std::byte* element = *origin;
    const Index item = static_cast<Index>(tensor.item_size());
    for (Index n = 0; n < layout.num_elements(); ++n) {
      if (nonzero(element)) {
        for (int d = 0; d < rank; ++d) row[d] = position[d] + index_base;
        row += rank;
      }
      for (int d = rank - 1; d >= 0; --d) {
        element += layout.strides()[d] * item;
        if (++position[d] < layout.shape()[d]) break;
        element -= layout.strides()[d] * layout.shape()[d] * item;
        position[d] = 0;
      }
    }
    return result;
  });
}

}  // namespace tensor
