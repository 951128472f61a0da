#include "tensor/layout.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tensor/status_matchers.h"

namespace tensor {
namespace {

using ::tensor_testing::IsOk;
using ::tensor_testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr Index kMax = std::numeric_limits<Index>::max();
constexpr Index kMin = std::numeric_limits<Index>::min();
constexpr absl::StatusCode kInvalidArgument = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kOutOfRange = absl::StatusCode::kOutOfRange;

// A layout the test needs to exist; records a failure if it cannot be made.
Layout Make(std::vector<Index> shape, std::vector<Index> strides, Index offset) {
  absl::StatusOr<Layout> layout = Layout::Create(shape, strides, offset);
  EXPECT_THAT(layout, IsOk());
  return layout.ok() ? *layout : Layout();
}

Layout Contiguous(std::vector<Index> shape) {
  absl::StatusOr<Layout> layout = Layout::Contiguous(shape);
  EXPECT_THAT(layout, IsOk());
  return layout.ok() ? *layout : Layout();
}

// Unwraps a view operation's result, recording a failure if it is an error.
Layout Ok(const absl::StatusOr<Layout>& layout) {
  EXPECT_THAT(layout, IsOk());
  return layout.ok() ? *layout : Layout();
}

// The storage offset of every element in row-major order, by OffsetOf.
std::vector<Index> Offsets(const Layout& layout) {
  std::vector<Index> offsets;
  if (layout.num_elements() == 0) return offsets;
  std::vector<Index> index(layout.rank(), 0);
  for (Index n = 0; n < layout.num_elements(); ++n) {
    absl::StatusOr<Index> offset = layout.OffsetOf(index);
    EXPECT_THAT(offset, IsOk());
    offsets.push_back(offset.ok() ? *offset : -1);
    for (int d = layout.rank() - 1; d >= 0 && ++index[d] == layout.shape()[d]; --d) index[d] = 0;
  }
  return offsets;
}

// Whether some strides (and the first element's offset) place `offsets`, in
// row-major order, under `shape`: a brute-force oracle for Reshape.
bool Expressible(const std::vector<Index>& offsets, const std::vector<Index>& shape) {
  const Index count = std::accumulate(shape.begin(), shape.end(), Index{1},
                                      [](Index a, Index b) { return a * b; });
  if (count == 0 || offsets.empty()) return true;
  std::vector<Index> row_major(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d) {
    row_major[d] = row_major[d + 1] * shape[d + 1];
  }
  std::vector<Index> strides(shape.size(), 0);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] > 1) strides[d] = offsets[row_major[d]] - offsets[0];
  }
  for (Index n = 0; n < count; ++n) {
    Index offset = offsets[0], rest = n;
    for (size_t d = 0; d < shape.size(); ++d) {
      offset += rest / row_major[d] * strides[d];
      rest %= row_major[d];
    }
    if (offset != offsets[n]) return false;
  }
  return true;
}

// Every shape of rank <= max_rank whose extents multiply to `count`.
void Factorizations(Index count, int max_rank, std::vector<Index>& prefix,
                    std::vector<std::vector<Index>>& out) {
  if (count == 1 && !prefix.empty()) out.push_back(prefix);
  if (static_cast<int>(prefix.size()) == max_rank) return;
  for (Index f = 1; f <= count; ++f) {
    if (count % f != 0) continue;
    prefix.push_back(f);
    Factorizations(count / f, max_rank, prefix, out);
    prefix.pop_back();
  }
}

// --- Construction ----------------------------------------------------------

TEST(LayoutTest, DefaultLayoutHasRankZeroAndNoElements) {
  const Layout layout;
  EXPECT_EQ(layout.rank(), 0);
  EXPECT_EQ(layout.num_elements(), 0);
  EXPECT_EQ(layout.offset(), 0);
  EXPECT_TRUE(layout.IsContiguous());
  EXPECT_EQ(layout.Reach().lowest, 0);
  EXPECT_EQ(layout.Reach().highest, 0);
}

TEST(LayoutTest, ContiguousGivesRowMajorStrides) {
  const Layout layout = Contiguous({3, 2});
  EXPECT_THAT(layout.shape(), ElementsAre(3, 2));
  EXPECT_THAT(layout.strides(), ElementsAre(2, 1));
  EXPECT_EQ(layout.offset(), 0);
  EXPECT_EQ(layout.rank(), 2);
  EXPECT_EQ(layout.num_elements(), 6);
  EXPECT_THAT(Contiguous({2, 3, 4}).strides(), ElementsAre(12, 4, 1));
}

TEST(LayoutTest, ContiguousOfAnEmptyShapeHoldsNoElements) {
  const Layout layout = Contiguous({});
  EXPECT_EQ(layout.rank(), 0);
  EXPECT_EQ(layout.num_elements(), 0);
}

TEST(LayoutTest, AZeroExtentMeansNoElements) {
  const Layout layout = Contiguous({2, 0, 3});
  EXPECT_EQ(layout.num_elements(), 0);
  EXPECT_TRUE(layout.IsContiguous());
  EXPECT_EQ(layout.Reach().lowest, 0);
  EXPECT_EQ(layout.Reach().highest, 0);
}

TEST(LayoutTest, ContiguousRejectsANegativeExtent) {
  EXPECT_THAT(Layout::Contiguous({2, -1}),
              StatusIs(kInvalidArgument, HasSubstr("negative extent")));
}

TEST(LayoutTest, CreateRejectsANegativeExtent) {
  EXPECT_THAT(Layout::Create({-3}, {1}, 0), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, CreateRejectsStridesOfAnotherRank) {
  EXPECT_THAT(Layout::Create({2, 3}, {1}, 0), StatusIs(kInvalidArgument, HasSubstr("rank")));
  EXPECT_THAT(Layout::Create({2}, {1, 1}, 0), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, CreateKeepsShapeStridesAndOffset) {
  const Layout layout = Make({2, 3}, {-3, 2}, 10);
  EXPECT_THAT(layout.shape(), ElementsAre(2, 3));
  EXPECT_THAT(layout.strides(), ElementsAre(-3, 2));
  EXPECT_EQ(layout.offset(), 10);
  EXPECT_EQ(layout.num_elements(), 6);
}

TEST(LayoutTest, CreateRejectsAnElementCountBeyond64Bits) {
  const Index big = Index{1} << 32;
  EXPECT_THAT(Layout::Create({big, big}, {0, 0}, 0),
              StatusIs(kOutOfRange, HasSubstr("64 bits")));
  EXPECT_THAT(Layout::Create({kMax, 2}, {0, 0}, 0), StatusIs(kOutOfRange));
}

TEST(LayoutTest, ContiguousRejectsAnElementCountBeyond64Bits) {
  const Index big = Index{1} << 32;
  EXPECT_THAT(Layout::Contiguous({big, big}), StatusIs(kOutOfRange, HasSubstr("64 bits")));
  EXPECT_THAT(Layout::Contiguous({big, big, big}), StatusIs(kOutOfRange));
  EXPECT_THAT(Layout::Contiguous({2, kMax}), StatusIs(kOutOfRange));
}

TEST(LayoutTest, ContiguousAcceptsTheLargestCountsThatFit) {
  const Layout layout = Contiguous({Index{1} << 31, Index{1} << 31});
  EXPECT_EQ(layout.num_elements(), Index{1} << 62);
  EXPECT_THAT(layout.strides(), ElementsAre(Index{1} << 31, 1));
  EXPECT_EQ(Contiguous({kMax}).num_elements(), kMax);
}

TEST(LayoutTest, CreateRejectsOffsetsBeyond64Bits) {
  EXPECT_THAT(Layout::Create({2}, {kMax}, 1), StatusIs(kOutOfRange, HasSubstr("64 bits")));
  EXPECT_THAT(Layout::Create({3}, {kMax}, 0), StatusIs(kOutOfRange));
  EXPECT_THAT(Layout::Create({2}, {1}, kMax), StatusIs(kOutOfRange));
  EXPECT_THAT(Layout::Create({2}, {-1}, kMin), StatusIs(kOutOfRange));
  EXPECT_THAT(Layout::Create({3}, {kMin / 2 - 1}, 0), StatusIs(kOutOfRange));
  // Each dimension alone fits; together they pass the top.
  EXPECT_THAT(Layout::Create({2, 2}, {kMax / 2 + 1, kMax / 2 + 1}, 0), StatusIs(kOutOfRange));
}

TEST(LayoutTest, CreateAcceptsOffsetsAtTheEdgesOf64Bits) {
  EXPECT_THAT(Layout::Create({2}, {kMax - 1}, 1), IsOk());
  EXPECT_THAT(Layout::Create({1}, {1}, kMax), IsOk());
  EXPECT_THAT(Layout::Create({2}, {-1}, kMin + 1), IsOk());
}

TEST(LayoutTest, AnEmptyLayoutSkipsTheOffsetChecksAndReachesNothing) {
  const Layout layout = Make({0, 5}, {kMax, kMax}, kMax);
  EXPECT_EQ(layout.num_elements(), 0);
  EXPECT_EQ(layout.Reach().lowest, 0);
  EXPECT_EQ(layout.Reach().highest, 0);
}

TEST(LayoutTest, ContiguousStridesTreatZeroExtentsAsOne) {
  EXPECT_THAT(Layout::Contiguous(std::vector<Index>{2, 0, 3})->strides(), ElementsAre(3, 3, 1));
  EXPECT_THAT(Layout::Contiguous(std::vector<Index>{})->strides(), IsEmpty());
}

// Their strides would let a view move its offset past 64 bits.
TEST(LayoutTest, ContiguousRejectsEmptyShapesWhoseOtherExtentsMultiplyPast64Bits) {
  EXPECT_THAT(Layout::Contiguous(std::vector<Index>{3, 0, Index{1} << 62}),
              StatusIs(kOutOfRange, HasSubstr("multiply past 64 bits")));
  EXPECT_THAT(Layout::Contiguous(std::vector<Index>{Index{1} << 62, 0, 2}),
              StatusIs(kOutOfRange, HasSubstr("[4611686018427387904, 0, 2]")));
  EXPECT_THAT(Layout::Contiguous(std::vector<Index>{Index{1} << 62, 0}), IsOk());
}

TEST(LayoutTest, ShapeStringListsTheExtents) {
  EXPECT_EQ(Contiguous({3, 2}).ShapeString(), "[3, 2]");
  EXPECT_EQ(Layout().ShapeString(), "[]");
  EXPECT_EQ(ShapeToString(std::vector<Index>{7}), "[7]");
}

TEST(LayoutTest, EqualityComparesShapeStridesAndOffset) {
  EXPECT_EQ(Contiguous({2, 3}), Make({2, 3}, {3, 1}, 0));
  EXPECT_NE(Contiguous({2, 3}), Make({2, 3}, {3, 1}, 1));
  EXPECT_NE(Contiguous({2, 3}), Make({2, 3}, {1, 2}, 0));
  EXPECT_NE(Contiguous({2, 3}), Contiguous({3, 2}));
}

// --- IsContiguous, Reach, MayOverlapItself -----------------------------------

TEST(LayoutTest, IsContiguousIsTrueForRowMajorLayoutsAtAnyOffset) {
  EXPECT_TRUE(Contiguous({3, 4}).IsContiguous());
  EXPECT_TRUE(Make({3, 4}, {4, 1}, 17).IsContiguous());
  EXPECT_TRUE(Ok(Contiguous({4, 3}).Narrow(0, 1, 2)).IsContiguous());
}

TEST(LayoutTest, IsContiguousIgnoresTheStridesOfExtentOneDimensions) {
  EXPECT_TRUE(Make({2, 1, 3}, {3, 99, 1}, 0).IsContiguous());
  EXPECT_TRUE(Make({1, 1}, {-5, 0}, 0).IsContiguous());
}

TEST(LayoutTest, IsContiguousIsFalseForGapsReorderingsAndRepeats) {
  EXPECT_FALSE(Ok(Contiguous({3, 4}).Narrow(1, 0, 2)).IsContiguous());
  EXPECT_FALSE(Ok(Contiguous({3, 4}).Transpose(0, 1)).IsContiguous());
  EXPECT_FALSE(Ok(Contiguous({3}).Reverse(0)).IsContiguous());
  EXPECT_FALSE(Ok(Contiguous({1, 4}).Expand({3, 4})).IsContiguous());
  EXPECT_FALSE(Make({3}, {2}, 0).IsContiguous());
}

TEST(LayoutTest, ReachSpansTheLowestAndHighestOffsets) {
  const OffsetRange contiguous = Contiguous({3, 4}).Reach();
  EXPECT_EQ(contiguous.lowest, 0);
  EXPECT_EQ(contiguous.highest, 11);
  const OffsetRange mixed = Make({2, 3}, {-3, 2}, 10).Reach();
  EXPECT_EQ(mixed.lowest, 7);
  EXPECT_EQ(mixed.highest, 14);
  const OffsetRange reversed = Ok(Contiguous({3, 4}).Reverse(0)).Reach();
  EXPECT_EQ(reversed.lowest, 0);
  EXPECT_EQ(reversed.highest, 11);
}

TEST(LayoutTest, ReachAgreesWithTheOffsetsOfEveryElement) {
  for (const Layout& layout :
       {Make({2, 3, 2}, {-6, 1, 3}, 20), Make({4}, {0}, 3), Make({2, 2}, {-1, -5}, 9)}) {
    const std::vector<Index> offsets = Offsets(layout);
    EXPECT_EQ(layout.Reach().lowest, *std::min_element(offsets.begin(), offsets.end()));
    EXPECT_EQ(layout.Reach().highest, *std::max_element(offsets.begin(), offsets.end()));
  }
}

TEST(LayoutTest, MayOverlapItselfIsFalseForDistinctOffsets) {
  EXPECT_FALSE(Contiguous({3, 4}).MayOverlapItself());
  EXPECT_FALSE(Ok(Contiguous({3, 4}).Transpose(0, 1)).MayOverlapItself());
  EXPECT_FALSE(Ok(Contiguous({3, 4}).Reverse(1)).MayOverlapItself());
  EXPECT_FALSE(Ok(Contiguous({3, 4}).Narrow(1, 1, 2)).MayOverlapItself());
  EXPECT_FALSE(Make({1, 3}, {0, 1}, 0).MayOverlapItself());  // stride 0, extent 1
  EXPECT_FALSE(Make({2, 2}, {3, 2}, 0).MayOverlapItself());  // 0, 2, 3, 5
  EXPECT_FALSE(Ok(Contiguous({6}).Unfold(0, 2, 2)).MayOverlapItself());
  EXPECT_FALSE(Layout().MayOverlapItself());
}

TEST(LayoutTest, MayOverlapItselfIsTrueForRepeatedOffsets) {
  EXPECT_TRUE(Ok(Contiguous({1, 4}).Expand({3, 4})).MayOverlapItself());
  EXPECT_TRUE(Ok(Contiguous({5}).Unfold(0, 3, 1)).MayOverlapItself());
  EXPECT_TRUE(Make({2, 2}, {1, 1}, 0).MayOverlapItself());    // 0, 1, 1, 2
  EXPECT_TRUE(Make({2, 2}, {-1, 1}, 1).MayOverlapItself());   // 1, 2, 0, 1
  EXPECT_TRUE(Make({3, 2}, {1, 2}, 0).MayOverlapItself());    // 0, 2, 1, 3, 2, 4
}

TEST(LayoutTest, MayOverlapItselfNeverMissesAnOverlap) {
  // Every 2-d layout with small strides: if two indices share an offset,
  // MayOverlapItself must say so.
  for (Index s0 = -3; s0 <= 3; ++s0) {
    for (Index s1 = -3; s1 <= 3; ++s1) {
      for (Index e0 : {1, 2, 3}) {
        for (Index e1 : {1, 2, 4}) {
          const Layout layout = Make({e0, e1}, {s0, s1}, 20);
          std::vector<Index> offsets = Offsets(layout);
          std::sort(offsets.begin(), offsets.end());
          const bool overlaps = std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end();
          if (overlaps) {
            EXPECT_TRUE(layout.MayOverlapItself())
                << "shape [" << e0 << ", " << e1 << "] strides [" << s0 << ", " << s1 << "]";
          }
        }
      }
    }
  }
}

// --- Select ----------------------------------------------------------------

TEST(LayoutTest, SelectDropsTheDimensionAndMovesTheOffset) {
  const Layout column = Ok(Contiguous({3, 2}).Select(1, 1));
  EXPECT_THAT(column.shape(), ElementsAre(3));
  EXPECT_THAT(column.strides(), ElementsAre(2));
  EXPECT_EQ(column.offset(), 1);
  EXPECT_EQ(column.num_elements(), 3);
  EXPECT_THAT(Offsets(column), ElementsAre(1, 3, 5));

  const Layout row = Ok(Contiguous({3, 2}).Select(0, 2));
  EXPECT_THAT(row.shape(), ElementsAre(2));
  EXPECT_THAT(Offsets(row), ElementsAre(4, 5));
}

TEST(LayoutTest, SelectOnRankOneKeepsRankOneWithExtentOne) {
  const Layout element = Ok(Contiguous({5}).Select(0, 3));
  EXPECT_EQ(element.rank(), 1);
  EXPECT_THAT(element.shape(), ElementsAre(1));
  EXPECT_EQ(element.num_elements(), 1);
  EXPECT_EQ(element.offset(), 3);
  EXPECT_THAT(Offsets(element), ElementsAre(3));
}

TEST(LayoutTest, SelectOnANegativeStrideFollowsIt) {
  const Layout reversed = Ok(Contiguous({4}).Reverse(0));
  EXPECT_THAT(Offsets(Ok(reversed.Select(0, 1))), ElementsAre(2));
}

TEST(LayoutTest, SelectFromALayoutWithoutElementsStaysEmpty) {
  const Layout selected = Ok(Contiguous({2, 0}).Select(0, 1));
  EXPECT_THAT(selected.shape(), ElementsAre(0));
  EXPECT_EQ(selected.num_elements(), 0);
}

TEST(LayoutTest, SelectRejectsBadDimensionsAndIndices) {
  const Layout layout = Contiguous({3, 2});
  EXPECT_THAT(layout.Select(-1, 0), StatusIs(kOutOfRange, HasSubstr("dimension -1")));
  EXPECT_THAT(layout.Select(2, 0), StatusIs(kOutOfRange, HasSubstr("select")));
  EXPECT_THAT(layout.Select(0, -1), StatusIs(kOutOfRange, HasSubstr("index -1")));
  EXPECT_THAT(layout.Select(0, 3), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Select(1, kMax), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Select(1, kMin), StatusIs(kOutOfRange));
  EXPECT_THAT(Layout().Select(0, 0), StatusIs(kOutOfRange));
  EXPECT_THAT(Contiguous({0}).Select(0, 0), StatusIs(kOutOfRange));
}

// --- Narrow ----------------------------------------------------------------

TEST(LayoutTest, NarrowKeepsARangeOfOneDimension) {
  const Layout rows = Ok(Contiguous({4, 3}).Narrow(0, 1, 2));
  EXPECT_THAT(rows.shape(), ElementsAre(2, 3));
  EXPECT_THAT(rows.strides(), ElementsAre(3, 1));
  EXPECT_EQ(rows.offset(), 3);
  EXPECT_EQ(rows.num_elements(), 6);

  const Layout columns = Ok(Contiguous({4, 3}).Narrow(1, 1, 2));
  EXPECT_THAT(columns.shape(), ElementsAre(4, 2));
  EXPECT_EQ(columns.num_elements(), 8);
  EXPECT_THAT(Offsets(columns), ElementsAre(1, 2, 4, 5, 7, 8, 10, 11));
}

TEST(LayoutTest, NarrowToTheWholeDimensionChangesNothing) {
  const Layout layout = Contiguous({4, 3});
  EXPECT_EQ(Ok(layout.Narrow(0, 0, 4)), layout);
}

TEST(LayoutTest, NarrowToZeroLengthGivesNoElementsAnywhereInTheRange) {
  const Layout layout = Contiguous({4, 3});
  for (Index start = 0; start <= 4; ++start) {
    const Layout empty = Ok(layout.Narrow(0, start, 0));
    EXPECT_THAT(empty.shape(), ElementsAre(0, 3));
    EXPECT_EQ(empty.num_elements(), 0);
  }
  EXPECT_EQ(Ok(Contiguous({0, 3}).Narrow(0, 0, 0)).num_elements(), 0);
}

TEST(LayoutTest, NarrowRejectsRangesOutsideTheDimension) {
  const Layout layout = Contiguous({4, 3});
  EXPECT_THAT(layout.Narrow(0, -1, 2), StatusIs(kOutOfRange, HasSubstr("narrow")));
  EXPECT_THAT(layout.Narrow(0, 0, -1), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Narrow(0, 3, 2), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Narrow(0, 5, 0), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Narrow(0, 1, kMax), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Narrow(0, kMax, kMax), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Narrow(0, kMax, 1), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Narrow(0, kMin, 1), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Narrow(0, 1, kMin), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Narrow(2, 0, 1), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Narrow(-1, 0, 1), StatusIs(kOutOfRange));
}

// --- Transpose, Permute, Reverse ---------------------------------------------

TEST(LayoutTest, TransposeSwapsExtentsAndStrides) {
  const Layout transposed = Ok(Contiguous({2, 3}).Transpose(0, 1));
  EXPECT_THAT(transposed.shape(), ElementsAre(3, 2));
  EXPECT_THAT(transposed.strides(), ElementsAre(1, 3));
  EXPECT_THAT(Offsets(transposed), ElementsAre(0, 3, 1, 4, 2, 5));
  EXPECT_EQ(Ok(transposed.Transpose(1, 0)), Contiguous({2, 3}));
}

TEST(LayoutTest, TransposeOfADimensionWithItselfChangesNothing) {
  EXPECT_EQ(Ok(Contiguous({2, 3}).Transpose(1, 1)), Contiguous({2, 3}));
}

TEST(LayoutTest, TransposeRejectsBadDimensions) {
  EXPECT_THAT(Contiguous({2, 3}).Transpose(0, 2), StatusIs(kOutOfRange));
  EXPECT_THAT(Contiguous({2, 3}).Transpose(-1, 0), StatusIs(kOutOfRange));
  EXPECT_THAT(Layout().Transpose(0, 0), StatusIs(kOutOfRange));
}

TEST(LayoutTest, PermuteTakesResultDimensionIFromOrderI) {
  const Layout permuted = Ok(Contiguous({2, 3, 4}).Permute({2, 0, 1}));
  EXPECT_THAT(permuted.shape(), ElementsAre(4, 2, 3));
  EXPECT_THAT(permuted.strides(), ElementsAre(1, 12, 4));
  EXPECT_EQ(permuted.num_elements(), 24);
  EXPECT_EQ(Ok(Contiguous({2, 3, 4}).Permute({0, 1, 2})), Contiguous({2, 3, 4}));
  EXPECT_EQ(Ok(Layout().Permute({})), Layout());
}

TEST(LayoutTest, PermuteRejectsAnythingButAPermutation) {
  const Layout layout = Contiguous({2, 3, 4});
  EXPECT_THAT(layout.Permute({0, 1}), StatusIs(kInvalidArgument));
  EXPECT_THAT(layout.Permute({0, 1, 2, 3}), StatusIs(kInvalidArgument));
  EXPECT_THAT(layout.Permute({0, 0, 1}), StatusIs(kInvalidArgument, HasSubstr("permutation")));
  EXPECT_THAT(layout.Permute({0, 1, 3}), StatusIs(kInvalidArgument));
  EXPECT_THAT(layout.Permute({-1, 0, 1}), StatusIs(kInvalidArgument));
  EXPECT_THAT(layout.Permute({std::numeric_limits<int>::min(), 0, 1}),
              StatusIs(kInvalidArgument));
}

TEST(LayoutTest, ReverseWalksADimensionBackwards) {
  const Layout reversed = Ok(Contiguous({3}).Reverse(0));
  EXPECT_THAT(reversed.strides(), ElementsAre(-1));
  EXPECT_EQ(reversed.offset(), 2);
  EXPECT_THAT(Offsets(reversed), ElementsAre(2, 1, 0));

  const Layout rows_reversed = Ok(Contiguous({2, 3}).Reverse(0));
  EXPECT_THAT(Offsets(rows_reversed), ElementsAre(3, 4, 5, 0, 1, 2));
}

TEST(LayoutTest, ReverseTwiceRestoresTheLayout) {
  const Layout layout = Ok(Contiguous({3, 4}).Narrow(1, 1, 2));
  EXPECT_EQ(Ok(Ok(layout.Reverse(1)).Reverse(1)), layout);
}

TEST(LayoutTest, ReverseOfAnEmptyDimensionKeepsTheOffset) {
  const Layout reversed = Ok(Contiguous({0, 3}).Reverse(0));
  EXPECT_EQ(reversed.offset(), 0);
  EXPECT_EQ(reversed.num_elements(), 0);
}

// Found by the lua_program fuzzer: reverse moved the offset of an empty
// layout by 2^62 * 2, a signed overflow. An empty view keeps its offset.
TEST(LayoutTest, ViewsOfAnEmptyLayoutWithHugeStridesKeepTheOffset) {
  const Layout wide = Make({3, 0, Index{1} << 62}, {Index{1} << 62, Index{1} << 62, 1}, 0);
  const Layout at_edge = Make({3, 0}, {kMax, 1}, kMax);
  for (const Layout& layout : {wide, at_edge}) {
    for (const Layout& view : {Ok(layout.Reverse(0)), Ok(layout.Select(0, 2)),
                               Ok(layout.Narrow(0, 2, 1))}) {
      EXPECT_EQ(view.offset(), layout.offset());
      EXPECT_EQ(view.num_elements(), 0);
    }
  }
}

TEST(LayoutTest, ReverseRejectsBadDimensions) {
  EXPECT_THAT(Contiguous({3}).Reverse(1), StatusIs(kOutOfRange));
  EXPECT_THAT(Contiguous({3}).Reverse(-1), StatusIs(kOutOfRange));
}

// --- Reshape ---------------------------------------------------------------

TEST(LayoutTest, ReshapeOfAContiguousLayoutIsContiguous) {
  const Layout reshaped = Ok(Contiguous({2, 3}).Reshape({3, 2}));
  EXPECT_EQ(reshaped, Contiguous({3, 2}));
  EXPECT_EQ(Ok(Contiguous({2, 3, 4}).Reshape({24})), Contiguous({24}));
  EXPECT_EQ(Ok(Contiguous({24}).Reshape({2, 3, 4})), Contiguous({2, 3, 4}));
}

TEST(LayoutTest, ReshapeInfersOneMinusOneExtent) {
  EXPECT_THAT(Ok(Contiguous({2, 3}).Reshape({-1})).shape(), ElementsAre(6));
  EXPECT_THAT(Ok(Contiguous({2, 3}).Reshape({3, -1})).shape(), ElementsAre(3, 2));
  EXPECT_THAT(Ok(Contiguous({2, 3}).Reshape({-1, 1, 2})).shape(), ElementsAre(3, 1, 2));
}

TEST(LayoutTest, ReshapeRejectsAnInferenceThatDoesNotDivide) {
  EXPECT_THAT(Contiguous({2, 3}).Reshape({-1, 4}),
              StatusIs(kInvalidArgument, HasSubstr("infer")));
  EXPECT_THAT(Contiguous({0, 3}).Reshape({0, -1}), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, ReshapeRejectsMoreThanOneMinusOneAndOtherNegativeExtents) {
  EXPECT_THAT(Contiguous({2, 3}).Reshape({-1, -1}), StatusIs(kInvalidArgument));
  EXPECT_THAT(Contiguous({2, 3}).Reshape({-2, -3}), StatusIs(kInvalidArgument));
  EXPECT_THAT(Contiguous({2, 3}).Reshape({-6}), StatusIs(kInvalidArgument));
  EXPECT_THAT(Contiguous({2, 3}).Reshape({kMin}), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, ReshapeRejectsAnotherElementCount) {
  EXPECT_THAT(Contiguous({2, 3}).Reshape({4}),
              StatusIs(kInvalidArgument, HasSubstr("elements")));
  EXPECT_THAT(Contiguous({2, 3}).Reshape({}), StatusIs(kInvalidArgument));
  EXPECT_THAT(Contiguous({2, 3}).Reshape({6, 0}), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, ReshapeRejectsARequestedShapeThatOverflows) {
  const Index big = Index{1} << 32;
  EXPECT_THAT(Contiguous({2, 3}).Reshape({big, big, 0}), StatusIs(kOutOfRange));
  EXPECT_THAT(Contiguous({2, 3}).Reshape({big, big, -1}), StatusIs(kOutOfRange));
}

TEST(LayoutTest, ReshapeOfATransposedMatrixToOneDimensionNeedsACopyAndFails) {
  const Layout transposed = Ok(Contiguous({2, 3}).Transpose(0, 1));
  EXPECT_THAT(transposed.Reshape({6}), StatusIs(kInvalidArgument, HasSubstr("copy")));
  EXPECT_THAT(transposed.Reshape({-1}), StatusIs(kInvalidArgument));
  EXPECT_THAT(transposed.Reshape({2, 3}), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, ReshapeOfATransposedMatrixThatOnlySplitsOrAddsUnitDimensionsWorks) {
  const Layout transposed = Ok(Contiguous({2, 3}).Transpose(0, 1));  // strides {1, 3}
  const Layout split = Ok(transposed.Reshape({3, 1, 2, 1}));
  EXPECT_THAT(Offsets(split), ElementsAreArray(Offsets(transposed)));
}

TEST(LayoutTest, ReshapeOfNarrowedRowsKeepsTheOffset) {
  const Layout rows = Ok(Contiguous({4, 3}).Narrow(0, 1, 2));
  const Layout flat = Ok(rows.Reshape({6}));
  EXPECT_THAT(flat.strides(), ElementsAre(1));
  EXPECT_EQ(flat.offset(), 3);
  EXPECT_THAT(Offsets(flat), ElementsAre(3, 4, 5, 6, 7, 8));
}

TEST(LayoutTest, ReshapeOfNarrowedColumnsSplitsButCannotMerge) {
  const Layout columns = Ok(Contiguous({4, 3}).Narrow(1, 0, 2));  // strides {3, 1}
  EXPECT_THAT(columns.Reshape({8}), StatusIs(kInvalidArgument));
  const Layout split = Ok(columns.Reshape({2, 2, 2}));
  EXPECT_THAT(split.strides(), ElementsAre(6, 3, 1));
  EXPECT_THAT(Offsets(split), ElementsAreArray(Offsets(columns)));
}

TEST(LayoutTest, ReshapeFollowsNegativeStridesWithoutACopy) {
  const Layout reversed = Ok(Contiguous({6}).Reverse(0));
  const Layout matrix = Ok(reversed.Reshape({2, 3}));
  EXPECT_THAT(matrix.strides(), ElementsAre(-3, -1));
  EXPECT_EQ(matrix.offset(), 5);
  EXPECT_THAT(Offsets(matrix), ElementsAre(5, 4, 3, 2, 1, 0));

  const Layout both = Ok(Ok(Contiguous({2, 3}).Reverse(0)).Reverse(1));
  const Layout flat = Ok(both.Reshape({6}));
  EXPECT_THAT(flat.strides(), ElementsAre(-1));
  EXPECT_THAT(Offsets(flat), ElementsAre(5, 4, 3, 2, 1, 0));

  const Layout inferred = Ok(both.Reshape({3, -1}));
  EXPECT_THAT(inferred.shape(), ElementsAre(3, 2));
  EXPECT_THAT(Offsets(inferred), ElementsAre(5, 4, 3, 2, 1, 0));
}

TEST(LayoutTest, ReshapeRefusesToMergeOneReversedDimension) {
  const Layout rows_reversed = Ok(Contiguous({2, 3}).Reverse(0));  // 3 4 5 0 1 2
  EXPECT_THAT(rows_reversed.Reshape({6}), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, ReshapeOfAnExpandedLayoutKeepsStrideZero) {
  const Layout expanded = Ok(Contiguous({1, 4}).Expand({3, 4}));
  EXPECT_THAT(expanded.Reshape({12}), StatusIs(kInvalidArgument));
  const Layout split = Ok(expanded.Reshape({3, 2, 2}));
  EXPECT_THAT(split.strides(), ElementsAre(0, 2, 1));
  EXPECT_THAT(Offsets(split), ElementsAreArray(Offsets(expanded)));
}

TEST(LayoutTest, ReshapeIgnoresTheStridesOfExtentOneDimensions) {
  const Layout layout = Make({2, 1, 3, 1}, {3, 100, 1, -7}, 0);
  const Layout flat = Ok(layout.Reshape({6}));
  EXPECT_THAT(flat.strides(), ElementsAre(1));
  EXPECT_THAT(Offsets(flat), ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(LayoutTest, ReshapeOfALayoutWithoutElementsIsContiguousAtTheSameOffset) {
  const Layout empty = Ok(Contiguous({4, 3}).Narrow(0, 2, 0));
  const Layout reshaped = Ok(empty.Reshape({3, 0, 5}));
  EXPECT_THAT(reshaped.shape(), ElementsAre(3, 0, 5));
  EXPECT_EQ(reshaped.num_elements(), 0);
  EXPECT_EQ(reshaped.offset(), empty.offset());
  EXPECT_EQ(Ok(Layout().Reshape({})), Layout());
}

TEST(LayoutTest, ReshapeSucceedsExactlyWhenStridesCanExpressTheNewShape) {
  // Sources: every permutation of [2, 3, 2], each dimension optionally
  // reversed, optionally narrowed on its first dimension; targets: every
  // shape of rank <= 4 with the same count. Reshape must succeed exactly
  // when a brute-force search says some strides express the elements'
  // offsets, and then give those offsets.
  std::vector<int> order = {0, 1, 2};
  int checked = 0;
  do {
    for (int reversals = 0; reversals < 8; ++reversals) {
      for (bool narrow : {false, true}) {
        Layout layout = Ok(Make({2, 3, 2}, {6, 2, 1}, 0).Permute(order));
        for (int d = 0; d < 3; ++d) {
          if (reversals & (1 << d)) layout = Ok(layout.Reverse(d));
        }
        if (narrow) layout = Ok(layout.Narrow(0, 1, layout.shape()[0] - 1));
        const std::vector<Index> offsets = Offsets(layout);
        std::vector<std::vector<Index>> targets;
        std::vector<Index> prefix;
        Factorizations(layout.num_elements(), 4, prefix, targets);
        for (const std::vector<Index>& target : targets) {
          const absl::StatusOr<Layout> reshaped = layout.Reshape(target);
          const std::string where = "source shape " + layout.ShapeString() + " strides " +
                                    ShapeToString(layout.strides()) + " to " +
                                    ShapeToString(target);
          ASSERT_EQ(reshaped.ok(), Expressible(offsets, target))
              << where << ": " << reshaped.status().ToString();
          if (reshaped.ok()) {
            ASSERT_THAT(reshaped->shape(), ElementsAreArray(target)) << where;
            ASSERT_THAT(Offsets(*reshaped), ElementsAreArray(offsets)) << where;
          }
          ++checked;
        }
      }
    }
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_GT(checked, 1000);
}

TEST(LayoutTest, ReshapeOfArbitraryStridesSucceedsExactlyWhenExpressible) {
  // Random small layouts, strides zero, negative and unordered included,
  // and extent-1 dimensions with arbitrary strides; the same oracle as
  // above.
  std::mt19937 random(20240611);
  std::uniform_int_distribution<int> rank_of(1, 4), extent_of(1, 3), stride_of(-6, 6);
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<Index> shape, strides;
    const int rank = rank_of(random);
    for (int d = 0; d < rank; ++d) {
      shape.push_back(extent_of(random));
      strides.push_back(stride_of(random));
    }
    const Layout layout = Make(shape, strides, 100);
    const std::vector<Index> offsets = Offsets(layout);
    std::vector<std::vector<Index>> targets;
    std::vector<Index> prefix;
    Factorizations(layout.num_elements(), 4, prefix, targets);
    for (const std::vector<Index>& target : targets) {
      const absl::StatusOr<Layout> reshaped = layout.Reshape(target);
      const std::string where = "source shape " + layout.ShapeString() + " strides " +
                                ShapeToString(layout.strides()) + " to " + ShapeToString(target);
      ASSERT_EQ(reshaped.ok(), Expressible(offsets, target))
          << where << ": " << reshaped.status().ToString();
      if (reshaped.ok()) {
        ASSERT_THAT(Offsets(*reshaped), ElementsAreArray(offsets)) << where;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

// --- Expand ----------------------------------------------------------------

TEST(LayoutTest, ExpandBroadcastsExtentOneWithStrideZero) {
  const Layout expanded = Ok(Contiguous({1, 3}).Expand({4, 3}));
  EXPECT_THAT(expanded.shape(), ElementsAre(4, 3));
  EXPECT_THAT(expanded.strides(), ElementsAre(0, 1));
  EXPECT_EQ(expanded.num_elements(), 12);
  EXPECT_THAT(Offsets(expanded), ElementsAre(0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2));
}

TEST(LayoutTest, ExpandMinusOneKeepsTheCurrentExtent) {
  const Layout expanded = Ok(Contiguous({1, 3}).Expand({4, -1}));
  EXPECT_THAT(expanded.shape(), ElementsAre(4, 3));
  EXPECT_THAT(expanded.strides(), ElementsAre(0, 1));
  EXPECT_EQ(Ok(Contiguous({2, 3}).Expand({-1, -1})), Contiguous({2, 3}));
}

TEST(LayoutTest, ExpandAddsLeadingDimensionsWithStrideZero) {
  const Layout expanded = Ok(Contiguous({3}).Expand({2, 1, 3}));
  EXPECT_THAT(expanded.shape(), ElementsAre(2, 1, 3));
  EXPECT_THAT(expanded.strides(), ElementsAre(0, 0, 1));
  EXPECT_THAT(Offsets(expanded), ElementsAre(0, 1, 2, 0, 1, 2));
}

TEST(LayoutTest, ExpandKeepsTheOffsetAndNegativeStrides) {
  const Layout reversed = Ok(Make({1, 3}, {3, 1}, 5).Reverse(1));
  EXPECT_THAT(Offsets(Ok(reversed.Expand({2, 3}))), ElementsAre(7, 6, 5, 7, 6, 5));
}

TEST(LayoutTest, ExpandToExtentZeroGivesNoElements) {
  const Layout expanded = Ok(Contiguous({1, 3}).Expand({0, 3}));
  EXPECT_EQ(expanded.num_elements(), 0);
  EXPECT_EQ(Ok(Contiguous({3}).Expand({0, 3})).num_elements(), 0);
}

TEST(LayoutTest, ExpandRejectsChangingAnExtentOtherThanOne) {
  EXPECT_THAT(Contiguous({2, 3}).Expand({4, 3}),
              StatusIs(kInvalidArgument, HasSubstr("not 1")));
  EXPECT_THAT(Contiguous({2, 3}).Expand({2, 1}), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, ExpandRejectsFewerDimensionsAndBadExtents) {
  EXPECT_THAT(Contiguous({1, 3}).Expand({3}), StatusIs(kInvalidArgument));
  EXPECT_THAT(Contiguous({1, 3}).Expand({-2, 3}), StatusIs(kInvalidArgument));
  EXPECT_THAT(Contiguous({3}).Expand({-1, 3}), StatusIs(kInvalidArgument));
  EXPECT_THAT(Contiguous({3}).Expand({kMin, 3}), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, ExpandOfAnEmptyLayoutFails) {
  EXPECT_THAT(Layout().Expand({3}), StatusIs(kInvalidArgument));
  EXPECT_EQ(Ok(Layout().Expand({})), Layout());
}

TEST(LayoutTest, ExpandRejectsAnElementCountBeyond64Bits) {
  const Index big = Index{1} << 32;
  EXPECT_THAT(Contiguous({1}).Expand({big, big}), StatusIs(kOutOfRange));
  EXPECT_THAT(Contiguous({1, 1}).Expand({kMax, kMax}), StatusIs(kOutOfRange));
}

// --- Unfold ----------------------------------------------------------------

TEST(LayoutTest, UnfoldMakesOverlappingWindows) {
  const Layout windows = Ok(Contiguous({5}).Unfold(0, 2, 1));
  EXPECT_THAT(windows.shape(), ElementsAre(4, 2));
  EXPECT_THAT(windows.strides(), ElementsAre(1, 1));
  EXPECT_THAT(Offsets(windows), ElementsAre(0, 1, 1, 2, 2, 3, 3, 4));
}

TEST(LayoutTest, UnfoldDropsAPartialLastWindow) {
  const Layout windows = Ok(Contiguous({5}).Unfold(0, 2, 2));
  EXPECT_THAT(windows.shape(), ElementsAre(2, 2));
  EXPECT_THAT(windows.strides(), ElementsAre(2, 1));
  EXPECT_THAT(Offsets(windows), ElementsAre(0, 1, 2, 3));
}

TEST(LayoutTest, UnfoldOfAnInnerDimensionAppendsTheWindowLast) {
  const Layout windows = Ok(Contiguous({2, 5}).Unfold(1, 3, 2));
  EXPECT_THAT(windows.shape(), ElementsAre(2, 2, 3));
  EXPECT_THAT(windows.strides(), ElementsAre(5, 2, 1));
  EXPECT_THAT(Offsets(windows), ElementsAre(0, 1, 2, 2, 3, 4, 5, 6, 7, 7, 8, 9));

  const Layout outer = Ok(Contiguous({4, 2}).Unfold(0, 2, 2));
  EXPECT_THAT(outer.shape(), ElementsAre(2, 2, 2));
  EXPECT_THAT(outer.strides(), ElementsAre(4, 1, 2));
}

TEST(LayoutTest, UnfoldWithTheWholeExtentGivesOneWindow) {
  const Layout windows = Ok(Contiguous({5}).Unfold(0, 5, 3));
  EXPECT_THAT(windows.shape(), ElementsAre(1, 5));
  EXPECT_THAT(Offsets(windows), ElementsAre(0, 1, 2, 3, 4));
}

TEST(LayoutTest, UnfoldFollowsNegativeStrides) {
  const Layout reversed = Ok(Contiguous({4}).Reverse(0));
  EXPECT_THAT(Offsets(Ok(reversed.Unfold(0, 2, 2))), ElementsAre(3, 2, 1, 0));
}

TEST(LayoutTest, UnfoldRejectsWindowsThatDoNotFit) {
  const Layout layout = Contiguous({2, 5});
  EXPECT_THAT(layout.Unfold(1, 0, 1), StatusIs(kInvalidArgument, HasSubstr("unfold")));
  EXPECT_THAT(layout.Unfold(1, -1, 1), StatusIs(kInvalidArgument));
  EXPECT_THAT(layout.Unfold(1, 6, 1), StatusIs(kInvalidArgument));
  EXPECT_THAT(layout.Unfold(1, kMax, 1), StatusIs(kInvalidArgument));
  EXPECT_THAT(layout.Unfold(1, 2, 0), StatusIs(kInvalidArgument));
  EXPECT_THAT(layout.Unfold(1, 2, -1), StatusIs(kInvalidArgument));
  EXPECT_THAT(layout.Unfold(1, 2, kMin), StatusIs(kInvalidArgument));
  EXPECT_THAT(layout.Unfold(2, 1, 1), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.Unfold(-1, 1, 1), StatusIs(kOutOfRange));
  EXPECT_THAT(Contiguous({0}).Unfold(0, 1, 1), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, UnfoldWithAStepBeyondTheExtentGivesOneWindow) {
  // A step longer than the dimension leaves room for a single window. The
  // window stride is then never used, so any step, however large, must give
  // that window rather than overflow.
  for (Index step : {Index{4}, Index{1000}, kMax / 2, kMax}) {
    const absl::StatusOr<Layout> windows = Contiguous({4, 2}).Unfold(0, 1, step);
    ASSERT_THAT(windows, IsOk()) << "step " << step;
    EXPECT_THAT(windows->shape(), ElementsAre(1, 2, 1)) << "step " << step;
    EXPECT_THAT(Offsets(*windows), ElementsAre(0, 1)) << "step " << step;
  }
}

// --- Squeeze, Unsqueeze ----------------------------------------------------

TEST(LayoutTest, SqueezeRemovesEveryExtentOneDimension) {
  const Layout layout = Make({1, 3, 1, 2}, {6, 2, 2, 1}, 4);
  const Layout squeezed = layout.Squeeze();
  EXPECT_THAT(squeezed.shape(), ElementsAre(3, 2));
  EXPECT_THAT(squeezed.strides(), ElementsAre(2, 1));
  EXPECT_EQ(squeezed.offset(), 4);
  EXPECT_EQ(squeezed.num_elements(), 6);
}

TEST(LayoutTest, SqueezeOfAllOnesKeepsOneDimension) {
  const Layout squeezed = Make({1, 1, 1}, {5, 5, 5}, 3).Squeeze();
  EXPECT_THAT(squeezed.shape(), ElementsAre(1));
  EXPECT_EQ(squeezed.num_elements(), 1);
  EXPECT_THAT(Offsets(squeezed), ElementsAre(3));
}

TEST(LayoutTest, SqueezeWithoutExtentOneDimensionsChangesNothing) {
  EXPECT_EQ(Contiguous({2, 3}).Squeeze(), Contiguous({2, 3}));
  EXPECT_EQ(Layout().Squeeze(), Layout());
  EXPECT_EQ(Contiguous({2, 0}).Squeeze().num_elements(), 0);
}

TEST(LayoutTest, SqueezeOfOneDimensionRemovesIt) {
  const Layout squeezed = Ok(Contiguous({2, 1, 3}).Squeeze(1));
  EXPECT_THAT(squeezed.shape(), ElementsAre(2, 3));
  EXPECT_THAT(squeezed.strides(), ElementsAre(3, 1));
}

TEST(LayoutTest, SqueezeOfOneDimensionRejectsOtherExtentsAndTheLastDimension) {
  EXPECT_THAT(Contiguous({2, 1, 3}).Squeeze(0),
              StatusIs(kInvalidArgument, HasSubstr("extent 1")));
  EXPECT_THAT(Contiguous({1}).Squeeze(0), StatusIs(kInvalidArgument, HasSubstr("only one")));
  EXPECT_THAT(Contiguous({2, 1, 3}).Squeeze(3), StatusIs(kOutOfRange));
  EXPECT_THAT(Contiguous({2, 1, 3}).Squeeze(-1), StatusIs(kOutOfRange));
  EXPECT_THAT(Layout().Squeeze(0), StatusIs(kOutOfRange));
}

TEST(LayoutTest, UnsqueezeInsertsAnExtentOneDimensionAtEachPosition) {
  const Layout layout = Contiguous({2, 3});
  EXPECT_THAT(Ok(layout.Unsqueeze(0)).shape(), ElementsAre(1, 2, 3));
  EXPECT_THAT(Ok(layout.Unsqueeze(1)).shape(), ElementsAre(2, 1, 3));
  EXPECT_THAT(Ok(layout.Unsqueeze(2)).shape(), ElementsAre(2, 3, 1));
  for (int dim = 0; dim <= 2; ++dim) {
    const Layout unsqueezed = Ok(layout.Unsqueeze(dim));
    EXPECT_TRUE(unsqueezed.IsContiguous()) << dim;
    EXPECT_EQ(unsqueezed.num_elements(), 6);
    EXPECT_THAT(Offsets(unsqueezed), ElementsAre(0, 1, 2, 3, 4, 5)) << dim;
    EXPECT_EQ(Ok(unsqueezed.Squeeze(dim)), layout) << dim;
  }
}

TEST(LayoutTest, UnsqueezeKeepsAReversedLayoutsOffsets) {
  const Layout reversed = Ok(Contiguous({2, 3}).Reverse(1));
  EXPECT_THAT(Offsets(Ok(reversed.Unsqueeze(1))), ElementsAreArray(Offsets(reversed)));
}

TEST(LayoutTest, UnsqueezeRejectsBadPositionsAndAnEmptyLayout) {
  EXPECT_THAT(Contiguous({2, 3}).Unsqueeze(3), StatusIs(kOutOfRange));
  EXPECT_THAT(Contiguous({2, 3}).Unsqueeze(-1), StatusIs(kOutOfRange));
  EXPECT_THAT(Layout().Unsqueeze(0), StatusIs(kInvalidArgument));
}

// --- OffsetOf --------------------------------------------------------------

TEST(LayoutTest, OffsetOfAppliesOffsetAndStrides) {
  EXPECT_EQ(Contiguous({3, 2}).OffsetOf({2, 1}).value_or(-1), 5);
  const Layout layout = Make({2, 3}, {-3, 2}, 10);
  EXPECT_EQ(layout.OffsetOf({0, 0}).value_or(-1), 10);
  EXPECT_EQ(layout.OffsetOf({1, 2}).value_or(-1), 11);
}

TEST(LayoutTest, OffsetOfRejectsAnIndexOfAnotherRank) {
  EXPECT_THAT(Contiguous({3, 2}).OffsetOf({1}), StatusIs(kInvalidArgument));
  EXPECT_THAT(Contiguous({3, 2}).OffsetOf({1, 1, 0}), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, OffsetOfRejectsOutOfRangeIndices) {
  const Layout layout = Contiguous({3, 2});
  EXPECT_THAT(layout.OffsetOf({3, 0}), StatusIs(kOutOfRange, HasSubstr("[3, 0]")));
  EXPECT_THAT(layout.OffsetOf({0, 2}), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.OffsetOf({-1, 0}), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.OffsetOf({kMax, kMax}), StatusIs(kOutOfRange));
  EXPECT_THAT(layout.OffsetOf({0, kMin}), StatusIs(kOutOfRange));
}

TEST(LayoutTest, OffsetOfFailsOnALayoutWithoutElements) {
  EXPECT_THAT(Layout().OffsetOf({}), StatusIs(kInvalidArgument));
  EXPECT_THAT(Contiguous({2, 0}).OffsetOf({0, 0}), Not(IsOk()));
}

// --- Robustness ------------------------------------------------------------

TEST(LayoutTest, ViewsOfValidArgumentsReachOnlyWhatTheSourceReaches) {
  const std::vector<Layout> sources = {
      Contiguous({3, 4}), Make({2, 3}, {-3, 2}, 10), Ok(Contiguous({1, 4}).Expand({3, 4})),
      Ok(Contiguous({6}).Unfold(0, 3, 1))};
  for (const Layout& source : sources) {
    const OffsetRange reach = source.Reach();
    std::vector<Layout> views;
    for (int dim = 0; dim < source.rank(); ++dim) {
      for (Index i = 0; i < source.shape()[dim]; ++i) {
        views.push_back(Ok(source.Select(dim, i)));
        for (Index length = 0; i + length <= source.shape()[dim]; ++length) {
          views.push_back(Ok(source.Narrow(dim, i, length)));
        }
        views.push_back(Ok(source.Unfold(dim, i + 1, 1)));
        views.push_back(Ok(source.Unfold(dim, 1, i + 1)));
      }
      views.push_back(Ok(source.Reverse(dim)));
      views.push_back(Ok(source.Unsqueeze(dim)));
    }
    views.push_back(source.Squeeze());
    for (const Layout& view : views) {
      for (Index offset : Offsets(view)) {
        EXPECT_GE(offset, reach.lowest) << view.ShapeString();
        EXPECT_LE(offset, reach.highest) << view.ShapeString();
      }
      if (view.num_elements() > 0) {
        EXPECT_GE(view.Reach().lowest, reach.lowest);
        EXPECT_LE(view.Reach().highest, reach.highest);
      }
    }
  }
}

TEST(LayoutTest, EveryBadArgumentGivesAnErrorStatus) {
  const std::vector<Layout> sources = {Layout(), Contiguous({3, 4}), Make({2, 3}, {-3, 2}, 10),
                                       Contiguous({0, 2})};
  const std::vector<int> bad_dims = {-1, -1000, std::numeric_limits<int>::min(),
                                     std::numeric_limits<int>::max()};
  const std::vector<Index> bad_indices = {-1, kMin, kMax};
  for (const Layout& layout : sources) {
    std::vector<int> dims = bad_dims;
    dims.push_back(layout.rank());
    dims.push_back(layout.rank() + 1);
    for (int dim : dims) {
      EXPECT_THAT(layout.Select(dim, 0), Not(IsOk()));
      EXPECT_THAT(layout.Narrow(dim, 0, 0), Not(IsOk()));
      EXPECT_THAT(layout.Transpose(dim, 0), Not(IsOk()));
      EXPECT_THAT(layout.Transpose(0, dim), Not(IsOk()));
      EXPECT_THAT(layout.Reverse(dim), Not(IsOk()));
      EXPECT_THAT(layout.Unfold(dim, 1, 1), Not(IsOk()));
      EXPECT_THAT(layout.Squeeze(dim), Not(IsOk()));
      if (dim != layout.rank()) {
        EXPECT_THAT(layout.Unsqueeze(dim), Not(IsOk()));
      }
    }
    for (int dim = 0; dim < layout.rank(); ++dim) {
      const Index extent = layout.shape()[dim];
      for (Index index : bad_indices) {
        EXPECT_THAT(layout.Select(dim, index), Not(IsOk()));
        EXPECT_THAT(layout.Narrow(dim, index, 1), Not(IsOk()));
        EXPECT_THAT(layout.Narrow(dim, 0, index), Not(IsOk()));
        EXPECT_THAT(layout.Unfold(dim, index, 1), Not(IsOk()));
        EXPECT_THAT(layout.Unfold(dim, 1, index == kMax ? 0 : index), Not(IsOk()));
      }
      EXPECT_THAT(layout.Select(dim, extent), Not(IsOk()));
      EXPECT_THAT(layout.Narrow(dim, extent, 1), Not(IsOk()));
      EXPECT_THAT(layout.Unfold(dim, extent + 1, 1), Not(IsOk()));
    }
    EXPECT_THAT(layout.Reshape({-1, -1}), Not(IsOk()));
    EXPECT_THAT(layout.Reshape({layout.num_elements() + 1}), Not(IsOk()));
    EXPECT_THAT(layout.Expand({kMin}), Not(IsOk()));
    EXPECT_THAT(layout.Permute({0, 0, 0, 0, 0, 0, 0}), Not(IsOk()));
    std::vector<Index> too_long(layout.rank() + 1, 0);
    EXPECT_THAT(layout.OffsetOf(too_long), Not(IsOk()));
  }
}

// Layouts made by Create with strides near the 64-bit limits: Create accepts
// them, so every later operation must either give an exact layout or fail,
// never overflow.

TEST(LayoutTest, UnsqueezeOfAHugeStrideDoesNotOverflow) {
  const Layout layout = Make({2}, {Index{1} << 62}, 0);
  const absl::StatusOr<Layout> unsqueezed = layout.Unsqueeze(0);
  if (unsqueezed.ok()) {
    EXPECT_THAT(unsqueezed->shape(), ElementsAre(1, 2));
    EXPECT_THAT(Offsets(*unsqueezed), ElementsAre(0, Index{1} << 62));
  }
}

TEST(LayoutTest, ReshapeAddingAUnitDimensionToAHugeStrideDoesNotOverflow) {
  const Index huge = Index{1} << 62;
  const Layout column = Make({2}, {huge}, 0);
  const absl::StatusOr<Layout> lead = column.Reshape({1, 2});
  ASSERT_THAT(lead, IsOk());  // only adds a unit dimension
  EXPECT_THAT(Offsets(*lead), ElementsAre(0, huge));
}

TEST(LayoutTest, ReshapeMergingAHugeStrideDoesNotOverflow) {
  const Index huge = Index{1} << 62;
  const Layout matrix = Make({2, 2}, {1, huge}, 0);  // 0, huge, 1, huge + 1
  EXPECT_THAT(matrix.Reshape({4}), StatusIs(kInvalidArgument));
}

TEST(LayoutTest, MayOverlapItselfOfFarApartStridesDoesNotOverflow) {
  // Offsets 0, 2^62, -(2^62 + 1), -1: distinct, and not interleaved, but the
  // two spans together exceed 2^63.
  const Index huge = Index{1} << 62;
  const Layout layout = Make({2, 2}, {huge, -(huge + 1)}, 0);
  EXPECT_FALSE(layout.MayOverlapItself());
}

TEST(LayoutTest, CreateRejectsTheMostNegativeStrideSoReverseCannotWrap) {
  // Reversing would need stride +2^63, which does not exist: negating -2^63
  // would wrap back to -2^63 and Reach() would claim [0, -2^63].
  EXPECT_THAT(Layout::Create({2}, {kMin}, 0), StatusIs(absl::StatusCode::kOutOfRange));
  EXPECT_THAT(Layout::Create({2}, {kMin + 1}, -(kMin + 1))->Reverse(0), IsOk());
}

}  // namespace
}  // namespace tensor
