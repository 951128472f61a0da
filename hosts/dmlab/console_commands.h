// The console commands a level may give the engine (game:console): what
// DeepMind Lab's own levels give, and nothing that ends the process,
// loads or restarts a map, runs a script or touches files (quit, map,
// map_restart, exec, writeconfig, vstr...): the engine obeys each at once
// and whole, and some of those end or corrupt it.
//
//   set <cvar> <value> / seta ...   a cvar of the client game (cg_...): the
//   <cvar> <value>                   HUD's and team colours' settings
//   weapon <n>, weapnext, weapprev  the player's gadget
//
// Example:
//   CheckConsoleCommand("set cg_redteam_r 0.5")  // ""
//   CheckConsoleCommand("quit")                  // why not, naming it
#ifndef HOSTS_DMLAB_CONSOLE_COMMANDS_H_
#define HOSTS_DMLAB_CONSOLE_COMMANDS_H_

#include <cstddef>
#include <string>

namespace hosts::dmlab {

// The longest command a level may give (the engine's own limit is 1024).
inline constexpr std::size_t kMaxConsoleCommandBytes = 256;

// How many commands may wait for the engine's next frame.
inline constexpr std::size_t kMaxPendingConsoleCommands = 64;

// "" when a level may give `command`, else why not.
std::string CheckConsoleCommand(const std::string& command);

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_CONSOLE_COMMANDS_H_
