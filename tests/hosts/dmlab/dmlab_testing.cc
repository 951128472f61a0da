#include "tests/hosts/dmlab/dmlab_testing.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace hosts::dmlab {

using engine_plugin::Engine;

std::string TestEngine() {
  return absl::StrCat(std::getenv("TEST_SRCDIR"), "/dmlab_tensor/tests/hosts/dmlab/test_engine.so");
}

std::string Runfiles() {
  const std::string runfiles = absl::StrCat(std::getenv("TEST_TMPDIR"), "/run");
  const std::string maps = runfiles + "/baselab/maps";
  std::filesystem::create_directories(maps);
  for (const char* map : {"corridor", "corridor_apple", "corridor_pickups"}) {
    std::ofstream(absl::StrCat(maps, "/", map, ".bsp")) << "";
  }
  return runfiles;
}

std::unique_ptr<Engine> Created(const std::string& level) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
  EXPECT_TRUE(engine.ok()) << engine.status();
  if (!engine.ok()) return nullptr;
  EXPECT_TRUE((*engine)->SetSetting("host", "dmlab").ok());
  EXPECT_TRUE((*engine)->SetSetting("dmlabLibrary", TestEngine()).ok());
  EXPECT_TRUE((*engine)->SetSetting("dmlabRunfiles", Runfiles()).ok());
  return *std::move(engine);
}

std::unique_ptr<Engine> Started(const std::string& level) {
  std::unique_ptr<Engine> engine = Created(level);
  if (engine == nullptr) return nullptr;
  EXPECT_TRUE(engine->SetSetting("width", "8").ok());
  EXPECT_TRUE(engine->SetSetting("height", "6").ok());
  absl::Status init = engine->Init();
  EXPECT_TRUE(init.ok()) << init;
  absl::Status start = engine->Start(0, 7);
  EXPECT_TRUE(start.ok()) << start;
  return engine;
}

double Forward(Engine& engine, int steps, engine_plugin::EpisodeStatus* status) {
  double total = 0;
  for (int i = 0; i < steps; ++i) {
    engine.Act({0, 0, 0, 1, 0, 0, 0});
    double reward = 0;
    absl::StatusOr<engine_plugin::EpisodeStatus> s = engine.Advance(1, &reward);
    EXPECT_TRUE(s.ok()) << s.status();
    if (!s.ok()) break;
    total += reward;
    if (status != nullptr) *status = *s;
    if (*s != engine_plugin::EpisodeStatus::kRunning) break;
  }
  return total;
}

std::string WriteLevel(const std::string& name, const std::string& body) {
  const std::string path = absl::StrCat(std::getenv("TEST_TMPDIR"), "/", name, ".lua");
  std::ofstream(path) << "local game = require 'dmlab.system.game'\nlocal api = {}\n"
                      << body << "\nreturn api\n";
  return path;
}

}  // namespace hosts::dmlab
