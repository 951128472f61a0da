#include "tensor/conv.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/half.h"
#include "tensor/tensor.h"
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
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// The textbook full convolution of one plane, out[i][j] = sum of
// x[i - a][j - b] * k[a][b]; valid is its window where k lies inside x,
// and cross-correlation is convolution with k turned by 180 degrees.
std::vector<double> Reference(ConvOp op, ConvMode mode, const std::vector<double>& x, Index h,
                              Index w, const std::vector<double>& k, Index kh, Index kw) {
  auto kernel = [&](Index a, Index b) {
    return op == ConvOp::kConv2 ? k[a * kw + b] : k[(kh - 1 - a) * kw + (kw - 1 - b)];
  };
  const Index fh = h + kh - 1, fw = w + kw - 1;
  std::vector<double> full(fh * fw, 0);
  for (Index i = 0; i < fh; ++i) {
    for (Index j = 0; j < fw; ++j) {
      for (Index a = 0; a < kh; ++a) {
        for (Index b = 0; b < kw; ++b) {
          if (i - a >= 0 && i - a < h && j - b >= 0 && j - b < w) {
            full[i * fw + j] += x[(i - a) * w + (j - b)] * kernel(a, b);
          }
        }
      }
    }
  }
  if (mode == ConvMode::kFull) return full;
  std::vector<double> valid;
  for (Index i = kh - 1; i < h; ++i) {
    for (Index j = kw - 1; j < w; ++j) valid.push_back(full[i * fw + j]);
  }
  return valid;
}

std::vector<double> SmallValues(DType dtype, Index n, int seed) {
  std::vector<double> v(n);
  for (Index i = 0; i < n; ++i) {
    const Index h = (i * 5 + seed) % 7;
    v[i] = dtype == DType::kUInt8 ? static_cast<double>(h % 4) : static_cast<double>(h - 3);
  }
  return v;
}

std::vector<double> Slice(const std::vector<double>& v, Index plane, Index size) {
  return std::vector<double>(v.begin() + plane * size, v.begin() + (plane + 1) * size);
}

// The same values, stored transposed in the last two dimensions (or
// narrowed, or reversed along the first): the layouts the kernels walk.
Tensor InLayout(int layout, DType dtype, const Shape& shape, const std::vector<double>& values) {
  const Tensor source = Must(TensorOf(dtype, shape, values));
  const int rank = static_cast<int>(shape.size());
  Tensor view;
  if (layout == 0) return source;
  if (layout == 1) {
    Shape swapped = shape;
    std::swap(swapped[rank - 2], swapped[rank - 1]);
    view = Must(Must(Tensor::Zeros(dtype, swapped)).Transpose(rank - 2, rank - 1));
  } else if (layout == 2) {
    Shape padded = shape;
    for (Index& e : padded) e += 2;
    view = Must(Tensor::Zeros(dtype, padded));
    EXPECT_OK(ApplyScalars(view, ElementOp::kAssign, {99}));
    for (int d = 0; d < rank; ++d) view = Must(view.Narrow(d, 1, shape[d]));
  } else {
    view = Must(Must(Tensor::Zeros(dtype, shape)).Reverse(0));
  }
  EXPECT_OK(ApplyComponents(view, ElementOp::kAssign, source));
  return view;
}

template <typename T>
class ConvTypedTest : public ::testing::Test {};

TYPED_TEST_SUITE(ConvTypedTest, NumericTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(ConvTypedTest, TwoDimensionalFormsMatchTheTextbookForEveryLayout) {
  using T = TypeParam;
  const DType dtype = DTypeOf<T>();
  const Index h = 5, w = 4, kh = 3, kw = 2;
  const std::vector<double> x = SmallValues(dtype, h * w, 1);
  const std::vector<double> k = SmallValues(dtype, kh * kw, 3);
  for (ConvOp op : {ConvOp::kConv2, ConvOp::kXcorr2}) {
    for (ConvMode mode : {ConvMode::kValid, ConvMode::kFull}) {
      const Shape shape = Must(ConvResultShape(op, Must(TensorOf(dtype, {h, w}, x)),
                                               Must(TensorOf(dtype, {kh, kw}, k)), mode));
      EXPECT_THAT(shape, mode == ConvMode::kValid ? ElementsAre(3, 3) : ElementsAre(7, 5));
      const std::vector<double> expected = AsStored<T>(Reference(op, mode, x, h, w, k, kh, kw));
      for (int in_layout = 0; in_layout < 4; ++in_layout) {
        for (int k_layout = 0; k_layout < 4; ++k_layout) {
          for (int out_layout = 0; out_layout < 4; ++out_layout) {
            SCOPED_TRACE(::testing::Message()
                         << ConvOpName(op) << (mode == ConvMode::kValid ? " V" : " F")
                         << " layouts " << in_layout << k_layout << out_layout);
            const Tensor out =
                InLayout(out_layout, dtype, shape, std::vector<double>(shape[0] * shape[1], 1));
            ASSERT_OK(Convolve(op, out, InLayout(in_layout, dtype, {h, w}, x),
                               InLayout(k_layout, dtype, {kh, kw}, k), mode));
            EXPECT_THAT(Doubles(out), ElementsAreArray(expected));
          }
        }
      }
    }
  }
}

TYPED_TEST(ConvTypedTest, ThreeDimensionalFormsPairOrSumThePlanes) {
  using T = TypeParam;
  const DType dtype = DTypeOf<T>();
  const Index planes = 2, outputs = 3, h = 4, w = 3, kh = 2, kw = 2;
  const std::vector<double> x = SmallValues(dtype, planes * h * w, 2);
  const std::vector<double> k3 = SmallValues(dtype, planes * kh * kw, 5);
  const std::vector<double> k4 = SmallValues(dtype, outputs * planes * kh * kw, 6);
  for (ConvOp op : {ConvOp::kConv2, ConvOp::kXcorr2}) {
    for (ConvMode mode : {ConvMode::kValid, ConvMode::kFull}) {
      const Index oh = mode == ConvMode::kValid ? 3 : 5, ow = mode == ConvMode::kValid ? 2 : 4;
      // (c x h x w) with (c x kh x kw): plane i with kernel i.
      std::vector<double> paired;
      for (Index i = 0; i < planes; ++i) {
        for (double v :
             Reference(op, mode, Slice(x, i, h * w), h, w, Slice(k3, i, kh * kw), kh, kw)) {
          paired.push_back(v);
        }
      }
      Tensor out = Must(Tensor::Zeros(dtype, {planes, oh, ow}));
      ASSERT_OK(Convolve(op, out, InLayout(1, dtype, {planes, h, w}, x),
                         InLayout(3, dtype, {planes, kh, kw}, k3), mode));
      EXPECT_THAT(Doubles(out), ElementsAreArray(AsStored<T>(paired)));
      // (c x h x w) with (q x c x kh x kw): output o sums kernel (o, i) on plane i.
      std::vector<double> summed(outputs * oh * ow, 0);
      for (Index o = 0; o < outputs; ++o) {
        for (Index i = 0; i < planes; ++i) {
          const std::vector<double> one = Reference(op, mode, Slice(x, i, h * w), h, w,
                                                    Slice(k4, o * planes + i, kh * kw), kh, kw);
          for (Index e = 0; e < oh * ow; ++e) summed[o * oh * ow + e] += one[e];
        }
      }
      Tensor sums = InLayout(2, dtype, {outputs, oh, ow}, std::vector<double>(outputs * oh * ow));
      ASSERT_OK(Convolve(op, sums, InLayout(3, dtype, {planes, h, w}, x),
                         InLayout(1, dtype, {outputs, planes, kh, kw}, k4), mode));
      EXPECT_THAT(Doubles(sums), ElementsAreArray(AsStored<T>(summed)));
    }
  }
}

TEST(ConvTest, KnownValues) {
  const Tensor x = Must(TensorOf(DType::kFloat64, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}));
  const Tensor k = Must(TensorOf(DType::kFloat64, {2, 2}, {1, 0, 0, -1}));
  Tensor out = Must(Tensor::Zeros(DType::kFloat64, {2, 2}));
  ASSERT_OK(Convolve(ConvOp::kXcorr2, out, x, k, ConvMode::kValid));
  EXPECT_THAT(Doubles(out), ElementsAre(-4, -4, -4, -4));
  ASSERT_OK(Convolve(ConvOp::kConv2, out, x, k, ConvMode::kValid));
  EXPECT_THAT(Doubles(out), ElementsAre(4, 4, 4, 4));
  Tensor full = Must(Tensor::Zeros(DType::kFloat64, {4, 4}));
  ASSERT_OK(Convolve(ConvOp::kConv2, full, x, k, ConvMode::kFull));
  EXPECT_THAT(Doubles(full), ElementsAre(1, 2, 3, 0, 4, 4, 4, -3, 7, 4, 4, -6, 0, -7, -8, -9));
}

TEST(ConvTest, IntegerSumsWrap) {
  const Tensor x = Must(TensorOf(DType::kUInt8, {1, 2}, {200, 100}));
  const Tensor k = Must(TensorOf(DType::kUInt8, {1, 2}, {1, 1}));
  Tensor out = Must(Tensor::Zeros(DType::kUInt8, {1, 1}));
  ASSERT_OK(Convolve(ConvOp::kXcorr2, out, x, k, ConvMode::kValid));
  EXPECT_THAT(Doubles(out), ElementsAre(44));  // 300 mod 256
}

TEST(ConvTest, OutputOverlappingAnInputIsComputedFromTheOriginalValues) {
  // A 1x2 kernel over a 1x3 input, valid, written over the input's start.
  const Tensor x = Must(TensorOf(DType::kFloat64, {1, 3}, {1, 2, 3}));
  const Tensor k = Must(TensorOf(DType::kFloat64, {1, 2}, {1, 10}));
  ASSERT_OK(Convolve(ConvOp::kXcorr2, Must(x.Narrow(1, 0, 2)), x, k, ConvMode::kValid));
  EXPECT_THAT(Doubles(x), ElementsAre(21, 32, 3));
  // A 1x1 kernel: the output is the input itself.
  const Tensor y = Must(TensorOf(DType::kInt32, {2, 2}, {1, 2, 3, 4}));
  ASSERT_OK(
      Convolve(ConvOp::kConv2, y, y, Must(TensorOf(DType::kInt32, {1, 1}, {3})), ConvMode::kValid));
  EXPECT_THAT(Doubles(y), ElementsAre(3, 6, 9, 12));
}

TEST(ConvErrorTest, ShapesAndTypesAreCheckedAndNamed) {
  const Tensor m33 = Must(Tensor::Zeros(DType::kFloat64, {3, 3}));
  const Tensor m44 = Must(Tensor::Zeros(DType::kFloat64, {4, 4}));
  const Tensor c233 = Must(Tensor::Zeros(DType::kFloat64, {2, 3, 3}));
  const Tensor c322 = Must(Tensor::Zeros(DType::kFloat64, {3, 2, 2}));
  const Tensor q1322 = Must(Tensor::Zeros(DType::kFloat64, {1, 3, 2, 2}));
  auto message = [](const absl::StatusOr<Shape>& s) { return std::string(s.status().message()); };
  EXPECT_EQ(message(ConvResultShape(ConvOp::kConv2, m33, m44, ConvMode::kValid)),
            "conv2: the kernel 4x4 is larger than the input 3x3; a valid convolution needs it "
            "to fit ('F' gives the full one)");
  EXPECT_THAT(Must(ConvResultShape(ConvOp::kConv2, m33, m44, ConvMode::kFull)), ElementsAre(6, 6));
  EXPECT_EQ(message(ConvResultShape(ConvOp::kXcorr2, m33, c233, ConvMode::kValid)),
            "xcorr2: input [3, 3] and kernel [2, 3, 3] make no form: give a 2-D input and "
            "kernel, a 3-D input and kernel, or a 3-D input and a 4-D kernel");
  EXPECT_EQ(message(ConvResultShape(ConvOp::kConv2, c233, c322, ConvMode::kValid)),
            "conv2: input [2, 3, 3] has 2 planes, kernel [3, 2, 2] is for 3");
  EXPECT_EQ(message(ConvResultShape(ConvOp::kConv2, c233, q1322, ConvMode::kValid)),
            "conv2: input [2, 3, 3] has 2 planes, kernel [1, 3, 2, 2] is for 3");
  EXPECT_EQ(
      message(ConvResultShape(ConvOp::kConv2, Must(m33.Narrow(0, 0, 0)), m33, ConvMode::kFull)),
      "conv2: the input [0, 3] is empty");
  EXPECT_EQ(
      message(ConvResultShape(ConvOp::kConv2, m33, Must(m33.Narrow(1, 0, 0)), ConvMode::kFull)),
      "conv2: the kernel [3, 0] is empty");
  EXPECT_EQ(
      message(ConvResultShape(ConvOp::kConv2, m33, Must(Tensor::Zeros(DType::kFloat32, {2, 2})),
                              ConvMode::kValid)),
      "conv2: the tensors are float64 and float32; they must have the same type");
  const Tensor b = Must(Tensor::Zeros(DType::kBool, {2, 2}));
  EXPECT_EQ(message(ConvResultShape(ConvOp::kConv2, b, b, ConvMode::kValid)),
            "conv2: not defined for bool tensors");
  EXPECT_EQ(Convolve(ConvOp::kConv2, m33, m33, m33, ConvMode::kValid).message(),
            "conv2: the result has shape [3, 3], expected [1, 1]");
  const Tensor wide = Must(Must(Tensor::Zeros(DType::kFloat64, {1, 1})).Expand({2, 2}));
  EXPECT_THAT(
      Convolve(ConvOp::kConv2, wide, m33, m33.Narrow(0, 0, 2).value(), ConvMode::kValid).message(),
      HasSubstr("expected [2, 1]"));
  EXPECT_THAT(Convolve(ConvOp::kConv2, wide, m33, Must(Tensor::Zeros(DType::kFloat64, {2, 2})),
                       ConvMode::kValid)
                  .message(),
              HasSubstr("share memory"));
  EXPECT_THAT(Convolve(ConvOp::kConv2, Must(Tensor::Zeros(DType::kFloat32, {2, 2})), m33,
                       Must(Tensor::Zeros(DType::kFloat64, {2, 2})), ConvMode::kValid)
                  .message(),
              HasSubstr("float32 and float64"));
}

TEST(ConvValidityTest, RevokedTensorInAnyPlaceIsAnErrorAndNothingIsWritten) {
  LentTensor lent(DType::kFloat64, {2, 2}, {1, 2, 3, 4}, "observation 'IMG'");
  const Tensor owned = Must(TensorOf(DType::kFloat64, {2, 2}, {5, 6, 7, 8}));
  const Tensor one = Must(TensorOf(DType::kFloat64, {1, 1}, {2}));
  const auto before = lent.Bytes();
  lent.Revoke();
  ExpectInvalid(Convolve(ConvOp::kConv2, lent.tensor(), owned, one, ConvMode::kValid),
                lent.lender());
  ExpectInvalid(Convolve(ConvOp::kConv2, owned, lent.tensor(), one, ConvMode::kValid),
                lent.lender());
  ExpectInvalid(Convolve(ConvOp::kXcorr2, Must(Tensor::Zeros(DType::kFloat64, {3, 3})), owned,
                         lent.tensor(), ConvMode::kFull),
                lent.lender());
  EXPECT_EQ(lent.Bytes(), before);
  EXPECT_THAT(Doubles(owned), ElementsAre(5, 6, 7, 8));
}

}  // namespace
}  // namespace tensor
