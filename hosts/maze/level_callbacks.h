// The maze host's calls of DeepMind Lab's level callbacks for pickups,
// triggers and controls, each as DeepMind Lab makes it (spawn_entities.h
// says when): what the level may answer, and its errors.
#ifndef HOSTS_MAZE_LEVEL_CALLBACKS_H_
#define HOSTS_MAZE_LEVEL_CALLBACKS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine_plugin/host.h"
#include "hosts/maze/spawn_entities.h"
#include "hosts/maze/world.h"

namespace hosts::maze {

// Each for player `player`, counted from 0 here and from 1 (playerId) in
// the callback.
//
// canPickup(spawnId, playerId): whether the player may take the pickup
// (true without the callback, or for nil).
absl::StatusOr<bool> CanPickup(engine_plugin::Level& level, int spawn_id, int player);

// pickup(spawnId, playerId): nil keeps DeepMind Lab's own pickup (the
// reward, and a goal's end of the map); a number replaces it and is the
// seconds until the pickup respawns (0: not taken at all).
absl::StatusOr<std::optional<double>> PickupOverride(engine_plugin::Level& level, int spawn_id,
                                                     int player);

// canTrigger(spawnId, targetName, playerId): whether the trigger fires
// (true without the callback). As in DeepMind Lab, it must answer true or
// false.
absl::StatusOr<bool> CanTrigger(engine_plugin::Level& level, const DoorTrigger& trigger,
                                int player);

// trigger(spawnId, targetName, playerId): true replaces what the trigger
// does (the door stays shut); nil or false lets it open.
absl::StatusOr<bool> TriggerOverride(engine_plugin::Level& level, const DoorTrigger& trigger,
                                     int player);

// modifyControl(actions, playerId): the level may change the player's controls of
// this frame, {lookDownUp =, lookLeftRight =, moveBackForward =,
// strafeLeftRight =, crouchJump = (1 jump, -1 crouch), buttonsDown = (1
// fire)}, returning them (changed or not) or nil. Values are rounded and
// clamped to the actions' bounds.
absl::Status ModifyControl(engine_plugin::Level& level, int player, Actions* actions);

// customDiscreteActionSpec(): the level's own discrete actions, {{name =,
// min =, max =}, ...} (at most kMaxCustomActions, integer bounds, names
// unlike `taken` and each other); none without the callback.
inline constexpr int kMaxCustomActions = 64;
absl::StatusOr<std::vector<engine_plugin::DiscreteActionSpec>> CustomActionSpecs(
    engine_plugin::Level& level, const std::vector<std::string>& taken);

// customDiscreteActions(values, playerId): the agent's values of those
// actions for the player, a list in their order. A level that declares
// actions must have it.
absl::Status ApplyCustomActions(engine_plugin::Level& level, int player,
                                absl::Span<const int> values);

// addBots(): DeepMind Lab's levels list the bots to add; the maze has
// none, so a level that asks for any is an error saying so (nil or an
// empty list is fine).
absl::Status RefuseBots(engine_plugin::Level& level);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_LEVEL_CALLBACKS_H_
