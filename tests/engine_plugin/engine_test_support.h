// Helpers for the engine's tests: level scripts written to the test's
// temporary directory, and engines (or C ABI contexts) made from them.
#ifndef TESTS_ENGINE_PLUGIN_ENGINE_TEST_SUPPORT_H_
#define TESTS_ENGINE_PLUGIN_ENGINE_TEST_SUPPORT_H_

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine_plugin/engine.h"
#include "engine_plugin/env_c_api.h"
#include "gtest/gtest.h"
#include "hosts/maze/maze_host.h"
#include "hosts/maze/world.h"

namespace engine_plugin {

// Writes `source` as <TEST_TMPDIR>/<name>.lua and returns its path.
inline std::string WriteLevel(const std::string& name, const std::string& source) {
  const char* directory = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(directory ? directory : "/tmp") + "/" + name + ".lua";
  std::ofstream(path) << source;
  return path;
}

// The first error of creating an engine of `level`, setting each of
// `settings` and calling Init, or OK: for tests of what a level may not do.
inline absl::Status InitWith(const std::string& level,
                             const std::vector<std::pair<std::string, std::string>>& settings) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
  if (!engine.ok()) return engine.status();
  for (const auto& [key, value] : settings) {
    if (absl::Status set = (*engine)->SetSetting(key, value); !set.ok()) return set;
  }
  return (*engine)->Init();
}

// An engine of `level` after SetSetting for each of `settings` and Init;
// fails the test on any error.
inline std::unique_ptr<Engine> InitEngine(
    const std::string& level, const std::vector<std::pair<std::string, std::string>>& settings = {}) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
  EXPECT_TRUE(engine.ok()) << engine.status();
  if (!engine.ok()) return nullptr;
  for (const auto& [key, value] : settings) {
    absl::Status set = (*engine)->SetSetting(key, value);
    EXPECT_TRUE(set.ok()) << set;
  }
  absl::Status init = (*engine)->Init();
  EXPECT_TRUE(init.ok()) << init;
  return init.ok() ? *std::move(engine) : nullptr;
}

// A C ABI context of `level`, filling `api`, after each of `settings`,
// init and start(0, seed); fails the test and returns null on any error.
// The caller releases it (api.release_context).
inline void* StartContext(EnvCApi& api, const std::string& level,
                          const std::vector<std::pair<std::string, std::string>>& settings = {},
                          std::uint64_t seed = 1) {
  void* context = nullptr;
  char error[256];
  if (env_connect(level.c_str(), &api, &context, error, sizeof(error)) != 0) {
    ADD_FAILURE() << error;
    return nullptr;
  }
  for (const auto& [key, value] : settings) {
    if (api.setting(context, key.c_str(), value.c_str()) != 0) {
      ADD_FAILURE() << api.error_message(context);
      api.release_context(context);
      return nullptr;
    }
  }
  if (api.init(context) != 0 || api.start(context, 0, seed) != 0) {
    ADD_FAILURE() << api.error_message(context);
    api.release_context(context);
    return nullptr;
  }
  return context;
}

// The index of the observation called `name`, or -1.
inline int ObservationIndex(const Engine& engine, const std::string& name) {
  const std::vector<ObservationSpec>& specs = engine.observation_specs();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// The bytes of a tensor observation.
inline const std::uint8_t* Bytes(const ObservationValue& value) {
  return reinterpret_cast<const std::uint8_t*>(*value.tensor.data());
}
inline const double* Doubles(const ObservationValue& value) {
  return reinterpret_cast<const double*>(*value.tensor.data());
}

// A one-room map for levels that need only somewhere to start.
inline constexpr char kMap[] = R"(function api:nextMap() return "*****\n*P  *\n*****\n" end)";

// A level whose start(episode) runs `body` in episode 0 only, so that the
// next start shows the engine usable again.
inline std::string FailingStart(const std::string& body) {
  return "local api = {}\n" + std::string(kMap) + "\nfunction api:start(episode)\n" +
         "  if episode == 0 then\n" + body + "\n  end\nend\nreturn api\n";
}

// Init, a Start(0) that must fail with every one of `messages`, then a
// Start(1) and an Advance that must succeed.
inline void ExpectStartFailsThenRecovers(
    const std::string& name, const std::string& source,
    const std::vector<std::pair<std::string, std::string>>& settings,
    const std::vector<std::string>& messages) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel(name, source), settings);
  ASSERT_NE(engine, nullptr);
  absl::Status failed = engine->Start(0, 1);
  ASSERT_FALSE(failed.ok());
  for (const std::string& message : messages) {
    EXPECT_NE(failed.message().find(message), absl::string_view::npos)
        << "'" << message << "' is not in: " << failed.message();
  }
  absl::Status started = engine->Start(1, 1);
  ASSERT_TRUE(started.ok()) << started;
  double reward = 0;
  EXPECT_TRUE(engine->Advance(5, &reward).ok());
}

// Most engine tests run on the maze host.
using hosts::maze::Actions;
using hosts::maze::Pickup;
using hosts::maze::PickupKind;
using hosts::maze::Pose;
using hosts::maze::World;
using hosts::maze::WorldPoint;

// The maze's world of `engine` (a level on the maze host); null before
// the first Start.
inline const World* MazeWorldOf(const Engine& engine) {
  return static_cast<const hosts::maze::MazeHost&>(engine.host()).world();
}

inline Actions Forward() { return {0, 0, 0, 1, 0, 0, 0}; }

}  // namespace engine_plugin

#endif  // TESTS_ENGINE_PLUGIN_ENGINE_TEST_SUPPORT_H_
