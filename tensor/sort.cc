#include "tensor/sort.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/line_kernels.h"
#include "tensor/internal/lines.h"
#include "tensor/internal/strided_loop.h"

namespace tensor {
namespace {

using internal::IsNan;
using internal::Operand;

// One element of a line and its position there. Sorting (value, position)
// pairs with the position as tie-break is a stable sort; std::sort of
// pairs beats std::stable_sort of an index array, and a radix sort of the
// pairs beats both on long lines (benchmarks/reduce_benchmark.cc).
template <typename T>
struct Entry {
  T value;
  std::int64_t index;
};

// Lines at least this long are radix sorted; shorter ones do not repay
// its passes over the 256 buckets.
constexpr std::size_t kRadixMinimum = 512;

template <typename T>
inline constexpr bool kRadixSortable = kIsInteger<T> || std::is_same_v<T, float> ||
                                       std::is_same_v<T, double>;

// An unsigned key whose order is sort.h's ascending order of values: sign
// flips for signed integers; for IEEE numbers, negatives reversed, 0 and
// -0 as one key, and every NaN past +inf.
template <typename T>
auto RadixKey(T value) {
  if constexpr (kIsInteger<T>) {
    using U = std::make_unsigned_t<T>;
    if constexpr (std::is_signed_v<T>) {
      return static_cast<U>(static_cast<U>(value) ^ (U{1} << (8 * sizeof(T) - 1)));
    } else {
      return static_cast<U>(value);
    }
  } else {
    using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
    constexpr U kSign = U{1} << (8 * sizeof(T) - 1);
    if (value != value) return static_cast<U>(~U{0});
    if (value == 0) value = 0;
    const U bits = std::bit_cast<U>(value);
    return static_cast<U>((bits & kSign) != 0 ? ~bits : bits | kSign);
  }
}

// A stable LSD radix sort of `entries` by RadixKey (its complement when
// descending, which keeps equal values in position order), one byte per
// pass; passes where every key has the same byte are skipped. `scratch`
// holds as many entries.
template <SortOrder kOrder, typename T>
void RadixSort(std::vector<Entry<T>>& entries, std::vector<Entry<T>>& scratch) {
  using Key = decltype(RadixKey(T{}));
  constexpr int kBytes = sizeof(Key);
  auto key = [](const Entry<T>& e) {
    const Key k = RadixKey(e.value);
    return kOrder == SortOrder::kAscending ? k : static_cast<Key>(~k);
  };
  const std::size_t n = entries.size();
  std::array<std::array<std::size_t, 256>, kBytes> counts{};
  for (const Entry<T>& e : entries) {
    const Key k = key(e);
    for (int b = 0; b < kBytes; ++b) ++counts[b][(k >> (8 * b)) & 0xff];
  }
  Entry<T>* from = entries.data();
  Entry<T>* to = scratch.data();
  for (int b = 0; b < kBytes; ++b) {
    if (counts[b][(key(from[0]) >> (8 * b)) & 0xff] == n) continue;
    std::size_t offsets[256];
    std::size_t total = 0;
    for (int d = 0; d < 256; ++d) {
      offsets[d] = total;
      total += counts[b][d];
    }
    for (std::size_t i = 0; i < n; ++i) to[offsets[(key(from[i]) >> (8 * b)) & 0xff]++] = from[i];
    std::swap(from, to);
  }
  if (from != entries.data()) std::copy(from, from + n, entries.data());
}

// The strict total order of sort.h: NaN past every number on the
// ascending side, ties broken by position.
template <SortOrder kOrder, typename T>
bool Before(const Entry<T>& a, const Entry<T>& b) {
  const auto x = static_cast<ComputeType<T>>(a.value);
  const auto y = static_cast<ComputeType<T>>(b.value);
  if constexpr (kIsFloating<T>) {
    const bool x_nan = x != x, y_nan = y != y;
    if (x_nan || y_nan) {
      if (x_nan && y_nan) return a.index < b.index;
      return kOrder == SortOrder::kAscending ? y_nan : x_nan;
    }
  }
  if (x != y) return kOrder == SortOrder::kAscending ? x < y : x > y;
  return a.index < b.index;
}

// Before, for entries known to hold no NaN: the comparison a sort spends
// its time in.
template <SortOrder kOrder, typename T>
bool BeforeNumber(const Entry<T>& a, const Entry<T>& b) {
  const auto x = static_cast<ComputeType<T>>(a.value);
  const auto y = static_cast<ComputeType<T>>(b.value);
  if (x != y) return kOrder == SortOrder::kAscending ? x < y : x > y;
  return a.index < b.index;
}

template <SortOrder kOrder, typename T>
void SortEntries(std::vector<Entry<T>>& entries, std::vector<Entry<T>>& scratch) {
  if constexpr (kRadixSortable<T>) {
    if (entries.size() >= kRadixMinimum) return RadixSort<kOrder>(entries, scratch);
  }
  auto begin = entries.begin(), end = entries.end();
  if constexpr (kIsFloating<T>) {
    // NaNs to their end, in position order; numbers sorted apart from them.
    auto is_number = [](const Entry<T>& e) { return !IsNan(e.value); };
    auto is_nan = [](const Entry<T>& e) { return IsNan(e.value); };
    auto split = kOrder == SortOrder::kAscending ? std::partition(begin, end, is_number)
                                                 : std::partition(begin, end, is_nan);
    auto by_index = [](const Entry<T>& a, const Entry<T>& b) { return a.index < b.index; };
    if (kOrder == SortOrder::kAscending) {
      std::sort(begin, split, BeforeNumber<kOrder, T>);
      std::sort(split, end, by_index);
    } else {
      std::sort(begin, split, by_index);
      std::sort(split, end, BeforeNumber<kOrder, T>);
    }
  } else {
    std::sort(begin, end, BeforeNumber<kOrder, T>);
  }
}

// Whether a and b count as one value for the mode: equal, or both NaN.
template <typename T>
bool SameValue(T a, T b) {
  return static_cast<ComputeType<T>>(a) == static_cast<ComputeType<T>>(b) ||
         (IsNan(a) && IsNan(b));
}

// The position in `entries`, sorted ascending, of the last occurrence of
// the first of the longest runs of one value.
template <typename T>
Index ModePosition(const std::vector<Entry<T>>& entries) {
  Index best = 0, best_count = 0, run = 0;
  const auto n = static_cast<Index>(entries.size());
  for (Index i = 0; i < n; ++i) {
    ++run;
    if (i + 1 == n || !SameValue(entries[i].value, entries[i + 1].value)) {
      if (run > best_count) {
        best = i;
        best_count = run;
      }
      run = 0;
    }
  }
  return best;
}

enum class Selection { kSort, kTopK, kKth, kMode };

struct Request {
  Selection selection;
  SortOrder order = SortOrder::kAscending;
  Index k = 0;  // kTopK: how many; kKth: which, from 1
};

// Reorders one line's entries for `request`; returns where in them its
// output starts.
template <typename T>
Index Arrange(const Request& request, std::vector<Entry<T>>& entries,
              std::vector<Entry<T>>& scratch) {
  auto begin = entries.begin(), end = entries.end();
  const bool ascending = request.order == SortOrder::kAscending;
  switch (request.selection) {
    case Selection::kSort:
      ascending ? SortEntries<SortOrder::kAscending>(entries, scratch)
                : SortEntries<SortOrder::kDescending>(entries, scratch);
      return 0;
    case Selection::kTopK:
      ascending ? std::partial_sort(begin, begin + request.k, end, Before<SortOrder::kAscending, T>)
                : std::partial_sort(begin, begin + request.k, end, Before<SortOrder::kDescending, T>);
      return 0;
    case Selection::kKth:
      std::nth_element(begin, begin + (request.k - 1), end, Before<SortOrder::kAscending, T>);
      return request.k - 1;
    case Selection::kMode: break;
  }
  std::sort(begin, end, Before<SortOrder::kAscending, T>);
  return ModePosition(entries);
}

// Runs `request` on every line of `input` along `dim`, writing `extent`
// entries per line.
absl::StatusOr<ValuesAndIndices> SelectAlong(const Tensor& input, int dim, const char* operation,
                                             const Request& request, Index extent,
                                             Index first_index, Allocator& allocator) {
  absl::StatusOr<std::byte*> origin = internal::CpuData(input, operation);
  if (!origin.ok()) return origin.status();
  if (absl::Status s = internal::CheckDimension(input, dim, operation); !s.ok()) return s;
  if (absl::Status s = internal::CheckNumeric(input, operation); !s.ok()) return s;
  const Index n = input.shape()[dim];
  const bool one_per_line = request.selection == Selection::kKth ||
                            request.selection == Selection::kMode;
  if (one_per_line && n == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(operation, ": the dimension to select along has no elements (shape ",
                     input.layout().ShapeString(), ")"));
  }
  const Index lowest_k = request.selection == Selection::kKth ? 1 : 0;
  if ((request.selection == Selection::kTopK || request.selection == Selection::kKth) &&
      (request.k < lowest_k || request.k > n)) {
    return absl::OutOfRangeError(absl::StrCat(
        operation, ": k = ", request.k, " is out of range [", lowest_k, ", ", n,
        "]: the dimension to select along has ", n, " elements (shape ",
        input.layout().ShapeString(), ")"));
  }
  Shape shape(input.shape().begin(), input.shape().end());
  shape[dim] = extent;
  absl::StatusOr<Tensor> values = Tensor::Uninitialized(input.dtype(), shape, allocator);
  if (!values.ok()) return values.status();
  absl::StatusOr<Tensor> indices = Tensor::Uninitialized(DType::kInt64, shape, allocator);
  if (!indices.ok()) return indices.status();
  ValuesAndIndices result{*std::move(values), *std::move(indices)};
  if (result.values.num_elements() == 0) return result;

  return internal::DispatchNumeric(input.dtype(), [&](auto tag) -> absl::StatusOr<ValuesAndIndices> {
    using T = typename decltype(tag)::type;
    std::vector<Entry<T>> entries, scratch;
    try {
      entries.resize(n);
      if (kRadixSortable<T> && request.selection == Selection::kSort &&
          static_cast<std::size_t>(n) >= kRadixMinimum) {
        scratch.resize(n);
      }
    } catch (const std::exception&) {
      return absl::ResourceExhaustedError(
          absl::StrCat(operation, ": cannot hold a line of ", n, " elements to sort"));
    }
    const Index stride = input.layout().strides()[dim] * static_cast<Index>(sizeof(T));
    const Strides out_strides = internal::RowMajorStrides(shape);
    const Index value_step = out_strides[dim] * static_cast<Index>(sizeof(T));
    const Index index_step = out_strides[dim] * static_cast<Index>(sizeof(std::int64_t));
    const Operand values_out{*result.values.data(), &out_strides, sizeof(T)};
    const Operand indices_out{*result.indices.data(), &out_strides, sizeof(std::int64_t)};
    internal::ForEachLine<3>(
        input.shape(), dim, {internal::OperandOf(input, *origin), values_out, indices_out},
        [&](auto starts) {
          for (Index i = 0; i < n; ++i) {
            entries[i] = {*reinterpret_cast<const T*>(starts[0] + i * stride), i};
          }
          const Index start = Arrange(request, entries, scratch);
          for (Index i = 0; i < extent; ++i) {
            const Entry<T>& e = entries[start + i];
            *reinterpret_cast<T*>(starts[1] + i * value_step) = e.value;
            *reinterpret_cast<std::int64_t*>(starts[2] + i * index_step) = e.index + first_index;
          }
        });
    return std::move(result);
  });
}

}  // namespace

absl::StatusOr<ValuesAndIndices> SortAlong(const Tensor& input, int dim, SortOrder order,
                                           Index first_index, Allocator& allocator) {
  const Index extent = dim >= 0 && dim < input.rank() ? input.shape()[dim] : 0;
  return SelectAlong(input, dim, "sort", {Selection::kSort, order}, extent, first_index,
                     allocator);
}

absl::StatusOr<ValuesAndIndices> TopKAlong(const Tensor& input, Index k, int dim,
                                           SortOrder order, Index first_index,
                                           Allocator& allocator) {
  return SelectAlong(input, dim, "topk", {Selection::kTopK, order, k}, k, first_index, allocator);
}

absl::StatusOr<ValuesAndIndices> KthValueAlong(const Tensor& input, Index k, int dim,
                                               Index first_index, Allocator& allocator) {
  return SelectAlong(input, dim, "kthvalue", {Selection::kKth, SortOrder::kAscending, k}, 1,
                     first_index, allocator);
}

absl::StatusOr<ValuesAndIndices> MedianAlong(const Tensor& input, int dim, Index first_index,
                                             Allocator& allocator) {
  const Index n = dim >= 0 && dim < input.rank() ? input.shape()[dim] : 0;
  return SelectAlong(input, dim, "median", {Selection::kKth, SortOrder::kAscending, (n + 1) / 2},
                     1, first_index, allocator);
}

absl::StatusOr<ValuesAndIndices> ModeAlong(const Tensor& input, int dim, Index first_index,
                                           Allocator& allocator) {
  return SelectAlong(input, dim, "mode", {Selection::kMode}, 1, first_index, allocator);
}

}  // namespace tensor
