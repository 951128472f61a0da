#include "hosts/png_writer.h"

#include <png.h>
#include <sys/stat.h>

#include <cerrno>
#include <csetjmp>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace hosts {
namespace {

// libpng's message travels back to WritePng through this plain struct:
// the error handler runs inside the setjmp frame, where no C++ object may
// live (longjmp would skip its destructor).
struct PngErrorState {
  char message[256];
  // libpng often says why only in a warning just before a generic error
  // ("Image width exceeds user limit in IHDR", then "Invalid IHDR data").
  char last_warning[256];
};

void OnPngError(png_structp png, png_const_charp message) {
  auto* state = static_cast<PngErrorState*>(png_get_error_ptr(png));
  std::snprintf(state->message, sizeof(state->message), "%s", message);
  png_longjmp(png, 1);
}

// Kept for the error message instead of libpng's default print to stderr.
void OnPngWarning(png_structp png, png_const_charp message) {
  auto* state = static_cast<PngErrorState*>(png_get_error_ptr(png));
  std::snprintf(state->last_warning, sizeof(state->last_warning), "%s", message);
}

// Encodes the image into `file`. Returns false with state->message set on
// failure. Only C types live in this frame: it is the one that setjmp
// guards, and libpng longjmps back into it on any error.
bool EncodePng(std::FILE* file, const std::uint8_t* rgb, int width, int height,
               PngErrorState* state) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, state, OnPngError, OnPngWarning);
  if (png == nullptr) {
    std::snprintf(state->message, sizeof(state->message), "out of memory");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    std::snprintf(state->message, sizeof(state->message), "out of memory");
    return false;
  }
  // `png` and `info` are not modified after setjmp, so they keep their
  // values after a longjmp without being volatile.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  // Row by row, so no array of row pointers has to be allocated (and freed
  // on the longjmp path).
  const std::size_t row_bytes = static_cast<std::size_t>(width) * 3;
  for (int y = 0; y < height; ++y) {
    png_write_row(png, rgb + static_cast<std::size_t>(y) * row_bytes);
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

absl::Status WritePng(const std::string& path, const std::uint8_t* rgb, int width, int height) {
  if (rgb == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("WritePng '", path, "': null pixel data"));
  }
  // libpng's own limit (PNG_USER_WIDTH_MAX/HEIGHT_MAX) is checked in
  // png_set_IHDR; this catches what it would take as a huge unsigned size.
  if (width <= 0 || height <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("WritePng '", path, "': image size ", width, "x", height, " is not positive"));
  }
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    const int error = errno;
    return absl::ErrnoToStatus(error, absl::StrCat("WritePng cannot open '", path, "'"));
  }
  // Only a regular file is removed after a failure: the path may name a
  // device or a pipe, which must survive a failed write.
  struct stat file_stat;
  const bool regular = fstat(fileno(file), &file_stat) == 0 && S_ISREG(file_stat.st_mode);
  PngErrorState state = {};
  const bool encoded = EncodePng(file, rgb, width, height, &state);
  // fclose flushes: a full disk may only show up here.
  const bool closed = std::fclose(file) == 0;
  const int close_error = errno;
  if (encoded && closed) return absl::OkStatus();
  if (regular) std::remove(path.c_str());
  if (!encoded) {
    const bool warned = state.last_warning[0] != '\0';
    return absl::InternalError(absl::StrCat("WritePng '", path, "': ", state.message,
                                            warned ? " (" : "", state.last_warning,
                                            warned ? ")" : ""));
  }
  return absl::ErrnoToStatus(close_error, absl::StrCat("WritePng cannot write '", path, "'"));
}

}  // namespace hosts
