// What the DeepMind Lab host's tests share: engines on test_engine.so (a
// stand-in for DeepMind Lab's engine library, test_engine.cc), its
// runfiles, and level files.
#ifndef TESTS_HOSTS_DMLAB_DMLAB_TESTING_H_
#define TESTS_HOSTS_DMLAB_DMLAB_TESTING_H_

#include <memory>
#include <string>

#include "engine_plugin/engine.h"

namespace hosts::dmlab {

// The test engine library's path.
std::string TestEngine();

// The runfiles the host checks maps against: the test engine's maps
// (corridor, corridor_apple, corridor_pickups), as empty files.
std::string Runfiles();

// A new engine on the test engine, set up but not initialised.
std::unique_ptr<engine_plugin::Engine> Created(const std::string& level);

// A level body on the map "corridor_pickups" whose pickups give their
// quantity (apple_reward 1, lemon_reward -1, goal 10).
inline constexpr char kPickups[] = R"(
function api:nextMap() return 'corridor_pickups' end
local quantities = {apple_reward = 1, lemon_reward = -1, goal = 10}
function api:createPickup(classname)
  return {name = classname, classname = classname, model = 'models/' .. classname .. '.md3',
          quantity = quantities[classname], type = 2}
end
)";

// Created, with frames of 8 x 6, initialised and started (episode 0,
// seed 7); null if it could not be made.
std::unique_ptr<engine_plugin::Engine> Started(const std::string& level);

// Steps forward `steps` times (50 units each); the total reward. The
// episode's status after the last step goes to `status` if given.
double Forward(engine_plugin::Engine& engine, int steps,
               engine_plugin::EpisodeStatus* status = nullptr);

// Writes a level named `name` under TEST_TMPDIR: `body` between
// "local game = require 'dmlab.system.game'\nlocal api = {}" and
// "return api"; its path.
std::string WriteLevel(const std::string& name, const std::string& body);

}  // namespace hosts::dmlab

#endif  // TESTS_HOSTS_DMLAB_DMLAB_TESTING_H_
