#include "tensor/tensor.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/allocator.h"
#include "tensor/dtype.h"
#include "tensor/layout.h"
#include "tensor/loan.h"
#include "tensor/storage.h"
#include "tests/tensor/status_matchers.h"

namespace tensor {
namespace {

using ::tensor_testing::IsOk;
using ::tensor_testing::StatusIs;
using ::testing::AllOf;
using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr Index kMax = std::numeric_limits<Index>::max();
constexpr Index kMin = std::numeric_limits<Index>::min();
constexpr absl::StatusCode kFailedPrecondition = absl::StatusCode::kFailedPrecondition;
constexpr absl::StatusCode kInvalidArgument = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kOutOfRange = absl::StatusCode::kOutOfRange;
constexpr absl::StatusCode kResourceExhausted = absl::StatusCode::kResourceExhausted;

// The error of any access to a tensor whose loan from `lender` has ended.
auto IsInvalidError(const std::string& lender) {
  return StatusIs(kFailedPrecondition, AllOf(HasSubstr("invalid"), HasSubstr(lender)));
}

Layout Contiguous(std::vector<Index> shape) {
  absl::StatusOr<Layout> layout = Layout::Contiguous(shape);
  EXPECT_THAT(layout, IsOk());
  return layout.ok() ? *layout : Layout();
}

// The element at `index`, through the tensor's own data() and layout, so
// these tests do not depend on TypedView.
template <typename T>
T* At(const Tensor& tensor, std::vector<Index> index) {
  absl::StatusOr<std::byte*> data = tensor.data();
  absl::StatusOr<Index> offset = tensor.layout().OffsetOf(index);
  EXPECT_THAT(data, IsOk());
  EXPECT_THAT(offset, IsOk());
  if (!data.ok() || !offset.ok()) return nullptr;
  return reinterpret_cast<T*>(*data) + (*offset - tensor.layout().offset());
}

// A 3x4 float64 tensor holding 0, 1, ..., 11.
Tensor Iota34() {
  absl::StatusOr<Tensor> tensor = Tensor::Zeros(DType::kFloat64, {3, 4});
  EXPECT_THAT(tensor, IsOk());
  if (!tensor.ok()) return Tensor();
  auto* data = reinterpret_cast<double*>(*tensor->data());
  for (int i = 0; i < 12; ++i) data[i] = i;
  return *tensor;
}

class CountingAllocator final : public Allocator {
 public:
  explicit CountingAllocator(bool fail = false) : fail_(fail) {}
  Device device() const override { return Device::Cpu(); }
  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    ++allocations;
    if (fail_) return absl::ResourceExhaustedError("counting allocator is full");
    return CpuAllocator().Allocate(bytes, zeroed);
  }
  void Deallocate(void* data, std::size_t bytes) override {
    ++deallocations;
    CpuAllocator().Deallocate(data, bytes);
  }
  int allocations = 0;
  int deallocations = 0;

 private:
  bool fail_;
};

// --- Empty tensor ----------------------------------------------------------

TEST(TensorTest, DefaultTensorIsAnEmptyFloat64WithoutStorage) {
  const Tensor tensor;
  EXPECT_EQ(tensor.dtype(), DType::kFloat64);
  EXPECT_EQ(tensor.rank(), 0);
  EXPECT_EQ(tensor.num_elements(), 0);
  EXPECT_EQ(tensor.storage(), nullptr);
  EXPECT_TRUE(tensor.owns_storage());
  EXPECT_THAT(tensor.CheckValid(), IsOk());
  EXPECT_EQ(tensor.device(), Device::Cpu());
  absl::StatusOr<std::byte*> data = tensor.data();
  ASSERT_THAT(data, IsOk());
  EXPECT_EQ(*data, nullptr);
}

TEST(TensorTest, WithLayoutOnATensorWithoutStorageAllowsOnlyEmptyLayouts) {
  const Tensor tensor;
  EXPECT_THAT(tensor.WithLayout(Contiguous({0, 3})), IsOk());
  EXPECT_THAT(tensor.WithLayout(Contiguous({1})), StatusIs(kOutOfRange));
}

// --- Zeros and Uninitialized -----------------------------------------------

TEST(TensorTest, ZerosIsOwnedRowMajorAndZeroFilledForEveryDType) {
  for (DType dtype : kAllDTypes) {
    absl::StatusOr<Tensor> tensor = Tensor::Zeros(dtype, {3, 5});
    ASSERT_THAT(tensor, IsOk()) << DTypeName(dtype);
    EXPECT_EQ(tensor->dtype(), dtype);
    EXPECT_EQ(tensor->item_size(), DTypeSize(dtype));
    EXPECT_THAT(tensor->shape(), ElementsAre(3, 5));
    EXPECT_EQ(tensor->num_elements(), 15);
    EXPECT_EQ(tensor->layout(), Contiguous({3, 5}));
    EXPECT_TRUE(tensor->owns_storage());
    EXPECT_THAT(tensor->CheckValid(), IsOk());
    ASSERT_NE(tensor->storage(), nullptr);
    EXPECT_EQ(tensor->storage()->bytes(), 15 * DTypeSize(dtype));
    absl::StatusOr<std::byte*> data = tensor->data();
    ASSERT_THAT(data, IsOk());
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(*data) % kCpuAlignment, 0u);
    const auto* bytes = reinterpret_cast<const unsigned char*>(*data);
    EXPECT_THAT(std::vector<unsigned char>(bytes, bytes + tensor->storage()->bytes()), Each(0))
        << DTypeName(dtype);
  }
}

TEST(TensorTest, ZerosWithAZeroExtentHasNoElements) {
  absl::StatusOr<Tensor> tensor = Tensor::Zeros(DType::kFloat32, {4, 0});
  ASSERT_THAT(tensor, IsOk());
  EXPECT_EQ(tensor->num_elements(), 0);
  EXPECT_THAT(tensor->shape(), ElementsAre(4, 0));
  EXPECT_THAT(tensor->data(), IsOk());
}

TEST(TensorTest, ZerosOfAnEmptyShapeHasRankZero) {
  absl::StatusOr<Tensor> tensor = Tensor::Zeros(DType::kInt32, {});
  ASSERT_THAT(tensor, IsOk());
  EXPECT_EQ(tensor->rank(), 0);
  EXPECT_EQ(tensor->num_elements(), 0);
}

TEST(TensorTest, ZerosRejectsANegativeExtent) {
  EXPECT_THAT(Tensor::Zeros(DType::kFloat64, {2, -3}), StatusIs(kInvalidArgument));
}

TEST(TensorTest, ZerosRejectsAnElementCountBeyond64Bits) {
  const Index big = Index{1} << 32;
  EXPECT_THAT(Tensor::Zeros(DType::kUInt8, {big, big}), StatusIs(kOutOfRange));
}

TEST(TensorTest, ZerosRejectsAByteSizeBeyond64Bits) {
  // 2^61 float64 elements are 2^64 bytes: the count fits, the bytes do not.
  EXPECT_THAT(Tensor::Zeros(DType::kFloat64, {Index{1} << 61}),
              StatusIs(kOutOfRange, HasSubstr("float64")));
  EXPECT_THAT(Tensor::Zeros(DType::kFloat64, {Index{1} << 31, Index{1} << 30}),
              StatusIs(kOutOfRange));
  EXPECT_THAT(Tensor::Zeros(DType::kInt32, {kMax / 2}), StatusIs(kOutOfRange));
}

TEST(TensorTest, ZerosRejectsAByteSizeOfAtLeast2To63) {
  EXPECT_THAT(Tensor::Zeros(DType::kFloat64, {Index{1} << 60}),
              StatusIs(kOutOfRange, HasSubstr("2^63")));
  EXPECT_THAT(Tensor::Zeros(DType::kInt16, {Index{1} << 62}), StatusIs(kOutOfRange));
}

TEST(TensorTest, ZerosAllocatesFromTheGivenAllocatorAndReturnsTheBlockOnce) {
  CountingAllocator allocator;
  {
    absl::StatusOr<Tensor> tensor = Tensor::Zeros(DType::kInt64, {4}, allocator);
    ASSERT_THAT(tensor, IsOk());
    absl::StatusOr<Tensor> view = tensor->Narrow(0, 1, 2);
    ASSERT_THAT(view, IsOk());
    const Tensor copy = *tensor;
    EXPECT_EQ(allocator.allocations, 1);
    EXPECT_EQ(allocator.deallocations, 0);
  }
  EXPECT_EQ(allocator.deallocations, 1);
}

TEST(TensorTest, ZerosReturnsTheAllocatorsFailure) {
  CountingAllocator full(/*fail=*/true);
  EXPECT_THAT(Tensor::Zeros(DType::kFloat32, {8}, full),
              StatusIs(kResourceExhausted, HasSubstr("full")));
  EXPECT_THAT(Tensor::Uninitialized(DType::kFloat32, {8}, full), StatusIs(kResourceExhausted));
}

TEST(TensorTest, UninitializedHasTheShapeAndOwnedStorage) {
  absl::StatusOr<Tensor> tensor = Tensor::Uninitialized(DType::kInt16, {2, 3});
  ASSERT_THAT(tensor, IsOk());
  EXPECT_THAT(tensor->shape(), ElementsAre(2, 3));
  EXPECT_TRUE(tensor->owns_storage());
  EXPECT_EQ(tensor->storage()->bytes(), 12u);
  EXPECT_THAT(Tensor::Uninitialized(DType::kInt16, {-1}), StatusIs(kInvalidArgument));
}

// --- Lend and FromStorage --------------------------------------------------

TEST(TensorTest, LendOverAnExactlyFittingBufferSharesItsBytes) {
  float buffer[6] = {0, 1, 2, 3, 4, 5};
  ScopedLoan loan("frame");
  absl::StatusOr<Tensor> tensor =
      Tensor::Lend(DType::kFloat32, Contiguous({2, 3}), buffer, sizeof(buffer), loan.token());
  ASSERT_THAT(tensor, IsOk());
  EXPECT_FALSE(tensor->owns_storage());
  EXPECT_EQ(tensor->storage()->loan(), loan.token());
  EXPECT_EQ(static_cast<void*>(*tensor->data()), static_cast<void*>(buffer));
  *At<float>(*tensor, {1, 2}) = 50;
  EXPECT_EQ(buffer[5], 50);
  buffer[0] = -1;
  EXPECT_EQ(*At<float>(*tensor, {0, 0}), -1);
}

TEST(TensorTest, LendRecordsTheDevice) {
  unsigned char buffer[4] = {};
  ScopedLoan loan("gpu");
  absl::StatusOr<Tensor> tensor = Tensor::Lend(DType::kUInt8, Contiguous({4}), buffer, 4,
                                               loan.token(), Device::Cuda(0));
  ASSERT_THAT(tensor, IsOk());
  EXPECT_EQ(tensor->device(), Device::Cuda(0));
}

TEST(TensorTest, LendRejectsALayoutReachingPastTheEndOfTheBuffer) {
  float buffer[12] = {};
  ScopedLoan loan("frame");
  EXPECT_THAT(Tensor::Lend(DType::kFloat32, Contiguous({3, 4}), buffer, sizeof(buffer) - 1,
                           loan.token()),
              StatusIs(kOutOfRange, HasSubstr("reaches")));
  EXPECT_THAT(Tensor::Lend(DType::kFloat32, Contiguous({13}), buffer, sizeof(buffer),
                           loan.token()),
              StatusIs(kOutOfRange));
  EXPECT_THAT(Tensor::Lend(DType::kFloat64, Contiguous({7}), buffer, sizeof(buffer),
                           loan.token()),
              StatusIs(kOutOfRange));
  absl::StatusOr<Layout> shifted = Layout::Create({12}, {1}, 1);
  ASSERT_THAT(shifted, IsOk());
  EXPECT_THAT(Tensor::Lend(DType::kFloat32, *shifted, buffer, sizeof(buffer), loan.token()),
              StatusIs(kOutOfRange));
  absl::StatusOr<Layout> strided = Layout::Create({4}, {4}, 0);  // last element at 12
  ASSERT_THAT(strided, IsOk());
  EXPECT_THAT(Tensor::Lend(DType::kFloat32, *strided, buffer, sizeof(buffer), loan.token()),
              StatusIs(kOutOfRange));
}

TEST(TensorTest, LendRejectsALayoutReachingBelowTheBuffer) {
  float buffer[4] = {};
  ScopedLoan loan("frame");
  absl::StatusOr<Layout> below = Layout::Create({2, 2}, {-2, 1}, 1);  // reaches -1
  ASSERT_THAT(below, IsOk());
  EXPECT_THAT(Tensor::Lend(DType::kFloat32, *below, buffer, sizeof(buffer), loan.token()),
              StatusIs(kOutOfRange));
  absl::StatusOr<Layout> negative_offset = Layout::Create({1}, {1}, -1);
  ASSERT_THAT(negative_offset, IsOk());
  EXPECT_THAT(
      Tensor::Lend(DType::kFloat32, *negative_offset, buffer, sizeof(buffer), loan.token()),
      StatusIs(kOutOfRange));
}

TEST(TensorTest, LendAcceptsNegativeStridesThatStayInside) {
  float buffer[4] = {0, 1, 2, 3};
  ScopedLoan loan("frame");
  absl::StatusOr<Layout> reversed = Layout::Create({2, 2}, {-2, -1}, 3);
  ASSERT_THAT(reversed, IsOk());
  absl::StatusOr<Tensor> tensor =
      Tensor::Lend(DType::kFloat32, *reversed, buffer, sizeof(buffer), loan.token());
  ASSERT_THAT(tensor, IsOk());
  EXPECT_EQ(*At<float>(*tensor, {0, 0}), 3);
  EXPECT_EQ(*At<float>(*tensor, {1, 1}), 0);
}

TEST(TensorTest, LendCountsOnlyWholeElementsOfAPartialBuffer) {
  unsigned char buffer[11] = {};  // two whole float32 elements and change
  ScopedLoan loan("frame");
  EXPECT_THAT(Tensor::Lend(DType::kFloat32, Contiguous({2}), buffer, 11, loan.token()), IsOk());
  EXPECT_THAT(Tensor::Lend(DType::kFloat32, Contiguous({3}), buffer, 11, loan.token()),
              StatusIs(kOutOfRange));
}

TEST(TensorTest, LendNeedsALoanAndANonNullBuffer) {
  float buffer[2] = {};
  EXPECT_THAT(Tensor::Lend(DType::kFloat32, Contiguous({2}), buffer, sizeof(buffer), nullptr),
              StatusIs(kInvalidArgument));
  ScopedLoan loan("frame");
  EXPECT_THAT(Tensor::Lend(DType::kFloat32, Contiguous({2}), nullptr, 8, loan.token()),
              StatusIs(kInvalidArgument));
}

TEST(TensorTest, LendOfNothingNeedsNoBuffer) {
  ScopedLoan loan("frame");
  absl::StatusOr<Tensor> tensor =
      Tensor::Lend(DType::kUInt8, Contiguous({0, 3}), nullptr, 0, loan.token());
  ASSERT_THAT(tensor, IsOk());
  EXPECT_EQ(tensor->num_elements(), 0);
  EXPECT_THAT(Tensor::Lend(DType::kUInt8, Contiguous({1}), nullptr, 0, loan.token()),
              Not(IsOk()));
}

TEST(TensorTest, FromStorageSharesTheStorageAndChecksBounds) {
  absl::StatusOr<std::shared_ptr<Storage>> storage = Storage::Allocate(32);
  ASSERT_THAT(storage, IsOk());
  absl::StatusOr<Tensor> tensor = Tensor::FromStorage(DType::kInt32, Contiguous({8}), *storage);
  ASSERT_THAT(tensor, IsOk());
  EXPECT_EQ(tensor->storage(), *storage);
  EXPECT_TRUE(tensor->owns_storage());
  EXPECT_THAT(Tensor::FromStorage(DType::kInt32, Contiguous({9}), *storage),
              StatusIs(kOutOfRange));
  EXPECT_THAT(Tensor::FromStorage(DType::kInt64, Contiguous({5}), *storage),
              StatusIs(kOutOfRange));
  EXPECT_THAT(Tensor::FromStorage(DType::kInt32, Contiguous({1}), nullptr),
              StatusIs(kInvalidArgument));
}

TEST(TensorTest, DataPointsAtTheLayoutsOffset) {
  const Tensor tensor = Iota34();
  absl::StatusOr<Tensor> row = tensor.Select(0, 2);
  ASSERT_THAT(row, IsOk());
  absl::StatusOr<std::byte*> data = row->data();
  ASSERT_THAT(data, IsOk());
  EXPECT_EQ(*data, *tensor.data() + 8 * sizeof(double));
  EXPECT_EQ(*reinterpret_cast<double*>(*data), 8);
}

// --- Views share storage ---------------------------------------------------

struct ViewCase {
  std::string name;
  std::function<absl::StatusOr<Tensor>(const Tensor&)> make;
  std::vector<Index> view_index;    // an element of the view...
  std::vector<Index> source_index;  // ...and the same element of the 3x4 source
};

std::vector<ViewCase> ViewCases() {
  return {
      {"Select", [](const Tensor& t) { return t.Select(1, 2); }, {1}, {1, 2}},
      {"Narrow", [](const Tensor& t) { return t.Narrow(1, 1, 2); }, {2, 1}, {2, 2}},
      {"Transpose", [](const Tensor& t) { return t.Transpose(0, 1); }, {3, 1}, {1, 3}},
      {"Permute", [](const Tensor& t) { return t.Permute({1, 0}); }, {0, 2}, {2, 0}},
      {"Reverse", [](const Tensor& t) { return t.Reverse(0); }, {0, 1}, {2, 1}},
      {"Reshape", [](const Tensor& t) { return t.Reshape({2, 6}); }, {1, 1}, {1, 3}},
      {"Expand",
       [](const Tensor& t) {
         absl::StatusOr<Tensor> row = t.Narrow(0, 1, 1);
         return row.ok() ? row->Expand({5, 4}) : row;
       },
       {4, 3},
       {1, 3}},
      {"Unfold", [](const Tensor& t) { return t.Unfold(1, 2, 1); }, {2, 2, 1}, {2, 3}},
      {"Squeeze",
       [](const Tensor& t) {
         absl::StatusOr<Tensor> column = t.Narrow(1, 3, 1);
         return column.ok() ? column->Squeeze() : column;
       },
       {2},
       {2, 3}},
      {"SqueezeDim",
       [](const Tensor& t) {
         absl::StatusOr<Tensor> row = t.Narrow(0, 2, 1);
         return row.ok() ? row->Squeeze(0) : row;
       },
       {1},
       {2, 1}},
      {"Unsqueeze", [](const Tensor& t) { return t.Unsqueeze(1); }, {2, 0, 0}, {2, 0}},
      {"WithLayout",
       [](const Tensor& t) {
         const absl::StatusOr<Layout> layout = Layout::Create({2}, {5}, 1);
         return layout.ok() ? t.WithLayout(*layout) : absl::StatusOr<Tensor>(layout.status());
       },
       {1},
       {1, 2}},
  };
}

TEST(TensorTest, EveryViewSharesTheSourcesStorage) {
  const Tensor source = Iota34();
  for (const ViewCase& c : ViewCases()) {
    absl::StatusOr<Tensor> view = c.make(source);
    ASSERT_THAT(view, IsOk()) << c.name;
    EXPECT_EQ(view->storage(), source.storage()) << c.name;
    EXPECT_EQ(view->dtype(), source.dtype()) << c.name;
    EXPECT_TRUE(view->owns_storage()) << c.name;
  }
}

TEST(TensorTest, WritesThroughEveryViewAreSeenThroughTheSourceAndBack) {
  for (const ViewCase& c : ViewCases()) {
    const Tensor source = Iota34();
    absl::StatusOr<Tensor> view = c.make(source);
    ASSERT_THAT(view, IsOk()) << c.name;
    double* through_view = At<double>(*view, c.view_index);
    double* through_source = At<double>(source, c.source_index);
    ASSERT_NE(through_view, nullptr) << c.name;
    ASSERT_NE(through_source, nullptr) << c.name;
    EXPECT_EQ(*through_view, *through_source) << c.name;
    *through_view = 100;
    EXPECT_EQ(*At<double>(source, c.source_index), 100) << c.name;
    *through_source = 200;
    EXPECT_EQ(*At<double>(*view, c.view_index), 200) << c.name;
  }
}

TEST(TensorTest, AViewOfAViewStillSharesTheOriginalStorage) {
  const Tensor source = Iota34();
  absl::StatusOr<Tensor> transposed = source.Transpose(0, 1);
  ASSERT_THAT(transposed, IsOk());
  absl::StatusOr<Tensor> column = transposed->Select(0, 3);  // source column 3
  ASSERT_THAT(column, IsOk());
  absl::StatusOr<Tensor> reversed = column->Reverse(0);
  ASSERT_THAT(reversed, IsOk());
  *At<double>(*reversed, {0}) = -5;
  EXPECT_EQ(*At<double>(source, {2, 3}), -5);
}

TEST(TensorTest, CopiesShareStorage) {
  const Tensor source = Iota34();
  const Tensor copy = source;
  EXPECT_EQ(copy.storage(), source.storage());
  *At<double>(copy, {0, 0}) = 42;
  EXPECT_EQ(*At<double>(source, {0, 0}), 42);
}

TEST(TensorTest, ViewOperationsPassOnLayoutErrors) {
  const Tensor source = Iota34();
  EXPECT_THAT(source.Select(2, 0), StatusIs(kOutOfRange));
  EXPECT_THAT(source.Narrow(0, 2, 2), StatusIs(kOutOfRange));
  EXPECT_THAT(source.Transpose(0, 5), StatusIs(kOutOfRange));
  EXPECT_THAT(source.Permute({0, 0}), StatusIs(kInvalidArgument));
  EXPECT_THAT(source.Reverse(-1), StatusIs(kOutOfRange));
  EXPECT_THAT(source.Reshape({5}), StatusIs(kInvalidArgument));
  EXPECT_THAT(source.Expand({3, 5}), StatusIs(kInvalidArgument));
  EXPECT_THAT(source.Unfold(1, 5, 1), StatusIs(kInvalidArgument));
  EXPECT_THAT(source.Squeeze(0), StatusIs(kInvalidArgument));
  EXPECT_THAT(source.Unsqueeze(3), StatusIs(kOutOfRange));
}

TEST(TensorTest, ReshapeOfATransposedTensorThatNeedsACopyFails) {
  absl::StatusOr<Tensor> transposed = Iota34().Transpose(0, 1);
  ASSERT_THAT(transposed, IsOk());
  EXPECT_THAT(transposed->Reshape({12}), StatusIs(kInvalidArgument, HasSubstr("copy")));
}

TEST(TensorTest, WithLayoutRejectsALayoutOutsideTheStorage) {
  const Tensor source = Iota34();
  EXPECT_THAT(source.WithLayout(Contiguous({13})), StatusIs(kOutOfRange));
  absl::StatusOr<Layout> below = Layout::Create({2}, {-1}, 0);
  ASSERT_THAT(below, IsOk());
  EXPECT_THAT(source.WithLayout(*below), StatusIs(kOutOfRange));
  EXPECT_THAT(source.WithLayout(Contiguous({12})), IsOk());
}

// --- Lent tensors and revocation -------------------------------------------

class LentTensorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 12; ++i) buffer_[i] = i;
    absl::StatusOr<Tensor> tensor = Tensor::Lend(DType::kFloat64, Contiguous({3, 4}), buffer_,
                                                 sizeof(buffer_), loan_);
    ASSERT_THAT(tensor, IsOk());
    tensor_ = *tensor;
  }

  double buffer_[12];
  std::shared_ptr<Loan> loan_ = Loan::Create("engine frame 'RGB'");
  Tensor tensor_;
};

TEST_F(LentTensorTest, EveryViewOfALentTensorIsLentToo) {
  for (const ViewCase& c : ViewCases()) {
    absl::StatusOr<Tensor> view = c.make(tensor_);
    ASSERT_THAT(view, IsOk()) << c.name;
    EXPECT_FALSE(view->owns_storage()) << c.name;
    EXPECT_EQ(view->storage()->loan(), loan_) << c.name;
  }
}

TEST_F(LentTensorTest, WritesThroughViewsReachTheLentBuffer) {
  for (const ViewCase& c : ViewCases()) {
    absl::StatusOr<Tensor> view = c.make(tensor_);
    ASSERT_THAT(view, IsOk()) << c.name;
    double* element = At<double>(*view, c.view_index);
    ASSERT_NE(element, nullptr) << c.name;
    *element = -1;
    EXPECT_EQ(buffer_[c.source_index[0] * 4 + c.source_index[1]], -1) << c.name;
  }
}

TEST_F(LentTensorTest, DataOfARevokedTensorIsTheInvalidError) {
  loan_->Revoke();
  EXPECT_THAT(tensor_.data(), IsInvalidError("engine frame 'RGB'"));
  EXPECT_THAT(tensor_.CheckValid(), IsInvalidError("engine frame 'RGB'"));
  EXPECT_FALSE(tensor_.owns_storage());
}

TEST_F(LentTensorTest, EveryViewOperationOnARevokedTensorIsTheInvalidError) {
  loan_->Revoke();
  for (const ViewCase& c : ViewCases()) {
    EXPECT_THAT(c.make(tensor_), IsInvalidError("engine frame 'RGB'")) << c.name;
  }
}

TEST_F(LentTensorTest, ValidityIsCheckedBeforeTheArguments) {
  // Even a bad argument reports the revoked loan: the tensor is the first
  // problem.
  loan_->Revoke();
  const auto invalid = IsInvalidError("engine frame 'RGB'");
  EXPECT_THAT(tensor_.Select(7, 0), invalid);
  EXPECT_THAT(tensor_.Narrow(0, -1, 1), invalid);
  EXPECT_THAT(tensor_.Transpose(0, 9), invalid);
  EXPECT_THAT(tensor_.Permute({0}), invalid);
  EXPECT_THAT(tensor_.Reverse(3), invalid);
  EXPECT_THAT(tensor_.Reshape({5}), invalid);
  EXPECT_THAT(tensor_.Expand({1}), invalid);
  EXPECT_THAT(tensor_.Unfold(0, 0, 0), invalid);
  EXPECT_THAT(tensor_.Squeeze(0), invalid);
  EXPECT_THAT(tensor_.Unsqueeze(-1), invalid);
  EXPECT_THAT(tensor_.WithLayout(Contiguous({100})), invalid);
}

TEST_F(LentTensorTest, ViewsMadeBeforeRevocationAreInvalidAfterIt) {
  std::vector<std::pair<std::string, Tensor>> views;
  for (const ViewCase& c : ViewCases()) {
    absl::StatusOr<Tensor> view = c.make(tensor_);
    ASSERT_THAT(view, IsOk()) << c.name;
    ASSERT_THAT(view->data(), IsOk()) << c.name;
    views.emplace_back(c.name, *view);
  }
  const Tensor copy = tensor_;
  loan_->Revoke();
  for (const auto& [name, view] : views) {
    EXPECT_THAT(view.data(), IsInvalidError("engine frame 'RGB'")) << name;
    EXPECT_THAT(view.CheckValid(), IsInvalidError("engine frame 'RGB'")) << name;
    // And views of those views.
    EXPECT_THAT(view.Squeeze(), IsInvalidError("engine frame 'RGB'")) << name;
  }
  EXPECT_THAT(copy.data(), IsInvalidError("engine frame 'RGB'"));
}

TEST(TensorTest, ATensorKeptPastItsScopedLoanIsInvalid) {
  std::vector<std::uint8_t> pixels(2 * 3 * 3, 9);
  Tensor kept;
  {
    ScopedLoan loan("observation 'RGB_INTERLEAVED'");
    absl::StatusOr<Tensor> frame = Tensor::Lend(DType::kUInt8, Contiguous({2, 3, 3}),
                                                pixels.data(), pixels.size(), loan.token());
    ASSERT_THAT(frame, IsOk());
    kept = *frame;
    ASSERT_THAT(kept.data(), IsOk());
  }
  EXPECT_THAT(kept.data(), IsInvalidError("observation 'RGB_INTERLEAVED'"));
  EXPECT_THAT(kept.Select(0, 0), IsInvalidError("observation 'RGB_INTERLEAVED'"));
}

TEST(TensorTest, ATensorLentInAScopeLeftByAnExceptionIsInvalid) {
  std::vector<std::uint8_t> pixels(4, 1);
  Tensor kept;
  try {
    ScopedLoan loan("throwing hook");
    absl::StatusOr<Tensor> frame =
        Tensor::Lend(DType::kUInt8, Contiguous({4}), pixels.data(), 4, loan.token());
    if (frame.ok()) kept = *frame;
    throw std::runtime_error("Lua error in frame hook");
  } catch (const std::runtime_error&) {
  }
  ASSERT_NE(kept.storage(), nullptr);
  EXPECT_THAT(kept.data(), IsInvalidError("throwing hook"));
}

TEST(TensorTest, OwnedTensorsStayValidWhateverHappensToLoans) {
  const Tensor owned = Iota34();
  {
    ScopedLoan unrelated("unrelated");
  }
  EXPECT_TRUE(owned.owns_storage());
  EXPECT_THAT(owned.data(), IsOk());
}

// --- Layouts at the 64-bit limits ------------------------------------------

TEST(TensorTest, DataOfAnEmptyTensorAtAFarOffsetDoesNotOverflow) {
  // Lend accepts an empty layout whatever its offset, since it reaches no
  // bytes; data() must then not overflow computing the address.
  unsigned char buffer[8] = {};
  ScopedLoan loan("frame");
  absl::StatusOr<Layout> layout = Layout::Create({0}, {1}, kMax / 4);
  ASSERT_THAT(layout, IsOk());
  absl::StatusOr<Tensor> tensor =
      Tensor::Lend(DType::kFloat64, *layout, buffer, sizeof(buffer), loan.token());
  if (tensor.ok()) {
    EXPECT_THAT(tensor->data(), IsOk());
  }
}

TEST(TensorTest, LendRejectsALayoutReachingFarBelowTheBuffer) {
  // Stride -(2^63 - 1) reaches offset -(2^63 - 1), far below the buffer.
  unsigned char buffer[16] = {};
  ScopedLoan loan("frame");
  absl::StatusOr<Layout> layout = Layout::Create({2}, {kMin + 1}, 0);
  ASSERT_THAT(layout, IsOk());
  EXPECT_THAT(Tensor::Lend(DType::kUInt8, *layout, buffer, sizeof(buffer), loan.token()),
              StatusIs(absl::StatusCode::kOutOfRange));
  EXPECT_THAT(Tensor::Lend(DType::kUInt8, *layout->Reverse(0), buffer, sizeof(buffer),
                           loan.token()),
              StatusIs(absl::StatusCode::kOutOfRange));
}

}  // namespace
}  // namespace tensor
