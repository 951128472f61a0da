// DeepMind Lab's screen overlays on the maze's frames: text and rectangles.
//
// Each rendered frame, the level's screenMessages{width = 640, height =
// 480, line_height = 20, max_string_length = 79} may return a list of
// messages {message =, x =, y =, alignment =, shadow =, rgba =}, and its
// filledRectangles{width = 640, height = 480} a list of rectangles {x =,
// y =, width =, height =, rgba = {r, g, b, a}}. Both are placed in Quake
// III's 640 x 480 virtual screen whatever the frame's size (x right, y down
// from the top-left corner), colours in [0, 1], and drawn over the frame in
// order, blended by their alpha: the messages first, then the rectangles,
// as DeepMind Lab draws them (rooms_keys_doors_puzzle shows the key the
// player carries so; the language levels show their instruction).
//
// A message is drawn in Quake III's big characters (16 x 16 units, in the
// maze's own font, glyphs.h) from (x, y + 2), left (alignment 0), right
// (1) or centre (2) aligned on x; `shadow` (default true) draws it first
// in black 2 units down and right; rgba defaults to opaque white; Quake's
// colour codes (^ and a letter or digit: ^1 red, ^2 green, ... ^7 white)
// change the colour of the text that follows. Only `message` is required.
//
// At most 1024 items of each kind a frame, covering at most kMaxCoverage
// frames' worth of pixels each (drawing is work that no Lua instruction
// counts, so it is bounded by the frame's size, as rendering is); a
// message over 79 characters, an unknown alignment, a missing or
// non-finite field is an error naming the item.
#ifndef HOSTS_MAZE_SCREEN_OVERLAY_H_
#define HOSTS_MAZE_SCREEN_OVERLAY_H_

#include "absl/status/status.h"
#include "engine_plugin/host.h"
#include "hosts/maze/raycaster.h"

namespace hosts::maze {

inline constexpr int kMaxRectangles = 1024;
inline constexpr int kMaxCoverage = 16;

// Calls the level's screenMessages and filledRectangles, those it has, and
// draws what they return onto frame.rgb.
absl::Status DrawScreenOverlays(engine_plugin::Level& level, const Frame& frame);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_SCREEN_OVERLAY_H_
