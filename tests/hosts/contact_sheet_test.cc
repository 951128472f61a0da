// ComposeContactSheet: where each tile lands, the side image, and errors.
#include "hosts/contact_sheet.h"

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hosts {
namespace {

using ::testing::HasSubstr;

RgbImage Solid(int width, int height, std::uint8_t value) {
  return {width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 3, value)};
}

std::uint8_t At(const RgbImage& image, int x, int y) {
  return image.pixels[(static_cast<std::size_t>(y) * image.width + x) * 3];
}

TEST(ContactSheetTest, TilesGoInRowsWithTheSideImageBesideThem) {
  std::vector<RgbImage> frames;
  for (int i = 0; i < 5; ++i) frames.push_back(Solid(4, 3, static_cast<std::uint8_t>(100 + i)));
  absl::StatusOr<RgbImage> sheet = ComposeContactSheet(frames, 2, Solid(6, 10, 200));
  ASSERT_TRUE(sheet.ok()) << sheet.status();
  // 2 columns, 3 rows of 4 x 3 with gaps of 2: a 14 x 17 grid; the side
  // image 6 wide (+ a gap) and 10 + 4 high.
  EXPECT_EQ(sheet->width, 14 + 6 + 2);
  EXPECT_EQ(sheet->height, 17);
  EXPECT_EQ(sheet->pixels.size(), 22u * 17 * 3);
  EXPECT_EQ(At(*sheet, 2, 2), 100);    // frame 0, top left
  EXPECT_EQ(At(*sheet, 8, 2), 101);    // frame 1, right of it
  EXPECT_EQ(At(*sheet, 2, 7), 102);    // frame 2, next row
  EXPECT_EQ(At(*sheet, 5, 14), 104);   // frame 4, last row
  EXPECT_EQ(At(*sheet, 8, 12), 24);    // no frame 5: background
  EXPECT_EQ(At(*sheet, 0, 0), 24);     // the gap around
  EXPECT_EQ(At(*sheet, 14, 2), 200);   // the side image, top-aligned
  EXPECT_EQ(At(*sheet, 19, 11), 200);
  EXPECT_EQ(At(*sheet, 19, 12), 24);
}

TEST(ContactSheetTest, NoSideImageAndFewerFramesThanColumns) {
  absl::StatusOr<RgbImage> sheet = ComposeContactSheet({Solid(3, 3, 7)}, 4, RgbImage{});
  ASSERT_TRUE(sheet.ok()) << sheet.status();
  EXPECT_EQ(sheet->width, 7);
  EXPECT_EQ(sheet->height, 7);
}

TEST(ContactSheetTest, InconsistentInputsAreErrors) {
  EXPECT_THAT(ComposeContactSheet({}, 4, {}).status().message(), HasSubstr("no frames"));
  EXPECT_THAT(ComposeContactSheet({Solid(2, 2, 0)}, 0, {}).status().message(),
              HasSubstr("columns 0"));
  EXPECT_THAT(ComposeContactSheet({Solid(2, 2, 0), Solid(3, 2, 0)}, 2, {}).status().message(),
              HasSubstr("frame 1 is 3x2"));
  RgbImage short_pixels = Solid(2, 2, 0);
  short_pixels.pixels.pop_back();
  EXPECT_THAT(ComposeContactSheet({short_pixels}, 1, {}).status().message(),
              HasSubstr("frame 0"));
  EXPECT_THAT(ComposeContactSheet({Solid(2, 2, 0)}, 1, short_pixels).status().message(),
              HasSubstr("side image"));
}

}  // namespace
}  // namespace hosts
