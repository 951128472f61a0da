#include <string>

#include "dlpack/dlpack.h"
#include "gtest/gtest.h"
#include "png.h"

namespace {

TEST(PngWiringTest, LinkedLibraryMatchesTheHeaders) {
  EXPECT_EQ(png_access_version_number(), static_cast<png_uint_32>(PNG_LIBPNG_VER));
  EXPECT_EQ(std::string(png_get_libpng_ver(nullptr)), PNG_LIBPNG_VER_STRING);
}

TEST(DlpackWiringTest, HeaderDescribesTensors) {
  DLDataType float32{kDLFloat, 32, 1};
  EXPECT_EQ(float32.bits, 32);
  EXPECT_GE(DLPACK_VERSION, 60);
}

}  // namespace
