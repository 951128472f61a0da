// DeepMind Lab's screen overlays on the maze's frames.
//
// Each rendered frame, the level's filledRectangles{width = 640, height =
// 480} may return a list of rectangles {x =, y =, width =, height =, rgba =
// {r, g, b, a}} in that virtual screen (Quake III's 640 x 480, whatever
// the frame's size; x right, y down from the top-left corner), colours in
// [0, 1]. Each is drawn over the frame in order, blended by its alpha, as
// DeepMind Lab draws them (rooms_keys_doors_puzzle shows the key the
// player carries so). At most kMaxRectangles a frame, covering at most
// kMaxCoverage frames' worth of pixels in all (drawing is work that no Lua
// instruction counts, so it is bounded by the frame's size, as rendering
// is); a missing or non-finite field is an error naming the rectangle.
#ifndef ENGINES_MAZE_SCREEN_OVERLAY_H_
#define ENGINES_MAZE_SCREEN_OVERLAY_H_

#include "absl/status/status.h"
#include "engine_plugin/host.h"
#include "engines/maze/raycaster.h"

namespace maze {

inline constexpr int kMaxRectangles = 1024;
inline constexpr int kMaxCoverage = 16;

// Calls the level's filledRectangles, if it has one, and draws what it
// returns onto frame.rgb.
absl::Status DrawFilledRectangles(engine_plugin::Level& level, const Frame& frame);

}  // namespace maze

#endif  // ENGINES_MAZE_SCREEN_OVERLAY_H_
