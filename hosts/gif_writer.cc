#include "hosts/gif_writer.h"

#include <fcntl.h>
#include <gif_lib.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"

namespace hosts {
namespace {

constexpr int kReds = 6;
constexpr int kGreens = 7;
constexpr int kBlues = 6;
constexpr int kColours = 256;  // the table's size; 6 * 7 * 6 = 252 used

// The palette level (0..levels - 1) nearest to `value`.
int Level(std::uint8_t value, int levels) { return (value * (levels - 1) + 127) / 255; }

std::unique_ptr<ColorMapObject, void (*)(ColorMapObject*)> MakePalette() {
  std::unique_ptr<ColorMapObject, void (*)(ColorMapObject*)> palette(
      GifMakeMapObject(kColours, nullptr), GifFreeMapObject);
  if (palette == nullptr) return palette;
  for (int i = 0; i < kColours; ++i) palette->Colors[i] = {0, 0, 0};
  for (int r = 0; r < kReds; ++r) {
    for (int g = 0; g < kGreens; ++g) {
      for (int b = 0; b < kBlues; ++b) {
        palette->Colors[(r * kGreens + g) * kBlues + b] = {
            static_cast<GifByteType>(r * 255 / (kReds - 1)),
            static_cast<GifByteType>(g * 255 / (kGreens - 1)),
            static_cast<GifByteType>(b * 255 / (kBlues - 1))};
      }
    }
  }
  return palette;
}

// Netscape's application extension: loop count 0, for ever.
bool PutLoopForever(GifFileType* gif) {
  static const GifByteType kApplication[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E',
                                             '2', '.', '0'};
  static const GifByteType kLoop[] = {1, 0, 0};
  return EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(gif, sizeof(kApplication), kApplication) == GIF_OK &&
         EGifPutExtensionBlock(gif, sizeof(kLoop), kLoop) == GIF_OK &&
         EGifPutExtensionTrailer(gif) == GIF_OK;
}

bool PutFrame(GifFileType* gif, const std::uint8_t* rgb, int width, int height,
              int delay_centiseconds, std::vector<GifPixelType>& line) {
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;
  control.DelayTime = delay_centiseconds;
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const std::size_t length = EGifGCBToExtension(&control, extension);
  if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) !=
          GIF_OK ||
      EGifPutImageDesc(gif, 0, 0, width, height, false, nullptr) != GIF_OK) {
    return false;
  }
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* pixel = rgb + static_cast<std::size_t>(y) * width * 3;
    for (int x = 0; x < width; ++x, pixel += 3) {
      line[x] = static_cast<GifPixelType>(
          (Level(pixel[0], kReds) * kGreens + Level(pixel[1], kGreens)) * kBlues +
          Level(pixel[2], kBlues));
    }
    if (EGifPutLine(gif, line.data(), width) != GIF_OK) return false;
  }
  return true;
}

}  // namespace

absl::Status WriteGif(const std::string& path, absl::Span<const std::vector<std::uint8_t>> frames,
                      int width, int height, int delay_centiseconds) {
  // GIF stores sizes in 16 bits.
  if (width < 1 || height < 1 || width > 65535 || height > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("WriteGif ", path, ": bad size ", width, "x", height));
  }
  if (frames.empty()) return absl::InvalidArgumentError(absl::StrCat("WriteGif ", path, ": no frames"));
  if (delay_centiseconds < 1 || delay_centiseconds > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "WriteGif ", path, ": delay ", delay_centiseconds, " cs is outside 1..65535"));
  }
  const std::size_t frame_bytes = static_cast<std::size_t>(width) * height * 3;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].size() != frame_bytes) {
      return absl::InvalidArgumentError(absl::StrCat("WriteGif ", path, ": frame ", i, " has ",
                                                     frames[i].size(), " bytes, not ", frame_bytes));
    }
  }
  auto palette = MakePalette();
  if (palette == nullptr) return absl::ResourceExhaustedError("WriteGif: no memory for a palette");
  // Opened here, not by EGifOpenFileName, which makes the file 0600: the
  // umask decides, as for any file a tool writes.
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("WriteGif ", path, ": cannot open: ", std::strerror(errno)));
  }
  int error = 0;
  GifFileType* gif = EGifOpenFileHandle(fd, &error);  // closes fd from here on
  if (gif == nullptr) {
    std::remove(path.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat("WriteGif ", path, ": cannot start: ", GifErrorString(error)));
  }
  EGifSetGifVersion(gif, /*gif89=*/true);
  std::vector<GifPixelType> line(width);
  bool written = EGifPutScreenDesc(gif, width, height, 8, 0, palette.get()) == GIF_OK &&
                 PutLoopForever(gif);
  for (std::size_t i = 0; written && i < frames.size(); ++i) {
    written = PutFrame(gif, frames[i].data(), width, height, delay_centiseconds, line);
  }
  // The error of a failed put is the file's; closing frees it either way.
  const int put_error = written ? 0 : gif->Error;
  const bool closed = EGifCloseFile(gif, &error) == GIF_OK;
  if (written && closed) return absl::OkStatus();
  std::remove(path.c_str());
  return absl::UnavailableError(absl::StrCat("WriteGif ", path, ": ",
                                             GifErrorString(written ? error : put_error)));
}

}  // namespace hosts
