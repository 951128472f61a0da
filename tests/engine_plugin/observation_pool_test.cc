#include "engine_plugin/observation_pool.h"

#include <vector>

#include "gtest/gtest.h"

namespace engine_plugin {
namespace {

using tensor::DType;

std::byte* DataOf(const tensor::Tensor& t) { return *t.data(); }

TEST(ObservationPoolTest, AcquireGivesAContiguousOwnedTensorOfTheShape) {
  ObservationPool pool;
  absl::StatusOr<tensor::Tensor> frame = pool.Acquire(DType::kUInt8, {4, 5, 3});
  ASSERT_TRUE(frame.ok()) << frame.status();
  EXPECT_EQ(frame->dtype(), DType::kUInt8);
  EXPECT_EQ(frame->layout().shape(), (tensor::Shape{4, 5, 3}));
  EXPECT_TRUE(frame->layout().IsContiguous());
  EXPECT_TRUE(frame->owns_storage());
}

TEST(ObservationPoolTest, ABufferNobodyHoldsIsReused) {
  ObservationPool pool;
  std::byte* first = DataOf(*pool.Acquire(DType::kUInt8, {8}));
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(DataOf(*pool.Acquire(DType::kUInt8, {8})), first);
  }
  EXPECT_EQ(pool.allocations(), 1);
}

TEST(ObservationPoolTest, AHeldBufferIsNeverHandedOutAgain) {
  ObservationPool pool;
  std::vector<tensor::Tensor> held;
  for (int i = 0; i < 6; ++i) held.push_back(*pool.Acquire(DType::kFloat64, {2, 2}));
  for (std::size_t i = 0; i < held.size(); ++i) {
    for (std::size_t j = i + 1; j < held.size(); ++j) {
      EXPECT_NE(DataOf(held[i]), DataOf(held[j]));
    }
  }
  // A view shares the storage, so it holds the buffer too.
  tensor::Tensor view = *held[0].Select(0, 1);
  std::byte* viewed = DataOf(held[0]);
  held.clear();
  for (int i = 0; i < 10; ++i) {
    EXPECT_NE(DataOf(*pool.Acquire(DType::kFloat64, {2, 2})), viewed);
  }
}

TEST(ObservationPoolTest, ReleasedBuffersComeBack) {
  ObservationPool pool;
  tensor::Tensor held = *pool.Acquire(DType::kUInt8, {16});
  std::byte* retained = DataOf(held);
  EXPECT_NE(DataOf(*pool.Acquire(DType::kUInt8, {16})), retained);
  held = tensor::Tensor();
  bool came_back = false;
  for (int i = 0; i < 3 && !came_back; ++i) {
    came_back = DataOf(*pool.Acquire(DType::kUInt8, {16})) == retained;
  }
  EXPECT_TRUE(came_back);
}

TEST(ObservationPoolTest, SizesDoNotMix) {
  ObservationPool pool;
  std::byte* small = DataOf(*pool.Acquire(DType::kUInt8, {16}));
  tensor::Tensor large = *pool.Acquire(DType::kUInt8, {32});
  EXPECT_NE(DataOf(large), small);
  EXPECT_EQ(large.layout().num_elements(), 32);
  EXPECT_EQ(pool.allocations(), 2);
}

TEST(ObservationPoolTest, KeepsOnlyAFewFreeBuffers) {
  ObservationPool pool;
  {
    std::vector<tensor::Tensor> burst;
    for (int i = 0; i < 20; ++i) burst.push_back(*pool.Acquire(DType::kUInt8, {64}));
  }
  EXPECT_EQ(pool.allocations(), 20);
  // The next acquire trims the free list; then a burst of more than
  // kMaxFreeBuffers + 1 holders needs new allocations again.
  ASSERT_TRUE(pool.Acquire(DType::kUInt8, {64}).ok());
  std::vector<tensor::Tensor> burst;
  for (int i = 0; i < 10; ++i) burst.push_back(*pool.Acquire(DType::kUInt8, {64}));
  EXPECT_EQ(pool.allocations(), 20 + 10 - (ObservationPool::kMaxFreeBuffers + 1));
}

TEST(ObservationPoolTest, OverflowingShapeIsAnError) {
  ObservationPool pool;
  EXPECT_FALSE(pool.Acquire(DType::kFloat64, {tensor::Index{1} << 40, tensor::Index{1} << 40}).ok());
}

}  // namespace
}  // namespace engine_plugin
