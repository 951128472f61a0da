// PNG bytes for the image tests, written with libpng's simplified API.
#ifndef TESTS_ENGINE_PLUGIN_PNG_TEST_SUPPORT_H_
#define TESTS_ENGINE_PLUGIN_PNG_TEST_SUPPORT_H_

#include <png.h>

#include <cstdint>
#include <string>
#include <vector>

namespace engine_plugin::testing {

// A PNG of `rows` x `columns` pixels of `channels` (1 to 4) 8-bit values,
// or 16-bit ones (two bytes each, native order) where `sixteen_bit`.
inline std::string EncodePng(int rows, int columns, int channels,
                             const std::vector<std::uint8_t>& pixels, bool sixteen_bit = false) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = columns;
  png.height = rows;
  png.format = (channels >= 3 ? PNG_FORMAT_FLAG_COLOR : 0) |
               (channels % 2 == 0 ? PNG_FORMAT_FLAG_ALPHA : 0) |
               (sixteen_bit ? PNG_FORMAT_FLAG_LINEAR : 0);
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&png, nullptr, &size, 0, pixels.data(), 0, nullptr)) return {};
  std::string bytes(size, '\0');
  if (!png_image_write_to_memory(&png, bytes.data(), &size, 0, pixels.data(), 0, nullptr)) {
    return {};
  }
  bytes.resize(size);
  return bytes;
}

// CRC-32 as PNG chunks carry it.
inline std::uint32_t Crc32(const std::string& bytes) {
  std::uint32_t crc = 0xffffffffu;
  for (unsigned char byte : bytes) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// `png` with its header claiming `rows` x `columns` (its CRC fixed), so a
// decoder that trusted it would allocate that much.
inline std::string WithClaimedSize(std::string png, std::uint32_t rows, std::uint32_t columns) {
  auto put = [&](std::size_t at, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) png[at + i] = static_cast<char>(value >> (24 - 8 * i));
  };
  put(16, columns);  // IHDR's data starts at byte 16: width, then height
  put(20, rows);
  put(29, Crc32(png.substr(12, 17)));  // over the type and the 13 data bytes
  return png;
}

}  // namespace engine_plugin::testing

#endif  // TESTS_ENGINE_PLUGIN_PNG_TEST_SUPPORT_H_
