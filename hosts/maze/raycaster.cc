#include "hosts/maze/raycaster.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <optional>
#include <utility>
#include <vector>

#include "hosts/maze/raster.h"
#include "hosts/maze/sprite_shapes.h"

namespace hosts::maze {
namespace {

using raster::ClampForInt;
using raster::Drawable;
using raster::ForEachDiscPixel;
using raster::Put;
using raster::Radians;
using raster::WallSurface;

// Rows are built as packed pixels (r | g << 8 | b << 16), which a store
// writes as r, g, b on a little-endian machine.
static_assert(std::endian::native == std::endian::little);
std::uint32_t Pack(Rgb c) { return c.r | c.g << 8 | c.b << 16; }

// Writes n packed pixels as 3 * n bytes of rgb. Four pixels are twelve
// bytes, two stores: a third of the stores of writing bytes one by one.
void StoreRow(const std::uint32_t* pixels, int n, std::uint8_t* rgb) {
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const std::uint64_t low =
        pixels[i] | std::uint64_t{pixels[i + 1]} << 24 | std::uint64_t{pixels[i + 2]} << 48;
    const std::uint32_t high = pixels[i + 2] >> 16 | pixels[i + 3] << 8;
    std::memcpy(rgb + 3 * i, &low, 8);
    std::memcpy(rgb + 3 * i + 8, &high, 4);
  }
  for (; i < n; ++i) std::memcpy(rgb + 3 * i, &pixels[i], 3);
}

constexpr Rgb kFog = {16, 16, 24};  // what distance fades everything towards

constexpr double kFogDensity = 0.1;    // per cell
constexpr double kXFacingShade = 0.7;  // x-facing walls are darker

// Columns are rendered in chunks of at most this many, so the per-column
// scratch has a fixed size whatever the width.
constexpr int kMaxColumns = 4096;

// Sprites nearer than this (cells, along the view) would fill the screen
// from inside; they are not drawn.
constexpr double kNearClip = 0.05;

// How much of a colour is kept, against the fog, at `distance` and `shade`.
double Keep(double distance, double shade = 1.0) {
  return shade * std::exp(-kFogDensity * distance);
}

// `colour` faded towards the fog, keeping `keep` of it.
Rgb Fade(Rgb colour, double keep) {
  auto mix = [keep](std::uint8_t c, std::uint8_t fog) {
    return static_cast<std::uint8_t>(fog + (c - fog) * keep + 0.5);
  };
  return {mix(colour.r, kFog.r), mix(colour.g, kFog.g), mix(colour.b, kFog.b)};
}

// `colour` faded towards the fog by `distance` and darkened by `shade`.
Rgb Shade(Rgb colour, double distance, double shade = 1.0) {
  return Fade(colour, Keep(distance, shade));
}

// The camera in the terms the renderer works in, with every input made
// finite: a pose from set_pose may hold anything.
struct View {
  double x, y;              // position, clamped to just around the map
  double dir_x, dir_y;      // unit view direction
  double right_x, right_y;  // unit, to the right of dir
  double plane;             // tan(fov / 2): the camera plane's half width
  double focal;             // pixels per cell at distance 1
  double horizon;           // image row of the horizon (a y-shear by pitch)
};

View ViewOf(const TextMap& map, const Camera& camera, int width, int height) {
  View view;
  // A camera outside the map stands in solid wall, where what it sees
  // hardly matters; the clamp keeps the grid walk's cell indices in int.
  view.x = ClampForInt(camera.position.x, -1.0, map.cols() + 1.0);
  view.y = ClampForInt(camera.position.y, -1.0, map.rows() + 1.0);
  const double yaw = Radians(std::isfinite(camera.yaw) ? camera.yaw : 0.0);
  view.dir_x = std::cos(yaw);
  view.dir_y = std::sin(yaw);
  view.right_x = view.dir_y;
  view.right_y = -view.dir_x;
  const double fov =
      std::isnan(camera.horizontal_fov) ? 90.0 : std::clamp(camera.horizontal_fov, 1.0, 179.0);
  view.plane = std::tan(Radians(fov) / 2);
  view.focal = width / 2.0 / view.plane;
  const double pitch = std::isnan(camera.pitch) ? 0.0 : std::clamp(camera.pitch, -90.0, 90.0);
  // Looking straight up or down would put the horizon at infinity; a
  // horizon a screen beyond the edge already shows only floor or ceiling.
  view.horizon =
      ClampForInt(height / 2.0 + std::tan(Radians(pitch)) * view.focal, -height, 2.0 * height);
  return view;
}

// What one column's ray hit.
struct Hit {
  double distance;  // along the view direction
  bool x_facing;    // crossed a vertical grid line (a face looking along x)
  int surface;
};

// x - floor(x), for |x| < 2^62: without SSE4.1's round instruction,
// std::floor is a library call, and this runs per pixel.
double Fraction(double x) {
  const double whole = static_cast<double>(static_cast<std::int64_t>(x));  // towards zero
  const double fraction = x - whole;
  return fraction < 0 ? fraction + 1 : fraction;
}

// Where across the face `hit` the ray meets it, in [0, 1), left to right as
// the camera sees it. The face runs along y (x-facing) or x; its left edge
// is the one the camera's right vector points away from.
double Along(const View& view, const Hit& hit, double ray_x, double ray_y) {
  const double across =
      hit.x_facing ? view.y + hit.distance * ray_y : view.x + hit.distance * ray_x;
  const double fraction = Fraction(across);
  return (hit.x_facing ? ray_x > 0 : ray_y < 0) ? 1 - fraction : fraction;
}

// The surface of the face of wall cell (row, col) that floor cell
// (front_row, front_col) looks at: the wall's own, or where the wall has
// no letter, the floor's (DeepMind Lab's text levels texture a wall face
// by the cell in front of it, and its generated mazes letter rooms' floors
// only).
int FaceSurface(const TextMap& map, int row, int col, int front_row, int front_col) {
  const int own = WallSurface(map, row, col);
  return own != Surfaces::kPlainWall ? own : Surfaces::OfWall(map.Variation(front_row, front_col));
}

// Walks the grid from the camera along `ray` (whose component along the
// view direction is 1, so the ray parameter is the perpendicular distance:
// no fisheye) to the first wall cell.
Hit CastRay(const TextMap& map, const View& view, double ray_x, double ray_y) {
  int col = static_cast<int>(std::floor(view.x));
  int y_index = static_cast<int>(std::floor(view.y));
  // A ray parallel to an axis never crosses that axis's grid lines.
  constexpr double kNever = 1e30;
  const double delta_x = ray_x == 0 ? kNever : std::abs(1 / ray_x);
  const double delta_y = ray_y == 0 ? kNever : std::abs(1 / ray_y);
  const int step_x = ray_x < 0 ? -1 : 1;
  const int step_y = ray_y < 0 ? -1 : 1;
  double side_x = (ray_x < 0 ? view.x - col : col + 1 - view.x) * delta_x;
  double side_y = (ray_y < 0 ? view.y - y_index : y_index + 1 - view.y) * delta_y;
  // Outside the map is wall, so every ray ends within rows + cols steps
  // (plus the clamp's margin); the bound only guards against rounding.
  const int max_steps = map.rows() + map.cols() + 8;
  bool x_facing = true;
  for (int step = 0; step < max_steps; ++step) {
    const int front_row = map.rows() - 1 - y_index, front_col = col;
    if (side_x < side_y) {
      side_x += delta_x;
      col += step_x;
      x_facing = true;
    } else {
      side_y += delta_y;
      y_index += step_y;
      x_facing = false;
    }
    const int row = map.rows() - 1 - y_index;
    if (map.IsWall(row, col)) {
      const double distance = x_facing ? side_x - delta_x : side_y - delta_y;
      return {std::clamp(distance, 1e-4, static_cast<double>(kFarDepth)), x_facing,
              FaceSurface(map, row, col, front_row, front_col)};
    }
  }
  return {kFarDepth, x_facing, Surfaces::kPlainWall};
}

// A pickup or a figure in front of the camera, projected.
struct Sprite {
  double depth;     // along the view direction
  double centre_x;  // image column of its centre
  double pixels;    // pixels per cell at this depth
  int id;
  SpriteShape shape;
};

// Per-column results of the rays of one chunk, and one row of its pixels.
// Thread-local rather than on the stack (80 KiB) so a small thread stack is
// safe, and reused so a frame allocates nothing.
struct ColumnScratch {
  std::array<float, kMaxColumns> depth;
  std::array<int, kMaxColumns> top;               // first wall row
  std::array<int, kMaxColumns> bottom;            // one past the last wall row
  std::array<std::uint32_t, kMaxColumns> colour;  // packed
  std::array<std::uint32_t, kMaxColumns> row;     // packed
  // The wall's texture, null where it is one colour; where a textured wall
  // is, where across it the column is and how much of it the fog keeps.
  std::array<const Texture*, kMaxColumns> texture;
  std::array<float, kMaxColumns> along;
  std::array<float, kMaxColumns> keep;
};

// The ray of image column x: 1 along the view direction, so a distance
// along the ray is one along the view (no fisheye).
std::pair<double, double> RayOf(const View& view, int x, int width) {
  // -1 at the image's left edge, +1 at its right, sampled at the pixel centre.
  const double camera_x = (x + 0.5) * (2.0 / width) - 1;
  return {view.dir_x + view.right_x * view.plane * camera_x,
          view.dir_y + view.right_y * view.plane * camera_x};
}

// Casts the rays of columns [x0, x0 + n) into `scratch`.
void CastColumns(const TextMap& map, const Surfaces& surfaces, const View& view, const Frame& frame,
                 int x0, int n, ColumnScratch& scratch) {
  for (int i = 0; i < n; ++i) {
    const auto [ray_x, ray_y] = RayOf(view, x0 + i, frame.width);
    const Hit hit = CastRay(map, view, ray_x, ray_y);
    const double half = 0.5 * view.focal / hit.distance;  // the eye is half a wall up
    // Pixel rows whose centre lies in [horizon - half, horizon + half).
    scratch.top[i] =
        static_cast<int>(ClampForInt(std::ceil(view.horizon - half - 0.5), 0, frame.height));
    scratch.bottom[i] =
        static_cast<int>(ClampForInt(std::ceil(view.horizon + half - 0.5), 0, frame.height));
    scratch.depth[i] = static_cast<float>(hit.distance);
    const double keep = Keep(hit.distance, hit.x_facing ? kXFacingShade : 1.0);
    scratch.colour[i] = Pack(Fade(surfaces.colour(hit.surface), keep));
    const Texture* texture = surfaces.texture(hit.surface);
    scratch.texture[i] = texture;
    if (texture != nullptr) {
      scratch.along[i] = static_cast<float>(Along(view, hit, ray_x, ray_y));
      scratch.keep[i] = static_cast<float>(keep);
    }
  }
}

// Fills rows of columns [x0, x0 + n): each pixel is its column's wall or,
// above and below it, the row's ceiling or floor. A row of floor or ceiling
// is one colour at one distance, so the inner loops are plain selects that
// the compiler vectorises (hence `&`, not `&&`: no branch).
void FillRows(const Surfaces& surfaces, const View& view, const Frame& frame, int x0, int n,
              ColumnScratch& scratch) {
  for (int y = 0; y < frame.height; ++y) {
    // Floor (height 0) and ceiling (height 1) are both half a cell from the
    // eye, so a row's distance is 0.5 * focal over its offset from the horizon.
    const double offset = y + 0.5 - view.horizon;
    const double distance =
        offset == 0 ? kFarDepth : std::min<double>(0.5 * view.focal / std::abs(offset), kFarDepth);
    const std::uint32_t plane =
        Pack(Shade(surfaces.colour(offset > 0 ? Surfaces::kFloor : Surfaces::kCeiling), distance));
    const float plane_depth = static_cast<float>(distance);
    for (int i = 0; i < n; ++i) {
      const bool wall = (scratch.top[i] <= y) & (y < scratch.bottom[i]);
      const std::uint32_t wall_colour = scratch.colour[i];
      scratch.row[i] = wall ? wall_colour : plane;
    }
    StoreRow(scratch.row.data(), n,
             frame.rgb + (static_cast<std::size_t>(y) * frame.width + x0) * 3);
    if (frame.depth != nullptr) {
      float* depth = frame.depth + static_cast<std::size_t>(y) * frame.width + x0;
      for (int i = 0; i < n; ++i) {
        const bool wall = (scratch.top[i] <= y) & (y < scratch.bottom[i]);
        const float wall_depth = scratch.depth[i];
        depth[i] = wall ? wall_depth : plane_depth;
      }
    }
  }
}

// The texel at fractions (u, v) across and down `texture`.
Rgb TexelAt(const Texture& texture, double u, double v) {
  const int col = std::min(static_cast<int>(u * texture.width), texture.width - 1);
  const int row = std::min(static_cast<int>(v * texture.height), texture.height - 1);
  return texture
      .texels[static_cast<std::size_t>(std::max(row, 0)) * texture.width + std::max(col, 0)];
}

// Draws the textured walls of columns [x0, x0 + n) over the colour that
// FillRows gave them: the texture spans the wall's face once, top to
// bottom and left to right.
void DrawTexturedWalls(const View& view, const Frame& frame, int x0, int n,
                       const ColumnScratch& scratch) {
  for (int i = 0; i < n; ++i) {
    if (scratch.texture[i] == nullptr) continue;
    const Texture& texture = *scratch.texture[i];
    const double half = 0.5 * view.focal / scratch.depth[i];
    const double wall_top = view.horizon - half;
    const double v_per_row = 1 / (2 * half);
    const int col = std::min(static_cast<int>(scratch.along[i] * texture.width), texture.width - 1);
    const double keep = scratch.keep[i];
    for (int y = scratch.top[i]; y < scratch.bottom[i]; ++y) {
      const double v = (y + 0.5 - wall_top) * v_per_row;
      const int row = std::clamp(static_cast<int>(v * texture.height), 0, texture.height - 1);
      Put(frame, x0 + i, y,
          Fade(texture.texels[static_cast<std::size_t>(row) * texture.width + col], keep));
    }
  }
}

// Draws a textured floor or ceiling over the colour that FillRows gave it:
// the texture spans each cell once, its top row to the north (+y).
// Draws the floor where it differs from cell to cell (surfaces.floors_vary:
// each cell's variation has its floor) or is textured, and a textured
// ceiling, over the colour that FillRows gave them. Textures span each
// cell once, their top row to the north (+y).
void DrawPlanes(const TextMap& map, const Surfaces& surfaces, const View& view, const Frame& frame,
                int x0, int n, const ColumnScratch& scratch) {
  const bool floors = surfaces.floors_vary();
  const Texture* ceiling = surfaces.texture(Surfaces::kCeiling);
  if (!floors && ceiling == nullptr) return;
  for (int y = 0; y < frame.height; ++y) {
    const double offset = y + 0.5 - view.horizon;
    if (offset == 0 || (offset > 0 ? !floors : ceiling == nullptr)) continue;
    // As FillRows: the row's distance along the view, where each column's
    // ray (1 along the view) meets the plane.
    const double distance = std::min<double>(0.5 * view.focal / std::abs(offset), kFarDepth);
    const double keep = Keep(distance);
    // Runs of pixels see the same cell: its surface is looked up, and a
    // colour faded, once a run.
    double cell_x = -1e300, cell_north = -1e300;
    int surface = Surfaces::kCeiling;
    const Texture* texture = ceiling;
    std::optional<Rgb> faded;
    for (int i = 0; i < n; ++i) {
      if (scratch.top[i] <= y && y < scratch.bottom[i]) continue;  // wall
      const auto [ray_x, ray_y] = RayOf(view, x0 + i, frame.width);
      const double x = view.x + ray_x * distance;
      const double north = view.y + ray_y * distance;
      const double u = Fraction(x);
      const double v = 1 - Fraction(north);
      if (offset > 0 && (x - u != cell_x || north - (1 - v) != cell_north)) {
        cell_x = x - u;
        cell_north = north - (1 - v);
        // The cell under the point (outside the map: no variation).
        const bool inside =
            cell_x >= 0 && cell_x < map.cols() && cell_north >= 0 && cell_north < map.rows();
        surface =
            Surfaces::OfFloor(inside ? map.Variation(map.rows() - 1 - static_cast<int>(cell_north),
                                                     static_cast<int>(cell_x))
                                     : 0);
        texture = surfaces.texture(surface);
        faded.reset();
      }
      if (texture != nullptr) {
        Put(frame, x0 + i, y, Fade(TexelAt(*texture, u, v), keep));
      } else {
        if (!faded) faded = Fade(surfaces.colour(surface), keep);
        Put(frame, x0 + i, y, *faded);
      }
    }
  }
}

// Draws `sprite` over columns [x0, x0 + n) where it is nearer than the wall.
//
// NB: the test is against the column's wall distance, not the pixel's
// depth, and that is exact: a sprite stands on the floor and is under a
// cell tall, so the floor and ceiling behind it are always further away,
// and sprites are drawn far to near.
void DrawSprite(const Sprite& sprite, const View& view, const Frame& frame, int x0, int n,
                const ColumnScratch& scratch) {
  const float depth = static_cast<float>(sprite.depth);
  for (const Disc& disc : sprite.shape.discs) {
    const Rgb colour = Shade(disc.colour, sprite.depth);
    const double cx = sprite.centre_x + disc.lateral * sprite.pixels;
    const double cy = view.horizon + (0.5 - disc.height) * sprite.pixels;
    ForEachDiscPixel(cx, cy, disc.radius * sprite.pixels, x0, x0 + n, frame.height,
                     [&](int x, int y) {
                       if (depth >= scratch.depth[x - x0]) return;
                       Put(frame, x, y, colour);
                       if (frame.depth != nullptr) {
                         frame.depth[static_cast<std::size_t>(y) * frame.width + x] = depth;
                       }
                     });
  }
}

// The active pickups and the figures in front of the camera, far to near
// (ties by id, the figures' after the pickups', so the order never depends
// on anything but the inputs). Thread-local and reused: it allocates only
// when a frame sees more sprites than any before it on this thread.
const std::vector<Sprite>& VisibleSprites(absl::Span<const Pickup> pickups,
                                          absl::Span<const Figure> figures, const View& view,
                                          int width) {
  thread_local std::vector<Sprite> sprites;
  sprites.clear();
  // Projects what stands at `at`; false when it is out of sight.
  auto project = [&](WorldPoint at, Sprite* sprite) {
    const double rel_x = at.x - view.x;
    const double rel_y = at.y - view.y;
    const double depth = rel_x * view.dir_x + rel_y * view.dir_y;
    // Also false for NaN.
    if (!(depth > kNearClip && depth < kFarDepth)) return false;
    const double lateral = rel_x * view.right_x + rel_y * view.right_y;
    const double pixels = view.focal / depth;
    const double centre_x = width / 2.0 + lateral * pixels;
    // Wider than any shape, so nothing that could show is skipped.
    const double reach = pixels;
    if (centre_x + reach < 0 || centre_x - reach > width) return false;
    *sprite = {depth, centre_x, pixels, 0, {}};
    return true;
  };
  Sprite sprite;
  for (const Pickup& pickup : pickups) {
    if (!pickup.active || !project(pickup.position, &sprite)) continue;
    sprite.id = pickup.id;
    sprite.shape = ShapeOf(pickup);
    sprites.push_back(sprite);
  }
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const Figure& figure = figures[i];
    if (!project(figure.position, &sprite)) continue;
    const double yaw = Radians(std::isfinite(figure.yaw) ? figure.yaw : 0.0);
    const double facing_x = std::cos(yaw), facing_y = std::sin(yaw);
    // Its visor shows unless it looks away (along the view direction): a
    // figure seen side-on (up to rounding) shows it at its side.
    const bool facing_viewer = facing_x * view.dir_x + facing_y * view.dir_y < 1e-9;
    sprite.id = static_cast<int>(pickups.size() + i);
    sprite.shape = FigureShape(figure.colour, facing_x * view.right_x + facing_y * view.right_y,
                               facing_viewer);
    sprites.push_back(sprite);
  }
  std::sort(sprites.begin(), sprites.end(), [](const Sprite& a, const Sprite& b) {
    return a.depth != b.depth ? a.depth > b.depth : a.id < b.id;
  });
  return sprites;
}

}  // namespace

void RenderFirstPerson(const TextMap& map, absl::Span<const Pickup> pickups, const Camera& camera,
                       const Frame& frame, const Surfaces& surfaces,
                       absl::Span<const Figure> figures) {
  if (!Drawable(frame)) return;
  const View view = ViewOf(map, camera, frame.width, frame.height);
  const std::vector<Sprite>& sprites = VisibleSprites(pickups, figures, view, frame.width);
  thread_local ColumnScratch scratch;
  for (int x0 = 0; x0 < frame.width; x0 += kMaxColumns) {
    const int n = std::min(kMaxColumns, frame.width - x0);
    CastColumns(map, surfaces, view, frame, x0, n, scratch);
    FillRows(surfaces, view, frame, x0, n, scratch);
    DrawTexturedWalls(view, frame, x0, n, scratch);
    DrawPlanes(map, surfaces, view, frame, x0, n, scratch);
    for (const Sprite& sprite : sprites) DrawSprite(sprite, view, frame, x0, n, scratch);
  }
}

}  // namespace hosts::maze
