// Tests of elementwise_unary.h, elementwise_binary.h and elementwise_ternary.h.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/elementwise_binary.h"
#include "tensor/elementwise_ternary.h"
#include "tensor/elementwise_unary.h"
#include "tensor/half.h"
#include "tensor/tensor.h"
#include "tensor/typed_view.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using ::tensor::testing::Doubles;
using ::tensor::testing::EveryLayoutOf;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::ForEachIndex;
using ::tensor::testing::Iota;
using ::tensor::testing::LentTensor;
using ::tensor::testing::Must;
using ::tensor::testing::NamedTensor;
using ::tensor::testing::TensorOf;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

constexpr UnaryFunction kAllUnary[] = {
    UnaryFunction::kAbs,  UnaryFunction::kSign,  UnaryFunction::kNeg,     UnaryFunction::kCinv,
    UnaryFunction::kAcos, UnaryFunction::kAsin,  UnaryFunction::kAtan,    UnaryFunction::kCos,
    UnaryFunction::kCosh, UnaryFunction::kSin,   UnaryFunction::kSinh,    UnaryFunction::kTan,
    UnaryFunction::kTanh, UnaryFunction::kExp,   UnaryFunction::kLog,     UnaryFunction::kLog1p,
    UnaryFunction::kSqrt, UnaryFunction::kRsqrt, UnaryFunction::kSigmoid, UnaryFunction::kTrunc,
    UnaryFunction::kFrac,
};

// f(x) in long double, the reference the kernels are held to.
long double UnaryReference(UnaryFunction f, long double x) {
  switch (f) {
    case UnaryFunction::kAbs: return std::fabs(x);
    case UnaryFunction::kSign: return x > 0 ? 1 : x < 0 ? -1 : x;
    case UnaryFunction::kNeg: return -x;
    case UnaryFunction::kCinv: return 1 / x;
    case UnaryFunction::kAcos: return std::acos(x);
    case UnaryFunction::kAsin: return std::asin(x);
    case UnaryFunction::kAtan: return std::atan(x);
    case UnaryFunction::kCos: return std::cos(x);
    case UnaryFunction::kCosh: return std::cosh(x);
    case UnaryFunction::kSin: return std::sin(x);
    case UnaryFunction::kSinh: return std::sinh(x);
    case UnaryFunction::kTan: return std::tan(x);
    case UnaryFunction::kTanh: return std::tanh(x);
    case UnaryFunction::kExp: return std::exp(x);
    case UnaryFunction::kLog: return std::log(x);
    case UnaryFunction::kLog1p: return std::log1p(x);
    case UnaryFunction::kSqrt: return std::sqrt(x);
    case UnaryFunction::kRsqrt: return 1 / std::sqrt(x);
    case UnaryFunction::kSigmoid: return 1 / (1 + std::exp(-x));
    case UnaryFunction::kTrunc: return std::trunc(x);
    case UnaryFunction::kFrac: return x - std::trunc(x);
  }
  return 0;
}

// Whether `actual` is within a few units in the last place of T from the
// exact `expected`.
template <typename T>
bool Near(double actual, long double expected) {
  if (std::isnan(expected)) return std::isnan(actual);
  if (std::isinf(expected)) return actual == expected;
  const long double tolerance = 4 * std::numeric_limits<T>::epsilon();
  return std::fabs(actual - expected) <= tolerance * std::fmax(1.0L, std::fabs(expected));
}

// The element values of a view in layout order, before the operation.
using InOrder = std::vector<double>;

// Runs `op` on every writable view of a {4, 6} tensor of T holding
// `values`, and checks that exactly the view's elements became
// reference(old value, i, in_order), i being the element's number in
// layout order and in_order the view's values before the operation.
template <typename T>
void CheckEveryLayout(const std::vector<double>& values,
                      const std::function<absl::Status(const Tensor&)>& op,
                      const std::function<long double(double, Index, const InOrder&)>& reference) {
  const DType dtype = DTypeOf<T>();
  const size_t kinds = EveryLayoutOf(Must(TensorOf(dtype, {4, 6}, values))).size();
  for (size_t kind = 0; kind < kinds; ++kind) {
    Tensor base = Must(TensorOf(dtype, {4, 6}, values));
    const NamedTensor fresh = EveryLayoutOf(base)[kind];
    if (fresh.name == "expanded" || fresh.name == "unfolded") continue;
    SCOPED_TRACE(fresh.name);
    const InOrder in_order = Doubles(fresh.tensor);
    std::vector<long double> expected(values.begin(), values.end());
    std::vector<bool> touched(values.size(), false);
    Index i = 0;
    ForEachIndex(fresh.tensor.shape(), [&](const Shape& index) {
      const Index offset = Must(fresh.tensor.layout().OffsetOf(index));
      expected[offset] = reference(values[offset], i++, in_order);
      touched[offset] = true;
    });
    ASSERT_OK(op(fresh.tensor));
    const std::vector<double> actual = Doubles(base);
    for (size_t k = 0; k < actual.size(); ++k) {
      if (touched[k]) {
        EXPECT_TRUE(Near<T>(actual[k], expected[k]))
            << "element " << k << ": " << actual[k] << " vs " << static_cast<double>(expected[k]);
      } else {
        EXPECT_EQ(actual[k], static_cast<double>(static_cast<T>(values[k])))
            << "element " << k << " is outside the view";
      }
    }
  }
}

// A view of t's own memory that visits its elements in reversed layout
// order: every dimension reversed.
Tensor ReversedInLayoutOrder(const Tensor& t) {
  Tensor reversed = t;
  for (int d = 0; d < t.rank(); ++d) reversed = Must(reversed.Reverse(d));
  return reversed;
}

template <typename T>
class FloatingTest : public ::testing::Test {};
using FloatingTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FloatingTest, FloatingTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(FloatingTest, UnaryFunctionsMatchTheReferenceOnEveryLayout) {
  // In (0, 1), where every function is defined.
  const std::vector<double> values = Iota(24, 0.02, 0.04);
  for (UnaryFunction f : kAllUnary) {
    SCOPED_TRACE(UnaryFunctionName(f));
    CheckEveryLayout<TypeParam>(
        values, [f](const Tensor& t) { return ApplyUnary(t, f); },
        [f](double x, Index, const InOrder&) {
          return UnaryReference(f, static_cast<TypeParam>(x));
        });
  }
}

TYPED_TEST(FloatingTest, ScalarFunctionsMatchTheReferenceOnEveryLayout) {
  const std::vector<double> values = Iota(24, -5.5, 0.5);
  struct Case {
    BinaryFunction f;
    double v;
    std::function<long double(long double)> reference;
  };
  const Case cases[] = {
      {BinaryFunction::kPow, 3, [](long double x) { return x * x * x; }},
      {BinaryFunction::kFmod, 1.5, [](long double x) { return std::fmod(x, 1.5L); }},
      {BinaryFunction::kRemainder, 1.5,
       [](long double x) { return x - 1.5L * std::floor(x / 1.5L); }},
      {BinaryFunction::kMax, 0.25, [](long double x) { return std::fmax(x, 0.25L); }},
      {BinaryFunction::kMin, 0.25, [](long double x) { return std::fmin(x, 0.25L); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(BinaryScalarName(c.f));
    CheckEveryLayout<TypeParam>(
        values, [&](const Tensor& t) { return ApplyBinaryScalar(t, c.f, c.v); },
        [&](double x, Index, const InOrder&) { return c.reference(x); });
  }
}

// The operand of the tensor forms for a view of n elements: values 3,
// 2.25, 1.5, ... in layout order, held by a reversed rank-1 tensor.
Tensor OperandFor(DType dtype, Index n) {
  const std::vector<double> ys = Iota(n, 3, -0.75);
  return Must(Must(TensorOf(dtype, {n}, std::vector<double>(ys.rbegin(), ys.rend()))).Reverse(0));
}

TYPED_TEST(FloatingTest, TensorFunctionsPairElementsInLayoutOrderOnEveryLayout) {
  const DType dtype = DTypeOf<TypeParam>();
  const std::vector<double> values = Iota(24, -5.5, 0.5);
  for (BinaryFunction f : {BinaryFunction::kPow, BinaryFunction::kFmod,
                           BinaryFunction::kRemainder, BinaryFunction::kMax,
                           BinaryFunction::kMin, BinaryFunction::kAtan2}) {
    SCOPED_TRACE(BinaryTensorName(f));
    CheckEveryLayout<TypeParam>(
        values,
        [&](const Tensor& t) { return ApplyBinaryTensor(t, f, OperandFor(dtype, t.num_elements())); },
        [&](double x, Index i, const InOrder&) -> long double {
          const long double a = static_cast<TypeParam>(x);
          const long double y = static_cast<TypeParam>(3 - 0.75 * static_cast<double>(i));
          switch (f) {
            case BinaryFunction::kPow: return std::pow(a, y);
            case BinaryFunction::kFmod: return std::fmod(a, y);
            case BinaryFunction::kRemainder: {
              const long double r = std::fmod(a, y);
              return r != 0 && (r < 0) != (y < 0) ? r + y : r;
            }
            case BinaryFunction::kMax: return std::fmax(a, y);
            case BinaryFunction::kMin: return std::fmin(a, y);
            case BinaryFunction::kAtan2: break;
          }
          return std::atan2(a, y);
        });
  }
}

TEST(UnaryTest, IntegerAbsSignNegFollowIntegerArithmetic) {
  for (DType dtype : {DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64}) {
    SCOPED_TRACE(DTypeName(dtype));
    Tensor t = Must(TensorOf(dtype, {4}, {-3, 0, 5, -1}));
    ASSERT_OK(ApplyUnary(t, UnaryFunction::kAbs));
    EXPECT_THAT(Doubles(t), ElementsAre(3, 0, 5, 1));
    ASSERT_OK(ApplyUnary(t, UnaryFunction::kNeg));
    EXPECT_THAT(Doubles(t), ElementsAre(-3, 0, -5, -1));
    ASSERT_OK(ApplyUnary(t, UnaryFunction::kSign));
    EXPECT_THAT(Doubles(t), ElementsAre(-1, 0, -1, -1));
    ASSERT_OK(ApplyUnary(t, UnaryFunction::kTrunc));
    EXPECT_THAT(Doubles(t), ElementsAre(-1, 0, -1, -1));
    ASSERT_OK(ApplyUnary(t, UnaryFunction::kFrac));
    EXPECT_THAT(Doubles(t), ElementsAre(0, 0, 0, 0));
  }
  Tensor bytes = Must(TensorOf(DType::kUInt8, {3}, {0, 7, 255}));
  ASSERT_OK(ApplyUnary(bytes, UnaryFunction::kAbs));
  ASSERT_OK(ApplyUnary(bytes, UnaryFunction::kSign));
  EXPECT_THAT(Doubles(bytes), ElementsAre(0, 1, 1));
}

TEST(UnaryTest, AbsAndNegOfTheMostNegativeIntegerWrapToItself) {
  Tensor t = Must(MakeTensor<std::int32_t>({1}, {std::numeric_limits<std::int32_t>::min()}));
  ASSERT_OK(ApplyUnary(t, UnaryFunction::kAbs));
  ASSERT_OK(ApplyUnary(t, UnaryFunction::kNeg));
  EXPECT_THAT(testing::ValuesOf<std::int32_t>(t),
              ElementsAre(std::numeric_limits<std::int32_t>::min()));
}

TEST(UnaryTest, AnalyticFunctionsOfIntegerTensorsAreErrorsNamingTheType) {
  for (UnaryFunction f : kAllUnary) {
    if (f == UnaryFunction::kAbs || f == UnaryFunction::kSign || f == UnaryFunction::kNeg ||
        f == UnaryFunction::kTrunc || f == UnaryFunction::kFrac) {
      continue;
    }
    SCOPED_TRACE(UnaryFunctionName(f));
    Tensor t = Must(TensorOf(DType::kInt32, {2}, {1, 2}));
    const absl::Status s = ApplyUnary(t, f);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(s.message()), HasSubstr("not defined for Int32Tensor"));
    EXPECT_THAT(std::string(s.message()), HasSubstr(UnaryFunctionName(f)));
    EXPECT_THAT(Doubles(t), ElementsAre(1, 2));
  }
}

TEST(UnaryTest, NegOfAByteTensorAndAnythingOnBoolAreErrors) {
  Tensor bytes = Must(TensorOf(DType::kUInt8, {2}, {1, 2}));
  EXPECT_THAT(std::string(ApplyUnary(bytes, UnaryFunction::kNeg).message()),
              HasSubstr("not defined for ByteTensor"));
  EXPECT_THAT(Doubles(bytes), ElementsAre(1, 2));
  Tensor flags = Must(TensorOf(DType::kBool, {2}, {1, 0}));
  EXPECT_FALSE(ApplyUnary(flags, UnaryFunction::kAbs).ok());
  EXPECT_FALSE(ApplyBinaryScalar(flags, BinaryFunction::kMax, 1).ok());
  EXPECT_FALSE(AddScaled(flags, 1, flags).ok());
}

TEST(UnaryTest, SignOfNaNIsZeroAndCinvOfZeroIsInfinite) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor t = Must(TensorOf(DType::kFloat64, {4}, {nan, 0, -2, 3}));
  ASSERT_OK(ApplyUnary(t, UnaryFunction::kSign));
  const std::vector<double> signs = Doubles(t);
  EXPECT_THAT(signs, ElementsAre(0, 0, -1, 1));  // Torch7's (x > 0) - (x < 0)
  Tensor zero = Must(TensorOf(DType::kFloat32, {1}, {0}));
  ASSERT_OK(ApplyUnary(zero, UnaryFunction::kCinv));
  EXPECT_THAT(Doubles(zero), ElementsAre(std::numeric_limits<double>::infinity()));
}

TEST(UnaryTest, FracAndTruncKeepTheSign) {
  Tensor t = Must(TensorOf(DType::kFloat64, {2}, {-2.5, 3.25}));
  Tensor u = Must(TensorOf(DType::kFloat64, {2}, {-2.5, 3.25}));
  ASSERT_OK(ApplyUnary(t, UnaryFunction::kFrac));
  ASSERT_OK(ApplyUnary(u, UnaryFunction::kTrunc));
  EXPECT_THAT(Doubles(t), ElementsAre(-0.5, 0.25));
  EXPECT_THAT(Doubles(u), ElementsAre(-2, 3));
}

TEST(UnaryTest, HalfTypesComputeInFloat) {
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    Tensor t = Must(TensorOf(dtype, {2}, {0, 1}));
    ASSERT_OK(ApplyUnary(t, UnaryFunction::kExp));
    const std::vector<double> v = Doubles(t);
    EXPECT_EQ(v[0], 1);
    EXPECT_NEAR(v[1], std::exp(1.0), 0.02);
  }
}

TEST(UnaryTest, OverlappingOrInvalidDestinationsAreErrorsAndEmptyOnesAreFine) {
  const size_t kinds = EveryLayoutOf(Must(TensorOf(DType::kFloat64, {4, 6}, Iota(24)))).size();
  for (size_t kind = 0; kind < kinds; ++kind) {
    Tensor base = Must(TensorOf(DType::kFloat64, {4, 6}, Iota(24)));
    const NamedTensor view = EveryLayoutOf(base)[kind];
    SCOPED_TRACE(view.name);
    const absl::Status s = ApplyUnary(view.tensor, UnaryFunction::kExp);
    if (view.name == "expanded" || view.name == "unfolded") {
      EXPECT_THAT(std::string(s.message()), HasSubstr("share memory"));
      EXPECT_THAT(Doubles(base), ElementsAreArray(Iota(24)));
    } else {
      EXPECT_OK(s);
    }
  }
  LentTensor lent(DType::kFloat32, {2}, {1, 2}, "the unary test");
  lent.Revoke();
  ExpectInvalid(ApplyUnary(lent.tensor(), UnaryFunction::kSqrt), "the unary test");
}

TEST(BinaryScalarTest, TorchFmodAndRemainderExamples) {
  for (DType dtype : {DType::kFloat64, DType::kInt32}) {
    SCOPED_TRACE(DTypeName(dtype));
    auto run = [&](BinaryFunction f, double v) {
      Tensor t = Must(TensorOf(dtype, {2}, {-3, 3}));
      EXPECT_OK(ApplyBinaryScalar(t, f, v));
      return Doubles(t);
    };
    EXPECT_THAT(run(BinaryFunction::kFmod, 2), ElementsAre(-1, 1));
    EXPECT_THAT(run(BinaryFunction::kFmod, -2), ElementsAre(-1, 1));
    EXPECT_THAT(run(BinaryFunction::kRemainder, 2), ElementsAre(1, 1));
    EXPECT_THAT(run(BinaryFunction::kRemainder, -2), ElementsAre(-1, -1));
  }
}

TEST(BinaryScalarTest, IntegerPowWrapsAndNeedsAWholeExponentOfAtLeastZero) {
  Tensor t = Must(TensorOf(DType::kUInt8, {3}, {2, 3, 16}));
  ASSERT_OK(ApplyBinaryScalar(t, BinaryFunction::kPow, 2));
  EXPECT_THAT(Doubles(t), ElementsAre(4, 9, 0));  // 256 wraps to 0
  ASSERT_OK(ApplyBinaryScalar(t, BinaryFunction::kPow, 0));
  EXPECT_THAT(Doubles(t), ElementsAre(1, 1, 1));
  Tensor s = Must(TensorOf(DType::kInt64, {2}, {-3, 5}));
  ASSERT_OK(ApplyBinaryScalar(s, BinaryFunction::kPow, 3));
  EXPECT_THAT(Doubles(s), ElementsAre(-27, 125));
  for (double bad : {-1.0, 0.5, std::numeric_limits<double>::quiet_NaN(), 1e300}) {
    const absl::Status status = ApplyBinaryScalar(s, BinaryFunction::kPow, bad);
    EXPECT_THAT(std::string(status.message()), HasSubstr("whole number >= 0")) << bad;
  }
  EXPECT_THAT(Doubles(s), ElementsAre(-27, 125));
}

TEST(BinaryScalarTest, IntegerScalarsMustBeValuesOfTheTypeAndNotZeroDivisors) {
  Tensor t = Must(TensorOf(DType::kUInt8, {2}, {7, 9}));
  EXPECT_THAT(std::string(ApplyBinaryScalar(t, BinaryFunction::kMax, 0.5).message()),
              HasSubstr("0.5 is not a value of uint8"));
  EXPECT_FALSE(ApplyBinaryScalar(t, BinaryFunction::kMin, -1).ok());
  EXPECT_THAT(std::string(ApplyBinaryScalar(t, BinaryFunction::kFmod, 0).message()),
              HasSubstr("division by zero"));
  EXPECT_FALSE(ApplyBinaryScalar(t, BinaryFunction::kRemainder, 0).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(7, 9));
  ASSERT_OK(ApplyBinaryScalar(t, BinaryFunction::kMax, 8));
  EXPECT_THAT(Doubles(t), ElementsAre(8, 9));
}

TEST(BinaryScalarTest, MostNegativeIntegerModuloMinusOneIsZero) {
  Tensor t = Must(MakeTensor<std::int64_t>({1}, {std::numeric_limits<std::int64_t>::min()}));
  ASSERT_OK(ApplyBinaryScalar(t, BinaryFunction::kFmod, -1));
  EXPECT_THAT(Doubles(t), ElementsAre(0));
}

TEST(BinaryScalarTest, MaxAndMinPropagateNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor t = Must(TensorOf(DType::kFloat64, {2}, {nan, 1}));
  ASSERT_OK(ApplyBinaryScalar(t, BinaryFunction::kMax, 0));
  EXPECT_TRUE(std::isnan(Doubles(t)[0]));
  ASSERT_OK(ApplyBinaryScalar(t, BinaryFunction::kMin, nan));
  EXPECT_TRUE(std::isnan(Doubles(t)[1]));
}

TEST(BinaryTensorTest, AnOperandThatOverlapsTheDestinationIsReadFirst) {
  Tensor t = Must(TensorOf(DType::kFloat64, {4}, {1, 5, 2, 7}));
  ASSERT_OK(ApplyBinaryTensor(t, BinaryFunction::kMax, Must(t.Reverse(0))));
  EXPECT_THAT(Doubles(t), ElementsAre(7, 5, 5, 7));
  Tensor u = Must(TensorOf(DType::kInt32, {2, 2}, {1, 2, 3, 4}));
  ASSERT_OK(ApplyBinaryTensor(u, BinaryFunction::kPow, Must(u.Transpose(0, 1))));
  EXPECT_THAT(Doubles(u), ElementsAre(1, 8, 9, 256));
  Tensor w = Must(TensorOf(DType::kInt32, {2}, {3, 4}));
  ASSERT_OK(ApplyBinaryTensor(w, BinaryFunction::kPow, w));  // element for element
  EXPECT_THAT(Doubles(w), ElementsAre(27, 256));
}

TEST(BinaryTensorTest, IntegerDataErrorsChangeNothing) {
  Tensor t = Must(TensorOf(DType::kInt16, {3}, {5, -5, 6}));
  EXPECT_THAT(std::string(ApplyBinaryTensor(t, BinaryFunction::kFmod,
                                            Must(TensorOf(DType::kInt16, {3}, {2, 2, 0})))
                              .message()),
              HasSubstr("division by zero"));
  EXPECT_THAT(std::string(ApplyBinaryTensor(t, BinaryFunction::kPow,
                                            Must(TensorOf(DType::kInt16, {3}, {2, -1, 2})))
                              .message()),
              HasSubstr(">= 0"));
  EXPECT_THAT(std::string(ApplyBinaryTensor(t, BinaryFunction::kAtan2, t).message()),
              HasSubstr("not defined for Int16Tensor"));
  EXPECT_THAT(Doubles(t), ElementsAre(5, -5, 6));
  ASSERT_OK(ApplyBinaryTensor(t, BinaryFunction::kRemainder,
                              Must(TensorOf(DType::kInt16, {3}, {3, 3, -4}))));
  EXPECT_THAT(Doubles(t), ElementsAre(2, 1, -2));
}

TEST(BinaryTensorTest, OperandsNeedTheDTypeAndCountAndValidity) {
  Tensor t = Must(TensorOf(DType::kFloat64, {2, 2}, {1, 2, 3, 4}));
  EXPECT_THAT(std::string(ApplyBinaryTensor(t, BinaryFunction::kMax,
                                            Must(TensorOf(DType::kFloat32, {4}, Iota(4))))
                              .message()),
              HasSubstr("same type"));
  EXPECT_THAT(std::string(ApplyBinaryTensor(t, BinaryFunction::kMax,
                                            Must(TensorOf(DType::kFloat64, {5}, Iota(5))))
                              .message()),
              HasSubstr("same number"));
  LentTensor lent(DType::kFloat64, {4}, Iota(4), "the binary test");
  lent.Revoke();
  ExpectInvalid(ApplyBinaryTensor(t, BinaryFunction::kMin, lent.tensor()), "the binary test");
  ExpectInvalid(ApplyBinaryTensor(lent.tensor(), BinaryFunction::kMin, t), "the binary test");
  ExpectInvalid(ApplyBinaryScalar(lent.tensor(), BinaryFunction::kPow, 2), "the binary test");
  EXPECT_FALSE(ApplyBinaryScalar(t, BinaryFunction::kAtan2, 1).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(1, 2, 3, 4));
}

TEST(TernaryTest, TorchExamplesIgnoreShapes) {
  Tensor x = Must(TensorOf(DType::kFloat64, {2, 2}, {2, 2, 2, 2}));
  Tensor y = Must(TensorOf(DType::kFloat64, {4}, {3, 3, 3, 3}));
  ASSERT_OK(AddScaled(x, 2, y));
  EXPECT_THAT(Doubles(x), ElementsAre(8, 8, 8, 8));
  Tensor z = Must(TensorOf(DType::kFloat64, {2, 2}, {5, 5, 5, 5}));
  Tensor a = Must(TensorOf(DType::kFloat64, {2, 2}, {2, 2, 2, 2}));
  ASSERT_OK(AddCMul(a, 2, y, z));
  EXPECT_THAT(Doubles(a), ElementsAre(32, 32, 32, 32));
  Tensor ones = Must(TensorOf(DType::kFloat64, {2, 2}, {1, 1, 1, 1}));
  ASSERT_OK(AddCDiv(ones, 2, Must(TensorOf(DType::kFloat64, {4}, Iota(4))), z));
  const std::vector<double> divided = Doubles(ones);
  const double expected[] = {1.4, 1.8, 2.2, 2.6};
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(divided[i], expected[i]);
  Tensor from = Must(TensorOf(DType::kFloat32, {2}, {0, 10}));
  ASSERT_OK(Lerp(from, Must(TensorOf(DType::kFloat32, {2}, {10, 20})), 0.25));
  EXPECT_THAT(Doubles(from), ElementsAre(2.5, 12.5));
}

TYPED_TEST(FloatingTest, TernaryUpdatesMatchTheReferenceOnEveryLayoutWithOverlap) {
  const std::vector<double> values = Iota(24, 1, 0.5);
  struct Case {
    const char* name;
    std::function<absl::Status(const Tensor&)> op;
    std::function<long double(long double x, long double r)> reference;  // r: x reversed
  };
  // An operand that overlaps the destination: the destination itself read
  // backwards in layout order.
  auto reversed = [](const Tensor& t) { return ReversedInLayoutOrder(t); };
  const Case cases[] = {
      {"add", [&](const Tensor& t) { return AddScaled(t, 0.5, reversed(t)); },
       [](long double x, long double r) { return x + 0.5L * r; }},
      {"addcmul", [&](const Tensor& t) { return AddCMul(t, 2, reversed(t), t); },
       [](long double x, long double r) { return x + 2 * r * x; }},
      {"addcdiv", [&](const Tensor& t) { return AddCDiv(t, 2, t, reversed(t)); },
       [](long double x, long double r) { return x + 2 * x / r; }},
      {"lerp", [&](const Tensor& t) { return Lerp(t, reversed(t), 0.25); },
       [](long double x, long double r) { return x + 0.25L * (r - x); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    CheckEveryLayout<TypeParam>(values, c.op, [&](double x, Index i, const InOrder& in_order) {
      return c.reference(x, in_order[in_order.size() - 1 - i]);
    });
  }
}

TEST(TernaryTest, IntegerUpdatesWrapAndCheckDivisorsAndValues) {
  Tensor t = Must(TensorOf(DType::kUInt8, {2}, {250, 10}));
  ASSERT_OK(AddCMul(t, 2, Must(TensorOf(DType::kUInt8, {2}, {2, 3})),
                    Must(TensorOf(DType::kUInt8, {2}, {2, 1}))));
  EXPECT_THAT(Doubles(t), ElementsAre(2, 16));  // 258 wraps to 2
  Tensor s = Must(TensorOf(DType::kInt32, {2}, {0, 0}));
  ASSERT_OK(AddCDiv(s, 3, Must(TensorOf(DType::kInt32, {2}, {7, -7})),
                    Must(TensorOf(DType::kInt32, {2}, {2, 2}))));
  EXPECT_THAT(Doubles(s), ElementsAre(10, -10));  // 21 / 2 and -21 / 2 toward zero
  EXPECT_THAT(std::string(AddCDiv(s, 1, s, Must(TensorOf(DType::kInt32, {2}, {1, 0})))
                              .message()),
              HasSubstr("division by zero"));
  EXPECT_THAT(std::string(AddScaled(s, 0.5, s).message()), HasSubstr("not a value of int32"));
  EXPECT_THAT(std::string(Lerp(s, s, 0.5).message()), HasSubstr("not defined for Int32Tensor"));
  EXPECT_THAT(Doubles(s), ElementsAre(10, -10));
  ASSERT_OK(AddScaled(s, -2, s));
  EXPECT_THAT(Doubles(s), ElementsAre(-10, 10));
}

TEST(TernaryTest, ErrorsInAnyOperandChangeNothing) {
  Tensor t = Must(TensorOf(DType::kFloat64, {2}, {1, 2}));
  Tensor good = Must(TensorOf(DType::kFloat64, {2}, {1, 1}));
  EXPECT_FALSE(AddCMul(t, 1, good, Must(TensorOf(DType::kFloat64, {3}, Iota(3)))).ok());
  EXPECT_FALSE(AddCDiv(t, 1, Must(TensorOf(DType::kInt64, {2}, Iota(2))), good).ok());
  LentTensor lent(DType::kFloat64, {2}, {1, 2}, "the ternary test");
  lent.Revoke();
  ExpectInvalid(AddCMul(t, 1, good, lent.tensor()), "the ternary test");
  ExpectInvalid(AddScaled(lent.tensor(), 1, good), "the ternary test");
  Tensor expanded = Must(Must(t.Narrow(0, 0, 1)).Expand({2}));
  EXPECT_FALSE(Lerp(expanded, good, 0.5).ok());
  EXPECT_THAT(Doubles(t), ElementsAre(1, 2));
}

}  // namespace
}  // namespace tensor
