// World: the maze's simulation of one map. No Lua, no pixels.
//
// Each player is a circle of radius kPlayerRadius moving on the map's
// floor. Each frame the seven DeepMind Lab actions turn and move it; walls
// and the other players stop it (it slides along walls), and touching a
// pickup collects it. Players move one after another in player order, so
// a frame's outcome never depends on anything but the inputs. Functions
// that take a `player` count from 0 and default to the first.
//
// Conventions (see text_map.h for coordinates):
//   yaw    degrees, 0 looks along +x, 90 along +y (counter-clockwise);
//          kept in [-180, 180).
//   pitch  degrees, positive looks up; clamped to [-90, 90].
//   LOOK_LEFT_RIGHT_PIXELS_PER_FRAME  v: yaw -= v * kDegreesPerPixel
//                                      (positive looks right)
//   LOOK_DOWN_UP_PIXELS_PER_FRAME     v: pitch -= v * kDegreesPerPixel
//                                      (positive looks down)
//   STRAFE_LEFT_RIGHT   -1 left, +1 right, at kMoveSpeed
//   MOVE_BACK_FORWARD   -1 back, +1 forward, at kMoveSpeed
//   (strafing and moving together are normalised to kMoveSpeed)
//   FIRE, JUMP, CROUCH  accepted and ignored here; the engine passes them on.
//
// Example:
//   World world(*std::move(map), /*spawn=*/0);
//   std::vector<int> taken = world.Step(actions, 1.0 / 60);
//   for (int id : taken) reward += world.pickup(id).kind == PickupKind::kGoal ? 10 : 1;
#ifndef HOSTS_MAZE_WORLD_H_
#define HOSTS_MAZE_WORLD_H_

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "hosts/maze/surfaces.h"
#include "hosts/maze/text_map.h"

namespace hosts::maze {

// The discrete actions, in DeepMind Lab's order.
enum Action {
  kLookLeftRight,
  kLookDownUp,
  kStrafeLeftRight,
  kMoveBackForward,
  kFire,
  kJump,
  kCrouch,
  kActionCount,
};
using Actions = std::array<int, kActionCount>;

struct Pose {
  WorldPoint position;
  double yaw = 0;
  double pitch = 0;
};

// A pitch as DeepMind Lab (Quake) gives it, growing looking down, and back.
// (0 - x, not -x: a level sees 0, never -0.)
inline double QuakePitch(double pitch) { return 0.0 - pitch; }

// How the player moved over the last Step: world units and degrees per
// second (zero before the first Step, and over a Step of no time).
struct Motion {
  WorldPoint velocity;
  double pitch_rate = 0;
  double yaw_rate = 0;      // the shorter way round
  bool teleported = false;  // this frame (Teleport)
};

// A pickup as DeepMind Lab has them: an item of a class (its own, or one
// the level's createPickup described) placed by a spawn entity.
struct Pickup {
  int id;  // index in pickups(), stable for the map's lifetime
  PickupKind kind;
  WorldPoint position;
  bool active;  // false once collected, until it respawns
  std::string class_name = "apple_reward";
  std::string model;  // its class's model (createPickup's); drawn as that (sprite_shapes.h)
  // Its model's skin colour after the level's texture callbacks
  // (texture_hooks.h ModelSkinColour), when they changed it.
  std::optional<Rgb> skin;
  double quantity = 1;     // the reward it gives (the spawn variable `count`, or its class's)
  int spawn_id = 0;        // the spawn variable `id`: 0 for none
  double wait = 0;         // the spawn variable `wait`: seconds to respawn; 0 or -1 never
  double respawn_at = -1;  // map time (seconds) of its respawn; < 0 none due
};

// A pickup collected in a Step, and by whom.
struct Taken {
  int player;
  int id;
};

class World {
 public:
  static constexpr double kPlayerRadius = 0.25;  // cells
  static constexpr double kMoveSpeed = 3.0;      // cells per second
  static constexpr double kDegreesPerPixel = 0.1;
  static constexpr double kPickupRadius = 0.5;  // centre distance that collects
  // DeepMind Lab's action bounds: looks in pixels, moves in -1, 0, 1.
  static constexpr int kMaxLook = 512;
  static constexpr int kMaxMove = 1;

  // One player at spawns()[spawn % spawns().size()], facing +x, with the
  // map's own pickups (PickupsOf).
  World(TextMap map, int spawn);
  // A player at each of `starts` (at least one), facing +x, with
  // `pickups` (ids are their indices).
  World(TextMap map, std::vector<WorldPoint> starts, std::vector<Pickup> pickups);

  // The pickups of the map's 'A' and 'G' cells: DeepMind Lab's apple_reward
  // (1) and goal (10).
  static std::vector<Pickup> PickupsOf(const TextMap& map);

  const TextMap& map() const { return map_; }
  int players() const { return static_cast<int>(poses_.size()); }
  const Pose& pose(int player = 0) const { return poses_[player]; }
  const Motion& motion(int player = 0) const { return motions_[player]; }
  const std::vector<Pickup>& pickups() const { return pickups_; }
  const Pickup& pickup(int id) const { return pickups_[id]; }

  // One frame of `seconds`, `actions` one per player: respawn the pickups
  // that are due; turn and move each player in turn, with collision; then
  // each player in turn collects every active pickup within kPickupRadius.
  // Returns what was collected, by player, then by id. Action values
  // beyond their bounds are clamped; missing players' actions are zero.
  std::vector<Taken> Step(absl::Span<const Actions> actions, double seconds);
  // The same for the first player alone (a world of one): the ids taken.
  std::vector<int> Step(const Actions& actions, double seconds);

  // A collected pickup that the level would not let go (canPickup) is
  // back; and one collected shows again `seconds` from now.
  void Restore(int id) { pickups_[id].active = true; }
  // A pickup taken other than by touch (DeepMind Lab's dm_pickup).
  void Take(int id) { pickups_[id].active = false; }
  void RespawnAfter(int id, double seconds) { pickups_[id].respawn_at = time_ + seconds; }

  // Seconds of Step on this map.
  double time() const { return time_; }
  // Whether the player presses against `cell`: its circle comes within
  // `reach` of the cell's square.
  bool Touches(GridCell cell, double reach, int player = 0) const;
  // Opens a door of the map (TextMap::OpenDoor).
  void OpenDoor(GridCell cell) { map_.OpenDoor(cell); }
  // Closes it, unless a player is in its cell (a door does not close on
  // a player): whether it closed.
  bool CloseDoor(GridCell cell) {
    for (int p = 0; p < players(); ++p) {
      if (Touches(cell, 0, p)) return false;
    }
    map_.CloseDoor(cell);
    return true;
  }

  // Moves a player (tests, renderCustomView); no collision check.
  void set_pose(const Pose& pose, int player = 0) { poses_[player] = pose; }
  // A teleporter's work: the player stands at `to`, facing `yaw`, from
  // this frame (motion().teleported).
  void Teleport(WorldPoint to, double yaw, int player = 0) {
    poses_[player].position = to;
    poses_[player].yaw = yaw;
    motions_[player].teleported = true;
  }

 private:
  // Turns and moves `player` for one frame.
  void Move(int player, const Actions& actions, double seconds);
  // Whether `player` at `to` would overlap another player it was not
  // already overlapping more.
  bool Blocked(int player, WorldPoint from, WorldPoint to) const;

  TextMap map_;
  std::vector<Pose> poses_;  // per player
  std::vector<Motion> motions_;
  std::vector<Pickup> pickups_;
  double time_ = 0;  // seconds of Step on this map
};

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_WORLD_H_
