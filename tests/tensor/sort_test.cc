#include "tensor/sort.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/half.h"
#include "tensor/tensor.h"
#include "tensor/typed_view.h"
#include "tests/tensor/line_reference.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using ::tensor::testing::Doubles;
using ::tensor::testing::EveryLayoutOf;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::FromLines;
using ::tensor::testing::LentTensor;
using ::tensor::testing::LinesOf;
using ::tensor::testing::Must;
using ::tensor::testing::NamedTensor;
using ::tensor::testing::TensorOf;
using ::testing::HasSubstr;

// Values with many ties (5, 3, 1, 4, 2 repeating), in every layout.
std::vector<NamedTensor> ViewsOf(DType dtype) {
  std::vector<double> values(24);
  for (int i = 0; i < 24; ++i) values[i] = (i * 3) % 5 + 1;
  return EveryLayoutOf(Must(TensorOf(dtype, {4, 6}, values)));
}

// The positions of `line` in stable sorted order.
std::vector<size_t> StableOrder(const std::vector<double>& line, SortOrder order) {
  std::vector<size_t> positions(line.size());
  std::iota(positions.begin(), positions.end(), 0);
  std::stable_sort(positions.begin(), positions.end(), [&](size_t a, size_t b) {
    const bool a_nan = std::isnan(line[a]), b_nan = std::isnan(line[b]);
    if (a_nan || b_nan) return order == SortOrder::kAscending ? !a_nan && b_nan : a_nan && !b_nan;
    return order == SortOrder::kAscending ? line[a] < line[b] : line[a] > line[b];
  });
  return positions;
}

// The first `extent` entries of each line's stable order: values and
// 1-based positions, as row-major vectors of the result's shape.
struct Expected {
  std::vector<double> values, indices;
};
Expected StableSelection(const Tensor& t, int dim, SortOrder order, Index first, Index extent) {
  std::vector<std::vector<double>> values, indices;
  for (const std::vector<double>& line : LinesOf(Doubles(t), t.shape(), dim)) {
    const std::vector<size_t> positions = StableOrder(line, order);
    values.emplace_back();
    indices.emplace_back();
    for (Index i = first; i < first + extent; ++i) {
      values.back().push_back(line[positions[i]]);
      indices.back().push_back(static_cast<double>(positions[i] + 1));
    }
  }
  return {FromLines(values, t.shape(), dim, extent), FromLines(indices, t.shape(), dim, extent)};
}

void ExpectSelection(const ValuesAndIndices& got, const Expected& expected) {
  EXPECT_EQ(got.indices.dtype(), DType::kInt64);
  EXPECT_EQ(Doubles(got.values), expected.values);
  EXPECT_EQ(Doubles(got.indices), expected.indices);
}

template <typename T>
class SortTypedTest : public ::testing::Test {};

using NumericTypes = ::testing::Types<std::uint8_t, std::int8_t, std::int16_t, std::int32_t,
                                      std::int64_t, Float16, BFloat16, float, double>;
TYPED_TEST_SUITE(SortTypedTest, NumericTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(SortTypedTest, SortIsStableInBothOrdersOnEveryLayoutAndDim) {
  for (const NamedTensor& view : ViewsOf(DTypeOf<TypeParam>())) {
    const Tensor& t = view.tensor;
    for (int dim = 0; dim < t.rank(); ++dim) {
      SCOPED_TRACE(view.name + " dim " + std::to_string(dim));
      for (SortOrder order : {SortOrder::kAscending, SortOrder::kDescending}) {
        ASSERT_OK_AND_ASSIGN(ValuesAndIndices sorted, SortAlong(t, dim, order, 1));
        EXPECT_EQ(sorted.values.shape(), t.shape());
        ExpectSelection(sorted, StableSelection(t, dim, order, 0, t.shape()[dim]));
      }
    }
  }
}

TYPED_TEST(SortTypedTest, TopKKthValueMedianAndModeOnEveryLayoutAndDim) {
  for (const NamedTensor& view : ViewsOf(DTypeOf<TypeParam>())) {
    const Tensor& t = view.tensor;
    for (int dim = 0; dim < t.rank(); ++dim) {
      const Index n = t.shape()[dim];
      SCOPED_TRACE(view.name + " dim " + std::to_string(dim));
      for (Index k = 0; k <= n; ++k) {
        for (SortOrder order : {SortOrder::kAscending, SortOrder::kDescending}) {
          ASSERT_OK_AND_ASSIGN(ValuesAndIndices top, TopKAlong(t, k, dim, order, 1));
          ExpectSelection(top, StableSelection(t, dim, order, 0, k));
        }
        if (k == 0) continue;
        ASSERT_OK_AND_ASSIGN(ValuesAndIndices kth, KthValueAlong(t, k, dim, 1));
        ExpectSelection(kth, StableSelection(t, dim, SortOrder::kAscending, k - 1, 1));
      }
      if (n == 0) continue;
      ASSERT_OK_AND_ASSIGN(ValuesAndIndices median, MedianAlong(t, dim, 1));
      ExpectSelection(median, StableSelection(t, dim, SortOrder::kAscending, (n + 1) / 2 - 1, 1));
      std::vector<std::vector<double>> modes, mode_at;
      for (const std::vector<double>& line : LinesOf(Doubles(t), t.shape(), dim)) {
        std::map<double, int> counts;
        for (double v : line) ++counts[v];
        double mode = line[0];
        int best = 0;
        for (const auto& [value, count] : counts) {
          if (count > best) mode = value, best = count;
        }
        size_t last = 0;
        for (size_t i = 0; i < line.size(); ++i) {
          if (line[i] == mode) last = i;
        }
        modes.push_back({mode});
        mode_at.push_back({static_cast<double>(last + 1)});
      }
      ASSERT_OK_AND_ASSIGN(ValuesAndIndices mode, ModeAlong(t, dim, 1));
      ExpectSelection(mode, {FromLines(modes, t.shape(), dim, 1), FromLines(mode_at, t.shape(), dim, 1)});
    }
  }
}

TEST(SortTest, NaNSortsPastEveryNumberAndZerosKeepTheirOrder) {
  const double nan = std::nan("");
  Tensor t = Must(MakeTensor<double>({7}, {nan, 0.0, 2, -0.0, nan, -1, 0.0}));
  ValuesAndIndices up = Must(SortAlong(t, 0, SortOrder::kAscending, 1));
  EXPECT_EQ(Doubles(up.indices), (std::vector<double>{6, 2, 4, 7, 3, 1, 5}));
  const std::vector<double> up_values = Doubles(up.values);
  EXPECT_TRUE(std::signbit(up_values[2]) && !std::signbit(up_values[1]));
  EXPECT_TRUE(std::isnan(up_values[5]) && std::isnan(up_values[6]));
  ValuesAndIndices down = Must(SortAlong(t, 0, SortOrder::kDescending, 1));
  EXPECT_EQ(Doubles(down.indices), (std::vector<double>{1, 5, 3, 2, 4, 7, 6}));
  EXPECT_EQ(Doubles(Must(TopKAlong(t, 2, 0, SortOrder::kDescending, 1)).indices),
            (std::vector<double>{1, 5}));
  EXPECT_EQ(Doubles(Must(KthValueAlong(t, 6, 0, 1)).indices), (std::vector<double>{1}));
  // Two NaNs and three zeros: the zeros are the mode.
  EXPECT_EQ(Doubles(Must(ModeAlong(t, 0, 1)).indices), (std::vector<double>{7}));
}

TEST(SortTest, LargeRandomSortAgreesWithStdSortAndPositionsPointBack) {
  std::mt19937 random(11);
  std::uniform_int_distribution<int> small(0, 999);  // many ties
  std::vector<double> values(100003);
  for (double& v : values) v = small(random) * 0.5;
  Tensor t = Must(MakeTensor<double>({static_cast<Index>(values.size())}, values));
  ValuesAndIndices sorted = Must(SortAlong(t, 0, SortOrder::kAscending, 0));
  std::vector<double> expected = values;
  std::sort(expected.begin(), expected.end());
  const std::vector<double> got = Doubles(sorted.values);
  EXPECT_EQ(got, expected);
  const std::vector<std::int64_t> at = testing::ValuesOf<std::int64_t>(sorted.indices);
  for (size_t i = 0; i < at.size(); ++i) {
    ASSERT_EQ(values[at[i]], got[i]);
    if (i > 0 && got[i] == got[i - 1]) {
      ASSERT_LT(at[i - 1], at[i]) << "not stable at " << i;
    }
  }
}

// Lines of 512 or more are radix sorted, on keys that flip signs and
// reverse negative floats: every radix-sorted type, negatives and the
// extremes, both zeros, infinities, NaNs and subnormals, in both orders,
// against a stable sort of the same values.
template <typename T>
class RadixSortTypedTest : public ::testing::Test {};

using RadixTypes = ::testing::Types<std::uint8_t, std::int8_t, std::int16_t, std::int32_t,
                                    std::int64_t, float, double>;
TYPED_TEST_SUITE(RadixSortTypedTest, RadixTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(RadixSortTypedTest, LongLinesOfAnyValuesSortStably) {
  using T = TypeParam;
  std::mt19937 random(5);
  std::vector<double> special;
  if constexpr (std::is_floating_point_v<T>) {
    const double nan = std::nan("");
    special = {nan, -0.0, 0.0, -std::numeric_limits<double>::infinity(),
               std::numeric_limits<double>::infinity(), std::numeric_limits<T>::denorm_min(),
               -std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::lowest(),
               std::numeric_limits<T>::max(), -1.5, 1.5, nan};
  } else {
    // Extremes that a double holds exactly.
    const double low = std::max<double>(static_cast<double>(std::numeric_limits<T>::lowest()),
                                        -std::ldexp(1.0, 62));
    const double high = std::min<double>(static_cast<double>(std::numeric_limits<T>::max()),
                                         std::ldexp(1.0, 62));
    special = {low, high, 0, 1, std::is_signed_v<T> ? -1.0 : 2.0, low, high};
  }
  for (const int length : {512, 513, 2000}) {
    std::vector<double> line(length);
    std::uniform_int_distribution<int> pick(0, static_cast<int>(special.size()) + 40);
    for (double& v : line) {
      const int k = pick(random);
      // Mostly small values with many ties, negative ones where T has them.
      v = k < static_cast<int>(special.size())
              ? special[k]
              : static_cast<double>(std::is_signed_v<T> ? k % 41 - 20 : k % 41);
    }
    const Tensor t = Must(TensorOf(DTypeOf<T>(), {length}, line));
    const std::vector<double> stored = Doubles(t);  // as T holds them (float rounds)
    for (const SortOrder order : {SortOrder::kAscending, SortOrder::kDescending}) {
      SCOPED_TRACE(::testing::Message() << length << (order == SortOrder::kAscending ? " up" : " down"));
      const ValuesAndIndices sorted = Must(SortAlong(t, 0, order, 0));
      const std::vector<size_t> positions = StableOrder(stored, order);
      const std::vector<std::int64_t> at = testing::ValuesOf<std::int64_t>(sorted.indices);
      const std::vector<double> values = Doubles(sorted.values);
      ASSERT_EQ(at.size(), positions.size());
      for (size_t i = 0; i < positions.size(); ++i) {
        ASSERT_EQ(at[i], static_cast<std::int64_t>(positions[i])) << "at " << i;
        const double want = stored[positions[i]];
        if (std::isnan(want)) {
          ASSERT_TRUE(std::isnan(values[i])) << "at " << i;
        } else {
          ASSERT_EQ(values[i], want) << "at " << i;
          ASSERT_EQ(std::signbit(values[i]), std::signbit(want)) << "at " << i;
        }
      }
    }
  }
}

TEST(SortTest, BadArgumentsAreErrors) {
  Tensor t = Must(MakeTensor<double>({2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(SortAlong(t, 2, SortOrder::kAscending, 1).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(SortAlong(Tensor(), 0, SortOrder::kAscending, 1).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_THAT(TopKAlong(t, 4, 1, SortOrder::kAscending, 1).status().message(),
              HasSubstr("k = 4 is out of range [0, 3]"));
  EXPECT_THAT(TopKAlong(t, -1, 1, SortOrder::kAscending, 1).status().message(),
              HasSubstr("out of range"));
  EXPECT_THAT(KthValueAlong(t, 0, 1, 1).status().message(), HasSubstr("k = 0 is out of range [1, 3]"));
  EXPECT_THAT(KthValueAlong(t, 3, 0, 1).status().message(), HasSubstr("[1, 2]"));
  Tensor empty = Must(t.Narrow(1, 0, 0));
  EXPECT_THAT(MedianAlong(empty, 1, 1).status().message(), HasSubstr("no elements"));
  EXPECT_THAT(ModeAlong(empty, 1, 1).status().message(), HasSubstr("no elements"));
  EXPECT_EQ(Must(SortAlong(empty, 1, SortOrder::kAscending, 1)).values.shape(), empty.shape());
  Tensor b = Must(TensorOf(DType::kBool, {2}, {1, 0}));
  EXPECT_THAT(SortAlong(b, 0, SortOrder::kAscending, 1).status().message(), HasSubstr("BoolTensor"));
}

TEST(SortTest, RevokedInputIsAnError) {
  LentTensor lent(DType::kInt32, {2, 3}, {3, 1, 2, 6, 5, 4}, "inventory");
  EXPECT_EQ(Doubles(Must(SortAlong(lent.tensor(), 1, SortOrder::kAscending, 1)).values),
            (std::vector<double>{1, 2, 3, 4, 5, 6}));
  lent.Revoke();
  ExpectInvalid(SortAlong(lent.tensor(), 1, SortOrder::kAscending, 1).status(), lent.lender());
  ExpectInvalid(TopKAlong(lent.tensor(), 1, 1, SortOrder::kAscending, 1).status(), lent.lender());
  ExpectInvalid(KthValueAlong(lent.tensor(), 1, 1, 1).status(), lent.lender());
  ExpectInvalid(MedianAlong(lent.tensor(), 1, 1).status(), lent.lender());
  ExpectInvalid(ModeAlong(lent.tensor(), 1, 1).status(), lent.lender());
}

}  // namespace
}  // namespace tensor
