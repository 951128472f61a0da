// Drawing helpers the maze's two views share (raycaster.cc, top_down.cc):
// internal to the raycaster target.
#ifndef HOSTS_MAZE_RASTER_H_
#define HOSTS_MAZE_RASTER_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "hosts/maze/frame.h"
#include "hosts/maze/surfaces.h"
#include "hosts/maze/text_map.h"

namespace hosts::maze::raster {

// The surface (surfaces.h) of a wall cell: a closed door has its own.
inline int WallSurface(const TextMap& map, int row, int col) {
  return Surfaces::OfWall(map.IsDoor(row, col) ? Surfaces::kDoorLook : map.Variation(row, col));
}

// `v` clamped to [lo, hi], with NaN taken as lo: for values about to become
// ints, where a NaN or an overflow would be undefined behaviour. (Not
// std::fmin / fmax: those are library calls, and this runs per column.)
inline double ClampForInt(double v, double lo, double hi) {
  if (!(v >= lo)) return lo;
  return v > hi ? hi : v;
}

inline double Radians(double degrees) { return degrees * (std::numbers::pi / 180.0); }

// Calls visit(x, y) for every pixel whose centre lies inside the disc at
// (cx, cy) of radius r (pixels), within columns [x_begin, x_end) and rows
// [0, height).
template <typename Visit>
void ForEachDiscPixel(double cx, double cy, double r, int x_begin, int x_end, int height,
                      Visit visit) {
  const int y_first = static_cast<int>(ClampForInt(std::ceil(cy - r - 0.5), 0, height));
  const int y_last = static_cast<int>(ClampForInt(std::floor(cy + r - 0.5), -1, height - 1));
  for (int y = y_first; y <= y_last; ++y) {
    const double dy = y + 0.5 - cy;
    const double half = std::sqrt(std::max(0.0, r * r - dy * dy));
    const int x_first = static_cast<int>(ClampForInt(std::ceil(cx - half - 0.5), x_begin, x_end));
    const int x_last =
        static_cast<int>(ClampForInt(std::floor(cx + half - 0.5), x_begin - 1, x_end - 1));
    for (int x = x_first; x <= x_last; ++x) visit(x, y);
  }
}

inline void Put(const Frame& frame, int x, int y, Rgb colour) {
  std::uint8_t* p = frame.rgb + (static_cast<std::size_t>(y) * frame.width + x) * 3;
  p[0] = colour.r;
  p[1] = colour.g;
  p[2] = colour.b;
}

inline bool Drawable(const Frame& frame) {
  return frame.rgb != nullptr && frame.width > 0 && frame.height > 0;
}


}  // namespace hosts::maze::raster

#endif  // HOSTS_MAZE_RASTER_H_
