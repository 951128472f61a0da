// DeepMind Lab's spawn-entity model, for the maze host.
//
// A map loads as a list of spawn entities, each a list of spawn variables
// (strings) starting with its `classname`. The cells of a map give:
//   'P'  info_player_start {origin}
//   'A'  apple_reward {origin}          'G'  goal {origin}
//   'I', 'H'  a door: func_door {targetname = 'door_<x>_<y>', angle =
//        '90' | '0'} and, one each side, two trigger_multiple {target =
//        that name, wait = '1'}
// and dmlab.system.map_maker's callback adds the entities it makes.
// Origins are in DeepMind Lab's game units: 100 a cell, x along the
// columns, y up from the map's bottom row; a door's x, y are its column
// and its row counted from the bottom.
//
// Loading then runs, as DeepMind Lab does:
//   1. UpdateSpawnVars: the level's updateSpawnVars(spawnVars) for each
//      entity; it returns the table to keep (changed or not) or nil.
//   2. PlaceEntities: spawn points; doors (open when spawnflags has bit 1;
//      else shut, for good unless a trigger_multiple targets them: then
//      they open when the player reaches them and the trigger fires); and
//      every other class a pickup, which
//      the level's createPickup(classname) describes ({quantity =, type =
//      pickups.type.REWARD (9) | GOAL (10), ...}), falling back to the
//      maze's own apple_reward (a reward of 1) and goal (10). A pickup's
//      spawn variables `id`, `count` (its reward instead of the quantity)
//      and `wait` (seconds to respawn, -1 never) are read. Quake III's
//      teleporters: a trigger_teleport {target =} sends the player who
//      walks into the middle of its cell to the misc_teleporter_dest
//      {targetname =, origin =, angle =} of that name, facing its angle;
//      misc_model (decoration) is dropped.
//   Any other class, pickup type or malformed variable is an error naming
//   the entity and what the maze lacks.
#ifndef HOSTS_MAZE_SPAWN_ENTITIES_H_
#define HOSTS_MAZE_SPAWN_ENTITIES_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/host.h"
#include "hosts/maze/text_map.h"
#include "hosts/maze/world.h"
#include "lua_api/tensor/tensor_limits.h"

namespace hosts::maze {

struct SpawnEntity {
  std::vector<std::pair<std::string, std::string>> vars;  // classname first
  GridCell cell;  // where a door lies (doors have no origin)

  // The value of `key`, or null.
  const std::string* Find(absl::string_view key) const;
  const std::string& class_name() const { return vars.front().second; }
};

// The entity as DeepMind Lab writes it into a .map file; and the entities
// of such text (one or more {"key" "value" ...} blocks, whose brushes, the
// blocks inside them, are skipped).
std::string EntityText(const SpawnEntity& entity);
absl::StatusOr<std::vector<SpawnEntity>> ParseEntitiesText(absl::string_view text);

// "x y 0" for the centre of `cell` of a map of `rows` rows.
std::string CellOrigin(GridCell cell, int rows);

// The entities of the map's cells: spawn points, pickups, then doors,
// each in reading order.
std::vector<SpawnEntity> EntitiesOfMap(const TextMap& map);

// Step 1: the level's updateSpawnVars over `entities`, in order. The
// spawn variables it returns are charged to the level's tensor memory in
// `charge` before they are copied (keep it while the entities live).
absl::Status UpdateSpawnVars(engine_plugin::Level& level, std::vector<SpawnEntity>* entities,
                             lua_api::TensorMemoryCharge* charge);

// A trigger_multiple of a shut door: the door opens when the player
// reaches it and the level lets the trigger fire (canTrigger, trigger).
struct DoorTrigger {
  GridCell door;
  bool across_x;       // the door's passage runs along x ('I') or y ('H')
  int side;            // the half it lies in: 0 west or south, 1 east or north
  std::string target;  // the door's targetname
  int spawn_id;        // the trigger's spawn variable `id`, 0 for none
  double wait;         // seconds between firings (Quake's default 0.5)
  // Seconds the door stays open once opened: its func_door's `wait`
  // (Quake III's default 2); negative, it never closes.
  double door_wait;
};

// A trigger_teleport and where it sends the player.
struct Teleporter {
  GridCell cell;  // the trigger's: it fills the middle of its cell
  WorldPoint destination;
  double yaw;  // degrees, as Pose
};

struct PlacedEntities {
  std::vector<WorldPoint> spawns;
  std::vector<Pickup> pickups;
  std::vector<DoorTrigger> triggers;
  std::vector<Teleporter> teleporters;
};

// Step 2: opens the doors of *map that stay open and places the rest.
absl::StatusOr<PlacedEntities> PlaceEntities(engine_plugin::Level& level,
                                             const std::vector<SpawnEntity>& entities,
                                             TextMap* map);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_SPAWN_ENTITIES_H_
