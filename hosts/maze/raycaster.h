// Raycaster: the maze's software renderer.
//
// First person: one ray per column through the map's grid (DDA), walls
// coloured by their region's variation (or textured, surfaces.h) and
// shaded by distance and by side (x-facing walls darker than y-facing), a
// floor and a ceiling (one colour, or textured per cell) shaded by
// distance, and pickups and the other players as camera-facing sprites,
// depth-tested per pixel. Pitch shifts the horizon (a y-shear, as in
// classic raycasters). Top down (top_down.cc): a bird's-eye view of the
// whole map with the players and their headings.
//
// Buffers are the caller's: rgb is height x width x 3 bytes, row-major,
// row 0 at the top; depth (optional) is height x width floats, the distance
// along the view direction in cells (kFarDepth where nothing is hit).
// Rendering is a pure function of its inputs: the same inputs give the same
// bytes, and nothing is allocated per frame.
//
// Example:
//   Frame frame{rgb.data(), depth.data(), 84, 84};
//   RenderFirstPerson(world.map(), world.pickups(), Camera::Of(world.pose()), frame);
#ifndef HOSTS_MAZE_RAYCASTER_H_
#define HOSTS_MAZE_RAYCASTER_H_


#include "absl/types/span.h"
#include "hosts/maze/frame.h"
#include "hosts/maze/surfaces.h"
#include "hosts/maze/text_map.h"
#include "hosts/maze/world.h"

namespace hosts::maze {

struct Camera {
  WorldPoint position;
  double yaw = 0;              // degrees, as Pose
  double pitch = 0;            // degrees, as Pose
  double horizontal_fov = 90;  // degrees

  static Camera Of(const Pose& pose) { return {pose.position, pose.yaw, pose.pitch}; }
};

inline constexpr float kFarDepth = 1e4f;

// Another player as the camera sees it: a figure in its colour
// (PlayerColour) standing at `position`, facing `yaw` (degrees, as Pose).
struct Figure {
  WorldPoint position;
  double yaw;
  Rgb colour;
};

// Draws what `camera` sees, its surfaces looking as `surfaces` says, with
// `figures` standing in the world. Inactive pickups are not drawn.
void RenderFirstPerson(const TextMap& map, absl::Span<const Pickup> pickups, const Camera& camera,
                       const Frame& frame, const Surfaces& surfaces = Surfaces::BuiltIn(),
                       absl::Span<const Figure> figures = {});

// Draws the whole map scaled to fit frame.rgb (frame.depth is ignored),
// with the pickups and each of `players`' position (in its PlayerColour)
// and heading.
void RenderTopDown(const TextMap& map, absl::Span<const Pickup> pickups,
                   absl::Span<const Pose> players, const Frame& frame);

// Draws `path` (the player's positions, in order) as a line over a frame
// RenderTopDown drew, from blue at its start to yellow at its end. A step
// longer than a cell (a respawn) is not drawn.
void DrawTopDownPath(const TextMap& map, absl::Span<const WorldPoint> path, const Frame& frame);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_RAYCASTER_H_
