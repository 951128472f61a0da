// The maze's font for DeepMind Lab's screenMessages: one 5 x 7 glyph per
// printable ASCII character, drawn in the top-left of an 8 x 8 cell with a
// column of space on its left (screen_overlay.cc scales the cell to Quake
// III's 16 x 16 big characters). Row 0 is the top; bit 4 (0x10) of a row
// is its leftmost pixel. Characters outside ' '..'~' are drawn as a box.
#ifndef HOSTS_MAZE_GLYPHS_H_
#define HOSTS_MAZE_GLYPHS_H_

#include <array>
#include <cstdint>

namespace hosts::maze {

inline constexpr int kGlyphWidth = 5;
inline constexpr int kGlyphHeight = 7;
using Glyph = std::array<std::uint8_t, kGlyphHeight>;

const Glyph& GlyphOf(unsigned char c);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_GLYPHS_H_
