#include "tensor/reduce.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/half.h"
#include "tensor/tensor.h"
#include "tensor/typed_view.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using ::tensor::testing::Doubles;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::LentTensor;
using ::tensor::testing::EveryLayoutOf;
using ::tensor::testing::Must;
using ::tensor::testing::NamedTensor;
using ::tensor::testing::TensorOf;

// Views of one tensor in every kind of layout; values 1, 2, 3, 1, 2, 3, ...
// keep every sum and product exact in double.
std::vector<NamedTensor> ViewsOf(DType dtype) {
  std::vector<double> values(24);
  for (int i = 0; i < 24; ++i) values[i] = i % 3 + 1;
  Tensor base = Must(TensorOf(dtype, {4, 6}, values));
  return EveryLayoutOf(base);
}

template <typename T>
class ReduceTypedTest : public ::testing::Test {};

using NumericTypes = ::testing::Types<std::uint8_t, std::int8_t, std::int16_t, std::int32_t,
                                      std::int64_t, Float16, BFloat16, float, double>;
TYPED_TEST_SUITE(ReduceTypedTest, NumericTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(ReduceTypedTest, SumProductAndLengthSquaredMatchReferenceOnEveryLayout) {
  for (const NamedTensor& view : ViewsOf(DTypeOf<TypeParam>())) {
    SCOPED_TRACE(view.name);
    double sum = 0, product = 1, squares = 0;
    for (double v : Doubles(view.tensor)) {
      sum += v;
      product *= v;
      squares += v * v;
    }
    ASSERT_OK_AND_ASSIGN(double got_sum, Sum(view.tensor));
    ASSERT_OK_AND_ASSIGN(double got_product, Product(view.tensor));
    ASSERT_OK_AND_ASSIGN(double got_squares, LengthSquared(view.tensor));
    EXPECT_EQ(got_sum, sum);
    EXPECT_EQ(got_product, product);
    EXPECT_EQ(got_squares, squares);
  }
}

TYPED_TEST(ReduceTypedTest, DotPairsElementsInLayoutOrderForEveryPairOfLayouts) {
  const std::vector<NamedTensor> views = ViewsOf(DTypeOf<TypeParam>());
  for (const NamedTensor& lhs : views) {
    for (const NamedTensor& rhs : views) {
      if (lhs.tensor.num_elements() != rhs.tensor.num_elements()) continue;
      SCOPED_TRACE(lhs.name + " . " + rhs.name);
      const std::vector<double> a = Doubles(lhs.tensor);
      const std::vector<double> b = Doubles(rhs.tensor);
      double expected = 0;
      for (size_t i = 0; i < a.size(); ++i) expected += a[i] * b[i];
      ASSERT_OK_AND_ASSIGN(double got, Dot(lhs.tensor, rhs.tensor));
      EXPECT_EQ(got, expected);
    }
  }
}

TYPED_TEST(ReduceTypedTest, EmptyTensorsSumToZeroAndMultiplyToOne) {
  const DType dtype = DTypeOf<TypeParam>();
  for (const Tensor& empty : {Must(Tensor::Zeros(dtype, {0})), Must(Tensor::Zeros(dtype, {3, 0})),
                              Must(Must(Tensor::Zeros(dtype, {0, 4})).Transpose(0, 1))}) {
    EXPECT_EQ(Must(Sum(empty)), 0);
    EXPECT_EQ(Must(Product(empty)), 1);
    EXPECT_EQ(Must(LengthSquared(empty)), 0);
    EXPECT_EQ(Must(Dot(empty, empty)), 0);
  }
  // Shapes are ignored by Dot, so [0] . [3, 0] is the empty sum too.
  EXPECT_EQ(Must(Dot(Must(Tensor::Zeros(dtype, {0})), Must(Tensor::Zeros(dtype, {3, 0})))), 0);
}

TEST(ReduceTest, DefaultTensorHasNoElementsToReduce) {
  const Tensor none;
  EXPECT_EQ(Must(Sum(none)), 0);
  EXPECT_EQ(Must(Product(none)), 1);
  EXPECT_EQ(Must(LengthSquared(none)), 0);
  EXPECT_EQ(Must(Dot(none, none)), 0);
}

TEST(ReduceTest, SumAccumulatesInDoubleNotInTheElementType) {
  EXPECT_EQ(Must(Sum(Must(MakeTensor<std::uint8_t>({3}, {200, 200, 200})))), 600);
  EXPECT_EQ(Must(Sum(Must(MakeTensor<std::int8_t>({2}, {100, 100})))), 200);
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  EXPECT_EQ(Must(Sum(Must(MakeTensor<std::int32_t>({2}, {kMax, kMax})))), 4294967294.0);
  // In float, 2^24 + 1 + 1 stays 2^24.
  EXPECT_EQ(Must(Sum(Must(MakeTensor<float>({3}, {16777216.0f, 1.0f, 1.0f})))), 16777218.0);
  // In float16, 2048 + 1 + 1 stays 2048.
  EXPECT_EQ(Must(Sum(Must(TensorOf(DType::kFloat16, {3}, {2048, 1, 1})))), 2050.0);
}

TEST(ReduceTest, ProductAndLengthSquaredAccumulateInDouble) {
  EXPECT_EQ(Must(Product(Must(MakeTensor<std::uint8_t>({2}, {16, 16})))), 256);
  EXPECT_EQ(Must(Product(Must(MakeTensor<std::int32_t>({2}, {65536, 65536})))), 4294967296.0);
  EXPECT_EQ(Must(Product(Must(MakeTensor<std::int8_t>({3}, {-2, 3, -4})))), 24);
  EXPECT_EQ(Must(LengthSquared(Must(MakeTensor<std::int8_t>({2}, {-3, 4})))), 25);
  EXPECT_EQ(Must(LengthSquared(Must(MakeTensor<std::int8_t>({1}, {-128})))), 16384);
  EXPECT_EQ(Must(LengthSquared(Must(MakeTensor<std::uint8_t>({2}, {255, 255})))), 130050);
}

TEST(ReduceTest, NegativeAndFractionalValues) {
  Tensor t = Must(MakeTensor<double>({2, 2}, {-1.5, 0.25, 2, -0.5}));
  EXPECT_EQ(Must(Sum(t)), 0.25);
  EXPECT_EQ(Must(Product(t)), 0.375);
  EXPECT_EQ(Must(LengthSquared(t)), 2.25 + 0.0625 + 4 + 0.25);
}

TEST(ReduceTest, SumOfBoolCountsTheTrueElements) {
  Tensor b = Must(TensorOf(DType::kBool, {4}, {1, 0, 1, 1}));
  EXPECT_EQ(Must(Sum(b)), 3);
  EXPECT_EQ(Must(Product(b)), 0);
}

TEST(ReduceTest, NaNAndInfinitiesPropagate) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(Must(Sum(Must(MakeTensor<double>({2}, {1, std::nan("")}))))));
  EXPECT_TRUE(std::isnan(Must(Sum(Must(MakeTensor<double>({2}, {inf, -inf}))))));
  EXPECT_EQ(Must(Sum(Must(MakeTensor<float>({2}, {1, INFINITY})))), inf);
  EXPECT_TRUE(std::isnan(Must(Product(Must(MakeTensor<double>({2}, {0, inf}))))));
}

TEST(DotTest, ShapesAreIgnoredAndElementsPairInLayoutOrder) {
  Tensor t = Must(MakeTensor<std::int32_t>({2, 3}, {1, 2, 3, 4, 5, 6}));
  Tensor flat = Must(MakeTensor<std::int32_t>({6}, {1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(Must(Dot(t, flat)), 1 + 2 + 3 + 8 + 10 + 12);
  // t^T in layout order is 1, 4, 2, 5, 3, 6.
  EXPECT_EQ(Must(Dot(t, Must(t.Transpose(0, 1)))), 1 * 1 + 2 * 4 + 3 * 2 + 4 * 5 + 5 * 3 + 6 * 6);
  EXPECT_EQ(Must(Dot(t, t)), 91);
  Tensor a = Must(MakeTensor<std::int32_t>({3}, {1, 2, 3}));
  Tensor b = Must(MakeTensor<std::int32_t>({3}, {4, 5, 6}));
  EXPECT_EQ(Must(Dot(a, b)), 32);
  EXPECT_EQ(Must(Dot(a, Must(b.Reverse(0)))), 28);
}

TEST(DotTest, IntegerProductsDoNotWrapInTheElementType) {
  Tensor a = Must(MakeTensor<std::int8_t>({2}, {-128, 127}));
  EXPECT_EQ(Must(Dot(a, a)), 16384 + 16129);
  Tensor u = Must(MakeTensor<std::uint8_t>({2}, {255, 255}));
  EXPECT_EQ(Must(Dot(u, u)), 130050);
}

TEST(DotTest, DifferentDTypesAreAnError) {
  Tensor a = Must(MakeTensor<std::int32_t>({3}, {1, 2, 3}));
  Tensor b = Must(MakeTensor<std::int64_t>({3}, {1, 2, 3}));
  Tensor c = Must(MakeTensor<float>({3}, {1, 2, 3}));
  EXPECT_FALSE(Dot(a, b).ok());
  EXPECT_FALSE(Dot(a, c).ok());
  EXPECT_FALSE(Dot(c, a).ok());
}

TEST(DotTest, DifferentElementCountsAreAnError) {
  Tensor a = Must(MakeTensor<double>({3}, {1, 2, 3}));
  Tensor b = Must(MakeTensor<double>({2, 2}, {1, 2, 3, 4}));
  EXPECT_FALSE(Dot(a, b).ok());
  EXPECT_FALSE(Dot(b, a).ok());
  EXPECT_FALSE(Dot(a, Must(Tensor::Zeros(DType::kFloat64, {0}))).ok());
}

TEST(ReduceValidityTest, ValidLoanIsReducedInPlace) {
  LentTensor lent(DType::kUInt8, {2, 2}, {1, 2, 3, 4}, "reward buffer");
  EXPECT_EQ(Must(Sum(lent.tensor())), 10);
  EXPECT_EQ(Must(Product(Must(lent.tensor().Transpose(0, 1)))), 24);
  EXPECT_EQ(Must(Dot(lent.tensor(), lent.tensor())), 30);
}

TEST(ReduceValidityTest, RevokedTensorIsAnErrorForEveryReductionAndAsEitherDotOperand) {
  LentTensor lent(DType::kFloat64, {2, 3}, {1, 2, 3, 4, 5, 6}, "observation 'VEL'");
  Tensor transposed = Must(lent.tensor().Transpose(0, 1));
  Tensor empty_view = Must(lent.tensor().Narrow(0, 0, 0));
  Tensor owned = Must(MakeTensor<double>({6}, {1, 1, 1, 1, 1, 1}));
  lent.Revoke();
  for (const Tensor& t : {lent.tensor(), transposed}) {
    ExpectInvalid(Sum(t).status(), lent.lender());
    ExpectInvalid(Product(t).status(), lent.lender());
    ExpectInvalid(LengthSquared(t).status(), lent.lender());
    ExpectInvalid(Dot(t, owned).status(), lent.lender());
    ExpectInvalid(Dot(owned, t).status(), lent.lender());
    ExpectInvalid(Dot(t, t).status(), lent.lender());
  }
  // Nothing to read, but the tensor is still invalid.
  ExpectInvalid(Sum(empty_view).status(), lent.lender());
  ExpectInvalid(Product(empty_view).status(), lent.lender());
  ExpectInvalid(Dot(empty_view, Must(Tensor::Zeros(DType::kFloat64, {0}))).status(), lent.lender());
  // Invalidity wins over the other argument's wrong dtype or count.
  Tensor one_float = Must(MakeTensor<float>({1}, {1}));
  ExpectInvalid(Dot(lent.tensor(), one_float).status(), lent.lender());
  ExpectInvalid(Dot(one_float, lent.tensor()).status(), lent.lender());
}

}  // namespace
}  // namespace tensor
