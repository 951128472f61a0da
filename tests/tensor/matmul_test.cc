#include "tensor/matmul.h"

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

using ::tensor::testing::AsStored;
using ::tensor::testing::Doubles;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::LentTensor;
using ::tensor::testing::Must;
using ::tensor::testing::NumericTypes;
using ::tensor::testing::TensorOf;
using ::tensor::testing::ValuesOf;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

enum class MatrixKind {
  kContiguous,
  kTransposed,          // row stride 1, column stride = rows
  kNarrowed,            // a window of a larger matrix: row stride > columns
  kTransposedNarrowed,  // row stride 1, column stride > rows
  kRowsReversed,        // negative row stride
  kColumnsReversed,     // negative column stride
  kStrided,             // column stride 2
  kRowExpanded,         // row stride 0
  kColumnExpanded,      // column stride 0
};

constexpr MatrixKind kAllKinds[] = {
    MatrixKind::kContiguous,     MatrixKind::kTransposed,
    MatrixKind::kNarrowed,       MatrixKind::kTransposedNarrowed,
    MatrixKind::kRowsReversed,   MatrixKind::kColumnsReversed,
    MatrixKind::kStrided,        MatrixKind::kRowExpanded,
    MatrixKind::kColumnExpanded,
};

const char* KindName(MatrixKind kind) {
  switch (kind) {
    case MatrixKind::kContiguous: return "contiguous";
    case MatrixKind::kTransposed: return "transposed";
    case MatrixKind::kNarrowed: return "narrowed";
    case MatrixKind::kTransposedNarrowed: return "transposed+narrowed";
    case MatrixKind::kRowsReversed: return "rows reversed";
    case MatrixKind::kColumnsReversed: return "columns reversed";
    case MatrixKind::kStrided: return "column stride 2";
    case MatrixKind::kRowExpanded: return "row expanded";
    case MatrixKind::kColumnExpanded: return "column expanded";
  }
  return "?";
}

// A rows x cols matrix in the layout `kind` holding small values (0..3
// for unsigned types, -3..3 otherwise); `seed` varies them. Cells outside
// the view hold 99, which would show up in any wrong result.
Tensor MatrixOf(MatrixKind kind, DType dtype, Index rows, Index cols, int seed) {
  const bool is_unsigned = dtype == DType::kUInt8;
  auto value = [&](Index r, Index c) -> double {
    const Index h = (r * 5 + c * 3 + seed) % 7;
    return is_unsigned ? static_cast<double>(h % 4) : static_cast<double>(h - 3);
  };
  switch (kind) {
    case MatrixKind::kContiguous:
    case MatrixKind::kRowsReversed:
    case MatrixKind::kColumnsReversed: {
      std::vector<double> v(rows * cols);
      for (Index r = 0; r < rows; ++r) {
        for (Index c = 0; c < cols; ++c) v[r * cols + c] = value(r, c);
      }
      Tensor t = Must(TensorOf(dtype, {rows, cols}, v));
      if (kind == MatrixKind::kRowsReversed) return Must(t.Reverse(0));
      if (kind == MatrixKind::kColumnsReversed) return Must(t.Reverse(1));
      return t;
    }
    case MatrixKind::kTransposed: {
      std::vector<double> v(rows * cols);
      for (Index r = 0; r < rows; ++r) {
        for (Index c = 0; c < cols; ++c) v[c * rows + r] = value(r, c);
      }
      return Must(Must(TensorOf(dtype, {cols, rows}, v)).Transpose(0, 1));
    }
    case MatrixKind::kNarrowed: {
      const Index width = cols + 3;
      std::vector<double> v((rows + 2) * width, 99);
      for (Index r = 0; r < rows; ++r) {
        for (Index c = 0; c < cols; ++c) v[(r + 1) * width + c + 2] = value(r, c);
      }
      Tensor t = Must(TensorOf(dtype, {rows + 2, width}, v));
      return Must(Must(t.Narrow(0, 1, rows)).Narrow(1, 2, cols));
    }
    case MatrixKind::kTransposedNarrowed: {
      const Index width = rows + 2;
      std::vector<double> v((cols + 3) * width, 99);
      for (Index r = 0; r < rows; ++r) {
        for (Index c = 0; c < cols; ++c) v[(c + 2) * width + r + 1] = value(r, c);
      }
      Tensor t = Must(TensorOf(dtype, {cols + 3, width}, v));
      return Must(Must(Must(t.Narrow(0, 2, cols)).Narrow(1, 1, rows)).Transpose(0, 1));
    }
    case MatrixKind::kStrided: {
      std::vector<double> v(rows * cols * 2, 99);
      for (Index r = 0; r < rows; ++r) {
        for (Index c = 0; c < cols; ++c) v[(r * cols + c) * 2 + 1] = value(r, c);
      }
      return Must(Must(TensorOf(dtype, {rows, cols, 2}, v)).Select(2, 1));
    }
    case MatrixKind::kRowExpanded: {
      std::vector<double> v(cols);
      for (Index c = 0; c < cols; ++c) v[c] = value(0, c);
      return Must(Must(TensorOf(dtype, {1, cols}, v)).Expand({rows, cols}));
    }
    case MatrixKind::kColumnExpanded: {
      std::vector<double> v(rows);
      for (Index r = 0; r < rows; ++r) v[r] = value(r, 0);
      return Must(Must(TensorOf(dtype, {rows, 1}, v)).Expand({rows, cols}));
    }
  }
  return Tensor();
}

// The naive triple loop, in T's arithmetic as matmul.h documents it: exact
// sums for the small values used here, wrapped to T for integers.
template <typename T>
std::vector<double> NaiveProduct(const Tensor& lhs, const Tensor& rhs) {
  const Index m = lhs.shape()[0], k = lhs.shape()[1], n = rhs.shape()[1];
  const std::vector<double> a = Doubles(lhs);
  const std::vector<double> b = Doubles(rhs);
  std::vector<double> c(m * n);
  for (Index i = 0; i < m; ++i) {
    for (Index j = 0; j < n; ++j) {
      double sum = 0;
      for (Index p = 0; p < k; ++p) sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = AsStored<T>(sum);
    }
  }
  return c;
}

template <typename T>
class MatMulTypedTest : public ::testing::Test {};

TYPED_TEST_SUITE(MatMulTypedTest, NumericTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(MatMulTypedTest, MatchesTheNaiveProductForEveryPairOfOperandLayouts) {
  using T = TypeParam;
  const DType dtype = DTypeOf<T>();
  const Index shapes[][3] = {{5, 7, 3}, {1, 4, 1}, {3, 1, 4}, {1, 1, 1},
                             {4, 4, 4}, {2, 3, 1}, {1, 5, 6}, {6, 2, 5}};
  for (const auto& shape : shapes) {
    const Index m = shape[0], k = shape[1], n = shape[2];
    for (MatrixKind lhs_kind : kAllKinds) {
      for (MatrixKind rhs_kind : kAllKinds) {
        SCOPED_TRACE(::testing::Message()
                     << "(" << m << "x" << k << ", " << KindName(lhs_kind) << ") . (" << k << "x"
                     << n << ", " << KindName(rhs_kind) << ")");
        const Tensor lhs = MatrixOf(lhs_kind, dtype, m, k, 1);
        const Tensor rhs = MatrixOf(rhs_kind, dtype, k, n, 4);
        ASSERT_OK_AND_ASSIGN(Tensor product, MatMul(lhs, rhs));
        EXPECT_EQ(product.dtype(), dtype);
        EXPECT_THAT(product.shape(), ElementsAre(m, n));
        EXPECT_TRUE(product.owns_storage());
        EXPECT_TRUE(product.layout().IsContiguous());
        EXPECT_THAT(Doubles(product), ElementsAreArray(NaiveProduct<T>(lhs, rhs)));
      }
    }
  }
}

TYPED_TEST(MatMulTypedTest, EmptyInnerDimensionGivesZerosAndEmptyOuterGivesEmpty) {
  const DType dtype = DTypeOf<TypeParam>();
  ASSERT_OK_AND_ASSIGN(
      Tensor zeros, MatMul(Must(Tensor::Zeros(dtype, {3, 0})), Must(Tensor::Zeros(dtype, {0, 4}))));
  EXPECT_THAT(zeros.shape(), ElementsAre(3, 4));
  EXPECT_THAT(Doubles(zeros), ElementsAreArray(std::vector<double>(12, 0)));
  ASSERT_OK_AND_ASSIGN(Tensor no_rows, MatMul(Must(Tensor::Zeros(dtype, {0, 3})),
                                              Must(Tensor::Zeros(dtype, {3, 2}))));
  EXPECT_THAT(no_rows.shape(), ElementsAre(0, 2));
  ASSERT_OK_AND_ASSIGN(Tensor no_columns, MatMul(Must(Tensor::Zeros(dtype, {2, 3})),
                                                 Must(Tensor::Zeros(dtype, {3, 0}))));
  EXPECT_THAT(no_columns.shape(), ElementsAre(2, 0));
  // A narrowed-to-nothing view of a real matrix as the inner dimension.
  Tensor a = Must(TensorOf(dtype, {2, 2}, {1, 2, 3, 4}));
  ASSERT_OK_AND_ASSIGN(Tensor from_views, MatMul(Must(a.Narrow(1, 0, 0)), Must(a.Narrow(0, 0, 0))));
  EXPECT_THAT(Doubles(from_views), ElementsAre(0, 0, 0, 0));
}

TEST(MatMulTest, DoubleProductOfTheSeedDocumentsMatrices) {
  Tensor a = Must(MakeTensor<double>({2, 3}, {1, 2, 3, 4, 5, 6}));
  Tensor b = Must(MakeTensor<double>({3, 2}, {1, 2, 3, 4, 5, 6}));
  EXPECT_THAT(Doubles(Must(MatMul(a, b))), ElementsAre(22, 28, 49, 64));
  EXPECT_THAT(Doubles(Must(MatMul(b, a))), ElementsAre(9, 12, 15, 19, 26, 33, 29, 40, 51));
  // a . a^T through the transpose view.
  EXPECT_THAT(Doubles(Must(MatMul(a, Must(a.Transpose(0, 1))))), ElementsAre(14, 32, 32, 77));
}

TEST(MatMulTest, FractionalFloatProductsAreCloseToTheDoubleReference) {
  // Big enough for BLAS's blocked kernels, with every operand a view.
  const Index m = 67, k = 45, n = 38;
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    SCOPED_TRACE(DTypeName(dtype));
    std::vector<double> av((k + 1) * m), bv(n * (k + 2));
    for (size_t i = 0; i < av.size(); ++i) av[i] = std::sin(0.37 * i);
    for (size_t i = 0; i < bv.size(); ++i) bv[i] = std::cos(0.11 * i) / 3;
    // lhs: transposed and narrowed; rhs: narrowed columns then transposed.
    Tensor lhs = Must(Must(Must(TensorOf(dtype, {k + 1, m}, av)).Narrow(0, 1, k)).Transpose(0, 1));
    Tensor rhs = Must(Must(Must(TensorOf(dtype, {n, k + 2}, bv)).Narrow(1, 2, k)).Transpose(0, 1));
    ASSERT_OK_AND_ASSIGN(Tensor product, MatMul(lhs, rhs));
    const std::vector<double> a = Doubles(lhs), b = Doubles(rhs), c = Doubles(product);
    ASSERT_EQ(c.size(), static_cast<size_t>(m * n));
    const double tolerance = dtype == DType::kFloat32 ? 1e-4 : 1e-12;
    for (Index i = 0; i < m; ++i) {
      for (Index j = 0; j < n; ++j) {
        double expected = 0;
        for (Index p = 0; p < k; ++p) expected += a[i * k + p] * b[p * n + j];
        EXPECT_NEAR(c[i * n + j], expected, tolerance) << "at [" << i << ", " << j << "]";
      }
    }
  }
}

TEST(MatMulTest, Float16ProductIsFloat16AndRoundedFromFloat) {
  Tensor a = Must(TensorOf(DType::kFloat16, {2, 2}, {1, 2, 3, 4}));
  Tensor b = Must(TensorOf(DType::kFloat16, {2, 2}, {5, 6, 7, 8}));
  ASSERT_OK_AND_ASSIGN(Tensor product, MatMul(a, b));
  EXPECT_EQ(product.dtype(), DType::kFloat16);
  EXPECT_THAT(Doubles(product), ElementsAre(19, 22, 43, 50));
  // 2048 + 1 is exact in float but rounds to 2048 in float16.
  Tensor big = Must(TensorOf(DType::kFloat16, {1, 2}, {2048, 1}));
  Tensor ones = Must(TensorOf(DType::kFloat16, {2, 1}, {1, 1}));
  EXPECT_THAT(Doubles(Must(MatMul(big, ones))), ElementsAre(2048));
  // Per-step float16 rounding would lose the ones; float accumulation keeps them.
  Tensor row = Must(TensorOf(DType::kFloat16, {1, 3}, {2048, 1, 1}));
  Tensor column = Must(TensorOf(DType::kFloat16, {3, 1}, {1, 1, 1}));
  EXPECT_THAT(Doubles(Must(MatMul(row, column))), ElementsAre(2050));
}

TEST(MatMulTest, IntegerProductsWrapToTheResultType) {
  EXPECT_THAT(Doubles(Must(MatMul(Must(MakeTensor<std::uint8_t>({1, 1}, {16})),
                                  Must(MakeTensor<std::uint8_t>({1, 1}, {16}))))),
              ElementsAre(0));
  EXPECT_THAT(Doubles(Must(MatMul(Must(MakeTensor<std::uint8_t>({1, 2}, {200, 100})),
                                  Must(MakeTensor<std::uint8_t>({2, 1}, {2, 1}))))),
              ElementsAre(244));  // 500 mod 256
  EXPECT_THAT(Doubles(Must(MatMul(Must(MakeTensor<std::int8_t>({1, 2}, {100, 100})),
                                  Must(MakeTensor<std::int8_t>({2, 1}, {1, 1}))))),
              ElementsAre(-56));
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  EXPECT_THAT(Doubles(Must(MatMul(Must(MakeTensor<std::int32_t>({1, 2}, {kMax, 1})),
                                  Must(MakeTensor<std::int32_t>({2, 1}, {1, 1}))))),
              ElementsAre(std::numeric_limits<std::int32_t>::min()));
  // The intermediate 2^32 + 2^32 - 2^32 fits 64 bits; the result fits int32.
  EXPECT_THAT(Doubles(Must(MatMul(Must(MakeTensor<std::int32_t>({1, 3}, {65536, 65536, 65536})),
                                  Must(MakeTensor<std::int32_t>({3, 1}, {65536, 65536, -65535}))))),
              ElementsAre(65536));
  constexpr std::int64_t kMax64 = std::numeric_limits<std::int64_t>::max();
  EXPECT_THAT(
      ValuesOf<std::int64_t>(Must(MatMul(Must(MakeTensor<std::int64_t>({1, 2}, {kMax64, 1})),
                                         Must(MakeTensor<std::int64_t>({2, 1}, {1, 1}))))),
      ElementsAre(std::numeric_limits<std::int64_t>::min()));
}

TEST(MatMulTest, ResultIsIndependentOfTheOperands) {
  Tensor a = Must(MakeTensor<float>({2, 2}, {1, 2, 3, 4}));
  Tensor identity = Must(MakeTensor<float>({2, 2}, {1, 0, 0, 1}));
  ASSERT_OK_AND_ASSIGN(Tensor product, MatMul(a, identity));
  EXPECT_NE(product.storage(), a.storage());
  ASSERT_OK(ApplyScalars(a, ElementOp::kAssign, {0}));
  EXPECT_THAT(Doubles(product), ElementsAre(1, 2, 3, 4));
  // The same tensor on both sides is fine.
  Tensor s = Must(MakeTensor<std::int32_t>({2, 2}, {1, 2, 3, 4}));
  EXPECT_THAT(Doubles(Must(MatMul(s, s))), ElementsAre(7, 10, 15, 22));
}

TEST(MatMulErrorTest, ANonMatrixOperandIsNamedBySide) {
  Tensor vector = Must(MakeTensor<double>({3}, {1, 2, 3}));
  Tensor matrix = Must(MakeTensor<double>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}));
  Tensor cube = Must(Tensor::Zeros(DType::kFloat64, {3, 3, 1}));

  absl::Status left = MatMul(vector, matrix).status();
  EXPECT_EQ(left.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(left.message()), HasSubstr("left"));
  EXPECT_THAT(std::string(left.message()), HasSubstr("not a matrix"));
  EXPECT_THAT(std::string(left.message()), HasSubstr("[3]"));

  absl::Status right = MatMul(matrix, cube).status();
  EXPECT_EQ(right.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(right.message()), HasSubstr("right"));
  EXPECT_THAT(std::string(right.message()), HasSubstr("not a matrix"));
  EXPECT_THAT(std::string(right.message()), HasSubstr("[3, 3, 1]"));

  absl::Status none = MatMul(Tensor(), matrix).status();
  EXPECT_THAT(std::string(none.message()), HasSubstr("left"));
  EXPECT_FALSE(MatMul(matrix, Tensor()).ok());
}

TEST(MatMulErrorTest, MismatchedInnerDimensionsAreReportedWithBothShapes) {
  Tensor a = Must(Tensor::Zeros(DType::kFloat32, {2, 3}));
  absl::Status status = MatMul(a, a).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("incompatible"));
  EXPECT_THAT(std::string(status.message()), HasSubstr("[2, 3] x [2, 3]"));
  // The transposed view fits.
  EXPECT_OK(MatMul(a, Must(a.Transpose(0, 1))));
}

TEST(MatMulErrorTest, OperandsMustShareANonBoolDType) {
  Tensor f = Must(Tensor::Zeros(DType::kFloat32, {2, 2}));
  Tensor d = Must(Tensor::Zeros(DType::kFloat64, {2, 2}));
  Tensor i = Must(Tensor::Zeros(DType::kInt32, {2, 2}));
  Tensor b = Must(Tensor::Zeros(DType::kBool, {2, 2}));
  EXPECT_FALSE(MatMul(f, d).ok());
  EXPECT_FALSE(MatMul(i, f).ok());
  EXPECT_FALSE(MatMul(b, b).ok());
}

TEST(MatMulValidityTest, ValidLoanAndItsTransposeMultiply) {
  LentTensor lent(DType::kFloat64, {2, 2}, {1, 2, 3, 4}, "engine matrix");
  EXPECT_THAT(Doubles(Must(MatMul(lent.tensor(), Must(lent.tensor().Transpose(0, 1))))),
              ElementsAre(5, 11, 11, 25));
}

TEST(MatMulValidityTest, RevokedOperandOnEitherSideIsAnError) {
  for (DType dtype : {DType::kFloat32, DType::kInt32, DType::kFloat16}) {
    SCOPED_TRACE(DTypeName(dtype));
    LentTensor lent(dtype, {2, 2}, {1, 2, 3, 4}, "observation 'MAT'");
    Tensor transposed = Must(lent.tensor().Transpose(0, 1));
    Tensor owned = Must(TensorOf(dtype, {2, 2}, {1, 0, 0, 1}));
    lent.Revoke();
    for (const Tensor& invalid : {lent.tensor(), transposed}) {
      ExpectInvalid(MatMul(invalid, owned).status(), lent.lender());
      ExpectInvalid(MatMul(owned, invalid).status(), lent.lender());
      ExpectInvalid(MatMul(invalid, invalid).status(), lent.lender());
      // Invalidity is reported even when the shapes would not fit either.
      ExpectInvalid(MatMul(invalid, Must(TensorOf(dtype, {3}, {1, 2, 3}))).status(), lent.lender());
    }
  }
}

}  // namespace
}  // namespace tensor
