// ContactSheet: many frames of a run laid out in one picture.
//
// run_level --contact_sheet writes one: 16 frames taken evenly across the
// run in a 4 x 4 grid, with the top-down view of the maze and the agent's
// path beside it, so that one PNG shows what a run did.
//
// Example:
//   std::vector<RgbImage> frames = ...;  // all the same size
//   RgbImage sheet = ComposeContactSheet(frames, 4, top_down);
//   WritePng("sheet.png", sheet.pixels.data(), sheet.width, sheet.height);
#ifndef HOSTS_CONTACT_SHEET_H_
#define HOSTS_CONTACT_SHEET_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace hosts {

// An RGB image: `height` rows of `width` pixels, 3 bytes each, top row
// first, no padding.
struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;
};

// The pixels between and around the tiles.
inline constexpr int kSheetGap = 2;

// `frames` (all the same size) in rows of `columns`, left to right, then
// `side` (any size; none when empty) to the right of the grid, top-aligned,
// all on a dark background with kSheetGap pixels between and around them.
// Errors: no frames, frames of different sizes, columns < 1, an image whose
// pixels do not match its size.
absl::StatusOr<RgbImage> ComposeContactSheet(absl::Span<const RgbImage> frames, int columns,
                                             const RgbImage& side);

}  // namespace hosts

#endif  // HOSTS_CONTACT_SHEET_H_
