#include "hosts/maze/world.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace hosts::maze {
namespace {

// Collision leaves this gap between the player and a wall, so that rounding
// in the push-out can never leave the circle a hair inside the wall.
constexpr double kSkin = 1e-9;

// The cell index holding coordinate `c`. Positions come from set_pose too,
// so they are clamped first: NaN or a huge value must not reach an int
// conversion. Everything past the clamp lies outside the map, where every
// cell is wall anyway.
int CellIndex(double c) {
  return static_cast<int>(std::floor(std::fmin(std::fmax(c, -4.0), 4096.0)));
}

// Wraps degrees into [-180, 180).
double NormaliseYaw(double yaw) {
  double wrapped = std::fmod(yaw + 180.0, 360.0);
  if (wrapped < 0) wrapped += 360.0;
  // -1e-15 + 360 rounds to 360, which would leave 180.
  if (wrapped >= 360.0) wrapped -= 360.0;
  return wrapped - 180.0;
}

// Moves the player's centre along one axis by `delta` (at most kPlayerRadius
// in size, so no wall cell can be stepped over) and stops it short of the
// first wall it would overlap. `u` is the coordinate along the moving axis
// and `v` the other one; `along_x` says which is which.
//
// Only cells the circle moves towards stop it: a cell starting at or ahead
// of the centre's old position. A circle that already overlaps a wall (after
// set_pose) can therefore still move out of it.
double MoveAxis(const TextMap& map, double u, double v, double delta, bool along_x) {
  constexpr double r = World::kPlayerRadius;
  const double target = u + delta;
  double reached = target;
  for (int i = CellIndex(target - r); i <= CellIndex(target + r); ++i) {
    const bool ahead = delta > 0 ? i >= u : i + 1 <= u;
    if (!ahead) continue;
    for (int j = CellIndex(v - r); j <= CellIndex(v + r); ++j) {
      const int col = along_x ? i : j;
      const int row = map.rows() - 1 - (along_x ? j : i);
      if (!map.IsWall(row, col)) continue;
      const double dv = std::max({0.0, j - v, v - (j + 1)});
      if (dv >= r) continue;
      // How far the centre must stay from the cell's near face along u for
      // the circle to just touch the cell (the face, or its corner).
      const double clearance = std::sqrt(r * r - dv * dv) + kSkin;
      reached = delta > 0 ? std::min(reached, i - clearance) : std::max(reached, i + 1 + clearance);
    }
  }
  // Rounding may put the stop a hair behind where the player already was;
  // a wall stops the player, it never pushes it back.
  return delta > 0 ? std::max(reached, u) : std::min(reached, u);
}

}  // namespace

World::World(TextMap map, int spawn) : map_(std::move(map)), poses_(1), motions_(1) {
  const int spawns = static_cast<int>(map_.spawns().size());
  // TextMap::Parse guarantees a spawn; a negative index counts from the end.
  poses_[0].position = map_.CellCentre(map_.spawns()[(spawn % spawns + spawns) % spawns]);
  pickups_ = PickupsOf(map_);
}

World::World(TextMap map, std::vector<WorldPoint> starts, std::vector<Pickup> pickups)
    : map_(std::move(map)), motions_(starts.size()), pickups_(std::move(pickups)) {
  for (const WorldPoint& start : starts) poses_.push_back({start, 0, 0});
  for (int id = 0; id < static_cast<int>(pickups_.size()); ++id) pickups_[id].id = id;
}

std::vector<Pickup> World::PickupsOf(const TextMap& map) {
  std::vector<Pickup> pickups;
  pickups.reserve(map.pickups().size());
  for (const MapPickup& placed : map.pickups()) {
    const bool goal = placed.kind == PickupKind::kGoal;
    Pickup pickup{static_cast<int>(pickups.size()), placed.kind, map.CellCentre(placed.cell), true};
    pickup.class_name = goal ? "goal" : "apple_reward";
    pickup.quantity = goal ? 10 : 1;
    pickups.push_back(std::move(pickup));
  }
  return pickups;
}

bool World::Touches(GridCell cell, double reach, int player) const {
  // The square of cell (row, col): x in [col, col + 1), y in
  // [rows - row - 1, rows - row).
  const WorldPoint& at = poses_[player].position;
  const double left = cell.col, bottom = map_.rows() - cell.row - 1;
  const double dx = std::max({0.0, left - at.x, at.x - (left + 1)});
  const double dy = std::max({0.0, bottom - at.y, at.y - (bottom + 1)});
  const double within = kPlayerRadius + reach;
  return dx * dx + dy * dy <= within * within;
}

bool World::Blocked(int player, WorldPoint from, WorldPoint to) const {
  constexpr double kApart = 2 * kPlayerRadius;
  for (int other = 0; other < players(); ++other) {
    if (other == player) continue;
    const WorldPoint& o = poses_[other].position;
    const double after = std::hypot(to.x - o.x, to.y - o.y);
    // Players that overlap (they spawned together) may still move apart.
    if (after < kApart && after < std::hypot(from.x - o.x, from.y - o.y)) return true;
  }
  return false;
}

std::vector<Taken> World::Step(absl::Span<const Actions> actions, double seconds) {
  if (seconds > 0 && std::isfinite(seconds)) time_ += seconds;
  for (Pickup& pickup : pickups_) {
    if (!pickup.active && pickup.respawn_at >= 0 && pickup.respawn_at <= time_) {
      pickup.active = true;
      pickup.respawn_at = -1;
    }
  }
  for (int player = 0; player < players(); ++player) {
    Move(player, player < static_cast<int>(actions.size()) ? actions[player] : Actions{},
         seconds);
  }
  std::vector<Taken> taken;
  for (int player = 0; player < players(); ++player) {
    const WorldPoint& at = poses_[player].position;
    for (Pickup& pickup : pickups_) {
      if (!pickup.active) continue;
      const double dx = pickup.position.x - at.x;
      const double dy = pickup.position.y - at.y;
      if (dx * dx + dy * dy <= kPickupRadius * kPickupRadius) {
        pickup.active = false;
        taken.push_back({player, pickup.id});
      }
    }
  }
  return taken;
}

std::vector<int> World::Step(const Actions& actions, double seconds) {
  std::vector<int> ids;
  for (const Taken& taken : Step(absl::MakeConstSpan(&actions, 1), seconds)) {
    ids.push_back(taken.id);
  }
  return ids;
}

void World::Move(int player, const Actions& actions, double seconds) {
  const int look_x = std::clamp(actions[kLookLeftRight], -kMaxLook, kMaxLook);
  const int look_y = std::clamp(actions[kLookDownUp], -kMaxLook, kMaxLook);
  const int strafe = std::clamp(actions[kStrafeLeftRight], -kMaxMove, kMaxMove);
  const int move = std::clamp(actions[kMoveBackForward], -kMaxMove, kMaxMove);
  Pose& pose = poses_[player];
  const Pose before = pose;
  pose.yaw = NormaliseYaw(pose.yaw - look_x * kDegreesPerPixel);
  pose.pitch = std::clamp(pose.pitch - look_y * kDegreesPerPixel, -90.0, 90.0);

  // `!(seconds > 0)` also stops a NaN from reaching the position.
  if ((strafe != 0 || move != 0) && seconds > 0) {
    const double yaw = pose.yaw * (std::numbers::pi / 180.0);
    const double forward_x = std::cos(yaw), forward_y = std::sin(yaw);
    const double right_x = forward_y, right_y = -forward_x;
    double dx = strafe * right_x + move * forward_x;
    double dy = strafe * right_y + move * forward_y;
    const double length = std::hypot(dx, dy);
    // No frame carries the player further than across the whole map, so a
    // huge `seconds` costs a bounded number of sub-steps.
    const double travel =
        kMoveSpeed * std::min(seconds, (map_.rows() + map_.cols() + 2) / kMoveSpeed);
    dx *= travel / length;
    dy *= travel / length;
    // Sub-steps of at most kPlayerRadius per axis: the circle then covers
    // every cell (and meets every other player) it passes, so no step can
    // tunnel through a wall or a player.
    const int steps = std::max(
        1, static_cast<int>(std::ceil(std::max(std::abs(dx), std::abs(dy)) / kPlayerRadius)));
    const double step_x = dx / steps, step_y = dy / steps;
    WorldPoint& p = pose.position;
    for (int s = 0; s < steps; ++s) {
      // One axis at a time, so a blocked axis leaves the other free: the
      // player slides along walls and round other players.
      if (step_x != 0) {
        const WorldPoint to{MoveAxis(map_, p.x, p.y, step_x, /*along_x=*/true), p.y};
        if (!Blocked(player, p, to)) p = to;
      }
      if (step_y != 0) {
        const WorldPoint to{p.x, MoveAxis(map_, p.y, p.x, step_y, /*along_x=*/false)};
        if (!Blocked(player, p, to)) p = to;
      }
    }
  }

  Motion& motion = motions_[player];
  motion = {};
  if (seconds > 0 && std::isfinite(seconds)) {
    motion.velocity = {(pose.position.x - before.position.x) / seconds,
                       (pose.position.y - before.position.y) / seconds};
    motion.pitch_rate = (pose.pitch - before.pitch) / seconds;
    motion.yaw_rate = NormaliseYaw(pose.yaw - before.yaw) / seconds;
  }
}

}  // namespace hosts::maze
