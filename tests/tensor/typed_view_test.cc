#include "tensor/typed_view.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/loan.h"
#include "tensor/tensor.h"
#include "tests/tensor/status_matchers.h"

namespace tensor {
namespace {

using ::tensor_testing::IsOk;
using ::tensor_testing::StatusIs;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr Index kMax = std::numeric_limits<Index>::max();
constexpr absl::StatusCode kFailedPrecondition = absl::StatusCode::kFailedPrecondition;
constexpr absl::StatusCode kInvalidArgument = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kOutOfRange = absl::StatusCode::kOutOfRange;

template <typename T>
TypedView<T> ViewOf(const absl::StatusOr<Tensor>& tensor) {
  EXPECT_THAT(tensor, IsOk());
  absl::StatusOr<TypedView<T>> view =
      TypedView<T>::Of(tensor.ok() ? *tensor : Tensor::Zeros(DTypeOf<T>(), {1}).value());
  EXPECT_THAT(view, IsOk());
  return *view;
}

template <typename T>
std::vector<T> Values(const absl::StatusOr<Tensor>& tensor) {
  absl::StatusOr<std::vector<T>> values = ViewOf<T>(tensor).ToVector();
  EXPECT_THAT(values, IsOk());
  return values.ok() ? *values : std::vector<T>();
}

// A 2x3 int32 tensor holding 0 ... 5.
absl::StatusOr<Tensor> Matrix23() { return MakeTensor<std::int32_t>({2, 3}, {0, 1, 2, 3, 4, 5}); }

// --- MakeTensor ------------------------------------------------------------

TEST(MakeTensorTest, MakesAnOwnedRowMajorTensorOfTheValues) {
  absl::StatusOr<Tensor> tensor = MakeTensor<float>({2, 2}, {1, 2, 3, 4});
  ASSERT_THAT(tensor, IsOk());
  EXPECT_EQ(tensor->dtype(), DType::kFloat32);
  EXPECT_THAT(tensor->shape(), ElementsAre(2, 2));
  EXPECT_TRUE(tensor->owns_storage());
  EXPECT_TRUE(tensor->layout().IsContiguous());
  const auto* data = reinterpret_cast<const float*>(*tensor->data());
  EXPECT_THAT(std::vector<float>(data, data + 4), ElementsAre(1, 2, 3, 4));
}

TEST(MakeTensorTest, AcceptsASpanOfValues) {
  const std::vector<double> values = {0.5, 1.5, 2.5};
  absl::StatusOr<Tensor> tensor = MakeTensor<double>({3}, absl::MakeConstSpan(values));
  EXPECT_THAT(Values<double>(tensor), ElementsAre(0.5, 1.5, 2.5));
}

TEST(MakeTensorTest, RejectsACountThatDiffersFromTheShape) {
  EXPECT_THAT(MakeTensor<float>({2, 2}, {1, 2, 3}),
              StatusIs(kInvalidArgument, AllOf(HasSubstr("4 elements"), HasSubstr("3 values"))));
  EXPECT_THAT(MakeTensor<float>({2}, {1, 2, 3}), StatusIs(kInvalidArgument));
  EXPECT_THAT(MakeTensor<float>({0}, {1}), StatusIs(kInvalidArgument));
}

TEST(MakeTensorTest, PassesOnShapeErrors) {
  EXPECT_THAT(MakeTensor<float>({-1}, {}), StatusIs(kInvalidArgument));
  const Index big = Index{1} << 61;
  EXPECT_THAT(MakeTensor<double>({big}, {1.0}), StatusIs(kOutOfRange));
}

TEST(MakeTensorTest, MakesEmptyTensorsFromNoValues) {
  absl::StatusOr<Tensor> tensor = MakeTensor<std::int8_t>({3, 0}, {});
  ASSERT_THAT(tensor, IsOk());
  EXPECT_EQ(tensor->num_elements(), 0);
  EXPECT_THAT(Values<std::int8_t>(tensor), IsEmpty());
}

TEST(MakeTensorTest, WorksForEveryElementType) {
  EXPECT_THAT(Values<bool>(MakeTensor<bool>({3}, {true, false, true})),
              ElementsAre(true, false, true));
  EXPECT_THAT(Values<std::uint8_t>(MakeTensor<std::uint8_t>({2}, {0, 255})), ElementsAre(0, 255));
  EXPECT_THAT(Values<std::int16_t>(MakeTensor<std::int16_t>({2}, {-32768, 32767})),
              ElementsAre(-32768, 32767));
  EXPECT_THAT(Values<std::int64_t>(MakeTensor<std::int64_t>({1}, {kMax})), ElementsAre(kMax));
  const std::vector<Float16> halves =
      Values<Float16>(MakeTensor<Float16>({2}, {Float16(1.5f), Float16(-2.0f)}));
  ASSERT_EQ(halves.size(), 2u);
  EXPECT_EQ(static_cast<float>(halves[0]), 1.5f);
  EXPECT_EQ(static_cast<float>(halves[1]), -2.0f);
  const std::vector<BFloat16> bfloats =
      Values<BFloat16>(MakeTensor<BFloat16>({1}, {BFloat16(3.0f)}));
  ASSERT_EQ(bfloats.size(), 1u);
  EXPECT_EQ(static_cast<float>(bfloats[0]), 3.0f);
}

// --- Of --------------------------------------------------------------------

TEST(TypedViewTest, OfRejectsATensorOfAnotherDType) {
  absl::StatusOr<Tensor> tensor = Tensor::Zeros(DType::kFloat64, {2});
  ASSERT_THAT(tensor, IsOk());
  EXPECT_THAT(TypedView<float>::Of(*tensor),
              StatusIs(kInvalidArgument, AllOf(HasSubstr("float32"), HasSubstr("float64"))));
  EXPECT_THAT(TypedView<std::int64_t>::Of(*tensor), StatusIs(kInvalidArgument));
  EXPECT_THAT(TypedView<double>::Of(*tensor), IsOk());
}

TEST(TypedViewTest, OfKeepsTheTensor) {
  absl::StatusOr<Tensor> tensor = Matrix23();
  ASSERT_THAT(tensor, IsOk());
  const TypedView<std::int32_t> view = ViewOf<std::int32_t>(tensor);
  EXPECT_EQ(view.tensor().storage(), tensor->storage());
  EXPECT_EQ(view.tensor().layout(), tensor->layout());
}

// --- Get and Set -----------------------------------------------------------

TEST(TypedViewTest, GetReadsTheElementAtAnIndex) {
  const TypedView<std::int32_t> view = ViewOf<std::int32_t>(Matrix23());
  EXPECT_EQ(view.Get({0, 0}).value_or(-1), 0);
  EXPECT_EQ(view.Get({0, 2}).value_or(-1), 2);
  EXPECT_EQ(view.Get({1, 1}).value_or(-1), 4);
}

TEST(TypedViewTest, SetWritesTheElementAtAnIndex) {
  absl::StatusOr<Tensor> tensor = MakeTensor<float>({2, 2}, {1, 2, 3, 4});
  const TypedView<float> view = ViewOf<float>(tensor);
  ASSERT_THAT(view.Set({1, 0}, 7.0f), IsOk());
  EXPECT_EQ(view.Get({1, 0}).value_or(0), 7.0f);
  EXPECT_THAT(Values<float>(tensor), ElementsAre(1, 2, 7, 4));
}

TEST(TypedViewTest, GetAndSetFollowTheViewsLayout) {
  absl::StatusOr<Tensor> tensor = Matrix23();
  ASSERT_THAT(tensor, IsOk());
  const TypedView<std::int32_t> transposed = ViewOf<std::int32_t>(tensor->Transpose(0, 1));
  EXPECT_EQ(transposed.Get({2, 1}).value_or(-1), 5);
  EXPECT_EQ(transposed.Get({1, 0}).value_or(-1), 1);
  ASSERT_THAT(transposed.Set({0, 1}, 30), IsOk());
  EXPECT_EQ(ViewOf<std::int32_t>(tensor).Get({1, 0}).value_or(-1), 30);

  const TypedView<std::int32_t> reversed = ViewOf<std::int32_t>(tensor->Reverse(1));
  EXPECT_EQ(reversed.Get({0, 0}).value_or(-1), 2);
  const TypedView<std::int32_t> row = ViewOf<std::int32_t>(tensor->Select(0, 1));
  EXPECT_EQ(row.Get({2}).value_or(-1), 5);
}

TEST(TypedViewTest, SetThroughAnExpandedViewWritesTheSharedElement) {
  absl::StatusOr<Tensor> tensor = MakeTensor<double>({1, 2}, {1, 2});
  ASSERT_THAT(tensor, IsOk());
  const TypedView<double> expanded = ViewOf<double>(tensor->Expand({3, 2}));
  ASSERT_THAT(expanded.Set({2, 1}, 9), IsOk());
  EXPECT_THAT(Values<double>(tensor), ElementsAre(1, 9));
  EXPECT_EQ(expanded.Get({0, 1}).value_or(0), 9);
}

TEST(TypedViewTest, GetAndSetRejectOutOfRangeIndices) {
  const TypedView<std::int32_t> view = ViewOf<std::int32_t>(Matrix23());
  EXPECT_THAT(view.Get({2, 0}), StatusIs(kOutOfRange));
  EXPECT_THAT(view.Get({0, 3}), StatusIs(kOutOfRange));
  EXPECT_THAT(view.Get({-1, 0}), StatusIs(kOutOfRange));
  EXPECT_THAT(view.Get({0, kMax}), StatusIs(kOutOfRange));
  EXPECT_THAT(view.Set({2, 0}, 1), StatusIs(kOutOfRange));
  EXPECT_THAT(view.Set({0, -1}, 1), StatusIs(kOutOfRange));
}

TEST(TypedViewTest, GetAndSetRejectIndicesOfAnotherRank) {
  const TypedView<std::int32_t> view = ViewOf<std::int32_t>(Matrix23());
  EXPECT_THAT(view.Get({1}), StatusIs(kInvalidArgument));
  EXPECT_THAT(view.Get({0, 0, 0}), StatusIs(kInvalidArgument));
  EXPECT_THAT(view.Set({}, 1), StatusIs(kInvalidArgument));
}

TEST(TypedViewTest, GetOnATensorWithoutElementsFails) {
  const TypedView<double> empty = ViewOf<double>(absl::StatusOr<Tensor>(Tensor()));
  EXPECT_THAT(empty.Get({}), StatusIs(kInvalidArgument));
  EXPECT_THAT(empty.Set({0}, 1.0), StatusIs(kInvalidArgument));
  absl::StatusOr<std::vector<double>> values = empty.ToVector();
  ASSERT_THAT(values, IsOk());
  EXPECT_THAT(*values, IsEmpty());
}

TEST(TypedViewTest, ASetThatFailsLeavesTheTensorUnchanged) {
  absl::StatusOr<Tensor> tensor = Matrix23();
  const TypedView<std::int32_t> view = ViewOf<std::int32_t>(tensor);
  EXPECT_THAT(view.Set({0, 3}, 99), StatusIs(kOutOfRange));
  EXPECT_THAT(Values<std::int32_t>(tensor), ElementsAre(0, 1, 2, 3, 4, 5));
}

// --- ToVector --------------------------------------------------------------

TEST(TypedViewTest, ToVectorOfAContiguousTensorIsRowMajor) {
  EXPECT_THAT(Values<std::int32_t>(Matrix23()), ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(TypedViewTest, ToVectorOfATransposedViewWalksItsRows) {
  absl::StatusOr<Tensor> tensor = Matrix23();
  ASSERT_THAT(tensor, IsOk());
  EXPECT_THAT(Values<std::int32_t>(tensor->Transpose(0, 1)), ElementsAre(0, 3, 1, 4, 2, 5));
}

TEST(TypedViewTest, ToVectorOfReversedViewsRunsBackwards) {
  absl::StatusOr<Tensor> tensor = Matrix23();
  ASSERT_THAT(tensor, IsOk());
  EXPECT_THAT(Values<std::int32_t>(tensor->Reverse(1)), ElementsAre(2, 1, 0, 5, 4, 3));
  EXPECT_THAT(Values<std::int32_t>(tensor->Reverse(0)), ElementsAre(3, 4, 5, 0, 1, 2));
  absl::StatusOr<Tensor> rows = tensor->Reverse(0);
  ASSERT_THAT(rows, IsOk());
  EXPECT_THAT(Values<std::int32_t>(rows->Reverse(1)), ElementsAre(5, 4, 3, 2, 1, 0));
}

TEST(TypedViewTest, ToVectorOfNarrowedViewsSkipsTheRest) {
  absl::StatusOr<Tensor> tensor = Matrix23();
  ASSERT_THAT(tensor, IsOk());
  EXPECT_THAT(Values<std::int32_t>(tensor->Narrow(1, 1, 2)), ElementsAre(1, 2, 4, 5));
  EXPECT_THAT(Values<std::int32_t>(tensor->Narrow(0, 1, 1)), ElementsAre(3, 4, 5));
  EXPECT_THAT(Values<std::int32_t>(tensor->Narrow(1, 1, 0)), IsEmpty());
}

TEST(TypedViewTest, ToVectorOfExpandedViewsRepeats) {
  absl::StatusOr<Tensor> row = MakeTensor<std::int32_t>({1, 3}, {7, 8, 9});
  ASSERT_THAT(row, IsOk());
  EXPECT_THAT(Values<std::int32_t>(row->Expand({2, 3})), ElementsAre(7, 8, 9, 7, 8, 9));
  absl::StatusOr<Tensor> column = MakeTensor<std::int32_t>({2, 1}, {1, 2});
  ASSERT_THAT(column, IsOk());
  EXPECT_THAT(Values<std::int32_t>(column->Expand({2, 3})), ElementsAre(1, 1, 1, 2, 2, 2));
  EXPECT_THAT(Values<std::int32_t>(column->Expand({2, 2, 2})),
              ElementsAre(1, 1, 2, 2, 1, 1, 2, 2));
}

TEST(TypedViewTest, ToVectorOfUnfoldedAndSelectedViews) {
  absl::StatusOr<Tensor> tensor = MakeTensor<std::int32_t>({5}, {0, 1, 2, 3, 4});
  ASSERT_THAT(tensor, IsOk());
  EXPECT_THAT(Values<std::int32_t>(tensor->Unfold(0, 3, 1)),
              ElementsAre(0, 1, 2, 1, 2, 3, 2, 3, 4));
  absl::StatusOr<Tensor> matrix = Matrix23();
  ASSERT_THAT(matrix, IsOk());
  EXPECT_THAT(Values<std::int32_t>(matrix->Select(1, 1)), ElementsAre(1, 4));
  EXPECT_THAT(Values<std::int32_t>(matrix->Select(0, 1)), ElementsAre(3, 4, 5));
}

TEST(TypedViewTest, ToVectorOfAViewAtAnOffsetOfAnInnerDimension) {
  // Narrow, transpose and reverse together: the offset is not 0 and the
  // strides are neither positive nor row-major.
  absl::StatusOr<Tensor> tensor =
      MakeTensor<std::int32_t>({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  ASSERT_THAT(tensor, IsOk());
  absl::StatusOr<Tensor> narrowed = tensor->Narrow(1, 1, 2);  // columns 1, 2
  ASSERT_THAT(narrowed, IsOk());
  absl::StatusOr<Tensor> transposed = narrowed->Transpose(0, 1);
  ASSERT_THAT(transposed, IsOk());
  EXPECT_THAT(Values<std::int32_t>(transposed->Reverse(1)), ElementsAre(9, 5, 1, 10, 6, 2));
}

// --- Validity and device ---------------------------------------------------

TEST(TypedViewTest, EveryAccessToARevokedLentTensorIsTheInvalidError) {
  std::int32_t buffer[4] = {1, 2, 3, 4};
  const std::shared_ptr<Loan> loan = Loan::Create("reward buffer");
  absl::StatusOr<Layout> layout = Layout::Contiguous({4});
  ASSERT_THAT(layout, IsOk());
  const TypedView<std::int32_t> view = ViewOf<std::int32_t>(
      Tensor::Lend(DType::kInt32, *layout, buffer, sizeof(buffer), loan));
  EXPECT_EQ(view.Get({2}).value_or(-1), 3);
  loan->Revoke();
  const auto invalid =
      StatusIs(kFailedPrecondition, AllOf(HasSubstr("invalid"), HasSubstr("reward buffer")));
  EXPECT_THAT(view.Get({2}), invalid);
  EXPECT_THAT(view.Set({2}, 0), invalid);
  EXPECT_THAT(view.ToVector(), invalid);
  EXPECT_THAT(view.Get({99}), invalid);  // validity is checked first
  EXPECT_EQ(buffer[2], 3);               // the failed Set wrote nothing
}

TEST(TypedViewTest, ElementAccessToANonCpuTensorFailsWithoutTouchingIt) {
  std::int32_t buffer[2] = {5, 6};
  ScopedLoan loan("gpu frame");
  absl::StatusOr<Layout> layout = Layout::Contiguous({2});
  ASSERT_THAT(layout, IsOk());
  const TypedView<std::int32_t> view = ViewOf<std::int32_t>(Tensor::Lend(
      DType::kInt32, *layout, buffer, sizeof(buffer), loan.token(), Device::Cuda(0)));
  EXPECT_THAT(view.Get({0}), StatusIs(kFailedPrecondition, HasSubstr("CPU")));
  EXPECT_THAT(view.Set({0}, 1), StatusIs(kFailedPrecondition, HasSubstr("CPU")));
  EXPECT_THAT(view.ToVector(), StatusIs(kFailedPrecondition, HasSubstr("CPU")));
  EXPECT_EQ(buffer[0], 5);
}

TEST(TypedViewTest, ToVectorOfAHugeExpandedViewFailsInsteadOfThrowing) {
  // One element expanded to 2^62 elements is a valid view (stride 0), but
  // no std::vector can hold that many floats (max_size() is 2^61):
  // ToVector must say so with a status rather than throw std::length_error
  // out of a StatusOr API. (2^62 makes reserve() throw before allocating,
  // so a broken ToVector cannot exhaust memory here.)
  absl::StatusOr<Tensor> one = MakeTensor<float>({1}, {1.0f});
  ASSERT_THAT(one, IsOk());
  absl::StatusOr<Tensor> huge = one->Expand({Index{1} << 62});
  ASSERT_THAT(huge, IsOk());
  const TypedView<float> view = ViewOf<float>(huge);
  absl::StatusOr<std::vector<float>> values = [&]() -> absl::StatusOr<std::vector<float>> {
    try {
      return view.ToVector();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "ToVector threw " << e.what();
      return absl::InternalError("threw");
    }
  }();
  EXPECT_THAT(values, StatusIs(absl::StatusCode::kResourceExhausted));
}

}  // namespace
}  // namespace tensor
