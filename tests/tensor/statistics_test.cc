#include "tensor/statistics.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "tensor/typed_view.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using ::tensor::testing::Doubles;
using ::tensor::testing::EveryLayoutOf;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::LentTensor;
using ::tensor::testing::Must;
using ::tensor::testing::NamedTensor;
using ::tensor::testing::TensorOf;
using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(StatisticsTest, EveryStatisticMatchesReferenceOnEveryLayout) {
  std::vector<double> values(24);
  for (int i = 0; i < 24; ++i) values[i] = (i * 7) % 11 - 4.5;
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    for (const NamedTensor& view : EveryLayoutOf(Must(TensorOf(dtype, {4, 6}, values)))) {
      SCOPED_TRACE(view.name);
      const std::vector<double> v = Doubles(view.tensor);
      if (v.empty()) continue;
      double hi = v[0], lo = v[0], sum = 0, squares = 0, abs = 0, cube = 0;
      for (double x : v) {
        hi = std::max(hi, x), lo = std::min(lo, x), sum += x;
        abs += std::abs(x), cube += std::pow(std::abs(x), 3);
      }
      const double n = static_cast<double>(v.size()), mean = sum / n;
      for (double x : v) squares += (x - mean) * (x - mean);
      EXPECT_EQ(Must(ExtremeOf(view.tensor, Extreme::kMax)), hi);
      EXPECT_EQ(Must(ExtremeOf(view.tensor, Extreme::kMin)), lo);
      EXPECT_DOUBLE_EQ(Must(MeanOf(view.tensor)), mean);
      EXPECT_DOUBLE_EQ(Must(SpreadOf(view.tensor, Spread::kVariance, true)), squares / n);
      if (n > 1) {
        EXPECT_DOUBLE_EQ(Must(SpreadOf(view.tensor, Spread::kStandardDeviation, false)),
                         std::sqrt(squares / (n - 1)));
      }
      double sum_squares = 0, max_abs = 0, nonzero = 0;
      for (double x : v) sum_squares += x * x, max_abs = std::max(max_abs, std::abs(x)), nonzero += x != 0;
      EXPECT_DOUBLE_EQ(Must(NormOf(view.tensor, 2)), std::sqrt(sum_squares));
      EXPECT_DOUBLE_EQ(Must(NormOf(view.tensor, 1)), abs);
      EXPECT_NEAR(Must(NormOf(view.tensor, 3)), std::cbrt(cube), 1e-12 * cube);
      EXPECT_EQ(Must(NormOf(view.tensor, kInf)), max_abs);
      EXPECT_EQ(Must(NormOf(view.tensor, 0)), nonzero);
      EXPECT_EQ(Must(DistanceOf(view.tensor, view.tensor, 2)), 0);
    }
  }
}

TEST(StatisticsTest, MaxAndMinWorkForIntegersAndPropagateNaN) {
  EXPECT_EQ(Must(ExtremeOf(Must(MakeTensor<std::uint8_t>({3}, {7, 255, 0})), Extreme::kMax)), 255);
  EXPECT_EQ(Must(ExtremeOf(Must(MakeTensor<std::int8_t>({3}, {7, -128, 0})), Extreme::kMin)), -128);
  Tensor with_nan = Must(MakeTensor<double>({3}, {1, std::nan(""), 3}));
  EXPECT_TRUE(std::isnan(Must(ExtremeOf(with_nan, Extreme::kMax))));
  EXPECT_TRUE(std::isnan(Must(ExtremeOf(with_nan, Extreme::kMin))));
}

// The kernel looks for NaNs in a pass of its own over the vectorised part,
// where an infinity also raises suspicion: a NaN anywhere (vector lanes or
// tail) wins, an infinity without one is an extreme like any other, and of
// 0 and -0 the first is the answer.
TEST(StatisticsTest, NaNsInfinitiesAndZerosAtEveryPosition) {
  constexpr int kCount = 37;  // vector lanes and a tail
  for (DType dtype : {DType::kFloat64, DType::kFloat32, DType::kFloat16}) {
    SCOPED_TRACE(DTypeName(dtype));
    for (int at = 0; at < kCount; ++at) {
      SCOPED_TRACE(at);
      std::vector<double> values(kCount);
      for (int i = 0; i < kCount; ++i) values[i] = std::sin(0.3 * i);
      values[at] = std::nan("");
      const Tensor with_nan = Must(TensorOf(dtype, {kCount}, values));
      EXPECT_TRUE(std::isnan(Must(ExtremeOf(with_nan, Extreme::kMax))));
      EXPECT_TRUE(std::isnan(Must(ExtremeOf(with_nan, Extreme::kMin))));
      values[at] = kInf;
      values[(at + 5) % kCount] = -kInf;
      const Tensor infinite = Must(TensorOf(dtype, {kCount}, values));
      EXPECT_EQ(Must(ExtremeOf(infinite, Extreme::kMax)), kInf);
      EXPECT_EQ(Must(ExtremeOf(infinite, Extreme::kMin)), -kInf);
      std::vector<double> zeros(kCount, 0.0);
      zeros[at] = -0.0;
      const Tensor signed_zeros = Must(TensorOf(dtype, {kCount}, zeros));
      EXPECT_EQ(std::signbit(Must(ExtremeOf(signed_zeros, Extreme::kMax))), at == 0);
      EXPECT_EQ(std::signbit(Must(ExtremeOf(signed_zeros, Extreme::kMin))), at == 0);
    }
  }
}

TEST(StatisticsTest, DistancePairsElementsInLayoutOrder) {
  Tensor a = Must(MakeTensor<double>({2, 2}, {1, 2, 3, 4}));
  Tensor b = Must(MakeTensor<double>({4}, {1, 3, 2, 4}));
  EXPECT_EQ(Must(DistanceOf(a, b, 2)), std::sqrt(2.0));
  EXPECT_EQ(Must(DistanceOf(Must(a.Transpose(0, 1)), b, 2)), 0);
  EXPECT_EQ(Must(DistanceOf(a, b, 1)), 2);
  EXPECT_EQ(Must(DistanceOf(a, b, kInf)), 1);
}

TEST(StatisticsTest, TraceSumsTheDiagonalOfAnyMatrix) {
  Tensor m = Must(MakeTensor<std::int32_t>({2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(Must(TraceOf(m)), 6);
  EXPECT_EQ(Must(TraceOf(Must(m.Transpose(0, 1)))), 6);
  EXPECT_EQ(Must(TraceOf(Must(m.Reverse(1)))), 3 + 5);
  EXPECT_THAT(TraceOf(Must(MakeTensor<double>({3}, {1, 2, 3}))).status().message(),
              HasSubstr("needs a matrix"));
}

TEST(StatisticsTest, AllAndAnyOfByteMasks) {
  Tensor mask = Must(MakeTensor<std::uint8_t>({2, 2}, {1, 2, 0, 1}));
  EXPECT_FALSE(Must(AllOf(mask)));
  EXPECT_TRUE(Must(AnyOf(mask)));
  EXPECT_TRUE(Must(AllOf(Must(mask.Select(0, 0)))));
  EXPECT_FALSE(Must(AnyOf(Must(MakeTensor<std::uint8_t>({2}, {0, 0})))));
  Tensor empty = Must(mask.Narrow(0, 0, 0));
  EXPECT_TRUE(Must(AllOf(empty)));
  EXPECT_FALSE(Must(AnyOf(empty)));
  EXPECT_THAT(AllOf(Must(MakeTensor<double>({1}, {1}))).status().message(),
              HasSubstr("not defined for DoubleTensor"));
}

TEST(StatisticsTest, RenormScalesOnlySlicesAboveMaxnorm) {
  Tensor t = Must(MakeTensor<double>({2, 2}, {3, 4, 0.3, 0.4}));
  ASSERT_OK(Renorm(t, 2, 0, 1));
  const std::vector<double> v = Doubles(t);
  EXPECT_NEAR(v[0], 3 / (5 + 1e-7), 1e-15);
  EXPECT_NEAR(v[1], 4 / (5 + 1e-7), 1e-15);
  EXPECT_EQ(v[2], 0.3);
  EXPECT_EQ(v[3], 0.4);
  // Along columns of a transposed view: the rows of t.
  Tensor u = Must(MakeTensor<float>({2, 2}, {3, 4, 6, 8}));
  ASSERT_OK(Renorm(Must(u.Transpose(0, 1)), 1, 1, 7));
  EXPECT_NEAR(Doubles(u)[3], 8 * 7 / 14.0, 1e-5);
  EXPECT_EQ(Doubles(u)[0], 3);
}

TEST(StatisticsTest, BadArgumentsAreErrorsAndChangeNothing) {
  Tensor t = Must(MakeTensor<double>({2, 2}, {3, 4, 5, 6}));
  Tensor i = Must(MakeTensor<std::int64_t>({2, 2}, {3, 4, 5, 6}));
  Tensor empty = Must(t.Narrow(0, 0, 0));
  EXPECT_THAT(ExtremeOf(empty, Extreme::kMax).status().message(), HasSubstr("no elements"));
  EXPECT_THAT(MeanOf(empty).status().message(), HasSubstr("no elements"));
  EXPECT_THAT(SpreadOf(empty, Spread::kVariance, true).status().message(), HasSubstr("no elements"));
  EXPECT_EQ(Must(NormOf(empty, 2)), 0);
  for (const char* name : {"mean", "var", "norm", "dist", "renorm"}) {
    absl::Status status = std::string(name) == "mean"  ? MeanOf(i).status()
                          : std::string(name) == "var" ? SpreadOf(i, Spread::kVariance, true).status()
                          : std::string(name) == "norm" ? NormOf(i, 2).status()
                          : std::string(name) == "dist" ? DistanceOf(i, i, 2).status()
                                                        : Renorm(i, 2, 0, 1);
    EXPECT_THAT(status.message(), HasSubstr("not defined for Int64Tensor")) << name;
  }
  EXPECT_THAT(NormOf(t, -2).status().message(), HasSubstr("p must be at least 0"));
  EXPECT_FALSE(DistanceOf(t, Must(MakeTensor<float>({4}, {1, 2, 3, 4})), 2).ok());
  EXPECT_FALSE(DistanceOf(t, Must(MakeTensor<double>({3}, {1, 2, 3})), 2).ok());
  EXPECT_THAT(Renorm(t, 0, 0, 1).message(), HasSubstr("greater than 0"));
  EXPECT_THAT(Renorm(t, 2, 0, -1).message(), HasSubstr("maxnorm"));
  EXPECT_EQ(Renorm(t, 2, 2, 1).code(), absl::StatusCode::kOutOfRange);
  Tensor expanded = Must(Must(t.Narrow(0, 0, 1)).Expand({3, 2}));
  EXPECT_THAT(Renorm(expanded, 2, 0, 1).message(), HasSubstr("share memory"));
  EXPECT_EQ(Doubles(t), (std::vector<double>{3, 4, 5, 6}));
}

TEST(StatisticsTest, RevokedTensorsAreErrorsAsSelfAndAsArgument) {
  LentTensor lent(DType::kFloat64, {2, 2}, {1, 2, 3, 4}, "depth buffer");
  Tensor owned = Must(MakeTensor<double>({2, 2}, {1, 2, 3, 4}));
  lent.Revoke();
  const Tensor& t = lent.tensor();
  ExpectInvalid(ExtremeOf(t, Extreme::kMax).status(), lent.lender());
  ExpectInvalid(MeanOf(t).status(), lent.lender());
  ExpectInvalid(SpreadOf(t, Spread::kVariance, false).status(), lent.lender());
  ExpectInvalid(NormOf(t, 2).status(), lent.lender());
  ExpectInvalid(DistanceOf(t, owned, 2).status(), lent.lender());
  ExpectInvalid(DistanceOf(owned, t, 2).status(), lent.lender());
  ExpectInvalid(TraceOf(t).status(), lent.lender());
  ExpectInvalid(AllOf(t).status(), lent.lender());
  ExpectInvalid(Renorm(t, 2, 0, 1), lent.lender());
  EXPECT_EQ(Doubles(owned), (std::vector<double>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace tensor
