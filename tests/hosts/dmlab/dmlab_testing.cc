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

std::string WriteLevel(const std::string& name, const std::string& body) {
  const std::string path = absl::StrCat(std::getenv("TEST_TMPDIR"), "/", name, ".lua");
  std::ofstream(path) << "local game = require 'dmlab.system.game'\nlocal api = {}\n"
                      << body << "\nreturn api\n";
  return path;
}

}  // namespace hosts::dmlab
