// Tests of tensor/create.h and tensor/random_fill.h.
#include "tensor/create.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/random_fill.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using ::tensor::testing::Doubles;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::Iota;
using ::tensor::testing::LentTensor;
using ::tensor::testing::Must;
using ::tensor::testing::TensorOf;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::Each;
using ::testing::HasSubstr;

// A deterministic RandomSource on std::mt19937_64 (whose output the standard
// fixes), with plain distributions: enough to pin orders and ranges.
class TestSource final : public RandomSource {
 public:
  explicit TestSource(std::uint64_t seed) : engine_(seed) {}
  double UniformReal(double a, double b) override {
    ++draws;
    return a + (b - a) * static_cast<double>(engine_() >> 11) * 0x1p-53;
  }
  double Normal(double mean, double sd) override { return mean + sd * UniformReal(-1, 1); }
  std::int64_t UniformInt(std::int64_t a, std::int64_t b) override {
    ++draws;
    return a + static_cast<std::int64_t>(engine_() % static_cast<std::uint64_t>(b - a + 1));
  }
  int draws = 0;

 private:
  std::mt19937_64 engine_;
};

Tensor Matrix34() { return Must(TensorOf(DType::kFloat64, {3, 4}, Iota(12))); }

TEST(RangeCountTest, InclusiveAsTorch) {
  EXPECT_EQ(Must(RangeCount(2, 5, 1)), 4);
  EXPECT_EQ(Must(RangeCount(2, 5, 1.2)), 3);
  EXPECT_EQ(Must(RangeCount(5, 5, 1)), 1);
  EXPECT_EQ(Must(RangeCount(5, 1, -2)), 3);
}

TEST(RangeCountTest, RejectsBadSteps) {
  EXPECT_THAT(RangeCount(1, 2, 0).status().message(), HasSubstr("nonzero"));
  EXPECT_THAT(RangeCount(1, 2, NAN).status().message(), HasSubstr("nonzero"));
  EXPECT_THAT(RangeCount(2, 1, 1).status().message(), HasSubstr("never goes"));
  EXPECT_THAT(RangeCount(0, INFINITY, 1).status().message(), HasSubstr("finite"));
  EXPECT_EQ(RangeCount(0, 1e300, 1e-300).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(FillRangeTest, FloatingAndInteger) {
  Tensor d = Must(Tensor::Zeros(DType::kFloat64, {3}));
  ASSERT_TRUE(FillRange(d, 2, 1.2).ok());
  EXPECT_THAT(Doubles(d), ElementsAre(2, 3.2, 2 + 2 * 1.2));
  Tensor i = Must(Tensor::Zeros(DType::kInt32, {4}));
  ASSERT_TRUE(FillRange(i, 10, -3).ok());
  EXPECT_THAT(Doubles(i), ElementsAre(10, 7, 4, 1));
}

TEST(FillRangeTest, IntegerChecksBeforeWriting) {
  Tensor b = Must(Tensor::Zeros(DType::kUInt8, {3}));
  EXPECT_THAT(FillRange(b, 254, 1).message(), HasSubstr("ByteTensor cannot hold 256"));
  EXPECT_THAT(FillRange(b, 0.5, 1).message(), HasSubstr("cannot hold 0.5"));
  EXPECT_THAT(FillRange(b, 0, 0.5).message(), HasSubstr("whole step"));
  EXPECT_THAT(Doubles(b), Each(0));
}

TEST(FillRangeTest, WritesViewsInTheirOwnRowMajorOrder) {
  Tensor m = Must(Tensor::Zeros(DType::kFloat64, {2, 3}));
  ASSERT_TRUE(FillRange(Must(m.Transpose(0, 1)), 1, 1).ok());
  EXPECT_THAT(Doubles(m), ElementsAre(1, 3, 5, 2, 4, 6));
}

TEST(FillSpacedTest, LinspaceAndLogspace) {
  Tensor t = Must(Tensor::Zeros(DType::kFloat64, {5}));
  ASSERT_TRUE(FillLinspace(t, 0, 1).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(0, 0.25, 0.5, 0.75, 1));
  Tensor l = Must(Tensor::Zeros(DType::kFloat32, {3}));
  ASSERT_TRUE(FillLogspace(l, 0, 2).ok());
  EXPECT_THAT(Doubles(l), ElementsAre(1, 10, 100));
  Tensor one = Must(Tensor::Zeros(DType::kFloat64, {1}));
  EXPECT_TRUE(FillLinspace(one, 3, 3).ok());
  EXPECT_THAT(FillLinspace(one, 3, 4).message(), HasSubstr("one point"));
  EXPECT_THAT(FillLinspace(t, 0, INFINITY).message(), HasSubstr("finite"));
  Tensor i = Must(Tensor::Zeros(DType::kInt32, {3}));
  EXPECT_EQ(FillLinspace(i, 0, 2).message(), "linspace: not defined for Int32Tensor");
}

TEST(FillEyeTest, RectangularAndRankChecked) {
  Tensor e = Must(Tensor::Zeros(DType::kInt64, {2, 3}));
  ASSERT_TRUE(FillEye(e).ok());
  EXPECT_THAT(Doubles(e), ElementsAre(1, 0, 0, 0, 1, 0));
  EXPECT_THAT(FillEye(Must(Tensor::Zeros(DType::kFloat64, {3}))).message(), HasSubstr("rank 2"));
  Tensor column = Must(Tensor::Zeros(DType::kFloat64, {3, 1}));
  EXPECT_THAT(FillEye(Must(column.Expand({3, 3}))).message(), HasSubstr("share memory"));
}

TEST(DiagTest, VectorToMatrixAndBack) {
  Tensor v = Must(TensorOf(DType::kInt16, {2}, {1, 2}));
  Tensor above = Must(Diag(v, 1));
  EXPECT_THAT(above.shape(), ElementsAre(3, 3));
  EXPECT_THAT(Doubles(above), ElementsAre(0, 1, 0, 0, 0, 2, 0, 0, 0));
  EXPECT_THAT(Doubles(Must(Diag(v, -1))), ElementsAre(0, 0, 0, 1, 0, 0, 0, 2, 0));
  Tensor m = Matrix34();
  EXPECT_THAT(Doubles(Must(Diag(m, 0))), ElementsAre(1, 6, 11));
  EXPECT_THAT(Doubles(Must(Diag(m, 2))), ElementsAre(3, 8));
  EXPECT_THAT(Doubles(Must(Diag(m, -2))), ElementsAre(9));
  // Of a transposed view: the diagonal of what the view shows.
  EXPECT_THAT(Doubles(Must(Diag(Must(m.Transpose(0, 1)), 1))), ElementsAre(5, 10));
}

TEST(DiagTest, Errors) {
  EXPECT_THAT(Diag(Matrix34(), 4).status().message(), HasSubstr("empty"));
  EXPECT_THAT(Diag(Matrix34(), -3).status().message(), HasSubstr("empty"));
  EXPECT_THAT(Diag(Matrix34(), INT64_MIN).status().message(), HasSubstr("empty"));
  Tensor v = Must(TensorOf(DType::kFloat64, {2}, {1, 2}));
  EXPECT_FALSE(Diag(v, INT64_MAX).ok());
  EXPECT_THAT(Diag(Must(Tensor::Zeros(DType::kFloat64, {2, 2, 2})), 0).status().message(),
              HasSubstr("vector or a matrix"));
}

TEST(TriangleTest, TrilAndTriu) {
  Tensor m = Must(TensorOf(DType::kFloat64, {3, 3}, Iota(9)));
  EXPECT_THAT(Doubles(Must(Tril(m, 0))), ElementsAre(1, 0, 0, 4, 5, 0, 7, 8, 9));
  EXPECT_THAT(Doubles(Must(Tril(m, -1))), ElementsAre(0, 0, 0, 4, 0, 0, 7, 8, 0));
  EXPECT_THAT(Doubles(Must(Triu(m, 1))), ElementsAre(0, 2, 3, 0, 0, 6, 0, 0, 0));
  EXPECT_THAT(Doubles(Must(Triu(Must(m.Transpose(0, 1)), 0))),
              ElementsAre(1, 4, 7, 0, 5, 8, 0, 0, 9));
  EXPECT_THAT(Doubles(m), ElementsAreArray(Iota(9)));  // the source is untouched
  EXPECT_THAT(Tril(Must(Tensor::Zeros(DType::kFloat64, {3})), 0).status().message(),
              HasSubstr("rank 2"));
}

TEST(CatTest, JoinsAlongAnyDimension) {
  Tensor a = Must(TensorOf(DType::kFloat64, {2, 2}, {1, 2, 3, 4}));
  Tensor b = Must(TensorOf(DType::kFloat64, {1, 2}, {5, 6}));
  Tensor rows = Must(Cat({a, b}, 0));
  EXPECT_THAT(rows.shape(), ElementsAre(3, 2));
  EXPECT_THAT(Doubles(rows), ElementsAre(1, 2, 3, 4, 5, 6));
  Tensor columns = Must(Cat({a, Must(a.Transpose(0, 1))}));  // the last by default
  EXPECT_THAT(Doubles(columns), ElementsAre(1, 2, 1, 3, 3, 4, 2, 4));
  // Empty tensors are skipped; only empties give an empty tensor.
  EXPECT_THAT(Doubles(Must(Cat({Tensor(), b}, 0))), ElementsAre(5, 6));
  EXPECT_EQ(Must(Cat({Tensor(), Tensor()})).rank(), 0);
}

TEST(CatTest, Errors) {
  Tensor a = Must(TensorOf(DType::kFloat64, {2, 2}, {1, 2, 3, 4}));
  Tensor b = Must(TensorOf(DType::kFloat64, {1, 2}, {5, 6}));
  EXPECT_THAT(Cat({a, b}, 1).status().message(), HasSubstr("other extents"));
  EXPECT_THAT(Cat({a, Must(TensorOf(DType::kFloat64, {2}, {1, 2}))}, 0).status().message(),
              HasSubstr("ranks differ"));
  EXPECT_THAT(Cat({a, Must(TensorOf(DType::kInt32, {2, 2}, {1, 2, 3, 4}))}).status().message(),
              HasSubstr("DoubleTensor and Int32Tensor"));
  EXPECT_THAT(Cat({a}, 2).status().message(), HasSubstr("out of range"));
  EXPECT_THAT(Cat({}).status().message(), HasSubstr("no tensors"));
}

TEST(RepeatTensorTest, TilesAndAddsLeadingDimensions) {
  Tensor v = Must(TensorOf(DType::kInt32, {3}, {1, 2, 3}));
  Tensor tiled = Must(RepeatTensor(v, {2, 2}));
  EXPECT_THAT(tiled.shape(), ElementsAre(2, 6));
  EXPECT_THAT(Doubles(tiled), ElementsAre(1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3));
  Tensor m = Must(TensorOf(DType::kFloat64, {2, 2}, {1, 2, 3, 4}));
  Tensor reversed = Must(m.Reverse(1));
  EXPECT_THAT(Doubles(Must(RepeatTensor(reversed, {2, 1}))), ElementsAre(2, 1, 4, 3, 2, 1, 4, 3));
  EXPECT_THAT(Must(RepeatTensor(m, {3, 1, 1})).shape(), ElementsAre(3, 2, 2));
}

TEST(RepeatTensorTest, Errors) {
  Tensor m = Must(TensorOf(DType::kFloat64, {2, 2}, {1, 2, 3, 4}));
  EXPECT_THAT(RepeatTensor(m, {2}).status().message(), HasSubstr("one per dimension"));
  EXPECT_THAT(RepeatTensor(m, {2, 0}).status().message(), HasSubstr("at least 1"));
  EXPECT_THAT(RepeatTensor(Tensor(), {2}).status().message(), HasSubstr("empty"));
  EXPECT_EQ(RepeatTensor(m, {INT64_MAX, 1}).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(CreateTest, InvalidTensorsAreRejected) {
  LentTensor lent(DType::kFloat64, {2, 2}, {1, 2, 3, 4}, "create test");
  lent.Revoke();
  const std::vector<std::byte> before = lent.Bytes();
  ExpectInvalid(Diag(lent.tensor(), 0).status(), "create test");
  ExpectInvalid(Tril(lent.tensor(), 0).status(), "create test");
  ExpectInvalid(Cat({lent.tensor()}).status(), "create test");
  ExpectInvalid(RepeatTensor(lent.tensor(), {1, 1}).status(), "create test");
  ExpectInvalid(FillEye(lent.tensor()), "create test");
  ExpectInvalid(FillRange(lent.tensor(), 1, 1), "create test");
  TestSource source(1);
  ExpectInvalid(FillUniform(lent.tensor(), 0, 1, source), "create test");
  ExpectInvalid(FillBernoulli(lent.tensor(), 0.5, source), "create test");
  EXPECT_EQ(source.draws, 0);
  EXPECT_EQ(lent.Bytes(), before);
}

TEST(RandomFillTest, UniformStaysInRangeAndIsDeterministic) {
  Tensor a = Must(Tensor::Zeros(DType::kFloat32, {100}));
  Tensor b = Must(Tensor::Zeros(DType::kFloat32, {100}));
  TestSource first(7), second(7);
  ASSERT_TRUE(FillUniform(a, -2, 3, first).ok());
  ASSERT_TRUE(FillUniform(b, -2, 3, second).ok());
  EXPECT_EQ(Doubles(a), Doubles(b));
  for (double x : Doubles(a)) {
    EXPECT_GE(x, -2);
    EXPECT_LT(x, 3);
  }
}

TEST(RandomFillTest, ViewsDrawInTheirOwnRowMajorOrder) {
  Tensor plain = Must(Tensor::Zeros(DType::kFloat64, {2, 3}));
  Tensor backing = Must(Tensor::Zeros(DType::kFloat64, {3, 2}));
  TestSource first(3), second(3);
  ASSERT_TRUE(FillNormal(plain, 0, 1, first).ok());
  ASSERT_TRUE(FillNormal(Must(backing.Transpose(0, 1)), 0, 1, second).ok());
  EXPECT_EQ(Doubles(plain), Doubles(Must(backing.Transpose(0, 1))));
}

TEST(RandomFillTest, ChecksBeforeDrawing) {
  Tensor d = Must(Tensor::Zeros(DType::kFloat64, {3}));
  Tensor i = Must(Tensor::Zeros(DType::kInt32, {3}));
  TestSource source(1);
  EXPECT_THAT(FillUniform(d, 1, 0, source).message(), HasSubstr("a <= b"));
  EXPECT_THAT(FillUniform(d, 0, INFINITY, source).message(), HasSubstr("finite"));
  EXPECT_EQ(FillUniform(i, 0, 1, source).message(), "uniform: not defined for Int32Tensor");
  EXPECT_EQ(FillNormal(i, 0, 1, source).message(), "normal: not defined for Int32Tensor");
  EXPECT_THAT(FillNormal(d, 0, 0, source).message(), HasSubstr("strictly positive"));
  EXPECT_THAT(FillNormal(d, NAN, 1, source).message(), HasSubstr("mean"));
  EXPECT_THAT(FillBernoulli(d, 1.5, source).message(), HasSubstr("[0, 1]"));
  EXPECT_THAT(FillBernoulli(d, NAN, source).message(), HasSubstr("[0, 1]"));
  Tensor column = Must(Tensor::Zeros(DType::kFloat64, {3, 1}));
  EXPECT_THAT(FillUniform(Must(column.Expand({3, 2})), 0, 1, source).message(),
              HasSubstr("share memory"));
  EXPECT_EQ(source.draws, 0);
  EXPECT_THAT(Doubles(d), Each(0));
}

TEST(RandomFillTest, BernoulliExtremesAndIntegerTypes) {
  Tensor b = Must(Tensor::Zeros(DType::kUInt8, {50}));
  TestSource source(2);
  ASSERT_TRUE(FillBernoulli(b, 1, source).ok());
  EXPECT_THAT(Doubles(b), Each(1));
  ASSERT_TRUE(FillBernoulli(b, 0, source).ok());
  EXPECT_THAT(Doubles(b), Each(0));
  ASSERT_TRUE(FillBernoulli(b, 0.5, source).ok());
  for (double x : Doubles(b)) EXPECT_TRUE(x == 0 || x == 1);
}

TEST(RandomFillTest, RandPermIsAPermutation) {
  Tensor p = Must(Tensor::Zeros(DType::kInt64, {20}));
  TestSource source(4);
  ASSERT_TRUE(FillRandPerm(p, source).ok());
  std::vector<double> values = Doubles(p);
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, Iota(20));
  // A reversed view holds a permutation too.
  Tensor r = Must(Tensor::Zeros(DType::kFloat64, {5}));
  ASSERT_TRUE(FillRandPerm(Must(r.Reverse(0)), source).ok());
  values = Doubles(r);
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, Iota(5));
}

TEST(RandomFillTest, RandPermErrors) {
  TestSource source(4);
  Tensor bytes = Must(Tensor::Zeros(DType::kUInt8, {256}));
  EXPECT_THAT(FillRandPerm(bytes, source).message(), HasSubstr("ByteTensor cannot hold 256"));
  EXPECT_THAT(FillRandPerm(Must(Tensor::Zeros(DType::kFloat64, {2, 2})), source).message(),
              HasSubstr("rank 1"));
  EXPECT_THAT(FillRandPerm(Must(Tensor::Zeros(DType::kBool, {2})), source).message(),
              HasSubstr("not defined for BoolTensor"));
  EXPECT_EQ(source.draws, 0);
}

// Torch7's other distributions.
TEST(RandomFillTest, RandomIsUniformOverWholeNumbersAndChecksTheType) {
  Tensor bytes = Must(Tensor::Zeros(DType::kUInt8, {500}));
  TestSource source(1);
  ASSERT_TRUE(FillRandom(bytes, 250, 255, source).ok());
  std::vector<double> seen = Doubles(bytes);
  EXPECT_EQ(*std::min_element(seen.begin(), seen.end()), 250);
  EXPECT_EQ(*std::max_element(seen.begin(), seen.end()), 255);
  EXPECT_THAT(FillRandom(bytes, 0, 256, source).message(), HasSubstr("cannot hold every integer"));
  EXPECT_THAT(FillRandom(bytes, 3, 2, source).message(), HasSubstr("is empty"));
  Tensor floats = Must(Tensor::Zeros(DType::kFloat32, {4}));
  EXPECT_THAT(FillRandom(floats, 0, (1 << 24) + 1, source).message(),
              HasSubstr("cannot hold every integer"));
}

TEST(RandomFillTest, ContinuousDistributionsCheckParametersAndTypes) {
  Tensor x = Must(Tensor::Zeros(DType::kFloat64, {1000}));
  TestSource source(2);
  ASSERT_TRUE(FillExponential(x, 2, source).ok());
  for (double v : Doubles(x)) EXPECT_GE(v, 0);
  ASSERT_TRUE(FillLogNormal(x, 0, 1, source).ok());
  for (double v : Doubles(x)) EXPECT_GT(v, 0);
  ASSERT_TRUE(FillCauchy(x, 5, 1, source).ok());
  EXPECT_THAT(FillExponential(x, 0, source).message(), HasSubstr("lambda must be finite and > 0"));
  EXPECT_THAT(FillCauchy(x, 0, -1, source).message(), HasSubstr("sigma finite and > 0"));
  EXPECT_THAT(FillLogNormal(x, std::nan(""), 1, source).message(), HasSubstr("mean must be finite"));
  Tensor ints = Must(Tensor::Zeros(DType::kInt32, {4}));
  EXPECT_THAT(FillExponential(ints, 1, source).message(), HasSubstr("not defined for"));
}

TEST(RandomFillTest, GeometricCountsTrialsAndWritesNothingThatDoesNotFit) {
  Tensor x = Must(Tensor::Zeros(DType::kInt32, {1000}));
  TestSource source(3);
  ASSERT_TRUE(FillGeometric(x, 0.5, source).ok());
  for (double v : Doubles(x)) EXPECT_GE(v, 1);
  Tensor bytes = Must(Tensor::Zeros(DType::kUInt8, {1000}));
  // p is the chance of one more: near 1, the counts outgrow a byte.
  EXPECT_THAT(FillGeometric(bytes, 1 - 1e-9, source).message(), HasSubstr("cannot hold"));
  for (double v : Doubles(bytes)) EXPECT_EQ(v, 0);
  EXPECT_THAT(FillGeometric(x, 1, source).message(), HasSubstr("must be in (0, 1)"));
}

}  // namespace
}  // namespace tensor
