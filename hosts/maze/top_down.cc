// The maze's top-down view: RenderTopDown and DrawTopDownPath (raycaster.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "hosts/maze/raster.h"
#include "hosts/maze/raycaster.h"
#include "hosts/maze/sprite_shapes.h"

namespace hosts::maze {
namespace {

using raster::ClampForInt;
using raster::Drawable;
using raster::ForEachDiscPixel;
using raster::Put;
using raster::Radians;
using raster::WallSurface;

// Top down.
constexpr Rgb kLetterbox = {0, 0, 0};
constexpr Rgb kTopDownFloor = {40, 40, 48};
constexpr Rgb kHeadingColour = {80, 220, 255};

// The top-down view's scale and letterbox: the whole map fits the frame,
// the same pixels per cell along both axes.
struct TopDownProjection {
  TopDownProjection(const TextMap& map, const Frame& frame)
      : scale(std::min(static_cast<double>(frame.width) / map.cols(),
                       static_cast<double>(frame.height) / map.rows())),
        left((frame.width - map.cols() * scale) / 2),
        top((frame.height - map.rows() * scale) / 2),
        rows(map.rows()) {}

  // World (x, y) to image (column, row): y grows upwards, rows downwards.
  double ImageX(double x) const { return left + x * scale; }
  double ImageY(double y) const { return top + (rows - y) * scale; }

  double scale;
  double left;
  double top;
  int rows;
};

}  // namespace

void RenderTopDown(const TextMap& map, absl::Span<const Pickup> pickups,
                   absl::Span<const Pose> players, const Frame& frame) {
  if (!Drawable(frame)) return;
  const TopDownProjection projection(map, frame);
  const double scale = projection.scale;
  const double left = projection.left;
  const double top = projection.top;
  const double inverse = 1 / scale;

  const std::size_t row_bytes = static_cast<std::size_t>(frame.width) * 3;
  int previous_row = -2;  // the map row drawn in the image row above; -1 is letterbox
  for (int y = 0; y < frame.height; ++y) {
    const double v = (y + 0.5 - top) * inverse;
    const int row = v >= 0 && v < map.rows() ? static_cast<int>(v) : -1;
    std::uint8_t* rgb = frame.rgb + y * row_bytes;
    // Image rows showing the same map row are the same pixels.
    if (row == previous_row) {
      std::memcpy(rgb, rgb - row_bytes, row_bytes);
      continue;
    }
    previous_row = row;
    // A cell spans several pixels: look it up once per run of them.
    int cached_col = -1;
    Rgb cell_colour = kLetterbox;
    for (int x = 0; x < frame.width; ++x) {
      const double u = (x + 0.5 - left) * inverse;
      const bool inside = row >= 0 && u >= 0 && u < map.cols();
      const int col = inside ? static_cast<int>(u) : -1;
      if (col != cached_col) {
        cached_col = col;
        cell_colour = !inside ? kLetterbox
                      : map.IsWall(row, col)
                          ? Surfaces::BuiltIn().colour(WallSurface(map, row, col))
                          : kTopDownFloor;
      }
      Put(frame, x, y, cell_colour);
    }
  }

  auto image_x = [&](double x) { return projection.ImageX(x); };
  auto image_y = [&](double y) { return projection.ImageY(y); };
  auto fill_disc = [&](double x, double y, double radius, Rgb colour) {
    ForEachDiscPixel(image_x(x), image_y(y), radius, 0, frame.width, frame.height,
                     [&](int px, int py) { Put(frame, px, py, colour); });
  };

  for (const Pickup& pickup : pickups) {
    if (!pickup.active) continue;
    fill_disc(pickup.position.x, pickup.position.y, std::max(0.2 * scale, 1.0),
              ShapeOf(pickup).discs[0].colour);
  }

  for (std::size_t p = 0; p < players.size(); ++p) {
    const Pose& player = players[p];
    const double px = ClampForInt(player.position.x, -1.0, map.cols() + 1.0);
    const double py = ClampForInt(player.position.y, -1.0, map.rows() + 1.0);
    fill_disc(px, py, std::max(World::kPlayerRadius * scale, 1.5),
              PlayerColour(static_cast<int>(p)));
    // The heading: a line of samples half a pixel apart from the centre.
    const double yaw = Radians(std::isfinite(player.yaw) ? player.yaw : 0.0);
    const double length = std::max(0.75 * scale, 4.0);
    const double sx = image_x(px), sy = image_y(py);
    const double cos_yaw = std::cos(yaw), sin_yaw = std::sin(yaw);
    for (int s = 0; s <= static_cast<int>(2 * length); ++s) {
      const double t = 0.5 * s;
      const double hx = std::floor(sx + cos_yaw * t);
      const double hy = std::floor(sy - sin_yaw * t);
      if (hx < 0 || hx >= frame.width || hy < 0 || hy >= frame.height) continue;
      Put(frame, static_cast<int>(hx), static_cast<int>(hy), kHeadingColour);
    }
  }
}

void DrawTopDownPath(const TextMap& map, absl::Span<const WorldPoint> path, const Frame& frame) {
  if (!Drawable(frame) || path.size() < 2) return;
  const TopDownProjection projection(map, frame);
  const double last = static_cast<double>(path.size() - 1);
  for (std::size_t i = 1; i < path.size(); ++i) {
    const WorldPoint& from = path[i - 1];
    const WorldPoint& to = path[i];
    if (!std::isfinite(from.x) || !std::isfinite(from.y) || !std::isfinite(to.x) ||
        !std::isfinite(to.y) || std::hypot(to.x - from.x, to.y - from.y) > 1) {
      continue;  // a respawn, not a walk
    }
    // Blue at the start, yellow at the end.
    const double t = i / last;
    const Rgb colour = {static_cast<std::uint8_t>(40 + 215 * t),
                        static_cast<std::uint8_t>(90 + 165 * t),
                        static_cast<std::uint8_t>(255 - 215 * t)};
    const double x0 = projection.ImageX(from.x), y0 = projection.ImageY(from.y);
    const double x1 = projection.ImageX(to.x), y1 = projection.ImageY(to.y);
    // Samples half a pixel apart along the segment (as for the heading).
    const int samples = 1 + static_cast<int>(2 * std::max(std::abs(x1 - x0), std::abs(y1 - y0)));
    for (int s = 0; s <= samples; ++s) {
      const double u = static_cast<double>(s) / samples;
      const double x = std::floor(x0 + (x1 - x0) * u);
      const double y = std::floor(y0 + (y1 - y0) * u);
      if (x < 0 || x >= frame.width || y < 0 || y >= frame.height) continue;
      Put(frame, static_cast<int>(x), static_cast<int>(y), colour);
    }
  }
}

}  // namespace hosts::maze
