// WriteGif: frames, loop, delay and palette read back with giflib's own
// decoder; every error names the path and leaves no file behind.
#include "hosts/gif_writer.h"

#include <gif_lib.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hosts {
namespace {

using ::testing::HasSubstr;

std::string TempPath(const std::string& name) {
  const char* directory = std::getenv("TEST_TMPDIR");
  return std::string(directory ? directory : "/tmp") + "/" + name;
}

std::vector<std::uint8_t> Solid(int width, int height, std::uint8_t r, std::uint8_t g,
                                std::uint8_t b) {
  std::vector<std::uint8_t> rgb;
  for (int i = 0; i < width * height; ++i) rgb.insert(rgb.end(), {r, g, b});
  return rgb;
}

bool Exists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

// The RGB of pixel (x, y) of image `index` of a slurped GIF.
GifColorType PixelColour(const GifFileType* gif, int index, int x, int y) {
  const SavedImage& image = gif->SavedImages[index];
  const ColorMapObject* map = image.ImageDesc.ColorMap ? image.ImageDesc.ColorMap : gif->SColorMap;
  return map->Colors[image.RasterBits[y * image.ImageDesc.Width + x]];
}

TEST(GifWriterTest, WritesFramesThatLoopWithTheirDelay) {
  const std::string path = TempPath("three.gif");
  std::vector<std::vector<std::uint8_t>> frames = {
      Solid(5, 3, 255, 0, 0), Solid(5, 3, 0, 255, 0), Solid(5, 3, 0, 0, 255)};
  // A gradient row in the last frame: every value maps to its nearest level.
  frames[2][0] = 120;  // pixel (0, 0): red 120 -> level 2 of 0..5, 102
  ASSERT_TRUE(WriteGif(path, frames, 5, 3, 10).ok());

  int error = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
  ASSERT_NE(gif, nullptr) << GifErrorString(error);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK) << GifErrorString(gif->Error);
  EXPECT_EQ(gif->SWidth, 5);
  EXPECT_EQ(gif->SHeight, 3);
  ASSERT_EQ(gif->ImageCount, 3);
  for (int i = 0; i < 3; ++i) {
    GraphicsControlBlock control;
    ASSERT_EQ(DGifSavedExtensionToGCB(gif, i, &control), GIF_OK);
    EXPECT_EQ(control.DelayTime, 10);
  }
  const GifColorType red = PixelColour(gif, 0, 4, 2);
  EXPECT_EQ(red.Red, 255);
  EXPECT_EQ(red.Green, 0);
  const GifColorType green = PixelColour(gif, 1, 0, 0);
  EXPECT_EQ(green.Green, 255);
  EXPECT_EQ(green.Blue, 0);
  const GifColorType mixed = PixelColour(gif, 2, 0, 0);
  EXPECT_EQ(mixed.Red, 102);
  EXPECT_EQ(mixed.Blue, 255);
  // The Netscape loop extension, before the first image (giflib files it
  // with that image's extensions): loop for ever.
  bool loops = false;
  const SavedImage& first = gif->SavedImages[0];
  for (int i = 0; i + 1 < first.ExtensionBlockCount; ++i) {
    const ExtensionBlock& block = first.ExtensionBlocks[i];
    if (block.Function == APPLICATION_EXT_FUNC_CODE && block.ByteCount == 11 &&
        std::string(reinterpret_cast<const char*>(block.Bytes), 11) == "NETSCAPE2.0") {
      const ExtensionBlock& data = first.ExtensionBlocks[i + 1];
      loops = data.ByteCount == 3 && data.Bytes[0] == 1 && data.Bytes[1] == 0 &&
              data.Bytes[2] == 0;
    }
  }
  EXPECT_TRUE(loops);
  DGifCloseFile(gif, &error);

  struct stat info;
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_TRUE(info.st_mode & S_IRGRP) << "not 0600 as EGifOpenFileName would make it";
}

TEST(GifWriterTest, BadArgumentsAreErrorsThatNameThePath) {
  const std::string path = TempPath("bad.gif");
  const std::vector<std::vector<std::uint8_t>> one = {Solid(2, 2, 1, 2, 3)};
  EXPECT_THAT(WriteGif(path, {}, 2, 2, 10).message(), HasSubstr("no frames"));
  EXPECT_THAT(WriteGif(path, one, 3, 2, 10).message(), HasSubstr("frame 0 has 12 bytes, not 18"));
  EXPECT_THAT(WriteGif(path, one, 0, 2, 10).message(), HasSubstr("bad size 0x2"));
  EXPECT_THAT(WriteGif(path, one, 70000, 1, 10).message(), HasSubstr("bad size"));
  EXPECT_THAT(WriteGif(path, one, 2, 2, 0).message(), HasSubstr("outside 1..65535"));
  EXPECT_FALSE(Exists(path));
  const absl::Status unwritable = WriteGif(TempPath("no/such/dir.gif"), one, 2, 2, 10);
  EXPECT_THAT(unwritable.message(), HasSubstr("no/such/dir.gif: cannot open"));
}

}  // namespace
}  // namespace hosts
