#include "tensor/bitwise.h"

#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using ::tensor::testing::Doubles;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::LentTensor;
using ::tensor::testing::Must;
using ::tensor::testing::TensorOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(BitwiseTest, ScalarOpsOnIntegers) {
  Tensor t = Must(TensorOf(DType::kInt64, {4}, {0, 5, 12, -1}));
  ASSERT_TRUE(ApplyBitScalar(t, BitOp::kAnd, 6).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(0, 4, 4, 6));
  ASSERT_TRUE(ApplyBitScalar(t, BitOp::kOr, 1).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(1, 5, 5, 7));
  ASSERT_TRUE(ApplyBitScalar(t, BitOp::kXor, 3).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(2, 6, 6, 4));
  ASSERT_TRUE(ApplyBitScalar(t, BitOp::kLeftShift, 2).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(8, 24, 24, 16));
  ASSERT_TRUE(ApplyBitScalar(t, BitOp::kRightShift, 3).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(1, 3, 3, 2));
}

TEST(BitwiseTest, ShiftsWrapUnsignedAndRefuseSignedOverflow) {
  Tensor bytes = Must(TensorOf(DType::kUInt8, {2}, {200, 3}));
  ASSERT_TRUE(ApplyBitScalar(bytes, BitOp::kLeftShift, 1).ok());
  EXPECT_THAT(Doubles(bytes), ElementsAre(144, 6));  // 400 mod 256
  Tensor ints = Must(TensorOf(DType::kInt8, {2}, {100, 1}));
  absl::Status overflow = ApplyBitScalar(ints, BitOp::kLeftShift, 1);
  EXPECT_THAT(overflow.message(), HasSubstr("out of CharTensor's range"));
  EXPECT_THAT(Doubles(ints), ElementsAre(100, 1)) << "nothing written";
  EXPECT_THAT(ApplyBitScalar(ints, BitOp::kLeftShift, 8).message(), HasSubstr("lshift"));
  EXPECT_THAT(ApplyBitScalar(ints, BitOp::kRightShift, -1).message(), HasSubstr("rshift"));
  Tensor negative = Must(TensorOf(DType::kInt32, {1}, {-8}));
  ASSERT_TRUE(ApplyBitScalar(negative, BitOp::kRightShift, 1).ok());
  EXPECT_THAT(Doubles(negative), ElementsAre(-4));
}

TEST(BitwiseTest, FloatsShiftByScalingAndRefuseLogicalOps) {
  Tensor x = Must(TensorOf(DType::kFloat64, {2}, {1.5, -3}));
  ASSERT_TRUE(ApplyBitScalar(x, BitOp::kLeftShift, 3).ok());
  EXPECT_THAT(Doubles(x), ElementsAre(12, -24));
  ASSERT_TRUE(ApplyBitScalar(x, BitOp::kRightShift, 2).ok());
  EXPECT_THAT(Doubles(x), ElementsAre(3, -6));
  EXPECT_THAT(ApplyBitScalar(x, BitOp::kAnd, 1).message(),
              HasSubstr("bitand: not defined for DoubleTensor"));
  Tensor bytes = Must(TensorOf(DType::kUInt8, {1}, {1}));
  EXPECT_THAT(ApplyBitScalar(bytes, BitOp::kOr, 256).message(), HasSubstr("cannot hold 256"));
}

TEST(BitwiseTest, ComponentsPairInRowMajorOrderEvenWhenTheyOverlap) {
  Tensor a = Must(TensorOf(DType::kInt32, {2, 2}, {1, 2, 3, 4}));
  Tensor b = Must(TensorOf(DType::kInt32, {2, 2}, {1, 1, 2, 2}));
  ASSERT_TRUE(ApplyBitComponents(a, BitOp::kXor, Must(b.Transpose(0, 1))).ok());
  EXPECT_THAT(Doubles(a), ElementsAre(0, 0, 2, 6));  // b^T = {1, 2, 1, 2}
  ASSERT_TRUE(ApplyBitComponents(a, BitOp::kXor, a).ok());
  EXPECT_THAT(Doubles(a), ElementsAre(0, 0, 0, 0));
  Tensor c = Must(TensorOf(DType::kInt16, {4}, {1, 1, 1, 1}));
  EXPECT_THAT(ApplyBitComponents(a, BitOp::kAnd, c).message(), HasSubstr("differ in type"));
  Tensor d = Must(TensorOf(DType::kInt32, {3}, {1, 1, 1}));
  EXPECT_THAT(ApplyBitComponents(a, BitOp::kAnd, d).message(), HasSubstr("3 elements for 4"));
}

TEST(BitwiseTest, LentTensorsAreRefusedWhenTheLoanEnds) {
  LentTensor lent(DType::kInt32, {2}, {1, 2}, "bitwise test");
  lent.Revoke();
  ExpectInvalid(ApplyBitScalar(lent.tensor(), BitOp::kAnd, 1), "bitwise test");
  Tensor owned = Must(TensorOf(DType::kInt32, {2}, {1, 2}));
  ExpectInvalid(ApplyBitComponents(owned, BitOp::kAnd, lent.tensor()), "bitwise test");
}

}  // namespace
}  // namespace tensor
