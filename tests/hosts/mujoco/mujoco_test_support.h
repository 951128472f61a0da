// Helpers for the MuJoCo host's tests: levels written beside their
// models in the test's temporary directory, and a raw MuJoCo simulation
// of the same model to compare the host with.
#ifndef TESTS_HOSTS_MUJOCO_MUJOCO_TEST_SUPPORT_H_
#define TESTS_HOSTS_MUJOCO_MUJOCO_TEST_SUPPORT_H_

#include <mujoco/mujoco.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gtest/gtest.h"
#include "levels/builtin_levels.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace hosts::mujoco {

// A fresh folder under TEST_TMPDIR.
inline std::string TestFolder(const std::string& name) {
  const char* root = std::getenv("TEST_TMPDIR");
  const std::string folder = absl::StrCat(root ? root : "/tmp", "/", name);
  std::system(absl::StrCat("rm -rf '", folder, "' && mkdir -p '", folder, "'").c_str());
  return folder;
}

inline void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

// The built-in model file levels/models/<name>.
inline std::string BuiltinModel(const std::string& name) {
  return std::string(*levels::FindBuiltinLevelFile("models/" + name));
}

// A MuJoCo level in `folder`: `model` is written as model.xml beside it
// and the level's model() names it; `body` defines the rest of api.
inline std::string WriteMujocoLevel(const std::string& folder, const std::string& model,
                                    const std::string& body) {
  WriteFile(folder + "/model.xml", model);
  const std::string path = folder + "/level.lua";
  WriteFile(path, absl::StrCat("-- host: mujoco\nlocal api = {}\n",
                               "function api:model() return {file = 'model.xml'} end\n", body,
                               "\nreturn api\n"));
  return path;
}

// The plugin's own helpers: InitEngine, ObservationIndex.
using engine_plugin::InitEngine;
using engine_plugin::ObservationIndex;

// The same model simulated directly, for comparison.
struct RawSimulation {
  explicit RawSimulation(const std::string& path) {
    char error[1024] = "";
    model = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
    EXPECT_NE(model, nullptr) << error;
    if (model != nullptr) data = mj_makeData(model);
  }
  ~RawSimulation() {
    if (data != nullptr) mj_deleteData(data);
    if (model != nullptr) mj_deleteModel(model);
  }
  RawSimulation(const RawSimulation&) = delete;
  RawSimulation& operator=(const RawSimulation&) = delete;

  mjModel* model = nullptr;
  mjData* data = nullptr;
};

// An observation's values as doubles (float64 observations).
inline std::vector<double> Doubles(engine_plugin::Engine& engine, const std::string& name) {
  absl::StatusOr<engine_plugin::ObservationValue> value =
      engine.Observation(ObservationIndex(engine, name));
  EXPECT_TRUE(value.ok()) << value.status();
  if (!value.ok()) return {};
  const auto* data = reinterpret_cast<const double*>(*value->tensor.data());
  return std::vector<double>(data, data + value->tensor.layout().num_elements());
}

}  // namespace hosts::mujoco

#endif  // TESTS_HOSTS_MUJOCO_MUJOCO_TEST_SUPPORT_H_
