#include "hosts/png_writer.h"

#include <png.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hosts {
namespace {

using ::testing::HasSubstr;

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

// Decodes `path` with libpng's simplified API into 8-bit RGB.
struct DecodedPng {
  bool ok = false;
  std::string error;
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;
};

DecodedPng ReadPng(const std::string& path) {
  DecodedPng decoded;
  png_image image = {};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) {
    decoded.error = image.message;
    return decoded;
  }
  image.format = PNG_FORMAT_RGB;
  decoded.width = static_cast<int>(image.width);
  decoded.height = static_cast<int>(image.height);
  decoded.rgb.resize(PNG_IMAGE_SIZE(image));
  decoded.ok = png_image_finish_read(&image, nullptr, decoded.rgb.data(), 0, nullptr) != 0;
  if (!decoded.ok) decoded.error = image.message;
  png_image_free(&image);
  return decoded;
}

// An image whose every byte differs from its neighbours', so a swapped
// channel, a flipped row or a padded stride all show.
std::vector<std::uint8_t> Pattern(int width, int height) {
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width) * height * 3);
  for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<std::uint8_t>(i * 7 + 3);
  return rgb;
}

TEST(WritePngTest, RoundTripsEveryByteInRowMajorOrder) {
  const int width = 5, height = 3;
  const std::vector<std::uint8_t> rgb = Pattern(width, height);
  const std::string path = TempPath("round_trip.png");
  ASSERT_TRUE(WritePng(path, rgb.data(), width, height).ok());

  const DecodedPng decoded = ReadPng(path);
  ASSERT_TRUE(decoded.ok) << decoded.error;
  EXPECT_EQ(decoded.width, width);
  EXPECT_EQ(decoded.height, height);
  EXPECT_EQ(decoded.rgb, rgb);
}

TEST(WritePngTest, OnePixelImage) {
  const std::vector<std::uint8_t> rgb = {10, 20, 30};
  const std::string path = TempPath("one_pixel.png");
  ASSERT_TRUE(WritePng(path, rgb.data(), 1, 1).ok());
  const DecodedPng decoded = ReadPng(path);
  ASSERT_TRUE(decoded.ok) << decoded.error;
  EXPECT_EQ(decoded.rgb, rgb);
}

TEST(WritePngTest, ReplacesAnExistingFile) {
  const std::string path = TempPath("replaced.png");
  const std::vector<std::uint8_t> big = Pattern(8, 8);
  const std::vector<std::uint8_t> small = Pattern(2, 1);
  ASSERT_TRUE(WritePng(path, big.data(), 8, 8).ok());
  ASSERT_TRUE(WritePng(path, small.data(), 2, 1).ok());
  const DecodedPng decoded = ReadPng(path);
  ASSERT_TRUE(decoded.ok) << decoded.error;
  EXPECT_EQ(decoded.width, 2);
  EXPECT_EQ(decoded.rgb, small);
}

TEST(WritePngTest, UnopenablePathIsAnErrorNamingThePath) {
  const std::vector<std::uint8_t> rgb = Pattern(2, 2);
  const std::string path = TempPath("no_such_dir/frame.png");
  const absl::Status status = WritePng(path, rgb.data(), 2, 2);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(status.message()), HasSubstr(path));
}

TEST(WritePngTest, NonPositiveSizeIsAnErrorAndWritesNothing) {
  const std::vector<std::uint8_t> rgb = Pattern(2, 2);
  const std::string path = TempPath("empty.png");
  for (auto [width, height] : {std::pair{0, 2}, std::pair{2, -1}}) {
    const absl::Status status = WritePng(path, rgb.data(), width, height);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(status.message()), HasSubstr(path));
  }
  EXPECT_EQ(std::fopen(path.c_str(), "rb"), nullptr);
}

TEST(WritePngTest, NullPixelsIsAnError) {
  const absl::Status status = WritePng(TempPath("null.png"), nullptr, 2, 2);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("null"));
}

// A libpng error longjmps out of the encoder; the status carries libpng's
// message and the partly written file is gone.
TEST(WritePngTest, LibpngErrorBecomesAStatusAndRemovesTheFile) {
  const std::vector<std::uint8_t> rgb = Pattern(1, 1);
  const std::string path = TempPath("too_wide.png");
  // Beyond libpng's PNG_USER_WIDTH_MAX; the pixels are never reached.
  const absl::Status status = WritePng(path, rgb.data(), 2000000, 1);
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr(path));
  EXPECT_THAT(std::string(status.message()), HasSubstr("width"));
  EXPECT_EQ(std::fopen(path.c_str(), "rb"), nullptr);
}

// /dev/full accepts the open and fails every write: the error surfaces
// from libpng's write callback or from the final flush. The device itself
// is not a file of ours and must not be removed.
TEST(WritePngTest, WriteFailureIsAnError) {
  std::FILE* probe = std::fopen("/dev/full", "wb");
  ASSERT_NE(probe, nullptr) << "Linux always has /dev/full";
  std::fclose(probe);
  const std::vector<std::uint8_t> rgb = Pattern(64, 64);
  const absl::Status status = WritePng("/dev/full", rgb.data(), 64, 64);
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("/dev/full"));
  std::FILE* still_there = std::fopen("/dev/full", "rb");
  EXPECT_NE(still_there, nullptr);
  if (still_there != nullptr) std::fclose(still_there);
}

}  // namespace
}  // namespace hosts
