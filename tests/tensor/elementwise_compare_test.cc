// Tests of elementwise_compare.h.
#include "tensor/elementwise_compare.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/allocator.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "tensor/typed_view.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using ::tensor::testing::Doubles;
using ::tensor::testing::EveryLayoutOf;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::Iota;
using ::tensor::testing::LentTensor;
using ::tensor::testing::Must;
using ::tensor::testing::NamedTensor;
using ::tensor::testing::NumericTypes;
using ::tensor::testing::TensorOf;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr CompareOp kAllOps[] = {CompareOp::kLt, CompareOp::kLe, CompareOp::kGt,
                                 CompareOp::kGe, CompareOp::kEq, CompareOp::kNe};

bool Reference(CompareOp op, double a, double b) {
  switch (op) {
    case CompareOp::kLt: return a < b;
    case CompareOp::kLe: return a <= b;
    case CompareOp::kGt: return a > b;
    case CompareOp::kGe: return a >= b;
    case CompareOp::kEq: return a == b;
    case CompareOp::kNe: break;
  }
  return a != b;
}

template <typename T>
class CompareTypedTest : public ::testing::Test {};
TYPED_TEST_SUITE(CompareTypedTest, NumericTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(CompareTypedTest, MasksHaveTheShapeOfXAndFollowEveryLayout) {
  const DType dtype = DTypeOf<TypeParam>();
  Tensor base = Must(TensorOf(dtype, {4, 6}, Iota(24)));
  for (const NamedTensor& view : EveryLayoutOf(base)) {
    SCOPED_TRACE(view.name);
    const std::vector<double> xs = Doubles(view.tensor);
    // The operand: another shape, a reversed layout, values 24 - i.
    const Index n = view.tensor.num_elements();
    std::vector<double> ys = Iota(n, 24, -1);
    Tensor other = Must(Must(TensorOf(dtype, {n}, std::vector<double>(ys.rbegin(), ys.rend())))
                            .Reverse(0));
    for (CompareOp op : kAllOps) {
      SCOPED_TRACE(CompareOpName(op));
      Tensor with_number = Must(CompareScalar(view.tensor, op, 12));
      Tensor with_tensor = Must(CompareTensor(view.tensor, op, other));
      for (const Tensor* mask : {&with_number, &with_tensor}) {
        EXPECT_EQ(mask->dtype(), DType::kUInt8);
        EXPECT_EQ(mask->shape(), view.tensor.shape());
        EXPECT_TRUE(mask->layout().IsContiguous());
      }
      std::vector<double> expected_number, expected_tensor;
      for (size_t i = 0; i < xs.size(); ++i) {
        expected_number.push_back(Reference(op, xs[i], 12));
        expected_tensor.push_back(Reference(op, xs[i], ys[i]));
      }
      EXPECT_THAT(Doubles(with_number), ElementsAreArray(expected_number));
      EXPECT_THAT(Doubles(with_tensor), ElementsAreArray(expected_tensor));
    }
  }
  EXPECT_THAT(Doubles(base), ElementsAreArray(Iota(24)));  // x is only read
}

TEST(CompareScalarTest, IntegersCompareExactlyWithFractionsAndOutOfRangeNumbers) {
  Tensor t = Must(TensorOf(DType::kInt32, {4}, {-2, 2, 3, 4}));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kLt, 2.5))), ElementsAre(1, 1, 0, 0));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kLe, 2.5))), ElementsAre(1, 1, 0, 0));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kGt, 2.5))), ElementsAre(0, 0, 1, 1));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kGe, 2.5))), ElementsAre(0, 0, 1, 1));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kEq, 2.5))), ElementsAre(0, 0, 0, 0));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kNe, 2.5))), ElementsAre(1, 1, 1, 1));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kLt, -2.5))), ElementsAre(0, 0, 0, 0));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kGe, -2.5))), ElementsAre(1, 1, 1, 1));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kLt, 1e30))), ElementsAre(1, 1, 1, 1));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kGt, -1e30))), ElementsAre(1, 1, 1, 1));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kEq, 1e30))), ElementsAre(0, 0, 0, 0));
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kLe, -inf))), ElementsAre(0, 0, 0, 0));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kGe, -inf))), ElementsAre(1, 1, 1, 1));
  Tensor bytes = Must(TensorOf(DType::kUInt8, {2}, {0, 255}));
  EXPECT_THAT(Doubles(Must(CompareScalar(bytes, CompareOp::kGt, -1))), ElementsAre(1, 1));
  EXPECT_THAT(Doubles(Must(CompareScalar(bytes, CompareOp::kLt, 255))), ElementsAre(1, 0));
  EXPECT_THAT(Doubles(Must(CompareScalar(bytes, CompareOp::kLe, 256))), ElementsAre(1, 1));
}

TEST(CompareScalarTest, Int64BeyondTwoToThe53IsNotRoundedToADouble) {
  constexpr std::int64_t kBig = (std::int64_t{1} << 53) + 1;  // no double holds it
  Tensor t = Must(MakeTensor<std::int64_t>({2}, {kBig, std::numeric_limits<std::int64_t>::max()}));
  const double two_to_53 = 9007199254740992.0;
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kEq, two_to_53))), ElementsAre(0, 0));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kGt, two_to_53))), ElementsAre(1, 1));
  // 2^63 is past the largest int64, which double rounds up to it.
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kLt, 9223372036854775808.0))),
              ElementsAre(1, 1));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kEq, 9223372036854775808.0))),
              ElementsAre(0, 0));
}

TEST(CompareScalarTest, FloatsCompareWithTheNumberAsGivenAndNaNEqualsNothing) {
  Tensor t = Must(MakeTensor<float>({2}, {0.1f, 1.0f}));
  // 0.1f is a little above 0.1.
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kGt, 0.1))), ElementsAre(1, 1));
  EXPECT_THAT(Doubles(Must(CompareScalar(t, CompareOp::kEq, 0.1))), ElementsAre(0, 0));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor n = Must(TensorOf(DType::kFloat64, {2}, {nan, 1}));
  EXPECT_THAT(Doubles(Must(CompareTensor(n, CompareOp::kEq, n))), ElementsAre(0, 1));
  EXPECT_THAT(Doubles(Must(CompareTensor(n, CompareOp::kNe, n))), ElementsAre(1, 0));
  for (CompareOp op : kAllOps) {
    Tensor ints = Must(TensorOf(DType::kInt8, {1}, {1}));
    EXPECT_THAT(Doubles(Must(CompareScalar(ints, op, nan))),
                ElementsAre(op == CompareOp::kNe ? 1 : 0))
        << CompareOpName(op);
  }
}

TEST(CompareTest, ErrorsNameTheOperation) {
  Tensor t = Must(TensorOf(DType::kFloat64, {2}, {1, 2}));
  EXPECT_THAT(std::string(CompareTensor(t, CompareOp::kLt,
                                        Must(TensorOf(DType::kFloat32, {2}, {1, 2})))
                              .status()
                              .message()),
              HasSubstr("same type"));
  EXPECT_THAT(std::string(CompareTensor(t, CompareOp::kGe,
                                        Must(TensorOf(DType::kFloat64, {3}, Iota(3))))
                              .status()
                              .message()),
              HasSubstr("same number"));
  Tensor flags = Must(TensorOf(DType::kBool, {1}, {1}));
  EXPECT_FALSE(CompareScalar(flags, CompareOp::kEq, 1).ok());
  LentTensor lent(DType::kFloat64, {2}, {1, 2}, "the compare test");
  lent.Revoke();
  ExpectInvalid(CompareScalar(lent.tensor(), CompareOp::kEq, 1).status(), "the compare test");
  ExpectInvalid(CompareTensor(t, CompareOp::kEq, lent.tensor()).status(), "the compare test");
  ExpectInvalid(CompareTensor(lent.tensor(), CompareOp::kEq, t).status(), "the compare test");
}

TEST(CompareTest, EmptyTensorsGiveEmptyMasks) {
  Tensor empty = Must(Tensor::Zeros(DType::kFloat32, {0, 3}));
  Tensor mask = Must(CompareScalar(empty, CompareOp::kLt, 1));
  EXPECT_EQ(mask.shape(), empty.shape());
  EXPECT_THAT(Doubles(Must(CompareTensor(empty, CompareOp::kEq, empty))), IsEmpty());
}

TEST(CompareTest, OpNamesAreTheLuaMethods) {
  std::vector<std::string> names;
  for (CompareOp op : kAllOps) names.push_back(CompareOpName(op));
  EXPECT_THAT(names, ElementsAre("lt", "le", "gt", "ge", "eq", "ne"));
}

}  // namespace
}  // namespace tensor
