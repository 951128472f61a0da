// The image operations behind dmlab.system.image (engine_plugin/image.h):
// PNG decoding, scaling, hue and masked patterns, with their bad input.
#include "engine_plugin/image.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/allocator.h"
#include "tensor/tensor.h"
#include "tensor/work_meter.h"
#include "tests/engine_plugin/png_test_support.h"

namespace engine_plugin {
namespace {

using tensor::Index;
using tensor::Tensor;
using ::testing::ElementsAreArray;
using testing::EncodePng;
using ::testing::HasSubstr;
using testing::WithClaimedSize;

// The CPU allocator, refusing blocks over `limit` bytes as a level's
// tensor budget would.
class SmallBudget final : public tensor::Allocator {
 public:
  explicit SmallBudget(std::size_t limit) : limit_(limit) {}
  tensor::Device device() const override { return tensor::Device::Cpu(); }
  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    if (bytes > limit_) return absl::ResourceExhaustedError("over the test's budget");
    return tensor::CpuAllocator().Allocate(bytes, zeroed);
  }
  void Deallocate(void* data, std::size_t bytes) override {
    tensor::CpuAllocator().Deallocate(data, bytes);
  }

 private:
  std::size_t limit_;
};

tensor::Allocator& Cpu() { return tensor::CpuAllocator(); }

Tensor Image(Index rows, Index columns, Index channels, const std::vector<std::uint8_t>& pixels) {
  absl::StatusOr<Tensor> t =
      Tensor::Uninitialized(tensor::DType::kUInt8, {rows, columns, channels});
  EXPECT_TRUE(t.ok());
  std::memcpy(*t->data(), pixels.data(), pixels.size());
  return *t;
}

std::vector<std::uint8_t> Pixels(const Tensor& image) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(*image.data());
  return {data, data + image.num_elements()};
}

TEST(DecodePngTest, KeepsEachFormatsChannels) {
  for (int channels = 1; channels <= 4; ++channels) {
    SCOPED_TRACE(channels);
    std::vector<std::uint8_t> pixels(2 * 3 * channels);
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<std::uint8_t>(i * 11);
    absl::StatusOr<Tensor> image = DecodePng(EncodePng(2, 3, channels, pixels), Cpu());
    ASSERT_TRUE(image.ok()) << image.status();
    EXPECT_THAT(image->shape(), ElementsAreArray({Index{2}, Index{3}, Index{channels}}));
    EXPECT_EQ(Pixels(*image), pixels);
  }
}

TEST(DecodePngTest, RefusesWhatItCannotRead) {
  const std::string png = EncodePng(2, 2, 3, std::vector<std::uint8_t>(12, 7));
  EXPECT_THAT(std::string(DecodePng("not a png", Cpu()).status().message()),
              HasSubstr("not a PNG"));
  EXPECT_FALSE(DecodePng(png.substr(0, png.size() / 2), Cpu()).ok());  // truncated
  std::string corrupt = png;
  corrupt[corrupt.size() - 20] ^= 0x5a;  // inside the compressed pixels or their CRC
  EXPECT_FALSE(DecodePng(corrupt, Cpu()).ok());
  const std::string deep = EncodePng(1, 1, 1, {1, 2}, /*sixteen_bit=*/true);
  EXPECT_THAT(std::string(DecodePng(deep, Cpu()).status().message()), HasSubstr("16-bit"));
}

// A header that claims 40000 x 40000 pixels is charged before a pixel is
// decoded: the budget refuses it, and nothing near 4.8 GB is allocated.
TEST(DecodePngTest, AClaimedSizeIsChargedBeforeDecoding) {
  const std::string bomb =
      WithClaimedSize(EncodePng(1, 1, 3, std::vector<std::uint8_t>(3, 1)), 40000, 40000);
  SmallBudget budget(16 << 20);
  const absl::Status status = DecodePng(bomb, budget).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
}

TEST(ScaleImageTest, GrowsLinearlyOrByNearestAndShrinksByAveraging) {
  const Tensor row = Image(1, 2, 1, {0, 255});
  EXPECT_EQ(Pixels(*ScaleImage(row, 1, 3, ScaleMode::kBilinear, Cpu())),
            (std::vector<std::uint8_t>{0, 127, 255}));
  EXPECT_EQ(Pixels(*ScaleImage(Image(1, 2, 1, {10, 20}), 1, 4, ScaleMode::kNearest, Cpu())),
            (std::vector<std::uint8_t>{10, 10, 20, 20}));
  // Shrinking: 3 -> 2 pixels, the middle one split between both.
  EXPECT_EQ(Pixels(*ScaleImage(Image(1, 3, 1, {0, 30, 60}), 1, 2, ScaleMode::kBilinear, Cpu())),
            (std::vector<std::uint8_t>{10, 50}));
  EXPECT_EQ(Pixels(*ScaleImage(Image(1, 4, 1, {0, 10, 20, 30}), 1, 2, ScaleMode::kNearest, Cpu())),
            (std::vector<std::uint8_t>{5, 25}));
  // A single pixel is repeated; the same size is a copy.
  EXPECT_EQ(Pixels(*ScaleImage(Image(1, 1, 2, {3, 4}), 2, 2, ScaleMode::kBilinear, Cpu())),
            (std::vector<std::uint8_t>{3, 4, 3, 4, 3, 4, 3, 4}));
  const std::vector<std::uint8_t> square = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  EXPECT_EQ(Pixels(*ScaleImage(Image(2, 2, 3, square), 2, 2, ScaleMode::kBilinear, Cpu())), square);
}

TEST(ScaleImageTest, ScalesRowsAndColumnsKeepingTheCorners) {
  const Tensor image = Image(2, 2, 1, {0, 100, 200, 250});
  absl::StatusOr<Tensor> big = ScaleImage(image, 3, 5, ScaleMode::kBilinear, Cpu());
  ASSERT_TRUE(big.ok()) << big.status();
  EXPECT_THAT(big->shape(), ElementsAreArray({Index{3}, Index{5}, Index{1}}));
  const std::vector<std::uint8_t> pixels = Pixels(*big);
  EXPECT_EQ(pixels[0], 0);
  EXPECT_EQ(pixels[4], 100);
  EXPECT_EQ(pixels[10], 200);
  EXPECT_EQ(pixels[14], 250);
  EXPECT_EQ(pixels[7], 137);  // the centre: the mean of the four, 137.5, truncated
  EXPECT_EQ(ScaleImage(image, 0, 5, ScaleMode::kBilinear, Cpu())->num_elements(), 0);
}

TEST(ScaleImageTest, RefusesBadImagesAndSizes) {
  const Tensor image = Image(2, 2, 1, {0, 1, 2, 3});
  EXPECT_THAT(std::string(ScaleImage(image, -1, 2, ScaleMode::kBilinear, Cpu()).status().message()),
              HasSubstr("negative"));
  EXPECT_THAT(
      std::string(
          ScaleImage(*image.Transpose(0, 1), 2, 2, ScaleMode::kBilinear, Cpu()).status().message()),
      HasSubstr("contiguous"));
  const Tensor doubles = *Tensor::Zeros(tensor::DType::kFloat64, {2, 2, 1});
  EXPECT_THAT(
      std::string(ScaleImage(doubles, 2, 2, ScaleMode::kBilinear, Cpu()).status().message()),
      HasSubstr("ByteTensor"));
  const Tensor five = *Tensor::Zeros(tensor::DType::kUInt8, {2, 2, 5});
  EXPECT_THAT(std::string(ScaleImage(five, 2, 2, ScaleMode::kBilinear, Cpu()).status().message()),
              HasSubstr("1 to 4 channels"));
  const Tensor empty = *Tensor::Zeros(tensor::DType::kUInt8, {0, 2, 1});
  EXPECT_THAT(std::string(ScaleImage(empty, 2, 2, ScaleMode::kBilinear, Cpu()).status().message()),
              HasSubstr("empty"));
  SmallBudget budget(1 << 20);
  EXPECT_EQ(ScaleImage(image, 4000, 4000, ScaleMode::kBilinear, budget).status().code(),
            absl::StatusCode::kResourceExhausted);
}

// The work meter sees the pixels: a sandboxed level cannot scale without
// paying for it.
TEST(ScaleImageTest, ChargesItsWorkToTheMeter) {
  class Counting final : public tensor::WorkMeter {
   public:
    absl::Status Spend(std::int64_t units) override {
      spent += units;
      return absl::OkStatus();
    }
    std::int64_t spent = 0;
  } meter;
  tensor::ScopedWorkMeter metered(&meter);
  ASSERT_TRUE(ScaleImage(Image(1, 1, 1, {9}), 100, 100, ScaleMode::kBilinear, Cpu()).ok());
  EXPECT_GE(meter.spent, 100 * 100);
}

TEST(SetHueTest, TurnsRedGreenAndKeepsGreyAndAlpha) {
  const Tensor image = Image(1, 3, 4, {255, 0, 0, 17, 0, 0, 0, 18, 255, 255, 255, 19});
  ASSERT_TRUE(SetHue(image, 120).ok());
  EXPECT_EQ(Pixels(image),
            (std::vector<std::uint8_t>{0, 255, 0, 17, 0, 0, 0, 18, 255, 255, 255, 19}));
  // 480 degrees is 120.
  const Tensor again = Image(1, 1, 3, {255, 0, 0});
  ASSERT_TRUE(SetHue(again, 480).ok());
  EXPECT_EQ(Pixels(again), (std::vector<std::uint8_t>{0, 255, 0}));
  EXPECT_FALSE(SetHue(Image(1, 1, 2, {1, 2}), 10).ok());
  EXPECT_FALSE(SetHue(again, std::nan("")).ok());
}

TEST(SetMaskedPatternTest, BlendsThePatternThroughAlpha) {
  // Opaque pixels take the pattern's colour; a transparent one keeps its
  // own; every alpha becomes 255.
  const Tensor image = Image(1, 3, 4, {9, 9, 9, 255, 9, 9, 9, 255, 40, 50, 60, 0});
  const Tensor pattern = Image(1, 3, 1, {255, 0, 255});
  ASSERT_TRUE(SetMaskedPattern(image, pattern, {200, 100, 0}, {0, 10, 20}).ok());
  EXPECT_EQ(Pixels(image),
            (std::vector<std::uint8_t>{200, 100, 0, 255, 0, 10, 20, 255, 40, 50, 60, 255}));
  EXPECT_THAT(
      std::string(SetMaskedPattern(image, Image(1, 2, 1, {0, 0}), {0, 0, 0}, {0, 0, 0}).message()),
      HasSubstr("rows and columns"));
  EXPECT_THAT(
      std::string(
          SetMaskedPattern(Image(1, 1, 3, {0, 0, 0}), pattern, {0, 0, 0}, {0, 0, 0}).message()),
      HasSubstr("{rows, columns, 4}"));
}

}  // namespace
}  // namespace engine_plugin
