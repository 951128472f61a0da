#include "tensor/elementwise.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
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
using ::tensor::testing::ForEachIndex;
using ::tensor::testing::FromDouble;
using ::tensor::testing::Iota;
using ::tensor::testing::LentTensor;
using ::tensor::testing::Must;
using ::tensor::testing::NamedTensor;
using ::tensor::testing::NumericTypes;
using ::tensor::testing::TensorOf;
using ::tensor::testing::ToDouble;
using ::tensor::testing::ValuesOf;
using ::tensor::testing::WrapTo;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

constexpr ElementOp kAllOps[] = {ElementOp::kAssign, ElementOp::kAdd, ElementOp::kSub,
                                 ElementOp::kMul, ElementOp::kDiv};
constexpr ElementOp kArithmeticOps[] = {ElementOp::kAdd, ElementOp::kSub, ElementOp::kMul,
                                        ElementOp::kDiv};

// x op v as elementwise.h defines it for element type T: integers wrap and
// divide toward zero, floating types compute in ComputeType<T> and round
// back to T.
template <typename T>
double Reference(ElementOp op, double x, double v) {
  if constexpr (kIsInteger<T>) {
    const auto a = static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
    const auto b = static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
    switch (op) {
      case ElementOp::kAssign: return ToDouble(WrapTo<T>(static_cast<std::int64_t>(b)));
      case ElementOp::kAdd: return ToDouble(WrapTo<T>(static_cast<std::int64_t>(a + b)));
      case ElementOp::kSub: return ToDouble(WrapTo<T>(static_cast<std::int64_t>(a - b)));
      case ElementOp::kMul: return ToDouble(WrapTo<T>(static_cast<std::int64_t>(a * b)));
      case ElementOp::kDiv:
        return ToDouble(WrapTo<T>(static_cast<std::int64_t>(x) / static_cast<std::int64_t>(v)));
    }
  } else {
    using C = ComputeType<T>;
    const C a = static_cast<C>(x);
    const C b = static_cast<C>(v);
    C r = b;
    switch (op) {
      case ElementOp::kAssign: r = b; break;
      case ElementOp::kAdd: r = a + b; break;
      case ElementOp::kSub: r = a - b; break;
      case ElementOp::kMul: r = a * b; break;
      case ElementOp::kDiv: r = a / b; break;
    }
    return ToDouble(FromDouble<T>(static_cast<double>(r)));
  }
  return 0;
}

constexpr int kNumDestinationKinds = 7;

// A view of `base` (shape {4, 6}) of the given kind; each writes into base.
NamedTensor DestinationView(int kind, const Tensor& base) {
  switch (kind) {
    case 0: return {"contiguous", base};
    case 1: return {"transposed", Must(base.Transpose(0, 1))};
    case 2: return {"narrowed", Must(base.Narrow(1, 1, 3))};
    case 3: return {"reversed", Must(base.Reverse(1))};
    case 4:
      return {"narrowed_twice_and_transposed",
              Must(Must(Must(base.Narrow(0, 1, 2)).Narrow(1, 2, 3)).Transpose(0, 1))};
    case 5: return {"selected_column", Must(base.Select(1, 2))};
    default:
      return {"reshaped_and_permuted", Must(Must(base.Reshape({2, 2, 6})).Permute({2, 0, 1}))};
  }
}

constexpr int kNumSourceKinds = 5;

// A source of `n` (even) elements with nonzero values, in the given layout.
NamedTensor SourceView(int kind, DType dtype, Index n) {
  std::vector<double> values(n);
  for (Index i = 0; i < n; ++i) values[i] = static_cast<double>(i % 5 + 1);
  switch (kind) {
    case 0: return {"contiguous source", Must(TensorOf(dtype, {n}, values))};
    case 1: {
      // X has shape {2, n/2}; X^T in row-major order is `values`.
      const Index half = n / 2;
      std::vector<double> x(n);
      for (Index r = 0; r < half; ++r) {
        for (Index c = 0; c < 2; ++c) x[c * half + r] = values[r * 2 + c];
      }
      return {"transposed source", Must(Must(TensorOf(dtype, {2, half}, x)).Transpose(0, 1))};
    }
    case 2: {
      std::vector<double> y(n * 3, 7);
      for (Index r = 0; r < n; ++r) y[r * 3 + 1] = values[r];
      return {"narrowed source", Must(Must(TensorOf(dtype, {n, 3}, y)).Narrow(1, 1, 1))};
    }
    case 3: {
      std::vector<double> z(values.rbegin(), values.rend());
      return {"reversed source", Must(Must(TensorOf(dtype, {n}, z)).Reverse(0))};
    }
    default: {
      const Index half = n / 2;
      Tensor row = Must(Must(TensorOf(dtype, {half}, Iota(half))).Unsqueeze(0));
      return {"expanded source", Must(row.Expand({2, half}))};
    }
  }
}

template <typename T>
class ElementwiseTypedTest : public ::testing::Test {};

TYPED_TEST_SUITE(ElementwiseTypedTest, NumericTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(ElementwiseTypedTest, ComponentOpsMatchReferenceForEveryDestinationAndSourceLayout) {
  using T = TypeParam;
  const DType dtype = DTypeOf<T>();
  for (ElementOp op : kAllOps) {
    for (int kind = 0; kind < kNumDestinationKinds; ++kind) {
      for (int source_kind = 0; source_kind < kNumSourceKinds; ++source_kind) {
        Tensor base = Must(TensorOf(dtype, {4, 6}, Iota(24)));
        NamedTensor dst = DestinationView(kind, base);
        NamedTensor src = SourceView(source_kind, dtype, dst.tensor.num_elements());
        SCOPED_TRACE(::testing::Message()
                     << ElementOpName(op) << " into " << dst.name << " from " << src.name);
        std::vector<double> expected = Doubles(base);
        const std::vector<double> src_values = Doubles(src.tensor);
        Index i = 0;
        ForEachIndex(dst.tensor.shape(), [&](const Shape& index) {
          const Index offset = Must(dst.tensor.layout().OffsetOf(index));
          expected[offset] = Reference<T>(op, expected[offset], src_values[i++]);
        });
        ASSERT_OK(ApplyComponents(dst.tensor, op, src.tensor));
        EXPECT_THAT(Doubles(base), ElementsAreArray(expected));
        // The source is only read.
        EXPECT_THAT(Doubles(src.tensor), ElementsAreArray(src_values));
      }
    }
  }
}

TYPED_TEST(ElementwiseTypedTest, ScalarOpsMatchReferenceForEveryDestinationLayout) {
  using T = TypeParam;
  const DType dtype = DTypeOf<T>();
  for (ElementOp op : kAllOps) {
    for (int kind = 0; kind < kNumDestinationKinds; ++kind) {
      for (bool per_last_dimension : {false, true}) {
        Tensor base = Must(TensorOf(dtype, {4, 6}, Iota(24)));
        NamedTensor dst = DestinationView(kind, base);
        const std::vector<double> scalars =
            per_last_dimension ? Iota(dst.tensor.shape().back(), 1) : std::vector<double>{3};
        SCOPED_TRACE(::testing::Message()
                     << ElementOpName(op) << " on " << dst.name << " with "
                     << (per_last_dimension ? "one scalar per last-dimension index"
                                            : "one scalar"));
        std::vector<double> expected = Doubles(base);
        ForEachIndex(dst.tensor.shape(), [&](const Shape& index) {
          const Index offset = Must(dst.tensor.layout().OffsetOf(index));
          const double v = per_last_dimension ? scalars[index.back()] : scalars[0];
          expected[offset] = Reference<T>(op, expected[offset], v);
        });
        ASSERT_OK(ApplyScalars(dst.tensor, op, scalars));
        EXPECT_THAT(Doubles(base), ElementsAreArray(expected));
      }
    }
  }
}

TYPED_TEST(ElementwiseTypedTest, ZeroSizeTensorsAcceptEveryOpAndStayEmpty) {
  const DType dtype = DTypeOf<TypeParam>();
  Tensor rows = Must(Tensor::Zeros(dtype, {3, 0}));
  Tensor columns = Must(Tensor::Zeros(dtype, {0, 3}));
  Tensor flat = Must(Tensor::Zeros(dtype, {0}));
  for (ElementOp op : kAllOps) {
    SCOPED_TRACE(ElementOpName(op));
    EXPECT_OK(ApplyScalars(rows, op, {2}));
    EXPECT_OK(ApplyScalars(columns, op, {1, 2, 3}));
    EXPECT_OK(ApplyComponents(rows, op, flat));
    EXPECT_OK(ApplyComponents(flat, op, columns));
    EXPECT_OK(ApplyComponents(Must(columns.Transpose(0, 1)), op, Must(rows.Reverse(0))));
  }
  EXPECT_OK(Round(rows, Rounding::kRound));
  EXPECT_OK(Clamp(flat, 0, 1));
  EXPECT_EQ(rows.num_elements(), 0);
  EXPECT_THAT(Doubles(rows), IsEmpty());
}

TYPED_TEST(ElementwiseTypedTest, ExpandedDestinationIsRejectedForArithmeticAndKeepsValues) {
  const DType dtype = DTypeOf<TypeParam>();
  Tensor row = Must(TensorOf(dtype, {1, 3}, {1, 2, 3}));
  Tensor expanded = Must(row.Expand({4, 3}));
  Tensor src = Must(TensorOf(dtype, {12}, std::vector<double>(12, 1)));
  for (ElementOp op : kArithmeticOps) {
    SCOPED_TRACE(ElementOpName(op));
    EXPECT_FALSE(ApplyScalars(expanded, op, {1}).ok());
    EXPECT_FALSE(ApplyScalars(expanded, op, {1, 1, 1}).ok());
    EXPECT_FALSE(ApplyComponents(expanded, op, src).ok());
    EXPECT_THAT(Doubles(row), ElementsAre(1, 2, 3));
  }
  // Overlapping windows share elements the same way.
  Tensor line = Must(TensorOf(dtype, {4}, {1, 2, 3, 4}));
  Tensor windows = Must(line.Unfold(0, 2, 1));  // [[1, 2], [2, 3], [3, 4]]
  for (ElementOp op : kArithmeticOps) {
    SCOPED_TRACE(ElementOpName(op));
    EXPECT_FALSE(ApplyScalars(windows, op, {1}).ok());
    EXPECT_FALSE(ApplyComponents(windows, op, Must(TensorOf(dtype, {6}, Iota(6)))).ok());
    EXPECT_THAT(Doubles(line), ElementsAre(1, 2, 3, 4));
  }
}

TYPED_TEST(ElementwiseTypedTest, ExpandedSourceIsReadOncePerLogicalElement) {
  const DType dtype = DTypeOf<TypeParam>();
  Tensor dst = Must(Tensor::Zeros(dtype, {2, 3}));
  Tensor src = Must(Must(Must(TensorOf(dtype, {3}, {1, 2, 3})).Unsqueeze(0)).Expand({2, 3}));
  ASSERT_OK(ApplyComponents(dst, ElementOp::kAssign, src));
  EXPECT_THAT(Doubles(dst), ElementsAre(1, 2, 3, 1, 2, 3));
  ASSERT_OK(ApplyComponents(dst, ElementOp::kAdd, src));
  EXPECT_THAT(Doubles(dst), ElementsAre(2, 4, 6, 2, 4, 6));
}

// --- ElementOpName ----------------------------------------------------------

TEST(ElementOpNameTest, NamesAreTheLuaVerbs) {
  EXPECT_STREQ(ElementOpName(ElementOp::kAssign), "fill");
  EXPECT_STREQ(ElementOpName(ElementOp::kAdd), "add");
  EXPECT_STREQ(ElementOpName(ElementOp::kSub), "sub");
  EXPECT_STREQ(ElementOpName(ElementOp::kMul), "mul");
  EXPECT_STREQ(ElementOpName(ElementOp::kDiv), "div");
}

// --- ApplyScalars -------------------------------------------------------------

TEST(ApplyScalarsTest, FillThroughASelectedColumnIsSeenByTheWholeTensorAndOtherViews) {
  Tensor z = Must(Tensor::Zeros(DType::kFloat64, {3, 2}));
  Tensor column = Must(z.Select(1, 1));
  Tensor transposed = Must(z.Transpose(0, 1));
  ASSERT_OK(ApplyScalars(column, ElementOp::kAssign, {7}));
  EXPECT_THAT(Doubles(z), ElementsAre(0, 7, 0, 7, 0, 7));
  EXPECT_THAT(Doubles(transposed), ElementsAre(0, 0, 0, 7, 7, 7));
}

TEST(ApplyScalarsTest, SeedDocumentScalarExamples) {
  Tensor z = Must(Tensor::Zeros(DType::kFloat64, {4, 4}));
  ASSERT_OK(ApplyScalars(z, ElementOp::kAssign, {7}));
  EXPECT_THAT(Doubles(z), ElementsAreArray(std::vector<double>(16, 7)));
  ASSERT_OK(ApplyScalars(z, ElementOp::kAssign, {5}));
  ASSERT_OK(ApplyScalars(z, ElementOp::kAdd, {1}));
  EXPECT_THAT(Doubles(z), ElementsAreArray(std::vector<double>(16, 6)));
  ASSERT_OK(ApplyScalars(z, ElementOp::kAssign, {0.5}));
  ASSERT_OK(ApplyScalars(z, ElementOp::kMul, {4}));
  EXPECT_THAT(Doubles(z), ElementsAreArray(std::vector<double>(16, 2)));
  ASSERT_OK(ApplyScalars(z, ElementOp::kSub, {4}));
  EXPECT_THAT(Doubles(z), ElementsAreArray(std::vector<double>(16, -2)));
  ASSERT_OK(ApplyScalars(z, ElementOp::kDiv, {2}));
  EXPECT_THAT(Doubles(z), ElementsAreArray(std::vector<double>(16, -1)));
}

TEST(ApplyScalarsTest, PerLastDimensionScalarsFollowTheViewsOwnLastDimension) {
  // z = [[1, 2], [3, 4], [5, 6]]; its transpose is [[1, 3, 5], [2, 4, 6]],
  // whose last dimension has extent 3.
  Tensor z = Must(MakeTensor<double>({3, 2}, {1, 2, 3, 4, 5, 6}));
  Tensor transposed = Must(z.Transpose(0, 1));
  ASSERT_OK(ApplyScalars(transposed, ElementOp::kAdd, {10, 20, 30}));
  EXPECT_THAT(Doubles(transposed), ElementsAre(11, 23, 35, 12, 24, 36));
  EXPECT_THAT(Doubles(z), ElementsAre(11, 12, 23, 24, 35, 36));
}

TEST(ApplyScalarsTest, PerChannelMultiplyOfAnImage) {
  Tensor image = Must(MakeTensor<float>({2, 2, 3}, {2, 2, 2, 4, 4, 4, 6, 6, 6, 8, 8, 8}));
  ASSERT_OK(ApplyScalars(image, ElementOp::kMul, {0.5, 1.0, 2.0}));
  EXPECT_THAT(Doubles(image), ElementsAre(1, 2, 4, 2, 4, 8, 3, 6, 12, 4, 8, 16));
}

TEST(ApplyScalarsTest, WrongNumberOfScalarsIsAnErrorAndWritesNothing) {
  Tensor t = Must(MakeTensor<std::int32_t>({2, 3}, {1, 2, 3, 4, 5, 6}));
  for (ElementOp op : kAllOps) {
    SCOPED_TRACE(ElementOpName(op));
    // As many values as elements is not the per-last-dimension form.
    EXPECT_FALSE(ApplyScalars(t, op, {1, 2, 3, 4, 5, 6}).ok());
    EXPECT_FALSE(ApplyScalars(t, op, {1, 2, 3, 4}).ok());
    // Two scalars for the first dimension's extent is still wrong: only the
    // last dimension counts.
    EXPECT_FALSE(ApplyScalars(t, op, {1, 2}).ok());
    EXPECT_FALSE(ApplyScalars(t, op, {}).ok());
    EXPECT_THAT(Doubles(t), ElementsAre(1, 2, 3, 4, 5, 6));
  }
}

TEST(ApplyScalarsTest, Uint8ArithmeticWrapsAround) {
  Tensor t = Must(MakeTensor<std::uint8_t>({3}, {250, 255, 0}));
  ASSERT_OK(ApplyScalars(t, ElementOp::kAdd, {10}));
  EXPECT_THAT(Doubles(t), ElementsAre(4, 9, 10));
  ASSERT_OK(ApplyScalars(t, ElementOp::kSub, {10}));
  EXPECT_THAT(Doubles(t), ElementsAre(250, 255, 0));
  ASSERT_OK(ApplyScalars(t, ElementOp::kSub, {1}));
  EXPECT_THAT(Doubles(t), ElementsAre(249, 254, 255));

  Tensor m = Must(MakeTensor<std::uint8_t>({2}, {16, 17}));
  ASSERT_OK(ApplyScalars(m, ElementOp::kMul, {16}));
  EXPECT_THAT(Doubles(m), ElementsAre(0, 16));
}

TEST(ApplyScalarsTest, SignedArithmeticWrapsAroundInsteadOfOverflowing) {
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  Tensor t = Must(MakeTensor<std::int32_t>({3}, {kMax, kMin, 65536}));
  ASSERT_OK(ApplyScalars(t, ElementOp::kAdd, {1, -1, 0}));
  EXPECT_THAT(Doubles(t), ElementsAre(kMin, kMax, 65536));
  ASSERT_OK(ApplyScalars(t, ElementOp::kMul, {65536}));
  // (2^31 - 1) * 2^16 = 2^47 - 2^16, which wraps to -2^16.
  EXPECT_THAT(Doubles(t), ElementsAre(0, -65536, 0));

  constexpr std::int64_t kMax64 = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();
  Tensor big = Must(MakeTensor<std::int64_t>({2}, {kMax64, kMin64}));
  ASSERT_OK(ApplyScalars(big, ElementOp::kAdd, {1, -1}));
  const std::vector<std::int64_t> values = ValuesOf<std::int64_t>(big);
  EXPECT_THAT(values, ElementsAre(kMin64, kMax64));

  Tensor small = Must(MakeTensor<std::int8_t>({2}, {127, -128}));
  ASSERT_OK(ApplyScalars(small, ElementOp::kMul, {2}));
  EXPECT_THAT(Doubles(small), ElementsAre(-2, 0));
}

TEST(ApplyScalarsTest, IntegerDivisionTruncatesTowardZero) {
  Tensor t = Must(MakeTensor<std::int32_t>({2, 2}, {7, 7, -7, -7}));
  ASSERT_OK(ApplyScalars(t, ElementOp::kDiv, {2, -2}));
  EXPECT_THAT(Doubles(t), ElementsAre(3, -3, -3, 3));
  Tensor u = Must(MakeTensor<std::uint8_t>({3}, {255, 5, 1}));
  ASSERT_OK(ApplyScalars(u, ElementOp::kDiv, {2}));
  EXPECT_THAT(Doubles(u), ElementsAre(127, 2, 0));
}

TEST(ApplyScalarsTest, IntegerDivisionByAZeroScalarIsAnErrorAndLeavesTheTensorUnchanged) {
  for (DType dtype : {DType::kUInt8, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64}) {
    SCOPED_TRACE(DTypeName(dtype));
    Tensor t = Must(TensorOf(dtype, {2, 3}, {1, 2, 3, 4, 5, 6}));
    EXPECT_FALSE(ApplyScalars(t, ElementOp::kDiv, {0}).ok());
    // The zero is for the middle column: the first column must not have
    // been divided before the error is found.
    EXPECT_FALSE(ApplyScalars(t, ElementOp::kDiv, {1, 0, 1}).ok());
    EXPECT_FALSE(ApplyScalars(Must(t.Transpose(0, 1)), ElementOp::kDiv, {1, 0}).ok());
    EXPECT_THAT(Doubles(t), ElementsAre(1, 2, 3, 4, 5, 6));
  }
}

TEST(ApplyScalarsTest, MinimumIntegerDividedByMinusOneWrapsToItself) {
  Tensor i8 = Must(MakeTensor<std::int8_t>({2}, {-128, 6}));
  ASSERT_OK(ApplyScalars(i8, ElementOp::kDiv, {-1}));
  EXPECT_THAT(Doubles(i8), ElementsAre(-128, -6));

  Tensor i16 = Must(MakeTensor<std::int16_t>({1}, {-32768}));
  ASSERT_OK(ApplyScalars(i16, ElementOp::kDiv, {-1}));
  EXPECT_THAT(Doubles(i16), ElementsAre(-32768));

  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  Tensor i32 = Must(MakeTensor<std::int32_t>({1, 2}, {kMin, kMin}));
  ASSERT_OK(ApplyScalars(i32, ElementOp::kDiv, {-1, 1}));
  EXPECT_THAT(Doubles(i32), ElementsAre(kMin, kMin));

  constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();
  Tensor i64 = Must(MakeTensor<std::int64_t>({1}, {kMin64}));
  ASSERT_OK(ApplyScalars(i64, ElementOp::kDiv, {-1}));
  const std::vector<std::int64_t> values = ValuesOf<std::int64_t>(i64);
  EXPECT_THAT(values, ElementsAre(kMin64));
}

TEST(ApplyScalarsTest, FloatingDivisionByZeroGivesInfinitiesAndNaN) {
  Tensor t = Must(MakeTensor<double>({3}, {1, -1, 0}));
  ASSERT_OK(ApplyScalars(t, ElementOp::kDiv, {0}));
  std::vector<double> values = Doubles(t);
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0], std::numeric_limits<double>::infinity());
  EXPECT_EQ(values[1], -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(values[2]));

  Tensor h = Must(TensorOf(DType::kFloat16, {1}, {1}));
  ASSERT_OK(ApplyScalars(h, ElementOp::kDiv, {0}));
  EXPECT_THAT(Doubles(h), ElementsAre(std::numeric_limits<double>::infinity()));
}

TEST(ApplyScalarsTest, UnrepresentableScalarIsAnErrorNotATruncation) {
  struct Case {
    DType dtype;
    ElementOp op;
    double value;
  };
  const Case cases[] = {
      {DType::kInt32, ElementOp::kAdd, 0.5},
      {DType::kInt32, ElementOp::kAssign, 0.5},
      {DType::kInt32, ElementOp::kMul, -1.5},
      {DType::kUInt8, ElementOp::kAdd, -1},
      {DType::kUInt8, ElementOp::kAssign, 256},
      {DType::kInt8, ElementOp::kAssign, 128},
      {DType::kInt8, ElementOp::kSub, -129},
      {DType::kInt16, ElementOp::kAssign, 32768},
      {DType::kInt64, ElementOp::kAssign, 9223372036854775808.0},  // 2^63
      {DType::kInt32, ElementOp::kAssign, std::nan("")},
      {DType::kInt32, ElementOp::kAdd, std::numeric_limits<double>::infinity()},
      {DType::kUInt8, ElementOp::kDiv, 0.5},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message()
                 << DTypeName(c.dtype) << " " << ElementOpName(c.op) << " " << c.value);
    Tensor t = Must(TensorOf(c.dtype, {3}, {1, 2, 3}));
    EXPECT_FALSE(ApplyScalars(t, c.op, {c.value}).ok());
    // Also when only one of the per-last-dimension values is bad.
    EXPECT_FALSE(ApplyScalars(t, c.op, {1, 1, c.value}).ok());
    EXPECT_THAT(Doubles(t), ElementsAre(1, 2, 3));
  }
}

TEST(ApplyScalarsTest, ScalarsAtTheEdgesOfTheRangeAreAccepted) {
  Tensor u8 = Must(TensorOf(DType::kUInt8, {2}, {0, 0}));
  ASSERT_OK(ApplyScalars(u8, ElementOp::kAssign, {255, 0}));
  EXPECT_THAT(Doubles(u8), ElementsAre(255, 0));

  Tensor i8 = Must(TensorOf(DType::kInt8, {2}, {0, 0}));
  ASSERT_OK(ApplyScalars(i8, ElementOp::kAssign, {-128, 127}));
  EXPECT_THAT(Doubles(i8), ElementsAre(-128, 127));

  Tensor i64 = Must(TensorOf(DType::kInt64, {1}, {0}));
  ASSERT_OK(ApplyScalars(i64, ElementOp::kAssign, {-9223372036854775808.0}));  // -2^63
  const std::vector<std::int64_t> values = ValuesOf<std::int64_t>(i64);
  EXPECT_THAT(values, ElementsAre(std::numeric_limits<std::int64_t>::min()));

  // A float tensor takes the nearest float to a double scalar.
  Tensor f = Must(TensorOf(DType::kFloat32, {1}, {0}));
  ASSERT_OK(ApplyScalars(f, ElementOp::kAssign, {0.1}));
  const std::vector<float> floats = ValuesOf<float>(f);
  EXPECT_THAT(floats, ElementsAre(0.1f));
}

TEST(ApplyScalarsTest, BoolTensorsCanBeFilledWithZeroOrOneButNotComputedOn) {
  Tensor b = Must(TensorOf(DType::kBool, {3}, {0, 1, 0}));
  for (ElementOp op : kArithmeticOps) {
    SCOPED_TRACE(ElementOpName(op));
    EXPECT_FALSE(ApplyScalars(b, op, {1}).ok());
    EXPECT_FALSE(ApplyComponents(b, op, b).ok());
    EXPECT_THAT(Doubles(b), ElementsAre(0, 1, 0));
  }
  EXPECT_FALSE(ApplyScalars(b, ElementOp::kAssign, {2}).ok());
  EXPECT_FALSE(ApplyScalars(b, ElementOp::kAssign, {0.5}).ok());
  EXPECT_THAT(Doubles(b), ElementsAre(0, 1, 0));
  ASSERT_OK(ApplyScalars(b, ElementOp::kAssign, {1}));
  EXPECT_THAT(Doubles(b), ElementsAre(1, 1, 1));
  ASSERT_OK(ApplyScalars(b, ElementOp::kAssign, {0, 1, 0}));
  EXPECT_THAT(Doubles(b), ElementsAre(0, 1, 0));
}

TEST(ApplyScalarsTest, HalfTypesComputeInFloatAndRoundBack) {
  Tensor h = Must(TensorOf(DType::kFloat16, {3}, {2048, 1, 0.5}));
  ASSERT_OK(ApplyScalars(h, ElementOp::kAdd, {1}));
  // 2049 is not a float16; it rounds (to even) to 2048.
  EXPECT_THAT(Doubles(h), ElementsAre(2048, 2, 1.5));
  Tensor third = Must(TensorOf(DType::kFloat16, {1}, {1}));
  ASSERT_OK(ApplyScalars(third, ElementOp::kDiv, {3}));
  EXPECT_THAT(Doubles(third),
              ElementsAre(static_cast<double>(static_cast<float>(Float16(1.0f / 3.0f)))));

  Tensor b = Must(TensorOf(DType::kBFloat16, {2}, {256, 1}));
  ASSERT_OK(ApplyScalars(b, ElementOp::kAdd, {1}));
  EXPECT_THAT(Doubles(b), ElementsAre(256, 2));
}

// --- ApplyComponents ----------------------------------------------------------

// The seed document's ByteTensor examples: bt is 3x2, bt2 is 2x3; shapes are
// ignored, elements pair up in layout order.
TEST(ApplyComponentsTest, SeedDocumentByteTensorExamplesIgnoreShapes) {
  const std::vector<double> six = {1, 2, 3, 4, 5, 6};
  Tensor bt2 = Must(TensorOf(DType::kUInt8, {2, 3}, six));
  struct Case {
    ElementOp op;
    std::vector<double> expected;
  };
  const Case cases[] = {
      {ElementOp::kMul, {1, 4, 9, 16, 25, 36}}, {ElementOp::kAdd, {2, 4, 6, 8, 10, 12}},
      {ElementOp::kDiv, {1, 1, 1, 1, 1, 1}},    {ElementOp::kSub, {0, 0, 0, 0, 0, 0}},
      {ElementOp::kAssign, {1, 2, 3, 4, 5, 6}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(ElementOpName(c.op));
    Tensor bt = Must(TensorOf(DType::kUInt8, {3, 2},
                              c.op == ElementOp::kAssign ? std::vector<double>(6, 0) : six));
    ASSERT_OK(ApplyComponents(bt, c.op, bt2));
    EXPECT_THAT(Doubles(bt), ElementsAreArray(c.expected));
    EXPECT_THAT(bt.shape(), ElementsAre(3, 2));
    EXPECT_THAT(Doubles(bt2), ElementsAreArray(six));
  }
}

TEST(ApplyComponentsTest, ElementCountMismatchIsAnErrorAndWritesNothing) {
  Tensor dst = Must(MakeTensor<double>({2, 3}, {1, 2, 3, 4, 5, 6}));
  Tensor five = Must(MakeTensor<double>({5}, {1, 1, 1, 1, 1}));
  Tensor seven = Must(MakeTensor<double>({7}, {1, 1, 1, 1, 1, 1, 1}));
  Tensor empty = Must(Tensor::Zeros(DType::kFloat64, {0}));
  for (ElementOp op : kAllOps) {
    SCOPED_TRACE(ElementOpName(op));
    EXPECT_FALSE(ApplyComponents(dst, op, five).ok());
    EXPECT_FALSE(ApplyComponents(dst, op, seven).ok());
    EXPECT_FALSE(ApplyComponents(dst, op, empty).ok());
    EXPECT_FALSE(ApplyComponents(dst, op, Tensor()).ok());
    EXPECT_THAT(Doubles(dst), ElementsAre(1, 2, 3, 4, 5, 6));
  }
}

TEST(ApplyComponentsTest, ArithmeticNeedsEqualDTypes) {
  Tensor dst = Must(MakeTensor<std::int32_t>({3}, {1, 2, 3}));
  Tensor floats = Must(MakeTensor<float>({3}, {1, 1, 1}));
  Tensor int64s = Must(MakeTensor<std::int64_t>({3}, {1, 1, 1}));
  for (ElementOp op : kArithmeticOps) {
    SCOPED_TRACE(ElementOpName(op));
    EXPECT_FALSE(ApplyComponents(dst, op, floats).ok());
    EXPECT_FALSE(ApplyComponents(dst, op, int64s).ok());
    EXPECT_THAT(Doubles(dst), ElementsAre(1, 2, 3));
  }
}

TEST(ApplyComponentsTest, Uint8AddWrapsAround) {
  Tensor dst = Must(MakeTensor<std::uint8_t>({3}, {200, 255, 0}));
  Tensor src = Must(MakeTensor<std::uint8_t>({3}, {100, 1, 0}));
  ASSERT_OK(ApplyComponents(dst, ElementOp::kAdd, src));
  EXPECT_THAT(Doubles(dst), ElementsAre(44, 0, 0));
  Tensor one = Must(MakeTensor<std::uint8_t>({3}, {1, 1, 1}));
  ASSERT_OK(ApplyComponents(dst, ElementOp::kSub, one));
  EXPECT_THAT(Doubles(dst), ElementsAre(43, 255, 255));
}

TEST(ApplyComponentsTest, IntegerDivisionByAZeroElementIsAnErrorAndLeavesTheTensorUnchanged) {
  for (DType dtype : {DType::kUInt8, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64}) {
    SCOPED_TRACE(DTypeName(dtype));
    Tensor dst = Must(TensorOf(dtype, {2, 2}, {10, 20, 30, 40}));
    // The zero is the last element, so a kernel that divides as it checks
    // would already have written the first three.
    Tensor src = Must(TensorOf(dtype, {4}, {1, 2, 5, 0}));
    EXPECT_FALSE(ApplyComponents(dst, ElementOp::kDiv, src).ok());
    EXPECT_FALSE(ApplyComponents(Must(dst.Transpose(0, 1)), ElementOp::kDiv, src).ok());
    EXPECT_FALSE(ApplyComponents(dst, ElementOp::kDiv, Must(src.Reverse(0))).ok());
    EXPECT_THAT(Doubles(dst), ElementsAre(10, 20, 30, 40));
  }
}

TEST(ApplyComponentsTest, MinimumIntegerDividedByMinusOneWrapsToItself) {
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  Tensor dst = Must(MakeTensor<std::int32_t>({3}, {kMin, kMin, 9}));
  Tensor src = Must(MakeTensor<std::int32_t>({3}, {-1, 1, -1}));
  ASSERT_OK(ApplyComponents(dst, ElementOp::kDiv, src));
  EXPECT_THAT(Doubles(dst), ElementsAre(kMin, kMin, -9));

  constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();
  Tensor dst64 = Must(MakeTensor<std::int64_t>({1}, {kMin64}));
  Tensor src64 = Must(MakeTensor<std::int64_t>({1}, {-1}));
  ASSERT_OK(ApplyComponents(dst64, ElementOp::kDiv, src64));
  const std::vector<std::int64_t> values = ValuesOf<std::int64_t>(dst64);
  EXPECT_THAT(values, ElementsAre(kMin64));

  Tensor dst8 = Must(MakeTensor<std::int8_t>({1}, {-128}));
  Tensor src8 = Must(MakeTensor<std::int8_t>({1}, {-1}));
  ASSERT_OK(ApplyComponents(dst8, ElementOp::kDiv, src8));
  EXPECT_THAT(Doubles(dst8), ElementsAre(-128));
}

TEST(ApplyComponentsTest, FloatingDivisionByAZeroElementGivesInfinity) {
  Tensor dst = Must(MakeTensor<float>({2}, {1, -2}));
  Tensor src = Must(MakeTensor<float>({2}, {0, 0}));
  ASSERT_OK(ApplyComponents(dst, ElementOp::kDiv, src));
  EXPECT_THAT(Doubles(dst), ElementsAre(std::numeric_limits<double>::infinity(),
                                        -std::numeric_limits<double>::infinity()));
}

TEST(ApplyComponentsTest, CopyConvertsFloatToIntegerByTruncatingTowardZero) {
  Tensor src = Must(MakeTensor<double>({6}, {1.9, -1.9, 0.5, -0.5, 2.5, -2.5}));
  Tensor dst = Must(Tensor::Zeros(DType::kInt32, {2, 3}));
  ASSERT_OK(ApplyComponents(dst, ElementOp::kAssign, src));
  EXPECT_THAT(Doubles(dst), ElementsAre(1, -1, 0, 0, 2, -2));

  Tensor f32 = Must(MakeTensor<float>({2}, {255.9f, 127.5f}));
  Tensor u8 = Must(Tensor::Zeros(DType::kUInt8, {2}));
  ASSERT_OK(ApplyComponents(u8, ElementOp::kAssign, f32));
  EXPECT_THAT(Doubles(u8), ElementsAre(255, 127));
}

TEST(ApplyComponentsTest, CopyTruncatesBeforeCheckingTheRange) {
  // -0.9 truncates to 0, which a uint8 holds; -128.9 truncates to -128.
  Tensor src = Must(MakeTensor<double>({2}, {-0.9, 0.9}));
  Tensor u8 = Must(Tensor::Zeros(DType::kUInt8, {2}));
  ASSERT_OK(ApplyComponents(u8, ElementOp::kAssign, src));
  EXPECT_THAT(Doubles(u8), ElementsAre(0, 0));
  Tensor low = Must(MakeTensor<double>({2}, {-128.9, 127.9}));
  Tensor i8 = Must(Tensor::Zeros(DType::kInt8, {2}));
  ASSERT_OK(ApplyComponents(i8, ElementOp::kAssign, low));
  EXPECT_THAT(Doubles(i8), ElementsAre(-128, 127));
}

TEST(ApplyComponentsTest, CopyOfAValueTheDestinationCannotHoldIsAnErrorAndWritesNothing) {
  struct Case {
    std::string name;
    DType dst;
    Tensor src;
  };
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  const Case cases[] = {
      {"300.0 -> uint8", DType::kUInt8, Must(MakeTensor<double>({3}, {1, 2, 300}))},
      {"-1.0 -> uint8", DType::kUInt8, Must(MakeTensor<double>({3}, {1, 2, -1}))},
      {"int32 -1 -> uint8", DType::kUInt8, Must(MakeTensor<std::int32_t>({3}, {1, 2, -1}))},
      {"int32 256 -> uint8", DType::kUInt8, Must(MakeTensor<std::int32_t>({3}, {1, 2, 256}))},
      {"int16 128 -> int8", DType::kInt8, Must(MakeTensor<std::int16_t>({3}, {1, 2, 128}))},
      {"uint8 200 -> int8", DType::kInt8, Must(MakeTensor<std::uint8_t>({3}, {1, 2, 200}))},
      {"int64 2^31 -> int32", DType::kInt32,
       Must(MakeTensor<std::int64_t>({3}, {1, 2, std::int64_t{1} << 31}))},
      {"NaN -> int32", DType::kInt32, Must(MakeTensor<double>({3}, {1, 2, nan}))},
      {"float NaN -> uint8", DType::kUInt8, Must(MakeTensor<float>({3}, {1, 2, NAN}))},
      {"inf -> int64", DType::kInt64, Must(MakeTensor<double>({3}, {1, 2, inf}))},
      {"-inf -> int16", DType::kInt16, Must(MakeTensor<double>({3}, {1, 2, -inf}))},
      {"2^63 -> int64", DType::kInt64,
       Must(MakeTensor<double>({3}, {1, 2, 9223372036854775808.0}))},
      {"float 2^31 -> int32", DType::kInt32, Must(MakeTensor<float>({3}, {1, 2, 2147483648.0f}))},
      {"2^32 -> int32", DType::kInt32, Must(MakeTensor<double>({3}, {1, 2, 4294967296.0}))},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Tensor dst = Must(TensorOf(c.dst, {3}, {9, 9, 9}));
    EXPECT_FALSE(ApplyComponents(dst, ElementOp::kAssign, c.src).ok());
    EXPECT_THAT(Doubles(dst), ElementsAre(9, 9, 9));
  }
}

TEST(ApplyComponentsTest, CopyIntoBoolMakesNonzeroTrue) {
  Tensor ints = Must(MakeTensor<std::int32_t>({4}, {0, 2, -1, 0}));
  Tensor b = Must(Tensor::Zeros(DType::kBool, {4}));
  ASSERT_OK(ApplyComponents(b, ElementOp::kAssign, ints));
  EXPECT_THAT(Doubles(b), ElementsAre(0, 1, 1, 0));
  Tensor doubles = Must(MakeTensor<double>({4}, {0.5, -0.0, 0.0, -3}));
  ASSERT_OK(ApplyComponents(b, ElementOp::kAssign, doubles));
  EXPECT_THAT(Doubles(b), ElementsAre(1, 0, 0, 1));
  // And back: true is 1.
  Tensor f = Must(Tensor::Zeros(DType::kFloat32, {4}));
  ASSERT_OK(ApplyComponents(f, ElementOp::kAssign, b));
  EXPECT_THAT(Doubles(f), ElementsAre(1, 0, 0, 1));
}

TEST(ApplyComponentsTest, CopyConvertsToAndFromHalfTypes) {
  Tensor src = Must(MakeTensor<double>({3}, {1.0 / 3.0, 2048, -0.5}));
  Tensor h = Must(Tensor::Zeros(DType::kFloat16, {3}));
  ASSERT_OK(ApplyComponents(h, ElementOp::kAssign, src));
  const std::vector<Float16> halves = ValuesOf<Float16>(h);
  ASSERT_EQ(halves.size(), 3u);
  EXPECT_EQ(halves[0].bits(), Float16(1.0f / 3.0f).bits());
  EXPECT_EQ(static_cast<float>(halves[1]), 2048.0f);
  EXPECT_EQ(static_cast<float>(halves[2]), -0.5f);

  Tensor bf = Must(Tensor::Zeros(DType::kBFloat16, {3}));
  ASSERT_OK(ApplyComponents(bf, ElementOp::kAssign, h));
  EXPECT_THAT(
      Doubles(bf),
      ElementsAre(static_cast<double>(static_cast<float>(BFloat16(static_cast<float>(halves[0])))),
                  2048, -0.5));
  Tensor ints = Must(Tensor::Zeros(DType::kInt32, {3}));
  ASSERT_OK(ApplyComponents(ints, ElementOp::kAssign, h));
  EXPECT_THAT(Doubles(ints), ElementsAre(0, 2048, 0));
}

// --- Overlapping source and destination ---------------------------------------

TEST(ApplyComponentsOverlapTest, CopyIntoItsOwnReversedViewReversesTheTensor) {
  Tensor t = Must(MakeTensor<std::int32_t>({5}, {1, 2, 3, 4, 5}));
  ASSERT_OK(ApplyComponents(Must(t.Reverse(0)), ElementOp::kAssign, t));
  EXPECT_THAT(Doubles(t), ElementsAre(5, 4, 3, 2, 1));
  ASSERT_OK(ApplyComponents(t, ElementOp::kAssign, Must(t.Reverse(0))));
  EXPECT_THAT(Doubles(t), ElementsAre(1, 2, 3, 4, 5));
}

TEST(ApplyComponentsOverlapTest, CopyIntoAShiftedNarrowOfItselfMovesTheOldValues) {
  Tensor right = Must(MakeTensor<double>({6}, {1, 2, 3, 4, 5, 6}));
  ASSERT_OK(ApplyComponents(Must(right.Narrow(0, 1, 5)), ElementOp::kAssign,
                            Must(right.Narrow(0, 0, 5))));
  EXPECT_THAT(Doubles(right), ElementsAre(1, 1, 2, 3, 4, 5));

  Tensor left = Must(MakeTensor<double>({6}, {1, 2, 3, 4, 5, 6}));
  ASSERT_OK(
      ApplyComponents(Must(left.Narrow(0, 0, 5)), ElementOp::kAssign, Must(left.Narrow(0, 1, 5))));
  EXPECT_THAT(Doubles(left), ElementsAre(2, 3, 4, 5, 6, 6));

  // The same with rows of a matrix.
  Tensor rows = Must(MakeTensor<std::uint8_t>({3, 2}, {1, 2, 3, 4, 5, 6}));
  ASSERT_OK(
      ApplyComponents(Must(rows.Narrow(0, 1, 2)), ElementOp::kAssign, Must(rows.Narrow(0, 0, 2))));
  EXPECT_THAT(Doubles(rows), ElementsAre(1, 2, 1, 2, 3, 4));
}

TEST(ApplyComponentsOverlapTest, CopyOfATransposeIntoItselfTransposesInPlace) {
  Tensor t = Must(MakeTensor<float>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}));
  ASSERT_OK(ApplyComponents(t, ElementOp::kAssign, Must(t.Transpose(0, 1))));
  EXPECT_THAT(Doubles(t), ElementsAre(1, 4, 7, 2, 5, 8, 3, 6, 9));
}

TEST(ApplyComponentsOverlapTest, ArithmeticWithAnOverlappingSourceReadsTheSourceFirst) {
  // rev[i] += t[i] with rev = reverse(t): every element becomes 5.
  Tensor t = Must(MakeTensor<std::int64_t>({4}, {1, 2, 3, 4}));
  ASSERT_OK(ApplyComponents(Must(t.Reverse(0)), ElementOp::kAdd, t));
  EXPECT_THAT(Doubles(t), ElementsAre(5, 5, 5, 5));

  // t[i+1] *= t[i] with the old values.
  Tensor m = Must(MakeTensor<double>({5}, {1, 2, 3, 4, 5}));
  ASSERT_OK(ApplyComponents(Must(m.Narrow(0, 1, 4)), ElementOp::kMul, Must(m.Narrow(0, 0, 4))));
  EXPECT_THAT(Doubles(m), ElementsAre(1, 2, 6, 12, 20));

  // The source is the first element broadcast over the whole tensor.
  Tensor b = Must(MakeTensor<std::int32_t>({3}, {1, 2, 3}));
  ASSERT_OK(ApplyComponents(b, ElementOp::kAdd, Must(Must(b.Narrow(0, 0, 1)).Expand({3}))));
  EXPECT_THAT(Doubles(b), ElementsAre(2, 3, 4));
}

// A dense destination and a source of every other element, apart and
// overlapping, against the old values.
TEST(ApplyComponentsOverlapTest, EveryOtherElementIntoADenseRun) {
  constexpr Index kRun = 37;  // vector lanes and a tail
  std::vector<double> old(2 * kRun);
  for (Index i = 0; i < 2 * kRun; ++i) old[i] = static_cast<double>(i * i % 23);
  for (ElementOp op : {ElementOp::kAdd, ElementOp::kSub, ElementOp::kMul}) {
    SCOPED_TRACE(ElementOpName(op));
    auto combine = [op](double x, double y) {
      return op == ElementOp::kAdd ? x + y : op == ElementOp::kSub ? x - y : x * y;
    };
    const Tensor every_other_of = Must(MakeTensor<double>({kRun, 2}, old));
    Tensor apart =
        Must(MakeTensor<double>({kRun}, std::vector<double>(old.begin(), old.begin() + kRun)));
    ASSERT_OK(ApplyComponents(apart, op, Must(every_other_of.Select(1, 0))));
    Tensor shared = Must(MakeTensor<double>({2 * kRun}, old));
    const Tensor pairs = Must(shared.Reshape({kRun, 2}));
    ASSERT_OK(ApplyComponents(Must(shared.Narrow(0, 0, kRun)), op, Must(pairs.Select(1, 0))));
    const std::vector<double> got_apart = Doubles(apart), got_shared = Doubles(shared);
    for (Index i = 0; i < kRun; ++i) {
      EXPECT_EQ(got_apart[i], combine(old[i], old[2 * i])) << i;
      EXPECT_EQ(got_shared[i], combine(old[i], old[2 * i])) << i;
    }
  }
}

TEST(ApplyComponentsOverlapTest, ConvertingCopyBetweenOverlappingViewsReadsTheSourceFirst) {
  // A float32 and an int32 view of one storage, the destination shifted by
  // one element from the source.
  Tensor floats = Must(MakeTensor<float>({4}, {1.5f, 2.5f, 3.5f, 4.5f}));
  Tensor ints =
      Must(Tensor::FromStorage(DType::kInt32, Must(Layout::Create({3}, {1}, 1)), floats.storage()));
  ASSERT_OK(ApplyComponents(ints, ElementOp::kAssign, Must(floats.Narrow(0, 0, 3))));
  const std::vector<std::int32_t> values = ValuesOf<std::int32_t>(ints);
  EXPECT_THAT(values, ElementsAre(1, 2, 3));
}

TEST(ApplyComponentsOverlapTest, WideningCopyBetweenViewsWithEqualLayoutsReadsTheSourceFirst) {
  // One 32-byte storage seen as int32 [4] (bytes 0..15) and as float64 [4]
  // (bytes 0..31). The two layouts are equal element for element, but the
  // bytes they cover differ, so writing float64 element 0 overwrites int32
  // element 1 before it is read unless the source is read first.
  Tensor ints = Must(MakeTensor<std::int32_t>({8}, {1, 2, 3, 4, 0, 0, 0, 0}));
  Tensor first_four = Must(ints.Narrow(0, 0, 4));
  Tensor doubles =
      Must(Tensor::FromStorage(DType::kFloat64, Must(Layout::Contiguous({4})), ints.storage()));
  ASSERT_EQ(first_four.layout(), doubles.layout());
  ASSERT_OK(ApplyComponents(doubles, ElementOp::kAssign, first_four));
  EXPECT_THAT(ValuesOf<double>(doubles), ElementsAre(1, 2, 3, 4));
}

TEST(ApplyComponentsOverlapTest, OverlapIsFoundBetweenTwoLoansOfTheSameMemory) {
  // Two tensors lent over one buffer (two storages, one memory): copying
  // one into the other's reversed view must still reverse.
  std::int32_t buffer[5] = {1, 2, 3, 4, 5};
  ScopedLoan loan("frame buffer lent twice");
  Tensor a = Must(Tensor::Lend(DType::kInt32, Must(Layout::Contiguous({5})), buffer, sizeof(buffer),
                               loan.token()));
  Tensor b = Must(Tensor::Lend(DType::kInt32, Must(Layout::Contiguous({5})), buffer, sizeof(buffer),
                               loan.token()));
  ASSERT_OK(ApplyComponents(Must(a.Reverse(0)), ElementOp::kAssign, b));
  EXPECT_THAT(buffer, ElementsAre(5, 4, 3, 2, 1));
}

// --- Validity -----------------------------------------------------------------

TEST(ElementwiseValidityTest, EveryOpOnARevokedDestinationFailsAndWritesNothing) {
  LentTensor lent(DType::kInt32, {2, 2}, {1, 2, 3, 4}, "engine frame 'RGB'");
  Tensor transposed = Must(lent.tensor().Transpose(0, 1));
  Tensor src = Must(MakeTensor<std::int32_t>({4}, {1, 1, 1, 1}));
  const std::vector<std::byte> before = lent.Bytes();
  lent.Revoke();
  for (const Tensor& dst : {lent.tensor(), transposed}) {
    for (ElementOp op : kAllOps) {
      SCOPED_TRACE(ElementOpName(op));
      ExpectInvalid(ApplyScalars(dst, op, {1}), lent.lender());
      ExpectInvalid(ApplyScalars(dst, op, {1, 1}), lent.lender());
      ExpectInvalid(ApplyComponents(dst, op, src), lent.lender());
    }
    // Nothing to do for an integer tensor, and still an error.
    ExpectInvalid(Round(dst, Rounding::kRound), lent.lender());
    ExpectInvalid(Round(dst, Rounding::kFloor), lent.lender());
    ExpectInvalid(Clamp(dst, 0, 2), lent.lender());
    ExpectInvalid(Clamp(dst, std::nullopt, std::nullopt), lent.lender());
  }
  EXPECT_EQ(lent.Bytes(), before);
}

TEST(ElementwiseValidityTest, RevokedFloatDestinationIsNotRoundedOrClamped) {
  LentTensor lent(DType::kFloat32, {3}, {0.5, 1.5, -7}, "reward buffer");
  const std::vector<std::byte> before = lent.Bytes();
  lent.Revoke();
  ExpectInvalid(Round(lent.tensor(), Rounding::kRound), lent.lender());
  ExpectInvalid(Round(lent.tensor(), Rounding::kCeil), lent.lender());
  ExpectInvalid(Clamp(lent.tensor(), 0, std::nullopt), lent.lender());
  EXPECT_EQ(lent.Bytes(), before);
}

TEST(ElementwiseValidityTest, RevokedSourceIsAnErrorAndTheDestinationIsNotWritten) {
  LentTensor lent(DType::kInt32, {4}, {5, 6, 7, 8}, "observation 'DEPTH'");
  Tensor reversed = Must(lent.tensor().Reverse(0));
  lent.Revoke();
  Tensor dst = Must(MakeTensor<std::int32_t>({2, 2}, {1, 2, 3, 4}));
  Tensor float_dst = Must(MakeTensor<double>({4}, {1, 2, 3, 4}));
  for (const Tensor& src : {lent.tensor(), reversed}) {
    for (ElementOp op : kAllOps) {
      SCOPED_TRACE(ElementOpName(op));
      ExpectInvalid(ApplyComponents(dst, op, src), lent.lender());
    }
    // A converting copy reads the source too.
    ExpectInvalid(ApplyComponents(float_dst, ElementOp::kAssign, src), lent.lender());
  }
  EXPECT_THAT(Doubles(dst), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(Doubles(float_dst), ElementsAre(1, 2, 3, 4));
}

TEST(ElementwiseValidityTest, RevokedEmptyViewIsStillAnError) {
  LentTensor lent(DType::kFloat64, {3}, {1, 2, 3}, "empty loan");
  Tensor none = Must(lent.tensor().Narrow(0, 1, 0));
  lent.Revoke();
  ExpectInvalid(ApplyScalars(none, ElementOp::kAdd, {1}), lent.lender());
  ExpectInvalid(
      ApplyComponents(Must(Tensor::Zeros(DType::kFloat64, {0})), ElementOp::kAssign, none),
      lent.lender());
}

TEST(ElementwiseValidityTest, ValidLoanIsWrittenThroughToTheLendersMemory) {
  LentTensor lent(DType::kUInt8, {2, 2}, {1, 2, 3, 4}, "frame");
  ASSERT_OK(ApplyScalars(Must(lent.tensor().Select(1, 0)), ElementOp::kAdd, {10}));
  const std::vector<std::byte> bytes = lent.Bytes();
  ASSERT_EQ(bytes.size(), 4u);
  EXPECT_EQ(static_cast<int>(bytes[0]), 11);
  EXPECT_EQ(static_cast<int>(bytes[1]), 2);
  EXPECT_EQ(static_cast<int>(bytes[2]), 13);
  EXPECT_EQ(static_cast<int>(bytes[3]), 4);
}

// --- Round --------------------------------------------------------------------

TEST(RoundTest, RoundSendsHalvesAwayFromZero) {
  for (DType dtype : {DType::kFloat64, DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    SCOPED_TRACE(DTypeName(dtype));
    Tensor t = Must(TensorOf(dtype, {8}, {-2.5, 2.5, 0.5, -0.5, 1.5, -1.5, 1.25, -1.75}));
    ASSERT_OK(Round(t, Rounding::kRound));
    EXPECT_THAT(Doubles(t), ElementsAre(-3, 3, 1, -1, 2, -2, 1, -2));
  }
}

TEST(RoundTest, RoundIsExactNearHalvesAndForLargeValues) {
  // floor(x + 0.5) gets both of these wrong.
  const double below_half = 0.49999999999999994;
  const double odd_large = 4503599627370497.0;  // 2^52 + 1
  Tensor t = Must(MakeTensor<double>({3}, {below_half, odd_large, -odd_large}));
  ASSERT_OK(Round(t, Rounding::kRound));
  EXPECT_THAT(Doubles(t), ElementsAre(0, odd_large, -odd_large));

  Tensor f = Must(MakeTensor<float>({1}, {0.49999997f}));
  ASSERT_OK(Round(f, Rounding::kRound));
  EXPECT_THAT(Doubles(f), ElementsAre(0));
}

TEST(RoundTest, FloorAndCeilRoundDownAndUp) {
  Tensor t = Must(MakeTensor<float>({4}, {-2.5f, 2.5f, -0.1f, 3.0f}));
  Tensor u = Must(MakeTensor<float>({4}, {-2.5f, 2.5f, -0.1f, 3.0f}));
  ASSERT_OK(Round(t, Rounding::kFloor));
  ASSERT_OK(Round(u, Rounding::kCeil));
  EXPECT_THAT(Doubles(t), ElementsAre(-3, 2, -1, 3));
  EXPECT_THAT(Doubles(u), ElementsAre(-2, 3, 0, 3));
}

TEST(RoundTest, NaNAndInfinitiesStayAsTheyAre) {
  const double inf = std::numeric_limits<double>::infinity();
  Tensor t = Must(MakeTensor<double>({3}, {std::nan(""), inf, -inf}));
  ASSERT_OK(Round(t, Rounding::kRound));
  std::vector<double> values = Doubles(t);
  ASSERT_EQ(values.size(), 3u);
  EXPECT_TRUE(std::isnan(values[0]));
  EXPECT_EQ(values[1], inf);
  EXPECT_EQ(values[2], -inf);
}

TEST(RoundTest, IntegerTensorsAreLeftAsTheyAre) {
  for (DType dtype : {DType::kUInt8, DType::kInt8, DType::kInt32, DType::kInt64}) {
    SCOPED_TRACE(DTypeName(dtype));
    Tensor t = Must(TensorOf(dtype, {3}, {1, 7, 100}));
    for (Rounding r : {Rounding::kFloor, Rounding::kCeil, Rounding::kRound}) {
      ASSERT_OK(Round(t, r));
    }
    EXPECT_THAT(Doubles(t), ElementsAre(1, 7, 100));
  }
}

TEST(RoundTest, RoundingAViewChangesOnlyTheViewedElements) {
  Tensor t = Must(MakeTensor<double>({2, 3}, {0.5, 1.5, 2.5, 3.5, 4.5, 5.5}));
  ASSERT_OK(Round(Must(Must(t.Narrow(1, 1, 2)).Transpose(0, 1)), Rounding::kRound));
  EXPECT_THAT(Doubles(t), ElementsAre(0.5, 2, 3, 3.5, 5, 6));
  ASSERT_OK(Round(Must(t.Reverse(0)), Rounding::kFloor));
  EXPECT_THAT(Doubles(t), ElementsAre(0, 2, 3, 3, 5, 6));
}

// --- Clamp --------------------------------------------------------------------

TEST(ClampTest, BothBoundsLimitFromBelowAndAbove) {
  Tensor t = Must(MakeTensor<double>({5}, {-5, -1, 0, 1, 5}));
  ASSERT_OK(Clamp(t, -1.5, 2));
  EXPECT_THAT(Doubles(t), ElementsAre(-1.5, -1, 0, 1, 2));
}

TEST(ClampTest, MinOnlyDoesNotLimitFromAbove) {
  Tensor t = Must(MakeTensor<float>({4}, {-5, 0, 5, 1e30f}));
  ASSERT_OK(Clamp(t, 0, std::nullopt));
  EXPECT_THAT(Doubles(t), ElementsAre(0, 0, 5, static_cast<double>(1e30f)));
}

TEST(ClampTest, MaxOnlyDoesNotLimitFromBelow) {
  Tensor t = Must(MakeTensor<std::int32_t>({4}, {-1000000, 0, 5, 7}));
  ASSERT_OK(Clamp(t, std::nullopt, 5));
  EXPECT_THAT(Doubles(t), ElementsAre(-1000000, 0, 5, 5));
}

TEST(ClampTest, NoBoundsLeavesTheTensorAlone) {
  Tensor t = Must(MakeTensor<double>({3}, {-1e300, 0, 1e300}));
  ASSERT_OK(Clamp(t, std::nullopt, std::nullopt));
  EXPECT_THAT(Doubles(t), ElementsAre(-1e300, 0, 1e300));
}

TEST(ClampTest, EqualBoundsSetEveryElement) {
  Tensor t = Must(MakeTensor<std::uint8_t>({3}, {0, 3, 255}));
  ASSERT_OK(Clamp(t, 3, 3));
  EXPECT_THAT(Doubles(t), ElementsAre(3, 3, 3));
}

TEST(ClampTest, MinAboveMaxIsAnErrorAndWritesNothing) {
  Tensor t = Must(MakeTensor<double>({3}, {-5, 0, 5}));
  EXPECT_FALSE(Clamp(t, 2, 1).ok());
  Tensor i = Must(MakeTensor<std::int32_t>({3}, {-5, 0, 5}));
  EXPECT_FALSE(Clamp(i, 1, -1).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(-5, 0, 5));
  EXPECT_THAT(Doubles(i), ElementsAre(-5, 0, 5));
}

TEST(ClampTest, NaNBoundIsAnErrorAndWritesNothing) {
  Tensor t = Must(MakeTensor<double>({3}, {-5, 0, 5}));
  EXPECT_FALSE(Clamp(t, std::nan(""), 1).ok());
  EXPECT_FALSE(Clamp(t, -1, std::nan("")).ok());
  EXPECT_FALSE(Clamp(t, std::nan(""), std::nullopt).ok());
  EXPECT_FALSE(Clamp(t, std::nullopt, std::nan("")).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(-5, 0, 5));
}

// elementwise.h: Clamp fails only "if min > max, or a bound is NaN". A whole
// bound beyond the type's range limits nothing (Lua: bytes:clamp(0, 1000)).
TEST(ClampTest, BoundsBeyondTheTypesRangeLimitNothing) {
  Tensor bytes = Must(MakeTensor<std::uint8_t>({3}, {0, 100, 255}));
  EXPECT_OK(Clamp(bytes, 0, 1000));
  EXPECT_OK(Clamp(bytes, -5, std::nullopt));
  EXPECT_THAT(Doubles(bytes), ElementsAre(0, 100, 255));
  Tensor chars = Must(MakeTensor<std::int8_t>({2}, {-128, 127}));
  EXPECT_OK(Clamp(chars, -1000, 1000));
  EXPECT_THAT(Doubles(chars), ElementsAre(-128, 127));
  Tensor floats = Must(MakeTensor<float>({2}, {-3e38f, 3e38f}));
  EXPECT_OK(Clamp(floats, -1e300, 1e300));
  EXPECT_THAT(Doubles(floats),
              ElementsAre(static_cast<double>(-3e38f), static_cast<double>(3e38f)));
}

TEST(ClampTest, IntegerTensorsClampToTheWholeNumbersInsideFractionalBounds) {
  Tensor t = Must(MakeTensor<std::int32_t>({5}, {-5, -1, 0, 2, 5}));
  ASSERT_OK(Clamp(t, -1.5, 2.5));
  EXPECT_THAT(Doubles(t), ElementsAre(-1, -1, 0, 2, 2));
  Tensor u = Must(MakeTensor<std::uint8_t>({3}, {0, 5, 10}));
  ASSERT_OK(Clamp(u, 0.5, 7.9));
  EXPECT_THAT(Doubles(u), ElementsAre(1, 5, 7));
}

TEST(ClampTest, IntegerBoundsWithNoWholeNumberBetweenThemAreAnErrorAndWriteNothing) {
  Tensor t = Must(MakeTensor<std::int32_t>({3}, {-5, 0, 5}));
  EXPECT_FALSE(Clamp(t, 0.2, 0.8).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(-5, 0, 5));
  // The same in floats is fine.
  Tensor f = Must(MakeTensor<double>({3}, {-5, 0, 5}));
  ASSERT_OK(Clamp(f, 0.2, 0.8));
  EXPECT_THAT(Doubles(f), ElementsAre(0.2, 0.2, 0.8));
}

// No uint8 lies at or below -5, nor at or above 300; no int8 at or above
// 200. elementwise.h: "Fails if ... no value of an integer type lies
// between the bounds"; saturating every element to the type's edge would be
// a silent wrong answer.
TEST(ClampTest, OneSidedIntegerBoundThatExcludesTheWholeTypeIsAnError) {
  Tensor u = Must(MakeTensor<std::uint8_t>({3}, {0, 5, 255}));
  EXPECT_FALSE(Clamp(u, std::nullopt, -5).ok());
  EXPECT_FALSE(Clamp(u, 300, std::nullopt).ok());
  EXPECT_THAT(Doubles(u), ElementsAre(0, 5, 255));
  Tensor c = Must(MakeTensor<std::int8_t>({2}, {-128, 127}));
  EXPECT_FALSE(Clamp(c, 200, 300).ok());
  EXPECT_FALSE(Clamp(c, -300, -200).ok());
  EXPECT_THAT(Doubles(c), ElementsAre(-128, 127));
}

TEST(ClampTest, ClampingATransposedViewWritesThroughToTheBase) {
  Tensor t = Must(MakeTensor<std::int64_t>({2, 3}, {1, 2, 3, 4, 5, 6}));
  ASSERT_OK(Clamp(Must(Must(t.Transpose(0, 1)).Narrow(0, 1, 2)), 3, 4));
  EXPECT_THAT(Doubles(t), ElementsAre(1, 3, 3, 4, 4, 4));
}

TEST(ClampTest, HalfTypesAreClampedInFloat) {
  Tensor h = Must(TensorOf(DType::kFloat16, {3}, {-2, 0.25, 8}));
  ASSERT_OK(Clamp(h, -1, 4));
  EXPECT_THAT(Doubles(h), ElementsAre(-1, 0.25, 4));
  Tensor b = Must(TensorOf(DType::kBFloat16, {3}, {-2, 0.25, 8}));
  ASSERT_OK(Clamp(b, 0.5, std::nullopt));
  EXPECT_THAT(Doubles(b), ElementsAre(0.5, 0.5, 8));
}

}  // namespace
}  // namespace tensor
