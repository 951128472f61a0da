#include "tensor/convert.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
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
using ::tensor::testing::ValuesOf;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

std::vector<NamedTensor> ViewsOf(DType dtype) {
  std::vector<double> values = Iota(24);
  if (dtype == DType::kBool) {
    for (int i = 0; i < 24; ++i) values[i] = i % 3 == 0 ? 1 : 0;
  }
  Tensor base = Must(TensorOf(dtype, {4, 6}, values));
  return EveryLayoutOf(base);
}

template <typename T>
class ConvertTypedTest : public ::testing::Test {};

using AllTypes = ::testing::Types<bool, std::uint8_t, std::int8_t, std::int16_t, std::int32_t,
                                  std::int64_t, Float16, BFloat16, float, double>;
TYPED_TEST_SUITE(ConvertTypedTest, AllTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(ConvertTypedTest, CloneOfEveryLayoutIsAnOwnedRowMajorCopyOfItsValues) {
  for (const NamedTensor& view : ViewsOf(DTypeOf<TypeParam>())) {
    SCOPED_TRACE(view.name);
    ASSERT_OK_AND_ASSIGN(Tensor clone, Clone(view.tensor));
    EXPECT_EQ(clone.dtype(), view.tensor.dtype());
    EXPECT_EQ(clone.shape(), view.tensor.shape());
    EXPECT_TRUE(clone.owns_storage());
    EXPECT_NE(clone.storage(), view.tensor.storage());
    EXPECT_EQ(clone.layout(), Must(Layout::Contiguous(view.tensor.shape())));
    EXPECT_THAT(Doubles(clone), ElementsAreArray(Doubles(view.tensor)));
  }
}

TYPED_TEST(ConvertTypedTest, SmallValuesSurviveConversionToEveryDType) {
  using From = TypeParam;
  const DType from = DTypeOf<From>();
  const std::vector<double> values =
      from == DType::kBool ? std::vector<double>{0, 1, 1, 0} : std::vector<double>{0, 1, 100, 127};
  for (const NamedTensor& view :
       {NamedTensor{"contiguous", Must(TensorOf(from, {2, 2}, values))},
        NamedTensor{"transposed",
                    Must(Must(TensorOf(from, {2, 2}, {values[0], values[2], values[1], values[3]}))
                             .Transpose(0, 1))}}) {
    for (DType to : kAllDTypes) {
      SCOPED_TRACE(::testing::Message() << view.name << " to " << DTypeName(to));
      ASSERT_OK_AND_ASSIGN(Tensor converted, Convert(view.tensor, to));
      EXPECT_EQ(converted.dtype(), to);
      EXPECT_THAT(converted.shape(), ElementsAre(2, 2));
      EXPECT_TRUE(converted.owns_storage());
      std::vector<double> expected = values;
      if (to == DType::kBool) {
        for (double& v : expected) v = v != 0 ? 1 : 0;
      }
      EXPECT_THAT(Doubles(converted), ElementsAreArray(expected));
    }
  }
}

TEST(CloneTest, CloneAndSourceAreIndependent) {
  Tensor t = Must(MakeTensor<std::int32_t>({2, 2}, {1, 2, 3, 4}));
  Tensor view = Must(t.Transpose(0, 1));
  ASSERT_OK_AND_ASSIGN(Tensor clone, Clone(view));
  ASSERT_OK(ApplyScalars(clone, ElementOp::kAdd, {10}));
  EXPECT_THAT(Doubles(t), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(Doubles(clone), ElementsAre(11, 13, 12, 14));
  ASSERT_OK(ApplyScalars(t, ElementOp::kMul, {-1}));
  EXPECT_THAT(Doubles(clone), ElementsAre(11, 13, 12, 14));
  // A view, by contrast, shares the storage and sees the change.
  EXPECT_EQ(view.storage(), t.storage());
  EXPECT_THAT(Doubles(view), ElementsAre(-1, -3, -2, -4));
}

TEST(CloneTest, CloneOfAnExpandedViewHasOneElementPerLogicalElement) {
  Tensor row = Must(MakeTensor<float>({1, 3}, {1, 2, 3}));
  ASSERT_OK_AND_ASSIGN(Tensor clone, Clone(Must(row.Expand({2, 3}))));
  ASSERT_OK(ApplyScalars(clone, ElementOp::kAdd, {1, 2, 3}));  // writable: no shared elements
  ASSERT_OK(ApplyScalars(Must(clone.Select(0, 0)), ElementOp::kAssign, {0}));
  EXPECT_THAT(Doubles(clone), ElementsAre(0, 0, 0, 2, 4, 6));
  EXPECT_THAT(Doubles(row), ElementsAre(1, 2, 3));
}

TEST(CloneTest, CloneOfALentTensorOwnsItsStorageAndOutlivesTheLoan) {
  LentTensor lent(DType::kUInt8, {2, 3}, {1, 2, 3, 4, 5, 6}, "engine frame");
  EXPECT_FALSE(lent.tensor().owns_storage());
  ASSERT_OK_AND_ASSIGN(Tensor clone, Clone(lent.tensor()));
  ASSERT_OK_AND_ASSIGN(Tensor converted,
                       Convert(Must(lent.tensor().Narrow(1, 1, 2)), DType::kFloat32));
  lent.Revoke();
  EXPECT_TRUE(clone.owns_storage());
  EXPECT_TRUE(converted.owns_storage());
  EXPECT_OK(clone.CheckValid());
  EXPECT_THAT(Doubles(clone), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(Doubles(converted), ElementsAre(2, 3, 5, 6));
}

TEST(CloneTest, EmptyAndDefaultTensorsCloneToEmptyTensors) {
  ASSERT_OK_AND_ASSIGN(Tensor none, Clone(Tensor()));
  EXPECT_EQ(none.rank(), 0);
  EXPECT_EQ(none.num_elements(), 0);
  ASSERT_OK_AND_ASSIGN(Tensor empty,
                       Convert(Must(Tensor::Zeros(DType::kInt8, {3, 0})), DType::kFloat64));
  EXPECT_EQ(empty.dtype(), DType::kFloat64);
  EXPECT_THAT(empty.shape(), ElementsAre(3, 0));
  EXPECT_THAT(Doubles(empty), IsEmpty());
}

TEST(ConvertTest, FloatToIntegerTruncatesTowardZero) {
  Tensor t = Must(MakeTensor<double>({6}, {1.9, -1.9, 0.5, -0.5, 2.999, -2.999}));
  EXPECT_THAT(Doubles(Must(Convert(t, DType::kInt32))), ElementsAre(1, -1, 0, 0, 2, -2));
  EXPECT_THAT(Doubles(Must(Convert(t, DType::kInt8))), ElementsAre(1, -1, 0, 0, 2, -2));
  Tensor f = Must(MakeTensor<float>({2}, {255.75f, 0.25f}));
  EXPECT_THAT(Doubles(Must(Convert(f, DType::kUInt8))), ElementsAre(255, 0));
  Tensor h = Must(TensorOf(DType::kFloat16, {2}, {-7.5, 7.5}));
  EXPECT_THAT(Doubles(Must(Convert(h, DType::kInt16))), ElementsAre(-7, 7));
}

TEST(ConvertTest, ValuesTheTargetCannotHoldAreAnError) {
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::string name;
    Tensor source;
    DType to;
  };
  const Case cases[] = {
      {"300 to uint8", Must(MakeTensor<double>({2}, {1, 300})), DType::kUInt8},
      {"256 to uint8", Must(MakeTensor<std::int32_t>({2}, {1, 256})), DType::kUInt8},
      {"-1 to uint8", Must(MakeTensor<double>({2}, {1, -1})), DType::kUInt8},
      {"-1 (int8) to uint8", Must(MakeTensor<std::int8_t>({2}, {1, -1})), DType::kUInt8},
      {"128 to int8", Must(MakeTensor<double>({2}, {1, 128})), DType::kInt8},
      {"-129 to int8", Must(MakeTensor<std::int16_t>({2}, {1, -129})), DType::kInt8},
      {"200 (uint8) to int8", Must(MakeTensor<std::uint8_t>({2}, {1, 200})), DType::kInt8},
      {"40000 to int16", Must(MakeTensor<float>({2}, {1, 40000})), DType::kInt16},
      {"int64 max to int32",
       Must(MakeTensor<std::int64_t>({2}, {1, std::numeric_limits<std::int64_t>::max()})),
       DType::kInt32},
      {"NaN to int32", Must(MakeTensor<double>({2}, {1, std::nan("")})), DType::kInt32},
      {"NaN to uint8", Must(MakeTensor<float>({2}, {1, NAN})), DType::kUInt8},
      {"float16 NaN to int64", Must(TensorOf(DType::kFloat16, {2}, {1, std::nan("")})),
       DType::kInt64},
      {"inf to int64", Must(MakeTensor<double>({2}, {1, inf})), DType::kInt64},
      {"-inf to int32", Must(MakeTensor<double>({2}, {1, -inf})), DType::kInt32},
      {"float16 inf to int16", Must(TensorOf(DType::kFloat16, {2}, {1, inf})), DType::kInt16},
      {"2^63 to int64", Must(MakeTensor<double>({2}, {1, 9223372036854775808.0})), DType::kInt64},
      {"float 2^63 to int64", Must(MakeTensor<float>({2}, {1, 9223372036854775808.0f})),
       DType::kInt64},
      {"2^31 to int32", Must(MakeTensor<double>({2}, {1, 2147483648.0})), DType::kInt32},
      {"-2^31 - 1 to int32", Must(MakeTensor<double>({2}, {1, -2147483649.0})), DType::kInt32},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_FALSE(Convert(c.source, c.to).ok());
    // Also from a non-contiguous view of the same values.
    EXPECT_FALSE(Convert(Must(c.source.Reverse(0)), c.to).ok());
  }
}

TEST(ConvertTest, ValuesAtTheEdgesOfTheTargetRangeConvert) {
  Tensor edges = Must(MakeTensor<double>(
      {4}, {-9223372036854775808.0, 9223372036854774784.0, -2147483648.0, 2147483647.9}));
  ASSERT_OK_AND_ASSIGN(Tensor int64s, Convert(Must(edges.Narrow(0, 0, 2)), DType::kInt64));
  EXPECT_THAT(ValuesOf<std::int64_t>(int64s),
              ElementsAre(std::numeric_limits<std::int64_t>::min(), 9223372036854774784));
  ASSERT_OK_AND_ASSIGN(Tensor int32s, Convert(Must(edges.Narrow(0, 2, 2)), DType::kInt32));
  EXPECT_THAT(ValuesOf<std::int32_t>(int32s),
              ElementsAre(std::numeric_limits<std::int32_t>::min(),
                          std::numeric_limits<std::int32_t>::max()));
  Tensor bytes = Must(MakeTensor<std::int64_t>({2}, {0, 255}));
  EXPECT_THAT(Doubles(Must(Convert(bytes, DType::kUInt8))), ElementsAre(0, 255));
  Tensor chars = Must(MakeTensor<std::int64_t>({2}, {-128, 127}));
  EXPECT_THAT(Doubles(Must(Convert(chars, DType::kInt8))), ElementsAre(-128, 127));
}

TEST(ConvertTest, NonzeroBecomesTrue) {
  Tensor ints = Must(MakeTensor<std::int64_t>({4}, {0, 1, -5, 1LL << 40}));
  EXPECT_THAT(Doubles(Must(Convert(ints, DType::kBool))), ElementsAre(0, 1, 1, 1));
  Tensor floats = Must(MakeTensor<double>({4}, {0.0, -0.0, 0.25, -1e-300}));
  EXPECT_THAT(Doubles(Must(Convert(floats, DType::kBool))), ElementsAre(0, 0, 1, 1));
  Tensor halves = Must(TensorOf(DType::kBFloat16, {2}, {0, -3}));
  EXPECT_THAT(Doubles(Must(Convert(halves, DType::kBool))), ElementsAre(0, 1));
}

TEST(ConvertTest, TrueBecomesOne) {
  Tensor b = Must(TensorOf(DType::kBool, {3}, {1, 0, 1}));
  for (DType to : {DType::kUInt8, DType::kInt64, DType::kFloat16, DType::kFloat64}) {
    SCOPED_TRACE(DTypeName(to));
    EXPECT_THAT(Doubles(Must(Convert(b, to))), ElementsAre(1, 0, 1));
  }
}

TEST(ConvertTest, ToHalfTypesRoundsToNearest) {
  Tensor t = Must(MakeTensor<double>({3}, {1.0 / 3.0, 2049, -65504}));
  ASSERT_OK_AND_ASSIGN(Tensor h, Convert(t, DType::kFloat16));
  const std::vector<Float16> halves = ValuesOf<Float16>(h);
  ASSERT_EQ(halves.size(), 3u);
  EXPECT_EQ(halves[0].bits(), Float16(1.0f / 3.0f).bits());
  EXPECT_EQ(static_cast<float>(halves[1]), 2048.0f);  // ties to even
  EXPECT_EQ(static_cast<float>(halves[2]), -65504.0f);
  ASSERT_OK_AND_ASSIGN(Tensor b, Convert(t, DType::kBFloat16));
  const std::vector<BFloat16> bhalves = ValuesOf<BFloat16>(b);
  ASSERT_EQ(bhalves.size(), 3u);
  EXPECT_EQ(bhalves[0].bits(), BFloat16(1.0f / 3.0f).bits());
  // And back to float exactly.
  EXPECT_THAT(ValuesOf<float>(Must(Convert(h, DType::kFloat32))),
              ElementsAre(static_cast<float>(Float16(1.0f / 3.0f)), 2048.0f, -65504.0f));
}

TEST(ConvertTest, Int64ToDoubleRoundsToNearest) {
  Tensor t = Must(MakeTensor<std::int64_t>({2}, {(1LL << 53) + 1, -3}));
  EXPECT_THAT(ValuesOf<double>(Must(Convert(t, DType::kFloat64))),
              ElementsAre(9007199254740992.0, -3.0));
}

// A transposed matrix is copied in tiles; sizes around the tile edge, with
// and without conversion, and with the source walking backwards.
TEST(ConvertTest, TransposedSourcesOfManySizesConvertCorrectly) {
  const Index sizes[][2] = {{1, 100}, {100, 1}, {2, 2}, {31, 33}, {32, 32}, {33, 65}, {70, 40}};
  for (const auto& size : sizes) {
    const Index rows = size[0], cols = size[1];
    Tensor base = Must(TensorOf(DType::kInt32, {cols, rows}, Iota(rows * cols, -50)));
    Tensor transposed = Must(base.Transpose(0, 1));
    const NamedTensor sources[] = {
        {"transposed", transposed},
        {"transposed, columns reversed", Must(transposed.Reverse(1))},
        {"transposed, rows reversed", Must(transposed.Reverse(0))},
    };
    for (const NamedTensor& source : sources) {
      for (DType to :
           {DType::kInt32, DType::kInt64, DType::kInt16, DType::kFloat32, DType::kFloat64}) {
        SCOPED_TRACE(::testing::Message()
                     << rows << "x" << cols << " " << source.name << " to " << DTypeName(to));
        ASSERT_OK_AND_ASSIGN(Tensor converted, Convert(source.tensor, to));
        EXPECT_THAT(Doubles(converted), ElementsAreArray(Doubles(source.tensor)));
      }
    }
  }
}

TEST(ConvertValidityTest, RevokedTensorCannotBeClonedOrConverted) {
  LentTensor lent(DType::kFloat32, {2, 2}, {1, 2, 3, 4}, "observation 'RGB_INTERLEAVED'");
  Tensor transposed = Must(lent.tensor().Transpose(0, 1));
  Tensor empty_view = Must(lent.tensor().Narrow(1, 0, 0));
  lent.Revoke();
  for (const Tensor& t : {lent.tensor(), transposed, empty_view}) {
    ExpectInvalid(Clone(t).status(), lent.lender());
    ExpectInvalid(Convert(t, DType::kFloat32).status(), lent.lender());
    ExpectInvalid(Convert(t, DType::kUInt8).status(), lent.lender());
  }
}

}  // namespace
}  // namespace tensor
