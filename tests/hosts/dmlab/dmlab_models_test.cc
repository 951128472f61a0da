// Models on the DeepMind Lab host, on test_engine.so (test_engine_models.h):
// as the engine's renderer registers a pickup's model it asks the level
// for another name (api:replaceModelName) and, where no file is, for the
// model itself (api:createModel), reads it through the getters and clears
// it; model:loadMD3 and model:saveMD3 reach the engine's files. The test
// engine logs what it registered to <home>/models.log.
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hosts/dmlab/dmlab_testing.h"

namespace hosts::dmlab {
namespace {

using engine_plugin::Engine;
using ::testing::HasSubstr;
using ::testing::Not;

// A level on "corridor_pickups" whose pickups' models are named by
// `models` (a Lua table from class name to model name), then `body`.
std::string Level(const std::string& name, const std::string& models, const std::string& body) {
  return WriteLevel(name, absl::StrCat(R"(
local model = require 'dmlab.system.model'
local transform = require 'dmlab.system.transform'
function api:nextMap() return 'corridor_pickups' end
local models = )", models, R"(
function api:createPickup(classname)
  if not models[classname] then return nil end
  return {name = classname, classname = classname, model = models[classname], quantity = 1,
          type = 2}
end
)", body));
}

struct LevelRun {
  std::unique_ptr<Engine> engine;
  absl::Status start;
  std::string home;

  // The engine's models.log.
  std::string Log() const {
    std::ifstream in(home + "/models.log");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

LevelRun Start(const std::string& level) {
  LevelRun run;
  run.home = absl::StrCat(std::getenv("TEST_TMPDIR"), "/home_", std::filesystem::path(level).stem().string());
  std::filesystem::remove_all(run.home);
  run.engine = Created(level);
  if (run.engine == nullptr) return run;
  EXPECT_TRUE(run.engine->SetSetting("dmlabTempFolder", run.home).ok());
  absl::Status init = run.engine->Init();
  EXPECT_TRUE(init.ok()) << init;
  run.start = run.engine->Start(0, 7);
  return run;
}

TEST(DmlabModelsTest, TheLevelBuildsTheModelsTheEngineCannotFind) {
  LevelRun run = Start(Level("built", "{apple_reward = 'apple', lemon_reward = 'lemon'}", R"(
api.asked = {}
function api:createModel(name)
  api.asked[#api.asked + 1] = name
  if name == 'apple' then
    return model:cube{size = 2, shaderName = 'textures/model/apple_d'}
  end
end
function api:readProperty(key) return table.concat(api.asked, ' ') end
)"));
  ASSERT_TRUE(run.start.ok()) << run.start;
  // Three levels of detail asked for the apple, as the real renderer does;
  // the lemon once, unbuilt.
  std::string asked;
  ASSERT_TRUE(run.engine->ReadProperty("asked", &asked).ok());
  EXPECT_EQ(asked, "apple apple apple lemon");
  const std::string log = run.Log();
  // DeepMind Lab's cube: 6 faces of 4 vertices, its first at (1, 1, -1).
  EXPECT_THAT(log, HasSubstr("model apple surface cube_surface shader textures/model/apple_d "
                             "vertices 24 faces 12 first 1 1 -1\n"));
  EXPECT_THAT(log, HasSubstr("model apple tags 54\n"));
  EXPECT_THAT(log, HasSubstr("model lemon missing\n"));
}

TEST(DmlabModelsTest, ReplacedNamesAndTexturePrefixesReachTheEngine) {
  LevelRun run = Start(Level("replaced", "{apple_reward = 'apple'}", R"(
function api:replaceModelName(name)
  if name == 'apple' then return 'models/box.md3', 'red_' end
end
)"));
  ASSERT_TRUE(run.start.ok()) << run.start;
  EXPECT_THAT(run.Log(), HasSubstr("model apple surface box_surface shader red_textures/box "
                                   "vertices 4 faces 2 first -8 -8 0\n"));
}

// DeepMind Lab's human-recognisable pickups: the engine's MD3 loaded,
// its shaders prefixed, scaled by a hierarchy.
TEST(DmlabModelsTest, LoadedModelsAreBuiltOn) {
  LevelRun run = Start(Level("loaded", "{apple_reward = 'box%scale'}", R"(
function api:createModel(name)
  local box = model:loadMD3('models/box.md3')
  assert(box.name == 'box' and box.surfaces.box_surface.vertices:size(1) == 4)
  assert(box.locators.tag_top(4, 3):val() == 16)
  for _, surface in pairs(box.surfaces) do surface.shaderName = 'big_' .. surface.shaderName end
  return model:hierarchy{transform = transform.scale{2, 2, 2}, model = box}
end
)"));
  ASSERT_TRUE(run.start.ok()) << run.start;
  EXPECT_THAT(run.Log(), HasSubstr("model box%scale surface root_box_surface shader "
                                   "big_textures/box vertices 4 faces 2 first -16 -16 0\n"));
}

TEST(DmlabModelsTest, SavedModelsLoadBack) {
  LevelRun run = Start(Level("saved", "{}", R"(
function api:readProperty(key)
  model:saveMD3(model:sphere{radius = 3, shaderName = 'ball'}, 'models/ball.md3')
  local ball = model:loadMD3('models/ball.md3')
  local surface = ball.surfaces.sphere_surface
  return table.concat({ball.name, surface.shaderName, surface.vertices:size(1),
                       surface.indices:size(1)}, ' ')
end
)"));
  ASSERT_TRUE(run.start.ok()) << run.start;
  std::string value;
  ASSERT_TRUE(run.engine->ReadProperty("ball", &value).ok());
  EXPECT_EQ(value, "sphere ball 168 224");
}

TEST(DmlabModelsTest, ModelFilesAreTheEnginesOnly) {
  LevelRun run = Start(Level("paths", "{}", R"(
function api:readProperty(key)
  local ok, why = pcall(model[key], model, key == 'saveMD3' and model:cube{} or nil, '../../etc/x')
  if key == 'loadMD3' then ok, why = pcall(model.loadMD3, model, '/etc/passwd') end
  if key == 'missing' then ok, why = pcall(model.loadMD3, model, 'models/none.md3') end
  return tostring(ok) .. ' ' .. tostring(why)
end
)"));
  ASSERT_TRUE(run.start.ok()) << run.start;
  std::string value;
  ASSERT_TRUE(run.engine->ReadProperty("saveMD3", &value).ok());
  EXPECT_THAT(value, HasSubstr("false 'model:saveMD3': '../../etc/x' is not a path in the "
                               "engine's file system"));
  ASSERT_TRUE(run.engine->ReadProperty("loadMD3", &value).ok());
  EXPECT_THAT(value, HasSubstr("false 'model:loadMD3': '/etc/passwd' is not a path"));
  ASSERT_TRUE(run.engine->ReadProperty("missing", &value).ok());
  EXPECT_THAT(value, HasSubstr("false 'model:loadMD3': unable to open model file: models/none.md3"));
}

TEST(DmlabModelsTest, BadModelsFailTheStartNamingTheCallback) {
  struct Case {
    const char* callback;
    const char* expected;
  };
  const Case cases[] = {
      {"function api:createModel(name) return {surfaces = 3} end",
       "[createModel] - the model for 'apple': surfaces: table expected, got number"},
      {R"(function api:createModel(name)
            local m = model:cube{}
            m.surfaces.cube_surface.indices(1, 1):val(99)
            return m
          end)",
       "[createModel] - the model for 'apple': surfaces.cube_surface.indices: vertex 99 is "
       "outside 1 to 24"},
      {R"(function api:createModel(name)
            local m = model:cube{}
            m.surfaces.cube_surface.vertices = m.surfaces.cube_surface.vertices:double()
            return m
          end)",
       "surfaces.cube_surface.vertices: dmlab.system.tensor.FloatTensor N x 8 expected, got "
       "dmlab.system.tensor.DoubleTensor"},
      {R"(function api:createModel(name)
            return model:cube{size = 1, segments = 200}
          end)",
       "[createModel] - the model for 'apple': the model's MD3 would take"},
      {"function api:createModel(name) error('no model today') end", "no model today"},
      {"function api:replaceModelName(name) return nil, 'prefix' end",
       "[replaceModelName] - Return arg2 (texturePrefix) must be nil"},
      {"function api:replaceModelName(name) return 3 end",
       "[replaceModelName] - must return a model name"},
      {"function api:replaceModelName(name) return string.rep('m', 100) end",
       "[replaceModelName] - the name or prefix for 'apple' is longer than the engine's 63"},
  };
  for (const Case& c : cases) {
    LevelRun run = Start(Level("bad", "{apple_reward = 'apple'}", c.callback));
    EXPECT_THAT(run.start.ToString(), HasSubstr(c.expected)) << c.callback;
    // The next start recovers: a new map load asks again, and fails again,
    // but the engine is usable.
    EXPECT_FALSE(run.engine->Start(1, 8).ok());
  }
}

}  // namespace
}  // namespace hosts::dmlab
