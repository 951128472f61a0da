// WriteGif: saves RGB frames as an animated GIF that loops, through giflib.
//
// For looking at a whole run (run_level --gif): libpng has no animation
// API. GIF holds 256 colours a frame, so each pixel takes the nearest
// colour of a fixed 6 x 7 x 6 palette (levels of red, green, blue; green,
// which the eye resolves best, gets the seventh): the same palette for
// every frame, so nothing flickers between frames and no frame needs a
// palette of its own.
//
// Example:
//   std::vector<std::vector<std::uint8_t>> frames = ...;  // each w * h * 3
//   absl::Status status = WriteGif("run.gif", frames, width, height, 10);
#ifndef HOSTS_GIF_WRITER_H_
#define HOSTS_GIF_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace hosts {

// Writes `frames` (each `height` rows of `width` RGB pixels, row-major, top
// row first, no padding) to `path` as a GIF89a that loops for ever, showing
// each frame for `delay_centiseconds` (1..65535). Replaces any file there.
// Errors (no frames, a frame of the wrong size, bad sizes, a file that
// cannot be written) name the path; a partly written file is removed.
absl::Status WriteGif(const std::string& path, absl::Span<const std::vector<std::uint8_t>> frames,
                      int width, int height, int delay_centiseconds);

}  // namespace hosts

#endif  // HOSTS_GIF_WRITER_H_
