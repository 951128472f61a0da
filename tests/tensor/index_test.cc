// Tests of tensor/index.h, masked.h and resize.h.
#include "tensor/index.h"

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
#include "tensor/masked.h"
#include "tensor/resize.h"
#include "tensor/tensor.h"
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
using ::tensor::testing::TensorOf;
using ::tensor_testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// The element types of the Lua module.
constexpr DType kTypes[] = {DType::kUInt8, DType::kInt8,    DType::kInt16,  DType::kInt32,
                            DType::kInt64, DType::kFloat32, DType::kFloat64};

Tensor Longs(absl::Span<const Index> shape, const std::vector<double>& values) {
  return Must(TensorOf(DType::kInt64, shape, values));
}

// A 3 x 4 matrix 1 .. 12 of `dtype`.
Tensor Matrix(DType dtype = DType::kFloat64) { return Must(TensorOf(dtype, {3, 4}, Iota(12))); }

TEST(IndexSelectTest, PicksRowsAndColumnsInIndexOrderForEveryType) {
  for (DType dtype : kTypes) {
    SCOPED_TRACE(DTypeName(dtype));
    Tensor rows = Must(IndexSelect(Matrix(dtype), 0, Longs({3}, {3, 1, 3}), 1));
    EXPECT_THAT(rows.shape(), ElementsAre(3, 4));
    EXPECT_THAT(Doubles(rows), ElementsAre(9, 10, 11, 12, 1, 2, 3, 4, 9, 10, 11, 12));
    Tensor columns = Must(IndexSelect(Matrix(dtype), 1, Longs({2}, {3, 0}), 0));
    EXPECT_THAT(columns.shape(), ElementsAre(3, 2));
    EXPECT_THAT(Doubles(columns), ElementsAre(4, 1, 8, 5, 12, 9));
    EXPECT_TRUE(columns.owns_storage());
    EXPECT_TRUE(columns.layout().IsContiguous());
  }
}

TEST(IndexSelectTest, ReadsNonContiguousSourcesAndIndices) {
  Tensor transposed = Must(Matrix().Transpose(0, 1));               // 4 x 3
  Tensor indices = Must(Longs({4}, {9, 2, 9, 4}).Narrow(0, 1, 3));  // {2, 9, 4}
  indices = Must(Must(indices.Reverse(0)).Narrow(0, 0, 1));         // {4}
  Tensor picked = Must(IndexSelect(transposed, 0, indices, 1));
  EXPECT_THAT(Doubles(picked), ElementsAre(4, 8, 12));
  Tensor reversed = Must(Matrix().Reverse(1));
  EXPECT_THAT(Doubles(Must(IndexSelect(reversed, 1, Longs({2}, {1, 4}), 1))),
              ElementsAre(4, 1, 8, 5, 12, 9));
}

TEST(IndexSelectTest, NoIndicesGiveAnEmptyDimension) {
  Tensor none = Must(IndexSelect(Matrix(), 1, Longs({0}, {}), 1));
  EXPECT_THAT(none.shape(), ElementsAre(3, 0));
  Tensor vector =
      Must(IndexSelect(Must(TensorOf(DType::kInt32, {3}, {5, 6, 7})), 0, Longs({2}, {3, 3}), 1));
  EXPECT_THAT(Doubles(vector), ElementsAre(7, 7));
}

TEST(IndexSelectTest, RejectsBadDimensionsIndexTypesRanksAndValues) {
  EXPECT_THAT(IndexSelect(Matrix(), 2, Longs({1}, {1}), 1),
              StatusIs(absl::StatusCode::kOutOfRange));
  EXPECT_THAT(IndexSelect(Tensor(), 0, Longs({1}, {1}), 1),
              StatusIs(absl::StatusCode::kOutOfRange));
  EXPECT_THAT(IndexSelect(Matrix(), 0, Must(TensorOf(DType::kInt32, {1}, {1})), 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("must be int64")));
  EXPECT_THAT(IndexSelect(Matrix(), 0, Longs({1, 1}, {1}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("vector")));
  EXPECT_THAT(IndexSelect(Matrix(), 0, Longs({2}, {1, 4}), 1),
              StatusIs(absl::StatusCode::kOutOfRange,
                       HasSubstr("index 4 at [2] of the indices is out of range [1, 3]")));
  EXPECT_THAT(IndexSelect(Matrix(), 0, Longs({1}, {0}), 1),
              StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("[1, 3]")));
  EXPECT_THAT(IndexSelect(Matrix(), 0, Longs({1}, {-1}), 0),
              StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("[0, 2]")));
  Tensor min = Must(MakeTensor<std::int64_t>({1}, {std::numeric_limits<std::int64_t>::min()}));
  EXPECT_THAT(IndexSelect(Matrix(), 0, min, 1), StatusIs(absl::StatusCode::kOutOfRange));
  EXPECT_THAT(IndexSelect(Must(Tensor::Zeros(DType::kFloat64, {0, 2})), 0, Longs({1}, {1}), 1),
              StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("empty")));
}

TEST(IndexSelectTest, InvalidSourceOrIndicesAreErrors) {
  LentTensor source(DType::kFloat64, {2}, {1, 2}, "lent source");
  LentTensor indices(DType::kInt64, {1}, {1}, "lent indices");
  source.Revoke();
  indices.Revoke();
  ExpectInvalid(IndexSelect(source.tensor(), 0, Longs({1}, {1}), 1).status(), source.lender());
  ExpectInvalid(IndexSelect(Matrix(), 0, indices.tensor(), 1).status(), indices.lender());
}

TEST(EveryLayoutTest, IndexSelectMaskedSelectAndResizeReadInRowMajorOrder) {
  const Tensor base = Must(TensorOf(DType::kInt32, {4, 6}, Iota(24)));
  for (const NamedTensor& view : EveryLayoutOf(base)) {
    SCOPED_TRACE(view.name);
    const std::vector<double> values = Doubles(view.tensor);
    const Index n = view.tensor.num_elements();
    // Rows last and first along dimension 0.
    const Index rows = view.tensor.shape()[0];
    const Index row = rows == 0 ? 0 : n / rows;
    std::vector<double> expected(values.end() - row, values.end());
    expected.insert(expected.end(), values.begin(), values.begin() + row);
    Tensor picked =
        Must(IndexSelect(view.tensor, 0, Longs({2}, {static_cast<double>(rows), 1}), 1));
    EXPECT_THAT(Doubles(picked), ElementsAreArray(expected));
    // Every other element.
    std::vector<double> alternate, every_other;
    for (Index i = 0; i < n; ++i) {
      alternate.push_back(i % 2 == 0);
      if (i % 2 == 0) every_other.push_back(values[i]);
    }
    Tensor mask = Must(TensorOf(DType::kUInt8, {n}, alternate));
    EXPECT_THAT(Doubles(Must(MaskedSelect(view.tensor, mask))), ElementsAreArray(every_other));
    EXPECT_THAT(Doubles(Must(Resize(view.tensor, {n}))), ElementsAreArray(values));
  }
  EXPECT_THAT(Doubles(base), ElementsAreArray(Iota(24)));
}

TEST(IndexCopyTest, CopiesEntriesAlongADimension) {
  for (DType dtype : kTypes) {
    SCOPED_TRACE(DTypeName(dtype));
    Tensor x = Matrix(dtype);
    Tensor z = Must(TensorOf(dtype, {3, 2}, {0, 100, 0, 100, 0, 100}));
    ASSERT_OK(IndexCopy(x, 1, Longs({2}, {4, 1}), 1, z));
    EXPECT_THAT(Doubles(x), ElementsAre(100, 2, 3, 0, 100, 6, 7, 0, 100, 10, 11, 0));
  }
}

TEST(IndexCopyTest, WritesThroughViewsAndTheLastRepeatWins) {
  Tensor base = Matrix();
  Tensor view = Must(base.Transpose(0, 1));  // 4 x 3; its rows are base's columns
  ASSERT_OK(IndexCopy(view, 0, Longs({2}, {2, 2}), 1,
                      Must(TensorOf(DType::kFloat64, {2, 3}, {-1, -1, -1, -2, -2, -2}))));
  EXPECT_THAT(Doubles(base), ElementsAre(1, -2, 3, 4, 5, -2, 7, 8, 9, -2, 11, 12));
}

TEST(IndexCopyTest, ASourceSharingTheDestinationIsReadFirst) {
  Tensor x = Matrix();
  // Rows 1 and 2 of x copied to rows 2 and 3: the old row 2, not the new.
  Tensor rows = Must(x.Narrow(0, 0, 2));
  ASSERT_OK(IndexCopy(x, 0, Longs({2}, {2, 3}), 1, rows));
  EXPECT_THAT(Doubles(x), ElementsAre(1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8));
}

TEST(IndexCopyTest, IndicesSharingAnInt64DestinationAreReadFirst) {
  Tensor x = Longs({4}, {2, 3, 4, 1});
  // x[x[k]] = source[k]: x[2] = 9 would make x[2] an index out of range.
  ASSERT_OK(IndexCopy(x, 0, x, 1, Longs({4}, {9, 9, 9, 9})));
  EXPECT_THAT(Doubles(x), ElementsAre(9, 9, 9, 9));
}

TEST(IndexCopyTest, FailedCallsChangeNothing) {
  Tensor x = Matrix();
  const std::vector<double> before = Doubles(x);
  Tensor z = Must(Tensor::Zeros(DType::kFloat64, {3, 2}));
  EXPECT_THAT(IndexCopy(x, 1, Longs({2}, {1, 5}), 1, z), StatusIs(absl::StatusCode::kOutOfRange));
  EXPECT_THAT(IndexCopy(x, 1, Longs({2}, {1, 2}), 1, Must(Tensor::Zeros(DType::kFloat64, {2, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("expected [3, 2]")));
  EXPECT_THAT(IndexCopy(x, 1, Longs({2}, {1, 2}), 1, Must(Tensor::Zeros(DType::kFloat32, {3, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("same type")));
  EXPECT_THAT(Doubles(x), ElementsAreArray(before));
  Tensor expanded = Must(Must(Must(x.Narrow(0, 0, 1)).Expand({3, 4})).Narrow(0, 0, 3));
  EXPECT_THAT(IndexCopy(expanded, 1, Longs({2}, {1, 2}), 1, z),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("share memory")));
}

TEST(IndexAddTest, AccumulatesRepeatedIndices) {
  Tensor a = Must(TensorOf(DType::kFloat64, {5}, Iota(5)));
  ASSERT_OK(
      IndexAdd(a, 0, Longs({4}, {1, 1, 3, 3}), 1, Must(TensorOf(DType::kFloat64, {4}, Iota(4)))));
  EXPECT_THAT(Doubles(a), ElementsAre(4, 2, 10, 4, 5));
}

TEST(IndexAddTest, IntegerSumsWrap) {
  Tensor a = Must(TensorOf(DType::kUInt8, {2}, {250, 1}));
  ASSERT_OK(IndexAdd(a, 0, Longs({2}, {0, 0}), 0, Must(TensorOf(DType::kUInt8, {2}, {5, 5}))));
  EXPECT_THAT(Doubles(a), ElementsAre(4, 1));
  Tensor flags = Must(TensorOf(DType::kBool, {2}, {0, 1}));
  EXPECT_THAT(IndexAdd(flags, 0, Longs({1}, {0}), 0, Must(TensorOf(DType::kBool, {1}, {1}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bool")));
}

TEST(IndexFillTest, FillsEntriesAndChecksTheValue) {
  Tensor x = Matrix(DType::kInt32);
  ASSERT_OK(IndexFill(x, 1, Longs({2}, {4, 2}), 1, -10));
  EXPECT_THAT(Doubles(x), ElementsAre(1, -10, 3, -10, 5, -10, 7, -10, 9, -10, 11, -10));
  EXPECT_THAT(IndexFill(x, 1, Longs({1}, {1}), 1, 0.5),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a value of int32")));
  EXPECT_THAT(IndexFill(x, 0, Longs({1}, {4}), 1, 0), StatusIs(absl::StatusCode::kOutOfRange));
  EXPECT_THAT(Doubles(x), ElementsAre(1, -10, 3, -10, 5, -10, 7, -10, 9, -10, 11, -10));
  LentTensor lent(DType::kFloat64, {2}, {1, 2}, "lent fill");
  lent.Revoke();
  ExpectInvalid(IndexFill(lent.tensor(), 0, Longs({1}, {1}), 1, 0), lent.lender());
}

// Torch7's gather example on a 5 x 5 matrix of 11 .. 55 (row, column).
Tensor Grid() {
  std::vector<double> values;
  for (int r = 1; r <= 5; ++r) {
    for (int c = 1; c <= 5; ++c) values.push_back(10 * r + c);
  }
  return Must(TensorOf(DType::kFloat64, {5, 5}, values));
}

TEST(GatherTest, GathersAlongEitherDimension) {
  Tensor y = Must(Gather(Grid(), 0, Longs({2, 5}, {1, 2, 3, 4, 5, 2, 3, 4, 5, 1}), 1));
  EXPECT_THAT(y.shape(), ElementsAre(2, 5));
  EXPECT_THAT(Doubles(y), ElementsAre(11, 22, 33, 44, 55, 21, 32, 43, 54, 15));
  Tensor z = Must(Gather(Grid(), 1, Longs({5, 2}, {1, 2, 2, 3, 3, 4, 4, 5, 5, 1}), 1));
  EXPECT_THAT(Doubles(z), ElementsAre(11, 12, 22, 23, 33, 34, 44, 45, 55, 51));
}

TEST(GatherTest, ReadsNonContiguousSourcesAndIndices) {
  Tensor transposed = Must(Grid().Transpose(0, 1));  // [i][j] = 10 j + i
  Tensor indices = Must(Longs({2, 5}, {1, 2, 3, 4, 5, 5, 4, 3, 2, 1}).Transpose(0, 1));  // 5 x 2
  Tensor g = Must(Gather(transposed, 1, indices, 1));
  EXPECT_THAT(Doubles(g), ElementsAre(11, 51, 22, 42, 33, 33, 44, 24, 55, 15));
}

TEST(GatherTest, RejectsMismatchedShapesAndBadIndices) {
  EXPECT_THAT(Gather(Grid(), 0, Longs({5}, {1, 1, 1, 1, 1}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rank")));
  EXPECT_THAT(Gather(Grid(), 0, Longs({1, 4}, {1, 1, 1, 1}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("[1, 4]")));
  EXPECT_THAT(Gather(Grid(), 1, Longs({5, 1}, {1, 1, 6, 1, 1}), 1),
              StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("index 6 at [3, 1]")));
  EXPECT_THAT(Gather(Grid(), 1, Must(TensorOf(DType::kFloat64, {5, 1}, Iota(5))), 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("int64")));
  Tensor empty = Must(Gather(Grid(), 1, Longs({5, 0}, {}), 1));
  EXPECT_THAT(empty.shape(), ElementsAre(5, 0));
}

TEST(ScatterTest, ScattersTensorsAndValues) {
  Tensor x = Must(TensorOf(DType::kFloat64, {2, 5}, Iota(10)));
  Tensor y = Must(Tensor::Zeros(DType::kFloat64, {3, 5}));
  ASSERT_OK(Scatter(y, 0, Longs({2, 5}, {1, 2, 3, 1, 1, 3, 1, 1, 2, 3}), 1, x));
  EXPECT_THAT(Doubles(y), ElementsAre(1, 7, 8, 4, 5, 0, 2, 0, 9, 0, 6, 0, 3, 0, 10));
  Tensor z = Must(Tensor::Zeros(DType::kFloat64, {2, 4}));
  ASSERT_OK(ScatterFill(z, 1, Longs({2, 1}, {3, 4}), 1, 1.25));
  EXPECT_THAT(Doubles(z), ElementsAre(0, 0, 1.25, 0, 0, 0, 0, 1.25));
}

TEST(ScatterTest, TakesALargerSourceAndNonContiguousDestinations) {
  Tensor base = Must(Tensor::Zeros(DType::kInt16, {3, 2}));
  Tensor y = Must(base.Transpose(0, 1));  // 2 x 3
  Tensor source = Must(TensorOf(DType::kInt16, {2, 3}, Iota(6)));
  ASSERT_OK(Scatter(y, 1, Longs({2, 1}, {3, 1}), 1, source));  // only source[:, 0] is read
  EXPECT_THAT(Doubles(base), ElementsAre(0, 4, 0, 0, 1, 0));
}

TEST(ScatterTest, RejectsBadShapesSmallSourcesAndValues) {
  Tensor y = Must(Tensor::Zeros(DType::kInt32, {3, 5}));
  Tensor idx = Longs({2, 5}, {1, 2, 3, 1, 1, 3, 1, 1, 2, 3});
  EXPECT_THAT(Scatter(y, 0, idx, 1, Must(Tensor::Zeros(DType::kInt32, {1, 5}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("fewer")));
  EXPECT_THAT(Scatter(y, 0, idx, 1, Must(Tensor::Zeros(DType::kInt32, {2, 4}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("the source has shape")));
  EXPECT_THAT(Scatter(y, 0, idx, 1, Must(Tensor::Zeros(DType::kInt64, {2, 5}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("same type")));
  EXPECT_THAT(ScatterFill(y, 0, Longs({2, 5}, Iota(10)), 1, 1),
              StatusIs(absl::StatusCode::kOutOfRange));
  EXPECT_THAT(ScatterFill(y, 0, idx, 1, 1e10),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a value")));
  EXPECT_THAT(Doubles(y), ElementsAreArray(std::vector<double>(15, 0)));
}

TEST(ScatterTest, ASourceSharingTheDestinationIsReadFirst) {
  Tensor x = Must(TensorOf(DType::kFloat64, {1, 3}, {1, 2, 3}));
  // x[0][idx[k]] = old x[0][k], a rotation.
  ASSERT_OK(Scatter(x, 1, Longs({1, 3}, {2, 3, 1}), 1, x));
  EXPECT_THAT(Doubles(x), ElementsAre(3, 1, 2));
}

TEST(MaskedSelectTest, SelectsInRowMajorOrderWhateverTheShapes) {
  Tensor x = Matrix();
  Tensor mask = Must(TensorOf(DType::kUInt8, {2, 6}, {1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1}));
  Tensor y = Must(MaskedSelect(x, mask));
  EXPECT_THAT(y.shape(), ElementsAre(5));
  EXPECT_THAT(Doubles(y), ElementsAre(1, 3, 7, 8, 12));
  // Transposed tensor and reversed mask: pairs follow each one's row-major order.
  Tensor t = Must(x.Transpose(0, 1));  // 1 5 9 2 6 10 ...
  Tensor reversed =
      Must(Must(TensorOf(DType::kUInt8, {12}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1})).Reverse(0));
  EXPECT_THAT(Doubles(Must(MaskedSelect(t, reversed))), ElementsAre(1, 5, 9));
  Tensor none = Must(MaskedSelect(x, Must(Tensor::Zeros(DType::kUInt8, {12}))));
  EXPECT_THAT(none.shape(), ElementsAre(0));
  Tensor from_empty = Must(MaskedSelect(Tensor(), Must(Tensor::Zeros(DType::kUInt8, {0}))));
  EXPECT_THAT(from_empty.shape(), ElementsAre(0));
}

TEST(MaskedSelectTest, RejectsBadMasks) {
  Tensor x = Matrix();
  EXPECT_THAT(MaskedSelect(x, Must(Tensor::Zeros(DType::kInt32, {12}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("must be uint8")));
  EXPECT_THAT(MaskedSelect(x, Must(Tensor::Zeros(DType::kUInt8, {11}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("same number")));
  Tensor two = Must(Tensor::Zeros(DType::kUInt8, {12}));
  ASSERT_OK(ApplyScalars(Must(two.Narrow(0, 5, 1)), ElementOp::kAssign, {2}));
  EXPECT_THAT(MaskedSelect(x, two), StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("holds 2")));
  LentTensor lent(DType::kUInt8, {12}, std::vector<double>(12, 1), "lent mask");
  lent.Revoke();
  ExpectInvalid(MaskedSelect(x, lent.tensor()).status(), lent.lender());
}

TEST(MaskedCopyTest, CopiesTheSourceInOrderIntoTheMaskedElements) {
  Tensor y = Must(TensorOf(DType::kFloat64, {2, 4}, std::vector<double>(8, -1)));
  Tensor mask = Must(TensorOf(DType::kUInt8, {1, 8}, {0, 0, 1, 1, 1, 0, 1, 0}));
  Tensor x = Must(Must(TensorOf(DType::kFloat64, {2, 3}, {1, 3, 5, 2, 4, 6})).Transpose(0, 1));
  ASSERT_OK(MaskedCopy(y, mask, x));  // x in row-major order: 1 2 3 4 5 6
  EXPECT_THAT(Doubles(y), ElementsAre(-1, -1, 1, 2, 3, -1, 4, -1));
}

TEST(MaskedCopyTest, ASmallSourceIsAnErrorAndChangesNothing) {
  Tensor y = Must(Tensor::Zeros(DType::kInt32, {4}));
  Tensor mask = Must(TensorOf(DType::kUInt8, {4}, {1, 1, 1, 0}));
  EXPECT_THAT(MaskedCopy(y, mask, Must(TensorOf(DType::kInt32, {2}, {7, 8}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("selects 3 elements")));
  EXPECT_THAT(Doubles(y), ElementsAre(0, 0, 0, 0));
}

TEST(MaskedCopyTest, AMaskOrSourceSharingTheTensorIsReadFirst) {
  // The mask is the tensor reversed, {1, 1, 0, 1}: writing 7 to element 1
  // must not turn mask element 4 into a 7.
  Tensor bytes = Must(TensorOf(DType::kUInt8, {4}, {1, 0, 1, 1}));
  ASSERT_OK(
      MaskedCopy(bytes, Must(bytes.Reverse(0)), Must(TensorOf(DType::kUInt8, {3}, {7, 8, 9}))));
  EXPECT_THAT(Doubles(bytes), ElementsAre(7, 8, 1, 9));
  Tensor x = Must(TensorOf(DType::kFloat64, {4}, {1, 2, 3, 4}));
  ASSERT_OK(MaskedCopy(x, Must(TensorOf(DType::kUInt8, {4}, {0, 1, 1, 1})), x));
  EXPECT_THAT(Doubles(x), ElementsAre(1, 1, 2, 3));
}

TEST(MaskedFillTest, FillsTheMaskedElements) {
  Tensor x = Must(TensorOf(DType::kFloat64, {1, 4}, {1, 2, 3, 4}));
  ASSERT_OK(MaskedFill(x, Must(TensorOf(DType::kUInt8, {2, 2}, {0, 0, 1, 1})), -1));
  EXPECT_THAT(Doubles(x), ElementsAre(1, 2, -1, -1));
  Tensor self_masked = Must(TensorOf(DType::kUInt8, {3}, {1, 0, 1}));
  ASSERT_OK(MaskedFill(self_masked, self_masked, 0));
  EXPECT_THAT(Doubles(self_masked), ElementsAre(0, 0, 0));
  EXPECT_THAT(MaskedFill(x, Must(TensorOf(DType::kUInt8, {4}, {0, 0, 1, 3})), 0),
              StatusIs(absl::StatusCode::kOutOfRange));
  EXPECT_THAT(MaskedFill(Must(Tensor::Zeros(DType::kUInt8, {4})),
                         Must(Tensor::Zeros(DType::kUInt8, {4})), -1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a value of uint8")));
  EXPECT_THAT(Doubles(x), ElementsAre(1, 2, -1, -1));
}

TEST(NonZeroTest, ListsSubscriptsInRowMajorOrder) {
  Tensor x = Must(TensorOf(DType::kInt32, {3, 3}, {2, 0, 2, 0, 0, 1, 0, 2, 0}));
  Tensor where = Must(NonZero(x, 1));
  EXPECT_EQ(where.dtype(), DType::kInt64);
  EXPECT_THAT(where.shape(), ElementsAre(4, 2));
  EXPECT_THAT(Doubles(where), ElementsAre(1, 1, 1, 3, 2, 3, 3, 2));
  Tensor transposed = Must(NonZero(Must(x.Transpose(0, 1)), 0));
  EXPECT_THAT(Doubles(transposed), ElementsAre(0, 0, 1, 2, 2, 0, 2, 1));
  Tensor nan = Must(TensorOf(DType::kFloat64, {3}, {0, std::nan(""), -0.0}));
  EXPECT_THAT(Doubles(Must(NonZero(nan, 1))), ElementsAre(2));
  EXPECT_THAT(Must(NonZero(Must(Tensor::Zeros(DType::kFloat32, {2, 3})), 1)).shape(),
              ElementsAre(0, 2));
  EXPECT_THAT(Must(NonZero(Tensor(), 1)).shape(), ElementsAre(0, 0));
}

TEST(ResizeTest, TheSameShapeKeepsTheTensorAsItIs) {
  Tensor t = Must(Matrix().Transpose(0, 1));
  Tensor same = Must(Resize(t, {4, 3}));
  EXPECT_EQ(same.layout(), t.layout());
  EXPECT_EQ(same.storage(), t.storage());
}

TEST(ResizeTest, KeepsRowMajorValuesAndZeroFillsTheRest) {
  Tensor grown = Must(Resize(Matrix(), {2, 7}));
  EXPECT_THAT(Doubles(grown), ElementsAre(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0));
  Tensor shrunk = Must(Resize(Matrix(), {5}));
  EXPECT_THAT(Doubles(shrunk), ElementsAre(1, 2, 3, 4, 5));
  Tensor reshaped = Must(Resize(Must(Matrix().Transpose(0, 1)), {2, 6}));
  EXPECT_THAT(Doubles(reshaped), ElementsAre(1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12));
  EXPECT_THAT(Must(Resize(Matrix(), {0})).shape(), ElementsAre(0));
  EXPECT_EQ(Must(Resize(Matrix(), {})).num_elements(), 0);
  EXPECT_THAT(Doubles(Must(Resize(Tensor(), {2}))), ElementsAre(0, 0));
}

TEST(ResizeTest, KeepsStorageOnlyWhenUnsharedAndLargeEnough) {
  Tensor alone = Matrix();
  const Storage* storage = alone.storage().get();
  Tensor smaller = Must(Resize(alone, {2, 2}));
  EXPECT_EQ(smaller.storage().get(), storage);
  EXPECT_THAT(Doubles(smaller), ElementsAre(1, 2, 3, 4));

  Tensor shared = Matrix();
  Tensor view = Must(shared.Narrow(0, 2, 1));
  Tensor resized = Must(Resize(shared, {2, 2}));
  EXPECT_NE(resized.storage(), shared.storage());
  EXPECT_THAT(Doubles(view), ElementsAre(9, 10, 11, 12));  // the view is untouched

  Tensor row = Must(Matrix().Narrow(0, 2, 1));  // unshared, at offset 8
  Tensor moved = Must(Resize(row, {3}));
  EXPECT_THAT(Doubles(moved), ElementsAre(9, 10, 11));
  Tensor bigger = Must(Resize(Must(TensorOf(DType::kInt8, {2}, {5, 6})), {3}));
  EXPECT_THAT(Doubles(bigger), ElementsAre(5, 6, 0));
}

TEST(ResizeTest, LentTensorsCannotChangeSize) {
  LentTensor lent(DType::kFloat64, {2, 2}, {1, 2, 3, 4}, "engine frame");
  EXPECT_THAT(Resize(lent.tensor(), {4}),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("engine frame")));
  EXPECT_OK(Resize(lent.tensor(), {2, 2}));
  EXPECT_THAT(Resize(Matrix(), {-1}), StatusIs(absl::StatusCode::kInvalidArgument));
  lent.Revoke();
  ExpectInvalid(Resize(lent.tensor(), {2, 2}).status(), lent.lender());
}

}  // namespace
}  // namespace tensor
