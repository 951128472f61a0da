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

// Writes a level named `name` under TEST_TMPDIR: `body` between
// "local game = require 'dmlab.system.game'\nlocal api = {}" and
// "return api"; its path.
std::string WriteLevel(const std::string& name, const std::string& body);

}  // namespace hosts::dmlab

#endif  // TESTS_HOSTS_DMLAB_DMLAB_TESTING_H_
