#include "tensor/compare.h"

#include <cmath>
#include <cstdint>
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
using ::tensor::testing::Iota;
using ::tensor::testing::LentTensor;
using ::tensor::testing::EveryLayoutOf;
using ::tensor::testing::Must;
using ::tensor::testing::NamedTensor;
using ::tensor::testing::TensorOf;

// Views of a 4x6 tensor in every kind of layout. For bool the values are
// 0 and 1, so the views still hold different values in different places.
std::vector<NamedTensor> ViewsOf(DType dtype) {
  std::vector<double> values = Iota(24);
  if (dtype == DType::kBool) {
    for (int i = 0; i < 24; ++i) values[i] = (i * 7 % 5) < 2 ? 1 : 0;
  }
  Tensor base = Must(TensorOf(dtype, {4, 6}, values));
  return EveryLayoutOf(base);
}

template <typename T>
class CompareTypedTest : public ::testing::Test {};

using AllTypes = ::testing::Types<bool, std::uint8_t, std::int8_t, std::int16_t, std::int32_t,
                                  std::int64_t, Float16, BFloat16, float, double>;
TYPED_TEST_SUITE(CompareTypedTest, AllTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(CompareTypedTest, EveryLayoutEqualsAContiguousTensorOfItsValues) {
  const DType dtype = DTypeOf<TypeParam>();
  for (const NamedTensor& view : ViewsOf(dtype)) {
    SCOPED_TRACE(view.name);
    const std::vector<double> values = Doubles(view.tensor);
    Tensor copy = Must(TensorOf(dtype, view.tensor.shape(), values));
    EXPECT_TRUE(Must(Equal(view.tensor, copy)));
    EXPECT_TRUE(Must(Equal(copy, view.tensor)));
    EXPECT_TRUE(Must(Equal(view.tensor, view.tensor)));
  }
}

TYPED_TEST(CompareTypedTest, ADifferenceAtAnyElementOfAnyLayoutIsFound) {
  const DType dtype = DTypeOf<TypeParam>();
  for (const NamedTensor& view : ViewsOf(dtype)) {
    const std::vector<double> values = Doubles(view.tensor);
    for (size_t i = 0; i < values.size(); ++i) {
      SCOPED_TRACE(::testing::Message() << view.name << ", element " << i);
      std::vector<double> changed = values;
      changed[i] = dtype == DType::kBool ? 1 - changed[i] : changed[i] + 1;
      Tensor copy = Must(TensorOf(dtype, view.tensor.shape(), changed));
      EXPECT_FALSE(Must(Equal(view.tensor, copy)));
      EXPECT_FALSE(Must(Equal(copy, view.tensor)));
    }
  }
}

TYPED_TEST(CompareTypedTest, EmptyTensorsOfOneShapeAreEqual) {
  const DType dtype = DTypeOf<TypeParam>();
  EXPECT_TRUE(Must(Equal(Must(Tensor::Zeros(dtype, {0})), Must(Tensor::Zeros(dtype, {0})))));
  EXPECT_TRUE(Must(Equal(Must(Tensor::Zeros(dtype, {3, 0})), Must(Tensor::Zeros(dtype, {3, 0})))));
  EXPECT_FALSE(Must(Equal(Must(Tensor::Zeros(dtype, {3, 0})), Must(Tensor::Zeros(dtype, {0, 3})))));
  EXPECT_FALSE(Must(Equal(Must(Tensor::Zeros(dtype, {0})), Must(Tensor::Zeros(dtype, {1})))));
}

// DeepMind Lab compared non-contiguous tensors in storage order; these are
// the cases that got wrong.
TEST(EqualTest, TransposedViewEqualsAContiguousTensorHoldingTheTransposedValues) {
  Tensor z = Must(MakeTensor<double>({3, 2}, {1, 2, 3, 4, 5, 6}));
  Tensor zt = Must(MakeTensor<double>({2, 3}, {1, 3, 5, 2, 4, 6}));
  EXPECT_TRUE(Must(Equal(Must(z.Transpose(0, 1)), zt)));
  EXPECT_TRUE(Must(Equal(zt, Must(z.Transpose(0, 1)))));
  EXPECT_TRUE(Must(Equal(z, Must(zt.Transpose(0, 1)))));
}

TEST(EqualTest, TransposedViewDiffersFromTheSameBytesInRowMajorOrder) {
  // x^T and y share no layout but do share their bytes in memory order;
  // their values differ.
  Tensor x = Must(MakeTensor<std::int32_t>({2, 2}, {1, 2, 3, 4}));
  Tensor y = Must(MakeTensor<std::int32_t>({2, 2}, {1, 2, 3, 4}));
  EXPECT_FALSE(Must(Equal(Must(x.Transpose(0, 1)), y)));
  EXPECT_FALSE(Must(Equal(y, Must(x.Transpose(0, 1)))));
  EXPECT_FALSE(Must(Equal(Must(x.Transpose(0, 1)), x)));
  EXPECT_TRUE(Must(Equal(Must(x.Transpose(0, 1)), Must(y.Transpose(0, 1)))));
}

TEST(EqualTest, TwoReversedViewsCompareByTheirValues) {
  Tensor a = Must(MakeTensor<std::uint8_t>({4}, {1, 2, 3, 4}));
  Tensor b = Must(MakeTensor<std::uint8_t>({4}, {1, 2, 3, 4}));
  Tensor c = Must(MakeTensor<std::uint8_t>({4}, {4, 3, 2, 1}));
  EXPECT_TRUE(Must(Equal(Must(a.Reverse(0)), Must(b.Reverse(0)))));
  EXPECT_TRUE(Must(Equal(Must(a.Reverse(0)), c)));
  EXPECT_FALSE(Must(Equal(Must(a.Reverse(0)), b)));
  EXPECT_FALSE(Must(Equal(Must(a.Reverse(0)), Must(c.Reverse(0)))));
}

TEST(EqualTest, TwoDifferentNonContiguousLayoutsOfTheSameValuesAreEqual) {
  // p^T (column-major in memory) against a narrowed view of a wider matrix
  // (rows with a gap); both are [[1, 2, 3], [4, 5, 6]].
  Tensor p = Must(MakeTensor<float>({3, 2}, {1, 4, 2, 5, 3, 6}));
  Tensor wide = Must(MakeTensor<float>({2, 5}, {0, 1, 2, 3, 0, 0, 4, 5, 6, 0}));
  Tensor pt = Must(p.Transpose(0, 1));
  Tensor narrow = Must(wide.Narrow(1, 1, 3));
  EXPECT_TRUE(Must(Equal(pt, narrow)));
  EXPECT_TRUE(Must(Equal(narrow, pt)));
  // And a reversed-twice view of the reversed values.
  Tensor backwards = Must(MakeTensor<float>({2, 3}, {6, 5, 4, 3, 2, 1}));
  EXPECT_TRUE(Must(Equal(Must(Must(backwards.Reverse(0)).Reverse(1)), pt)));
  // One different element in the gap-strided view makes them unequal.
  Tensor other = Must(MakeTensor<float>({2, 5}, {0, 1, 2, 3, 0, 0, 4, 5, 7, 0}));
  EXPECT_FALSE(Must(Equal(pt, Must(other.Narrow(1, 1, 3)))));
}

TEST(EqualTest, ExpandedViewEqualsTheRepeatedValues) {
  Tensor row = Must(MakeTensor<std::int64_t>({1, 3}, {7, 8, 9}));
  Tensor repeated = Must(MakeTensor<std::int64_t>({2, 3}, {7, 8, 9, 7, 8, 9}));
  EXPECT_TRUE(Must(Equal(Must(row.Expand({2, 3})), repeated)));
  Tensor almost = Must(MakeTensor<std::int64_t>({2, 3}, {7, 8, 9, 7, 8, 0}));
  EXPECT_FALSE(Must(Equal(Must(row.Expand({2, 3})), almost)));
}

TEST(EqualTest, SeedDocumentComparisonExamples) {
  Tensor bt = Must(MakeTensor<std::uint8_t>({3, 2}, {1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(Must(Equal(bt, Must(MakeTensor<std::uint8_t>({3, 2}, {1, 2, 3, 4, 5, 6})))));
  // Values differ.
  EXPECT_FALSE(Must(Equal(bt, Must(MakeTensor<std::uint8_t>({3, 2}, {1, 2, 3, 4, 7, 8})))));
  // Shape differs.
  EXPECT_FALSE(Must(Equal(bt, Must(MakeTensor<std::uint8_t>({2, 3}, {1, 2, 3, 4, 5, 6})))));
  // Type differs.
  EXPECT_FALSE(Must(Equal(bt, Must(MakeTensor<std::int32_t>({3, 2}, {1, 2, 3, 4, 5, 6})))));
}

TEST(EqualTest, SameValuesInDifferentDTypesAreNotEqual) {
  EXPECT_FALSE(Must(Equal(Must(MakeTensor<std::int32_t>({2}, {1, 2})),
                          Must(MakeTensor<std::int64_t>({2}, {1, 2})))));
  EXPECT_FALSE(
      Must(Equal(Must(MakeTensor<float>({2}, {1, 2})), Must(MakeTensor<double>({2}, {1, 2})))));
  EXPECT_FALSE(Must(Equal(Must(TensorOf(DType::kFloat16, {2}, {1, 2})),
                          Must(TensorOf(DType::kBFloat16, {2}, {1, 2})))));
  EXPECT_FALSE(Must(
      Equal(Must(Tensor::Zeros(DType::kFloat64, {0})), Must(Tensor::Zeros(DType::kFloat32, {0})))));
}

TEST(EqualTest, SameElementsInDifferentShapesAreNotEqual) {
  Tensor t = Must(MakeTensor<double>({2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_FALSE(Must(Equal(t, Must(t.Reshape({3, 2})))));
  EXPECT_FALSE(Must(Equal(t, Must(t.Reshape({6})))));
  EXPECT_FALSE(Must(Equal(t, Must(t.Reshape({1, 2, 3})))));
  // A default tensor has shape [], not [0].
  EXPECT_FALSE(Must(Equal(Tensor(), Must(Tensor::Zeros(DType::kFloat64, {0})))));
  EXPECT_TRUE(Must(Equal(Tensor(), Tensor())));
}

TEST(EqualTest, NaNEqualsNothingNotEvenItself) {
  Tensor t = Must(MakeTensor<double>({2}, {1, std::nan("")}));
  EXPECT_FALSE(Must(Equal(t, t)));
  EXPECT_FALSE(Must(Equal(t, Must(MakeTensor<double>({2}, {1, std::nan("")})))));
  Tensor h = Must(TensorOf(DType::kFloat16, {1}, {std::nan("")}));
  EXPECT_FALSE(Must(Equal(h, h)));
  Tensor b = Must(TensorOf(DType::kBFloat16, {1}, {std::nan("")}));
  EXPECT_FALSE(Must(Equal(b, b)));
}

TEST(EqualTest, NegativeZeroEqualsZero) {
  EXPECT_TRUE(Must(
      Equal(Must(MakeTensor<double>({2}, {-0.0, 1})), Must(MakeTensor<double>({2}, {0.0, 1})))));
  EXPECT_TRUE(Must(Equal(Must(TensorOf(DType::kFloat16, {1}, {-0.0})),
                         Must(TensorOf(DType::kFloat16, {1}, {0.0})))));
}

TEST(EqualTest, ValidLentTensorComparesLikeAnOwnedOne) {
  LentTensor lent(DType::kInt16, {2, 2}, {1, 2, 3, 4}, "frame");
  EXPECT_TRUE(Must(Equal(lent.tensor(), Must(MakeTensor<std::int16_t>({2, 2}, {1, 2, 3, 4})))));
  EXPECT_TRUE(Must(Equal(Must(lent.tensor().Transpose(0, 1)),
                         Must(MakeTensor<std::int16_t>({2, 2}, {1, 3, 2, 4})))));
}

TEST(EqualTest, RevokedTensorOnEitherSideIsAnErrorWhateverTheOtherIs) {
  LentTensor lent(DType::kFloat64, {2, 2}, {1, 2, 3, 4}, "observation 'RGBD'");
  Tensor transposed = Must(lent.tensor().Transpose(0, 1));
  Tensor empty_view = Must(lent.tensor().Narrow(0, 0, 0));
  lent.Revoke();
  const Tensor others[] = {
      Must(MakeTensor<double>({2, 2}, {1, 2, 3, 4})),  // equal before the loan ended
      Must(MakeTensor<float>({2, 2}, {1, 2, 3, 4})),   // another dtype
      Must(MakeTensor<double>({3}, {1, 2, 3})),        // another shape
      Tensor(),
  };
  for (const Tensor& invalid : {lent.tensor(), transposed, empty_view}) {
    for (const Tensor& other : others) {
      ExpectInvalid(Equal(invalid, other).status(), lent.lender());
      ExpectInvalid(Equal(other, invalid).status(), lent.lender());
    }
    ExpectInvalid(Equal(invalid, invalid).status(), lent.lender());
  }
}

}  // namespace
}  // namespace tensor
