#include "tensor/print.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
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

using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::Iota;
using ::tensor::testing::LentTensor;
using ::tensor::testing::Must;
using ::tensor::testing::TensorOf;

std::string Print(const Tensor& t, const PrintOptions& options = {}) {
  return Must(ToString(t, options));
}

constexpr char kDoubleHeader[] = "[dmlab.system.tensor.DoubleTensor]\n";
constexpr char kByteHeader[] = "[dmlab.system.tensor.ByteTensor]\n";

// z = tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}
Tensor Z() { return Must(MakeTensor<double>({3, 2}, {1, 2, 3, 4, 5, 6})); }

// The seed document's 4x4 tensor filled with 1..16 by apply.
Tensor Sixteen() { return Must(TensorOf(DType::kFloat64, {4, 4}, Iota(16))); }

// --- The seed document's examples, verbatim -----------------------------------

TEST(PrintSeedExamplesTest, ZeroFilledRank2Tensor) {
  EXPECT_EQ(Print(Must(Tensor::Zeros(DType::kFloat64, {4, 5}))),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [4, 5]\n"
            "[[0, 0, 0, 0, 0],\n"
            " [0, 0, 0, 0, 0],\n"
            " [0, 0, 0, 0, 0],\n"
            " [0, 0, 0, 0, 0]]");
  EXPECT_EQ(Print(Must(Tensor::Zeros(DType::kFloat64, {3, 2}))),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [3, 2]\n"
            "[[0, 0],\n"
            " [0, 0],\n"
            " [0, 0]]");
}

TEST(PrintSeedExamplesTest, TensorFromATable) {
  EXPECT_EQ(Print(Z()),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [3, 2]\n"
            "[[1, 2],\n"
            " [3, 4],\n"
            " [5, 6]]");
}

TEST(PrintSeedExamplesTest, Rank3TensorIndentsEachLevel) {
  EXPECT_EQ(Print(Must(MakeTensor<double>({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}))),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [2, 2, 2]\n"
            "[[[1, 2],\n"
            "  [3, 4]],\n"
            " [[5, 6],\n"
            "  [7, 8]]]");
}

TEST(PrintSeedExamplesTest, Transpose) {
  EXPECT_EQ(Print(Must(Z().Transpose(0, 1))),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [2, 3]\n"
            "[[1, 3, 5],\n"
            " [2, 4, 6]]");
}

TEST(PrintSeedExamplesTest, SelectAndCall) {
  // z:select(2, 2)
  EXPECT_EQ(Print(Must(Z().Select(1, 1))),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [3]\n"
            "[2, 4, 6]");
  // z(2) and z:select(1, 2)
  EXPECT_EQ(Print(Must(Z().Select(0, 1))),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [2]\n"
            "[3, 4]");
  // z(3, 1)
  EXPECT_EQ(Print(Must(Must(Z().Select(0, 2)).Select(0, 0))),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [1]\n"
            "[5]");
}

TEST(PrintSeedExamplesTest, ValuesAreRightAlignedToTheWidest) {
  EXPECT_EQ(Print(Sixteen()),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [4, 4]\n"
            "[[ 1,  2,  3,  4],\n"
            " [ 5,  6,  7,  8],\n"
            " [ 9, 10, 11, 12],\n"
            " [13, 14, 15, 16]]");
}

TEST(PrintSeedExamplesTest, Narrow) {
  // The seed's z:narrow(2, 1, 3) output: columns 2..4.
  EXPECT_EQ(Print(Must(Sixteen().Narrow(1, 1, 3))),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [4, 3]\n"
            "[[ 2,  3,  4],\n"
            " [ 6,  7,  8],\n"
            " [10, 11, 12],\n"
            " [14, 15, 16]]");
  // z:narrow(1, 3, 2)
  EXPECT_EQ(Print(Must(Sixteen().Narrow(0, 2, 2))),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [2, 4]\n"
            "[[ 9, 10, 11, 12],\n"
            " [13, 14, 15, 16]]");
}

// The scalar-operation examples: fill, add, mul, sub, div on a 4x4 tensor.
TEST(PrintSeedExamplesTest, ScalarOperations) {
  auto four_by_four = [](const std::string& value) {
    const std::string row = absl::StrCat("[", value, ", ", value, ", ", value, ", ", value, "]");
    return absl::StrCat(kDoubleHeader, "Shape: [4, 4]\n[", row, ",\n ", row, ",\n ", row, ",\n ",
                        row, "]");
  };
  struct Step {
    double fill;
    ElementOp op;
    double value;
    std::string printed;
  };
  const Step steps[] = {
      {7, ElementOp::kAssign, 7, "7"}, {5, ElementOp::kAdd, 1, "6"},
      {0.5, ElementOp::kMul, 4, "2"},  {2, ElementOp::kSub, 4, "-2"},
      {-2, ElementOp::kDiv, 2, "-1"},
  };
  for (const Step& step : steps) {
    SCOPED_TRACE(ElementOpName(step.op));
    Tensor z = Must(Tensor::Zeros(DType::kFloat64, {4, 4}));
    ASSERT_OK(ApplyScalars(z, ElementOp::kAssign, {step.fill}));
    ASSERT_OK(ApplyScalars(z, step.op, {step.value}));
    EXPECT_EQ(Print(z), four_by_four(step.printed));
  }
  EXPECT_EQ(four_by_four("-2"),
            "[dmlab.system.tensor.DoubleTensor]\n"
            "Shape: [4, 4]\n"
            "[[-2, -2, -2, -2],\n"
            " [-2, -2, -2, -2],\n"
            " [-2, -2, -2, -2],\n"
            " [-2, -2, -2, -2]]");
}

TEST(PrintSeedExamplesTest, ByteTensorComponentOperations) {
  const std::vector<double> six = {1, 2, 3, 4, 5, 6};
  Tensor bt2 = Must(TensorOf(DType::kUInt8, {2, 3}, six));
  EXPECT_EQ(Print(Must(TensorOf(DType::kUInt8, {3, 2}, six))),
            "[dmlab.system.tensor.ByteTensor]\n"
            "Shape: [3, 2]\n"
            "[[1, 2],\n"
            " [3, 4],\n"
            " [5, 6]]");
  EXPECT_EQ(Print(bt2),
            "[dmlab.system.tensor.ByteTensor]\n"
            "Shape: [2, 3]\n"
            "[[1, 2, 3],\n"
            " [4, 5, 6]]");
  struct Case {
    ElementOp op;
    std::string rows;
  };
  const Case cases[] = {
      {ElementOp::kMul, "[[ 1,  4],\n [ 9, 16],\n [25, 36]]"},
      {ElementOp::kAdd, "[[ 2,  4],\n [ 6,  8],\n [10, 12]]"},
      {ElementOp::kDiv, "[[1, 1],\n [1, 1],\n [1, 1]]"},
      {ElementOp::kSub, "[[0, 0],\n [0, 0],\n [0, 0]]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(ElementOpName(c.op));
    Tensor bt = Must(TensorOf(DType::kUInt8, {3, 2}, six));
    ASSERT_OK(ApplyComponents(bt, c.op, bt2));
    EXPECT_EQ(Print(bt), absl::StrCat(kByteHeader, "Shape: [3, 2]\n", c.rows));
  }
  Tensor bt = Must(Tensor::Zeros(DType::kUInt8, {3, 2}));
  EXPECT_EQ(Print(bt),
            "[dmlab.system.tensor.ByteTensor]\n"
            "Shape: [3, 2]\n"
            "[[0, 0],\n"
            " [0, 0],\n"
            " [0, 0]]");
  ASSERT_OK(ApplyComponents(bt, ElementOp::kAssign, bt2));
  EXPECT_EQ(Print(bt),
            "[dmlab.system.tensor.ByteTensor]\n"
            "Shape: [3, 2]\n"
            "[[1, 2],\n"
            " [3, 4],\n"
            " [5, 6]]");
}

// --- Format details -------------------------------------------------------------

TEST(PrintTest, OutputEndsWithTheClosingBracketAndNoNewline) {
  const std::string text = Print(Z());
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), ']');
  const std::string empty = Print(Must(Tensor::Zeros(DType::kFloat64, {0})));
  ASSERT_FALSE(empty.empty());
  EXPECT_NE(empty.back(), '\n');
}

TEST(PrintTest, HeaderNamesTheTensorClassOfEachDType) {
  struct Case {
    DType dtype;
    std::string name;
  };
  const Case cases[] = {
      {DType::kUInt8, "ByteTensor"},        {DType::kInt8, "CharTensor"},
      {DType::kInt16, "Int16Tensor"},       {DType::kInt32, "Int32Tensor"},
      {DType::kInt64, "Int64Tensor"},       {DType::kFloat32, "FloatTensor"},
      {DType::kFloat64, "DoubleTensor"},    {DType::kFloat16, "HalfTensor"},
      {DType::kBFloat16, "BFloat16Tensor"}, {DType::kBool, "BoolTensor"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Tensor t = Must(TensorOf(c.dtype, {2}, {1, 0}));
    const std::string values = c.dtype == DType::kBool ? "[ true, false]" : "[1, 0]";
    EXPECT_EQ(Print(t), absl::StrCat("[dmlab.system.tensor.", c.name, "]\nShape: [2]\n", values));
  }
}

TEST(PrintTest, TypePrefixOptionReplacesTheModuleName) {
  Tensor t = Must(MakeTensor<std::int32_t>({1}, {3}));
  EXPECT_EQ(Print(t, {.type_prefix = ""}), "[Int32Tensor]\nShape: [1]\n[3]");
  EXPECT_EQ(Print(t, {.type_prefix = "my.module."}), "[my.module.Int32Tensor]\nShape: [1]\n[3]");
}

TEST(PrintTest, FloatingValuesShowSixSignificantDigits) {
  struct Case {
    double value;
    std::string printed;
  };
  const Case cases[] = {
      {1.0 / 3.0, "0.333333"},
      {2.0 / 3.0, "0.666667"},
      {1e10, "1e+10"},
      {1234567, "1.23457e+06"},
      {123456, "123456"},
      {100000, "100000"},
      {0.0001, "0.0001"},
      {0.00001, "1e-05"},
      {-2.5, "-2.5"},
      {3, "3"},
      {-0.0, "-0"},
      {1e-300, "1e-300"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.printed);
    EXPECT_EQ(Print(Must(MakeTensor<double>({1}, {c.value}))),
              absl::StrCat(kDoubleHeader, "Shape: [1]\n[", c.printed, "]"));
  }
  EXPECT_EQ(Print(Must(MakeTensor<float>({2}, {1.0f / 3.0f, 1e10f}))),
            "[dmlab.system.tensor.FloatTensor]\nShape: [2]\n[0.333333,    1e+10]");
  EXPECT_EQ(Print(Must(TensorOf(DType::kFloat16, {1}, {1.0 / 3.0}))),
            "[dmlab.system.tensor.HalfTensor]\nShape: [1]\n[0.333252]");
  EXPECT_EQ(Print(Must(TensorOf(DType::kBFloat16, {1}, {1.0 / 3.0}))),
            "[dmlab.system.tensor.BFloat16Tensor]\nShape: [1]\n[0.333984]");
}

TEST(PrintTest, InfinitiesAndNaNArePrintedByName) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(Print(Must(MakeTensor<double>({3}, {inf, -inf, std::nan("")}))),
            absl::StrCat(kDoubleHeader, "Shape: [3]\n[ inf, -inf,  nan]"));
}

TEST(PrintTest, MixedWidthsAreRightAlignedIncludingFractionsAndSigns) {
  EXPECT_EQ(Print(Must(MakeTensor<double>({3}, {-1, 10, 100}))),
            absl::StrCat(kDoubleHeader, "Shape: [3]\n[ -1,  10, 100]"));
  EXPECT_EQ(Print(Must(MakeTensor<double>({2, 2}, {0.25, 1, -3.5, 1000}))),
            absl::StrCat(kDoubleHeader,
                         "Shape: [2, 2]\n"
                         "[[0.25,    1],\n"
                         " [-3.5, 1000]]"));
}

TEST(PrintTest, IntegerValuesArePrintedInFull) {
  EXPECT_EQ(
      Print(Must(MakeTensor<std::int64_t>({2}, {std::numeric_limits<std::int64_t>::max(), -1}))),
      "[dmlab.system.tensor.Int64Tensor]\nShape: [2]\n[9223372036854775807,                  -1]");
  EXPECT_EQ(Print(Must(MakeTensor<std::uint8_t>({2}, {255, 0}))),
            "[dmlab.system.tensor.ByteTensor]\nShape: [2]\n[255,   0]");
  EXPECT_EQ(Print(Must(MakeTensor<std::int8_t>({2}, {-128, 127}))),
            "[dmlab.system.tensor.CharTensor]\nShape: [2]\n[-128,  127]");
  // Far beyond float's 6 significant digits.
  EXPECT_EQ(Print(Must(MakeTensor<std::int32_t>({1}, {16777217}))),
            "[dmlab.system.tensor.Int32Tensor]\nShape: [1]\n[16777217]");
}

TEST(PrintTest, EmptyTensorsPrintTheirShapeAndEmpty) {
  EXPECT_EQ(Print(Must(Tensor::Zeros(DType::kFloat64, {0}))),
            "[dmlab.system.tensor.DoubleTensor]\nShape: [0] Empty");
  EXPECT_EQ(Print(Tensor()), "[dmlab.system.tensor.DoubleTensor]\nShape: [] Empty");
  EXPECT_EQ(Print(Must(Tensor::Zeros(DType::kInt32, {3, 0}))),
            "[dmlab.system.tensor.Int32Tensor]\nShape: [3, 0] Empty");
  EXPECT_EQ(Print(Must(Z().Narrow(0, 1, 0))),
            "[dmlab.system.tensor.DoubleTensor]\nShape: [0, 2] Empty");
}

TEST(PrintTest, ViewsPrintTheirOwnLayout) {
  EXPECT_EQ(Print(Must(Must(MakeTensor<double>({3}, {1, 2, 3})).Reverse(0))),
            absl::StrCat(kDoubleHeader, "Shape: [3]\n[3, 2, 1]"));
  EXPECT_EQ(Print(Must(Must(MakeTensor<double>({1, 3}, {1, 2, 3})).Expand({2, 3}))),
            absl::StrCat(kDoubleHeader, "Shape: [2, 3]\n[[1, 2, 3],\n [1, 2, 3]]"));
  EXPECT_EQ(Print(Must(Z().Reverse(0))),
            absl::StrCat(kDoubleHeader, "Shape: [3, 2]\n[[5, 6],\n [3, 4],\n [1, 2]]"));
  EXPECT_EQ(Print(Must(Must(MakeTensor<double>({2, 1, 2}, {1, 2, 30, 40})).Permute({2, 0, 1}))),
            absl::StrCat(kDoubleHeader,
                         "Shape: [2, 2, 1]\n"
                         "[[[ 1],\n"
                         "  [30]],\n"
                         " [[ 2],\n"
                         "  [40]]]"));
  EXPECT_EQ(Print(Must(MakeTensor<double>({1, 1, 1, 1}, {5}))),
            absl::StrCat(kDoubleHeader, "Shape: [1, 1, 1, 1]\n[[[[5]]]]"));
}

// --- Elision ----------------------------------------------------------------------

TEST(PrintElisionTest, LongVectorShowsTheFirstAndLastThreeValues) {
  EXPECT_EQ(
      Print(Must(TensorOf(DType::kFloat64, {2000}, Iota(2000)))),
      absl::StrCat(kDoubleHeader, "Shape: [2000]\n[   1,    2,    3, ..., 1998, 1999, 2000]"));
}

TEST(PrintElisionTest, ElisionStartsAboveMaxElements) {
  const std::string at_limit = Print(Must(TensorOf(DType::kFloat64, {1024}, Iota(1024))));
  EXPECT_EQ(at_limit.find("..."), std::string::npos);
  EXPECT_NE(at_limit.find(" 512,  513, "), std::string::npos);
  const std::string above = Print(Must(TensorOf(DType::kFloat64, {1025}, Iota(1025))));
  EXPECT_EQ(above, absl::StrCat(kDoubleHeader,
                                "Shape: [1025]\n[   1,    2,    3, ..., 1023, 1024, 1025]"));
  EXPECT_EQ(Print(Must(TensorOf(DType::kFloat64, {10}, Iota(10))), {.max_elements = 10}),
            absl::StrCat(kDoubleHeader, "Shape: [10]\n[ 1,  2,  3,  4,  5,  6,  7,  8,  9, 10]"));
  EXPECT_EQ(Print(Must(TensorOf(DType::kFloat64, {10}, Iota(10))), {.max_elements = 9}),
            absl::StrCat(kDoubleHeader, "Shape: [10]\n[ 1,  2,  3, ...,  8,  9, 10]"));
}

TEST(PrintElisionTest, MatrixElidesRowsAndColumns) {
  EXPECT_EQ(Print(Must(TensorOf(DType::kFloat64, {40, 40}, Iota(1600))), {.max_elements = 100}),
            absl::StrCat(kDoubleHeader,
                         "Shape: [40, 40]\n"
                         "[[   1,    2,    3, ...,   38,   39,   40],\n"
                         " [  41,   42,   43, ...,   78,   79,   80],\n"
                         " [  81,   82,   83, ...,  118,  119,  120],\n"
                         " ...,\n"
                         " [1481, 1482, 1483, ..., 1518, 1519, 1520],\n"
                         " [1521, 1522, 1523, ..., 1558, 1559, 1560],\n"
                         " [1561, 1562, 1563, ..., 1598, 1599, 1600]]"));
}

TEST(PrintElisionTest, OnlyDimensionsLongerThanSixAreElided) {
  // 2 x 1000: the rows are all shown, each row elided.
  EXPECT_EQ(Print(Must(TensorOf(DType::kInt32, {2, 1000}, Iota(2000)))),
            "[dmlab.system.tensor.Int32Tensor]\n"
            "Shape: [2, 1000]\n"
            "[[   1,    2,    3, ...,  998,  999, 1000],\n"
            " [1001, 1002, 1003, ..., 1998, 1999, 2000]]");
  // 6 x 6 above the limit: nothing to elide.
  EXPECT_EQ(Print(Must(TensorOf(DType::kInt32, {6, 6}, Iota(36))), {.max_elements = 1}),
            "[dmlab.system.tensor.Int32Tensor]\n"
            "Shape: [6, 6]\n"
            "[[ 1,  2,  3,  4,  5,  6],\n"
            " [ 7,  8,  9, 10, 11, 12],\n"
            " [13, 14, 15, 16, 17, 18],\n"
            " [19, 20, 21, 22, 23, 24],\n"
            " [25, 26, 27, 28, 29, 30],\n"
            " [31, 32, 33, 34, 35, 36]]");
}

TEST(PrintElisionTest, WidthComesFromThePrintedValuesOnly) {
  Tensor t = Must(MakeTensor<double>({7}, {1, 2, 3, 1000000, 5, 6, 7}));
  EXPECT_EQ(Print(t, {.max_elements = 0}),
            absl::StrCat(kDoubleHeader, "Shape: [7]\n[1, 2, 3, ..., 5, 6, 7]"));
  EXPECT_EQ(
      Print(t),
      absl::StrCat(kDoubleHeader, "Shape: [7]\n[    1,     2,     3, 1e+06,     5,     6,     7]"));
}

TEST(PrintElisionTest, ElidedViewShowsTheViewsOwnEnds) {
  // The reversed transpose of the 2000-vector seen as 40 x 50.
  Tensor t =
      Must(Must(Must(TensorOf(DType::kInt32, {40, 50}, Iota(2000))).Transpose(0, 1)).Reverse(1));
  EXPECT_EQ(Print(t),
            "[dmlab.system.tensor.Int32Tensor]\n"
            "Shape: [50, 40]\n"
            "[[1951, 1901, 1851, ...,  101,   51,    1],\n"
            " [1952, 1902, 1852, ...,  102,   52,    2],\n"
            " [1953, 1903, 1853, ...,  103,   53,    3],\n"
            " ...,\n"
            " [1998, 1948, 1898, ...,  148,   98,   48],\n"
            " [1999, 1949, 1899, ...,  149,   99,   49],\n"
            " [2000, 1950, 1900, ...,  150,  100,   50]]");
}

// --- Bounds --------------------------------------------------------------------------

// Printing used to recurse once per dimension (30000 dimensions overflowed
// the C stack) and to print every value of a tensor whose extents were all
// too short to elide (6^12 values, a multi-GB string).
TEST(PrintBoundsTest, ManyDimensionsAreSummarised) {
  Tensor one = Must(TensorOf(DType::kFloat64, {1}, {7}));
  for (Index rank : {65, 30000}) {
    Tensor deep = Must(one.Reshape(std::vector<Index>(rank, 1)));
    const std::string text = Print(deep);
    EXPECT_THAT(text, ::testing::EndsWith(
                          absl::StrCat("\n[1 elements in ", rank, " dimensions: too many to print]")));
  }
  // 64 dimensions still print.
  EXPECT_THAT(Print(Must(one.Reshape(std::vector<Index>(64, 1)))),
              ::testing::EndsWith(std::string(64, '[') + "7" + std::string(64, ']')));
}

TEST(PrintBoundsTest, ShortExtentsInManyDimensionsStaySmall) {
  Tensor byte = Must(TensorOf(DType::kUInt8, {1}, {5}));
  // 6^12 elements: each dimension is shown at its two ends.
  const std::string twelve = Print(Must(byte.Expand(std::vector<Index>(12, 6))));
  EXPECT_LT(twelve.size(), 200000u);
  EXPECT_EQ(std::count(twelve.begin(), twelve.end(), '5'), 4096);
  // A variant: 3^30 elements would print 2^30 values even then.
  EXPECT_THAT(Print(Must(byte.Expand(std::vector<Index>(30, 3)))),
              ::testing::EndsWith("[205891132094649 elements in 30 dimensions: too many to print]"));
  // A huge expand of one dimension is elided as any long dimension is.
  EXPECT_EQ(Print(Must(byte.Expand({Index{1} << 50}))),
            absl::StrCat(kByteHeader, "Shape: [1125899906842624]\n[5, 5, 5, ..., 5, 5, 5]"));
}

// --- Validity ---------------------------------------------------------------------

TEST(PrintValidityTest, ValidLoanPrintsLikeAnOwnedTensor) {
  LentTensor lent(DType::kUInt8, {2, 2}, {1, 2, 3, 40}, "engine frame");
  EXPECT_EQ(Print(lent.tensor()),
            absl::StrCat(kByteHeader, "Shape: [2, 2]\n[[ 1,  2],\n [ 3, 40]]"));
}

TEST(PrintValidityTest, RevokedTensorCannotBePrinted) {
  LentTensor lent(DType::kUInt8, {2, 2}, {1, 2, 3, 4}, "observation 'RGB'");
  Tensor transposed = Must(lent.tensor().Transpose(0, 1));
  Tensor empty_view = Must(lent.tensor().Narrow(0, 0, 0));
  lent.Revoke();
  for (const Tensor& t : {lent.tensor(), transposed, empty_view}) {
    ExpectInvalid(ToString(t).status(), lent.lender());
    ExpectInvalid(ToString(t, {.max_elements = 0}).status(), lent.lender());
  }
}

}  // namespace
}  // namespace tensor
