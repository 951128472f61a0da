// MazeTools: what the maze offers the tools that play its levels
// (engine_plugin::HostTools): two agents that see the world, and the map
// from above with the player's path.
//
// Agents: "random" (sensible moves, forward favoured, each held 4 to 20
// frames) and "forward" (runs; a wall stops it, it turns 90 degrees left
// or right at random).
#ifndef HOSTS_MAZE_MAZE_TOOLS_H_
#define HOSTS_MAZE_MAZE_TOOLS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine_plugin/host.h"
#include "hosts/maze/game_module.h"
#include "hosts/maze/world.h"

namespace hosts::maze {

class MazeTools final : public engine_plugin::HostTools {
 public:
  // `host` outlives this; its world is read at each call. `fps`: its
  // control steps per second.
  MazeTools(const GameHost& host, int fps) : host_(host), fps_(fps) {}

  std::vector<std::string> AgentNames() const override;
  absl::StatusOr<std::unique_ptr<engine_plugin::HostAgent>> MakeAgent(
      absl::string_view name, std::uint64_t seed) override;
  void RecordPath() override;
  void ClearPath() override { path_.clear(); }
  std::vector<std::uint8_t> Overview(int size) const override;

 private:
  const GameHost& host_;
  int fps_;
  std::vector<WorldPoint> path_;
};

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_MAZE_TOOLS_H_
