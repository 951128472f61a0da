#include "hosts/contact_sheet.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace hosts {
namespace {

constexpr std::uint8_t kBackground[3] = {24, 24, 28};

bool Consistent(const RgbImage& image) {
  return image.width >= 0 && image.height >= 0 &&
         image.pixels.size() == static_cast<std::size_t>(image.width) * image.height * 3;
}

void Blit(const RgbImage& tile, int left, int top, RgbImage& sheet) {
  const std::size_t row_bytes = static_cast<std::size_t>(tile.width) * 3;
  for (int y = 0; y < tile.height; ++y) {
    std::memcpy(&sheet.pixels[(static_cast<std::size_t>(top + y) * sheet.width + left) * 3],
                &tile.pixels[y * row_bytes], row_bytes);
  }
}

}  // namespace

absl::StatusOr<RgbImage> ComposeContactSheet(absl::Span<const RgbImage> frames, int columns,
                                             const RgbImage& side) {
  if (frames.empty()) return absl::InvalidArgumentError("contact sheet: no frames");
  if (columns < 1) {
    return absl::InvalidArgumentError(absl::StrCat("contact sheet: columns ", columns, " < 1"));
  }
  const int width = frames[0].width;
  const int height = frames[0].height;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (!Consistent(frames[i]) || frames[i].width != width || frames[i].height != height) {
      return absl::InvalidArgumentError(absl::StrCat(
          "contact sheet: frame ", i, " is ", frames[i].width, "x", frames[i].height,
          " with ", frames[i].pixels.size(), " bytes; frame 0 is ", width, "x", height));
    }
  }
  if (!Consistent(side)) {
    return absl::InvalidArgumentError("contact sheet: the side image's pixels do not match its size");
  }
  const int count = static_cast<int>(frames.size());
  columns = std::min(columns, count);
  const int rows = (count + columns - 1) / columns;
  const int grid_width = columns * (width + kSheetGap) + kSheetGap;
  const int grid_height = rows * (height + kSheetGap) + kSheetGap;
  const bool has_side = side.width > 0 && side.height > 0;
  RgbImage sheet;
  sheet.width = grid_width + (has_side ? side.width + kSheetGap : 0);
  sheet.height = std::max(grid_height, has_side ? side.height + 2 * kSheetGap : 0);
  sheet.pixels.resize(static_cast<std::size_t>(sheet.width) * sheet.height * 3);
  for (std::size_t i = 0; i < sheet.pixels.size(); ++i) sheet.pixels[i] = kBackground[i % 3];
  for (int i = 0; i < count; ++i) {
    Blit(frames[i], kSheetGap + (i % columns) * (width + kSheetGap),
         kSheetGap + (i / columns) * (height + kSheetGap), sheet);
  }
  if (has_side) Blit(side, grid_width, kSheetGap, sheet);
  return sheet;
}

}  // namespace hosts
