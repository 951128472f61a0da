#include "tensor/reduce_dim.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
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

using ::tensor::testing::AsStored;
using ::tensor::testing::Doubles;
using ::tensor::testing::EveryLayoutOf;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::FromLines;
using ::tensor::testing::LentTensor;
using ::tensor::testing::LinesOf;
using ::tensor::testing::Must;
using ::tensor::testing::NamedTensor;
using ::tensor::testing::NumericTypes;
using ::tensor::testing::TensorOf;
using ::testing::HasSubstr;

// Every layout of a {4, 6} tensor holding 1, 2, 3, 1, 2, 3, ...: sums and
// products of its lines are exact in every type before wrapping.
std::vector<NamedTensor> ViewsOf(DType dtype) {
  std::vector<double> values(24);
  for (int i = 0; i < 24; ++i) values[i] = i % 3 + 1;
  return EveryLayoutOf(Must(TensorOf(dtype, {4, 6}, values)));
}

template <typename T>
class ReduceDimTypedTest : public ::testing::Test {};

TYPED_TEST_SUITE(ReduceDimTypedTest, NumericTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(ReduceDimTypedTest, SumProductAndScansMatchReferenceOnEveryLayoutAndDim) {
  using T = TypeParam;
  for (const NamedTensor& view : ViewsOf(DTypeOf<T>())) {
    const Tensor& t = view.tensor;
    for (int dim = 0; dim < t.rank(); ++dim) {
      SCOPED_TRACE(view.name + " dim " + std::to_string(dim));
      std::vector<std::vector<double>> sums, products, running_sums, running_products;
      for (const std::vector<double>& line : LinesOf(Doubles(t), t.shape(), dim)) {
        double sum = 0, product = 1;
        std::vector<double> rs, rp;
        for (double v : line) {
          sum += v;
          product *= v;
          rs.push_back(AsStored<T>(sum));
          rp.push_back(AsStored<T>(product));
        }
        sums.push_back({AsStored<T>(sum)});
        products.push_back({AsStored<T>(product)});
        running_sums.push_back(rs);
        running_products.push_back(rp);
      }
      ASSERT_OK_AND_ASSIGN(Tensor sum, SumAlong(t, dim));
      ASSERT_OK_AND_ASSIGN(Tensor product, ProductAlong(t, dim));
      ASSERT_OK_AND_ASSIGN(Tensor cumsum, ScanAlong(t, dim, Scan::kSum));
      ASSERT_OK_AND_ASSIGN(Tensor cumprod, ScanAlong(t, dim, Scan::kProduct));
      Shape reduced = t.shape();
      reduced[dim] = 1;
      EXPECT_EQ(sum.shape(), reduced);
      EXPECT_EQ(cumsum.shape(), t.shape());
      EXPECT_EQ(sum.dtype(), DTypeOf<T>());
      EXPECT_EQ(Doubles(sum), FromLines(sums, t.shape(), dim, 1));
      EXPECT_EQ(Doubles(product), FromLines(products, t.shape(), dim, 1));
      EXPECT_EQ(Doubles(cumsum), FromLines(running_sums, t.shape(), dim, t.shape()[dim]));
      EXPECT_EQ(Doubles(cumprod), FromLines(running_products, t.shape(), dim, t.shape()[dim]));
    }
  }
}

TYPED_TEST(ReduceDimTypedTest, MaxAndMinGiveFirstExtremeAndPositionOnEveryLayoutAndDim) {
  using T = TypeParam;
  for (const NamedTensor& view : ViewsOf(DTypeOf<T>())) {
    const Tensor& t = view.tensor;
    for (int dim = 0; dim < t.rank(); ++dim) {
      if (t.shape()[dim] == 0) continue;
      SCOPED_TRACE(view.name + " dim " + std::to_string(dim));
      std::vector<std::vector<double>> maxima, max_at, minima, min_at;
      for (const std::vector<double>& line : LinesOf(Doubles(t), t.shape(), dim)) {
        size_t hi = 0, lo = 0;
        for (size_t i = 1; i < line.size(); ++i) {
          if (line[i] > line[hi]) hi = i;
          if (line[i] < line[lo]) lo = i;
        }
        maxima.push_back({line[hi]});
        max_at.push_back({static_cast<double>(hi + 1)});
        minima.push_back({line[lo]});
        min_at.push_back({static_cast<double>(lo + 1)});
      }
      ASSERT_OK_AND_ASSIGN(ValuesAndIndices max, ExtremeAlong(t, dim, Extreme::kMax, 1));
      ASSERT_OK_AND_ASSIGN(ValuesAndIndices min, ExtremeAlong(t, dim, Extreme::kMin, 1));
      EXPECT_EQ(max.indices.dtype(), DType::kInt64);
      EXPECT_EQ(Doubles(max.values), FromLines(maxima, t.shape(), dim, 1));
      EXPECT_EQ(Doubles(max.indices), FromLines(max_at, t.shape(), dim, 1));
      EXPECT_EQ(Doubles(min.values), FromLines(minima, t.shape(), dim, 1));
      EXPECT_EQ(Doubles(min.indices), FromLines(min_at, t.shape(), dim, 1));
    }
  }
}

template <typename T>
class FloatingReduceDimTest : public ::testing::Test {};

using FloatingTypes = ::testing::Types<Float16, BFloat16, float, double>;
TYPED_TEST_SUITE(FloatingReduceDimTest, FloatingTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(FloatingReduceDimTest, MeanSpreadAndNormsMatchReferenceOnEveryLayoutAndDim) {
  using T = TypeParam;
  for (const NamedTensor& view : ViewsOf(DTypeOf<T>())) {
    const Tensor& t = view.tensor;
    for (int dim = 0; dim < t.rank(); ++dim) {
      if (t.shape()[dim] < 2) continue;
      SCOPED_TRACE(view.name + " dim " + std::to_string(dim));
      const std::vector<std::vector<double>> lines = LinesOf(Doubles(t), t.shape(), dim);
      ASSERT_OK_AND_ASSIGN(Tensor mean, MeanAlong(t, dim));
      ASSERT_OK_AND_ASSIGN(Tensor var, SpreadAlong(t, dim, Spread::kVariance, false));
      ASSERT_OK_AND_ASSIGN(Tensor std_biased, SpreadAlong(t, dim, Spread::kStandardDeviation, true));
      const std::vector<double> means = Doubles(mean), vars = Doubles(var),
                                stds = Doubles(std_biased);
      for (size_t j = 0; j < lines.size(); ++j) {
        const double n = static_cast<double>(lines[j].size());
        double sum = 0, squares = 0;
        for (double v : lines[j]) sum += v;
        for (double v : lines[j]) squares += (v - sum / n) * (v - sum / n);
        EXPECT_NEAR(means[j], sum / n, 1e-2 * sum / n);
        EXPECT_NEAR(vars[j], squares / (n - 1), 1e-2 * (1 + squares));
        EXPECT_NEAR(stds[j], std::sqrt(squares / n), 1e-2 * (1 + squares));
      }
      for (double p : {0.0, 1.0, 2.0, 3.0, std::numeric_limits<double>::infinity()}) {
        ASSERT_OK_AND_ASSIGN(Tensor norm, NormAlong(t, p, dim));
        const std::vector<double> norms = Doubles(norm);
        for (size_t j = 0; j < lines.size(); ++j) {
          double expected = 0;
          for (double v : lines[j]) {
            if (p == 0) expected += v != 0;
            else if (std::isinf(p)) expected = std::max(expected, std::abs(v));
            else expected += std::pow(std::abs(v), p);
          }
          if (p > 0 && !std::isinf(p)) expected = std::pow(expected, 1 / p);
          EXPECT_NEAR(norms[j], expected, 1e-2 * expected) << "p = " << p;
        }
      }
    }
  }
}

TEST(ReduceDimTest, IntegerSumsAndProductsWrapInTheElementType) {
  Tensor bytes = Must(MakeTensor<std::uint8_t>({2, 2}, {200, 100, 100, 3}));
  EXPECT_EQ(testing::ValuesOf<std::uint8_t>(Must(SumAlong(bytes, 0))),
            (std::vector<std::uint8_t>{44, 103}));
  EXPECT_EQ(testing::ValuesOf<std::uint8_t>(Must(ProductAlong(bytes, 1))),
            (std::vector<std::uint8_t>{static_cast<std::uint8_t>(20000 % 256), 44}));
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  Tensor ints = Must(MakeTensor<std::int32_t>({2}, {kMax, 1}));
  EXPECT_EQ(testing::ValuesOf<std::int32_t>(Must(SumAlong(ints, 0))),
            (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min()}));
  EXPECT_EQ(testing::ValuesOf<std::int32_t>(Must(ScanAlong(ints, 0, Scan::kSum))),
            (std::vector<std::int32_t>{kMax, std::numeric_limits<std::int32_t>::min()}));
}

TEST(ReduceDimTest, FloatSumsAccumulateInDouble) {
  // In float, 2^24 + 1 + 1 - 2^24 is 0; in double it is 2.
  for (int dim : {0, 1}) {
    Tensor t = Must(MakeTensor<float>({4, 4}, {16777216.0f, 1, 1, -16777216.0f,  //
                                               16777216.0f, 1, 1, -16777216.0f,  //
                                               16777216.0f, 1, 1, -16777216.0f,  //
                                               16777216.0f, 1, 1, -16777216.0f}));
    Tensor along = dim == 0 ? Must(t.Transpose(0, 1)) : t;
    EXPECT_EQ(testing::ValuesOf<float>(Must(SumAlong(along, dim))),
              (std::vector<float>{2, 2, 2, 2}));
  }
}

TEST(ReduceDimTest, LongLinesUseEveryLoopAndAgreeWithAPlainLoop) {
  // 37 x 1003: odd extents leave remainders after the unrolled loops.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<double> values(37 * 1003);
  for (double& v : values) v = uniform(random);
  Tensor t = Must(MakeTensor<double>({37, 1003}, values));
  for (const Tensor& view : {t, Must(t.Transpose(0, 1)), Must(t.Reverse(1))}) {
    for (int dim : {0, 1}) {
      const auto lines = LinesOf(Doubles(view), view.shape(), dim);
      const std::vector<double> sums = Doubles(Must(SumAlong(view, dim)));
      const ValuesAndIndices max = Must(ExtremeAlong(view, dim, Extreme::kMax, 0));
      const std::vector<double> maxima = Doubles(max.values), at = Doubles(max.indices);
      for (size_t j = 0; j < lines.size(); ++j) {
        double sum = 0;
        size_t best = 0;
        for (size_t i = 0; i < lines[j].size(); ++i) {
          sum += lines[j][i];
          if (lines[j][i] > lines[j][best]) best = i;
        }
        EXPECT_NEAR(sums[j], sum, 1e-12 * lines[j].size());
        EXPECT_EQ(maxima[j], lines[j][best]);
        EXPECT_EQ(at[j], static_cast<double>(best));
      }
    }
  }
}

TEST(ReduceDimTest, NaNWinsMaxAndMinAtItsFirstPosition) {
  const double nan = std::nan("");
  // Rows along dim 1 (each a run), columns along dim 0 (slice by slice).
  Tensor t = Must(MakeTensor<double>({3, 3}, {1, nan, nan, 5, 2, 9, nan, 7, 0}));
  for (Extreme extreme : {Extreme::kMax, Extreme::kMin}) {
    ValuesAndIndices rows = Must(ExtremeAlong(t, 1, extreme, 1));
    const std::vector<double> row_values = Doubles(rows.values);
    EXPECT_TRUE(std::isnan(row_values[0]) && std::isnan(row_values[2]));
    EXPECT_EQ(row_values[1], extreme == Extreme::kMax ? 9 : 2);
    EXPECT_EQ(Doubles(rows.indices), (std::vector<double>{2, extreme == Extreme::kMax ? 3.0 : 2.0, 1}));
    ValuesAndIndices columns = Must(ExtremeAlong(t, 0, extreme, 1));
    const std::vector<double> column_values = Doubles(columns.values);
    EXPECT_TRUE(std::isnan(column_values[0]) && std::isnan(column_values[1]) &&
                std::isnan(column_values[2]));
    EXPECT_EQ(Doubles(columns.indices), (std::vector<double>{3, 1, 1}));
  }
}

TEST(ReduceDimTest, UnbiasedSpreadOfOneElementIsNaN) {
  Tensor t = Must(MakeTensor<double>({2, 1}, {3, 4}));
  for (double v : Doubles(Must(SpreadAlong(t, 1, Spread::kVariance, false)))) {
    EXPECT_TRUE(std::isnan(v));
  }
  EXPECT_EQ(Doubles(Must(SpreadAlong(t, 1, Spread::kVariance, true))), (std::vector<double>{0, 0}));
}

TEST(ReduceDimTest, EmptyDimensionGivesIdentitiesOrAnError) {
  Tensor t = Must(Must(Tensor::Zeros(DType::kFloat64, {2, 3})).Narrow(1, 0, 0));
  EXPECT_EQ(Doubles(Must(SumAlong(t, 1))), (std::vector<double>{0, 0}));
  EXPECT_EQ(Doubles(Must(ProductAlong(t, 1))), (std::vector<double>{1, 1}));
  EXPECT_EQ(Doubles(Must(NormAlong(t, 2, 1))), (std::vector<double>{0, 0}));
  EXPECT_EQ(Must(ScanAlong(t, 1, Scan::kSum)).shape(), t.shape());
  EXPECT_THAT(MeanAlong(t, 1).status().message(), HasSubstr("no elements"));
  EXPECT_THAT(SpreadAlong(t, 1, Spread::kVariance, false).status().message(),
              HasSubstr("no elements"));
  EXPECT_THAT(ExtremeAlong(t, 1, Extreme::kMax, 1).status().message(), HasSubstr("no elements"));
  // Along the other dimension there are no lines at all: empty results.
  EXPECT_EQ(Must(MeanAlong(t, 0)).shape(), (Shape{1, 0}));
  EXPECT_EQ(Must(ExtremeAlong(t, 0, Extreme::kMin, 1)).indices.shape(), (Shape{1, 0}));
}

TEST(ReduceDimTest, BadArgumentsAreErrors) {
  Tensor d = Must(MakeTensor<double>({2, 2}, {1, 2, 3, 4}));
  Tensor i = Must(MakeTensor<std::int32_t>({2, 2}, {1, 2, 3, 4}));
  Tensor b = Must(TensorOf(DType::kBool, {2}, {1, 0}));
  for (int dim : {-1, 2}) {
    EXPECT_EQ(SumAlong(d, dim).status().code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ(ExtremeAlong(d, dim, Extreme::kMax, 1).status().code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ(ScanAlong(d, dim, Scan::kSum).status().code(), absl::StatusCode::kOutOfRange);
  }
  EXPECT_EQ(SumAlong(Tensor(), 0).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(MeanAlong(i, 0).status().message(), HasSubstr("not defined for Int32Tensor"));
  EXPECT_THAT(NormAlong(i, 2, 0).status().message(), HasSubstr("Int32Tensor"));
  EXPECT_THAT(SpreadAlong(i, 0, Spread::kVariance, false).status().message(),
              HasSubstr("Int32Tensor"));
  EXPECT_THAT(SumAlong(b, 0).status().message(), HasSubstr("not defined for BoolTensor"));
  EXPECT_THAT(ExtremeAlong(b, 0, Extreme::kMax, 1).status().message(), HasSubstr("BoolTensor"));
  EXPECT_THAT(NormAlong(d, -1, 0).status().message(), HasSubstr("p must be at least 0"));
  EXPECT_FALSE(NormAlong(d, std::nan(""), 0).ok());
}

TEST(ReduceDimTest, RevokedInputIsAnErrorForEveryReduction) {
  LentTensor lent(DType::kFloat64, {2, 3}, {1, 2, 3, 4, 5, 6}, "frame 'RGB'");
  EXPECT_EQ(Doubles(Must(SumAlong(lent.tensor(), 0))), (std::vector<double>{5, 7, 9}));
  lent.Revoke();
  ExpectInvalid(SumAlong(lent.tensor(), 0).status(), lent.lender());
  ExpectInvalid(ProductAlong(lent.tensor(), 1).status(), lent.lender());
  ExpectInvalid(MeanAlong(lent.tensor(), 1).status(), lent.lender());
  ExpectInvalid(NormAlong(lent.tensor(), 2, 1).status(), lent.lender());
  ExpectInvalid(SpreadAlong(lent.tensor(), 1, Spread::kVariance, true).status(), lent.lender());
  ExpectInvalid(ExtremeAlong(lent.tensor(), 1, Extreme::kMin, 1).status(), lent.lender());
  ExpectInvalid(ScanAlong(lent.tensor(), 1, Scan::kProduct).status(), lent.lender());
}

}  // namespace
}  // namespace tensor
