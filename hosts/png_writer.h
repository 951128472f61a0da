// WritePng: saves an 8-bit RGB image as a PNG file, through libpng.
//
// For tools and tests that want to look at what the engine rendered
// (run_level writes its last frame with it). libpng reports errors by
// longjmp; that happens inside a C-only frame here, so no C++ destructor is
// ever skipped and every failure comes back as a Status.
//
// Example:
//   std::vector<std::uint8_t> rgb(width * height * 3);
//   absl::Status status = WritePng("frame.png", rgb.data(), width, height);
#ifndef HOSTS_PNG_WRITER_H_
#define HOSTS_PNG_WRITER_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace hosts {

// Writes the `height` rows of `width` RGB pixels at `rgb` (row-major, top
// row first, 3 bytes per pixel, no padding) to `path`, replacing any file
// there. Errors (bad arguments, a file that cannot be opened or written)
// name the path; a partly written file is removed.
absl::Status WritePng(const std::string& path, const std::uint8_t* rgb, int width, int height);

}  // namespace hosts

#endif  // HOSTS_PNG_WRITER_H_
