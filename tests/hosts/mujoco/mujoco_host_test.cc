// The MuJoCo host through the plugin: the lent state against a raw MuJoCo
// simulation of the same model, the level's callbacks and what they may
// keep, and episode ends.
#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hosts/mujoco/mujoco_test_support.h"

namespace hosts::mujoco {
namespace {

using engine_plugin::Engine;
using engine_plugin::EpisodeStatus;
using ::testing::HasSubstr;

// Reports what the last afterStep saw through its lent state, to 17
// digits: time, qpos, qvel, ctrl, and the pole's position.
constexpr char kRecordingLevel[] = R"(
local seen = ''
local function text(values)
  if type(values) == 'number' then values = {values} end  -- val() of one element
  local parts = {}
  for i, v in ipairs(values) do parts[i] = string.format('%.17g', v) end
  return table.concat(parts, ' ')
end
function api:reset(state)
  state.qpos:val{0.1, 0.2}
  state.qvel:val{-0.3, 0.5}
end
function api:afterStep(state)
  seen = table.concat({string.format('%.17g', state.time), text(state.qpos:val()),
                       text(state.qvel:val()), text(state.ctrl:val()),
                       text(state.xpos(3):val())}, ' ')
  return 0
end
function api:readProperty(key) if key == 'seen' then return seen end end
)";

std::vector<double> Numbers(const std::string& text) {
  std::vector<double> numbers;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    numbers.push_back(std::strtod(std::string(word).c_str(), nullptr));
  }
  return numbers;
}

TEST(MujocoHostTest, TheLentStateIsMujocosOwnAfterEveryStep) {
  const std::string folder = TestFolder("lent_state");
  const std::string level = WriteMujocoLevel(folder, BuiltinModel("cartpole.xml"), kRecordingLevel);
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());

  RawSimulation raw(folder + "/model.xml");
  ASSERT_NE(raw.data, nullptr);
  raw.data->qpos[0] = 0.1;
  raw.data->qpos[1] = 0.2;
  raw.data->qvel[0] = -0.3;
  raw.data->qvel[1] = 0.5;
  mj_forward(raw.model, raw.data);
  EXPECT_EQ(Doubles(*engine, "QPOS"), (std::vector<double>{0.1, 0.2}));

  for (int step = 0; step < 200; ++step) {
    const double action = std::sin(step * 0.1) * 1.5;  // beyond 1 half the time: clamped
    ASSERT_TRUE(engine->ActContinuous({action}).ok());
    double reward = 0;
    ASSERT_EQ(*engine->Advance(1, &reward), EpisodeStatus::kRunning);
    raw.data->ctrl[0] = std::clamp(action, -1.0, 1.0);
    mj_step(raw.model, raw.data);

    std::string seen;
    ASSERT_TRUE(engine->ReadProperty("seen", &seen).ok());
    const mjData& d = *raw.data;
    const std::vector<double> expected = {d.time,    d.qpos[0],       d.qpos[1],       d.qvel[0],
                                          d.qvel[1], d.ctrl[0],       d.xpos[6],       d.xpos[7],
                                          d.xpos[8]};
    ASSERT_EQ(Numbers(seen), expected) << "step " << step;
    ASSERT_EQ(Doubles(*engine, "QPOS"), std::vector<double>(d.qpos, d.qpos + 2));
    ASSERT_EQ(Doubles(*engine, "QVEL"), std::vector<double>(d.qvel, d.qvel + 2));
  }
  std::string clamped;
  ASSERT_TRUE(engine->ReadProperty("engine.clampedActions", &clamped).ok());
  EXPECT_GT(std::stoi(clamped), 50);
}

TEST(MujocoHostTest, BeforeStepAdjustsTheControlBeforePhysics) {
  const std::string folder = TestFolder("before_step");
  const std::string level = WriteMujocoLevel(folder, BuiltinModel("cartpole.xml"), R"(
function api:beforeStep(state) state.ctrl(1):val(state.ctrl(1):val() / 2 + 0.25) end
function api:afterStep(state) return 0 end
)");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  RawSimulation raw(folder + "/model.xml");
  for (int step = 0; step < 50; ++step) {
    ASSERT_TRUE(engine->ActContinuous({-0.8}).ok());
    double reward = 0;
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
    raw.data->ctrl[0] = -0.8 / 2 + 0.25;
    mj_step(raw.model, raw.data);
  }
  EXPECT_EQ(Doubles(*engine, "QPOS"), std::vector<double>(raw.data->qpos, raw.data->qpos + 2));
}

// What a level keeps of its state is an error outside the callbacks,
// naming the lender. In a later callback the state is that call's state:
// its writable arrays are lent again for the whole call (the host lends
// one userdata per array, call after call), and a computed array's copy
// once it is read again.
TEST(MujocoHostTest, AStateKeptPastItsCallbackIsAnErrorNamingTheLender) {
  const std::string level = WriteMujocoLevel(TestFolder("kept"), BuiltinModel("cartpole.xml"), R"(
local keptState, keptQpos, keptView, keptXpos
local report = {}
local function failure(f) return select(2, pcall(f)) end
function api:afterStep(state)
  if keptState then
    report.same = tostring(rawequal(keptState, state))
    report.writable = tostring(rawequal(keptQpos, state.qpos)) .. ' ' ..
                      tostring(keptView:val() == state.qpos(2):val())
    report.unread = failure(function() return keptXpos:val() end)
    report.read = tostring(rawequal(keptXpos, state.xpos)) .. ' ' ..
                  tostring(keptXpos(2, 1):val() == state.xpos(2, 1):val())
  end
  keptState, keptQpos, keptXpos = state, state.qpos, state.xpos
  keptView = keptQpos:narrow(1, 2, 1)
  return 0
end
function api:readProperty(key)
  if key == 'tensor' then return failure(function() return keptQpos:val() end) end
  if key == 'write' then return failure(function() keptQpos:fill(0) end) end
  if key == 'view' then return failure(function() return keptView:val() end) end
  if key == 'field' then return failure(function() return keptState.qvel:val() end) end
  if key == 'computed' then return failure(function() return keptState.xpos end) end
  if key == 'time' then return failure(function() return keptState.time end) end
  if key == 'model' then return failure(function() return keptState.model end) end
  return report[key]
end
)");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  ASSERT_TRUE(engine->Advance(2, &reward).ok());
  for (const char* key : {"tensor", "write", "view", "field", "unread"}) {
    std::string message;
    ASSERT_TRUE(engine->ReadProperty(key, &message).ok()) << key;
    EXPECT_THAT(message, HasSubstr("invalid")) << key;
    EXPECT_THAT(message, HasSubstr("mujoco state")) << key;
  }
  for (const char* key : {"computed", "time", "model"}) {
    std::string message;
    ASSERT_TRUE(engine->ReadProperty(key, &message).ok()) << key;
    EXPECT_THAT(message, HasSubstr("read from a state kept past the callback")) << key;
  }
  for (const char* key : {"same", "writable", "read"}) {
    std::string message;
    ASSERT_TRUE(engine->ReadProperty(key, &message).ok()) << key;
    EXPECT_THAT(message, ::testing::StartsWith("true")) << key;
    EXPECT_THAT(message, ::testing::Not(HasSubstr("false"))) << key;
  }
}

// A step of a level that only reads its lent state makes no garbage:
// with the collector stopped, the Lua heap does not grow over 1000 steps.
TEST(MujocoHostTest, ReadingTheLentStateMakesNoGarbage) {
  const std::string level = WriteMujocoLevel(TestFolder("steady"), BuiltinModel("cartpole.xml"), R"(
local steps, before, after = 0
local total = 0
function api:afterStep(state)
  steps = steps + 1
  if steps == 10 then collectgarbage('stop') before = collectgarbage('count') end
  total = state.qpos:sum() + state.qvel:max() + state.ctrl:sum() + state.xpos:sum() +
          state.model.body_mass:sum() + state.time
  if steps == 1010 then after = collectgarbage('count') end
  return 0
end
function api:readProperty(key)
  if key == 'grown' then return string.format('%.3f', after - before) end
end
)");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  for (int step = 0; step < 1010; ++step) ASSERT_TRUE(engine->Advance(1, &reward).ok());
  std::string grown;
  ASSERT_TRUE(engine->ReadProperty("grown", &grown).ok());
  EXPECT_EQ(grown, "0.000") << "KiB the Lua heap grew by in 1000 steps";
}

// The state is one object from call to call: a field assigned, or hidden
// by rawset, would shadow the real array in every later call.
TEST(MujocoHostTest, TheStatesFieldsCannotBeAssigned) {
  const std::string level = WriteMujocoLevel(TestFolder("assign"), BuiltinModel("cartpole.xml"), R"(
local report = {}
function api:afterStep(state)
  report.assign = select(2, pcall(function() state.qpos = 1 end))
  report.model = select(2, pcall(function() state.model.body_mass = 1 end))
  report.rawset = select(2, pcall(rawset, state, 'qpos', 1))
  report.type = type(state) .. ' ' .. tostring(getmetatable(state))
  return 0
end
function api:readProperty(key) return report[key] end
)");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  std::string message;
  ASSERT_TRUE(engine->ReadProperty("assign", &message).ok());
  EXPECT_THAT(message, HasSubstr("mujoco state: 'qpos' cannot be assigned"));
  ASSERT_TRUE(engine->ReadProperty("model", &message).ok());
  EXPECT_THAT(message, HasSubstr("mujoco state: 'body_mass' cannot be assigned"));
  ASSERT_TRUE(engine->ReadProperty("rawset", &message).ok());
  EXPECT_THAT(message, HasSubstr("table expected"));
  ASSERT_TRUE(engine->ReadProperty("type", &message).ok());
  EXPECT_EQ(message, "userdata mujoco state");
}

TEST(MujocoHostTest, TheModelsArraysAreLentInTheirOwnTypes) {
  const std::string level = WriteMujocoLevel(TestFolder("model_arrays"), BuiltinModel("cartpole.xml"), R"(
local report = {}
function api:reset(state)
  local model = state.model
  report.mass = model.body_mass(3):val()
  report.range = table.concat(model.actuator_ctrlrange(1):val(), ' ')
  report.shape = table.concat(model.actuator_ctrlrange:shape(), 'x')
  report.types = model.body_mass:type() .. ' ' .. model.jnt_type:type() .. ' ' ..
                 model.geom_rgba:type()
  report.hinge = model.jnt_type(2):val()
  report.unknown = select(2, pcall(function() return model.body_weight end))
end
function api:readProperty(key) return report[key] and tostring(report[key]) end
)");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  const std::pair<const char*, std::string> expected[] = {
      {"mass", "0.1"},
      {"range", "-1 1"},
      {"shape", "1x2"},
      {"types", "dmlab.system.tensor.DoubleTensor dmlab.system.tensor.Int32Tensor "
                "dmlab.system.tensor.FloatTensor"},
      {"hinge", absl::StrCat(static_cast<int>(mjJNT_HINGE))}};
  for (const auto& [key, value] : expected) {
    std::string read;
    ASSERT_TRUE(engine->ReadProperty(key, &read).ok());
    EXPECT_EQ(read, value) << key;
  }
  std::string message;
  ASSERT_TRUE(engine->ReadProperty("unknown", &message).ok());
  EXPECT_THAT(message, HasSubstr("the model has no array 'body_weight'"));
}

TEST(MujocoHostTest, AWriteIntoWhatMujocoComputesOrTheModelHasNoEffectAndIsAnError) {
  const std::string level = WriteMujocoLevel(TestFolder("read_only"), BuiltinModel("cartpole.xml"), R"(
local target = 'none'
local seen = ''
function api:reset(state)
  seen = string.format('%.17g %.17g', state.model.body_mass(3):val(), state.xpos(3)(3):val())
end
function api:afterStep(state)
  if target == 'xpos' then state.xpos(3):fill(99) end
  if target == 'sensor' then state.qacc:fill(7) end
  if target == 'mass' then state.model.body_mass(3):val(5) end
  if target == 'ctrl' then state.ctrl:fill(0.5) end  -- the state: allowed
  return 0
end
function api:writeProperty(key, value) target = value; return true end
function api:readProperty(key) if key == 'seen' then return seen end end
)");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  std::string before;
  ASSERT_TRUE(engine->ReadProperty("seen", &before).ok());
  for (const auto& [target, name] : {std::pair{"xpos", "state.xpos"},
                                     std::pair{"sensor", "state.qacc"},
                                     std::pair{"mass", "state.model.body_mass"}}) {
    ASSERT_TRUE(engine->WriteProperty("target", target).ok());
    ASSERT_TRUE(engine->Start(0, 1).ok());
    double reward = 0;
    absl::StatusOr<EpisodeStatus> stepped = engine->Advance(1, &reward);
    ASSERT_FALSE(stepped.ok()) << target;
    EXPECT_THAT(stepped.status().message(),
                HasSubstr(absl::StrCat("level callback 'afterStep' wrote into ", name,
                                       ", which is read-only")));
    EXPECT_THAT(stepped.status().message(), HasSubstr("had no effect"));
  }
  // No effect: the model's mass and the reset pose are as they were.
  ASSERT_TRUE(engine->WriteProperty("target", "ctrl").ok());
  ASSERT_TRUE(engine->Start(0, 1).ok());
  std::string after;
  ASSERT_TRUE(engine->ReadProperty("seen", &after).ok());
  EXPECT_EQ(after, before);
  double reward = 0;
  EXPECT_EQ(*engine->Advance(3, &reward), EpisodeStatus::kRunning);
}

// The level's writes land in a copy: neither MuJoCo nor dmlab.system.mujoco's
// lookups in the same callback see them. Filling name_bodyadr with 2^30 and
// then looking a body up by name read 2^30 bytes past the model's names
// (SIGSEGV).
TEST(MujocoHostTest, LookupsInTheCallbackThatWroteTheModelSeeTheRealModel) {
  const std::string level = WriteMujocoLevel(TestFolder("tampered"), BuiltinModel("cartpole.xml"), R"(
local mujoco = require 'dmlab.system.mujoco'
local found = ''
function api:reset(s)
  s.model.name_bodyadr:fill(2^30)
  s.model.body_parentid:fill(-7)
  -- The same array again: the same copy.
  found = string.format('%d %d', mujoco:body('pole'), s.model.name_bodyadr(1):val())
end
function api:readProperty(key) if key == 'found' then return found end end
)");
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
  ASSERT_TRUE(engine.ok()) << engine.status();
  ASSERT_TRUE((*engine)->Init().ok());
  const absl::Status started = (*engine)->Start(0, 1);
  EXPECT_THAT(started.message(), HasSubstr("wrote into state.model.name_bodyadr, which is "
                                           "read-only"));
  std::string found;
  ASSERT_TRUE((*engine)->ReadProperty("found", &found).ok());
  // The pole is body 3 (1-based, after the world and the cart); the copy
  // kept the write.
  EXPECT_EQ(found, absl::StrCat(3, " ", 1 << 30));
}

// Reading an array again in the same callback lends the same copy: 2000
// reads of a 1 MB height field (after rawset(..., nil), when the model was
// a table that kept what was read) used to copy it 2000 times (2 GB, in a
// level limited to 64 MiB).
TEST(MujocoHostTest, RereadingAnArrayCostsNoMoreMemory) {
  const std::string level = WriteMujocoLevel(TestFolder("reread"), R"(<mujoco>
  <asset><hfield name="h" nrow="500" ncol="500" size="1 1 .1 .1"/></asset>
  <worldbody><geom type="hfield" hfield="h"/><body><freejoint/><geom size=".1"/></body></worldbody>
</mujoco>)", R"(
local count = 0
function api:reset(s)
  for i = 1, 2000 do
    count = count + s.model.hfield_data:size()
  end
end
function api:readProperty(key) if key == 'count' then return tostring(count) end end
)");
  struct rusage before;
  getrusage(RUSAGE_SELF, &before);
  std::unique_ptr<Engine> engine = InitEngine(level, {{"tensorMemoryLimitMegabytes", "64"}});
  ASSERT_NE(engine, nullptr);
  const absl::Status started = engine->Start(0, 1);
  ASSERT_TRUE(started.ok()) << started;
  std::string count;
  ASSERT_TRUE(engine->ReadProperty("count", &count).ok());
  EXPECT_EQ(count, std::to_string(2000 * 500 * 500));
  struct rusage after;
  getrusage(RUSAGE_SELF, &after);
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 200 * 1024) << "KB of peak memory more";
}

TEST(MujocoHostTest, TheStateNamesItsFields) {
  const std::string level = WriteMujocoLevel(TestFolder("fields"), BuiltinModel("cartpole.xml"), R"(
function api:afterStep(state) return state.qpoz end
)");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  absl::StatusOr<EpisodeStatus> stepped = engine->Advance(1, &reward);
  ASSERT_FALSE(stepped.ok());
  EXPECT_THAT(stepped.status().message(), HasSubstr("has no field 'qpoz' (it has qpos, qvel"));
}

TEST(MujocoHostTest, AfterStepEndsTheEpisode) {
  const std::string level = WriteMujocoLevel(TestFolder("ends"), BuiltinModel("cartpole.xml"), R"(
local steps, how = 0, nil
function api:reset() steps = 0 end
function api:afterStep(state)
  steps = steps + 1
  if steps == 3 then return 0.5, how end
  return 0.25
end
function api:writeProperty(key, value) how = value; return true end
)");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  for (const auto& [how, status] :
       {std::pair{"terminated", EpisodeStatus::kTerminated},
        std::pair{"truncated", EpisodeStatus::kInterrupted}}) {
    ASSERT_TRUE(engine->WriteProperty("how", how).ok());
    ASSERT_TRUE(engine->Start(0, 1).ok());
    double reward = 0;
    EXPECT_EQ(*engine->Advance(10, &reward), status) << how;
    EXPECT_DOUBLE_EQ(reward, 1.0);  // 0.25 + 0.25 + 0.5, and no step after
  }
  ASSERT_TRUE(engine->WriteProperty("how", "finished").ok());
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  absl::StatusOr<EpisodeStatus> stepped = engine->Advance(10, &reward);
  ASSERT_FALSE(stepped.ok());
  EXPECT_THAT(stepped.status().message(),
              HasSubstr("'finished' as its second result: nil, 'terminated' or 'truncated'"));
}

TEST(MujocoHostTest, TheModuleResolvesNames) {
  const std::string level = WriteMujocoLevel(TestFolder("names"), BuiltinModel("cartpole.xml"), R"(
local mujoco = require 'dmlab.system.mujoco'
local early = select(2, pcall(function() return mujoco:body('pole') end))
local report = {}
function api:reset(state)
  local sizes = mujoco:sizes()
  report = {early = early, pole = mujoco:body('pole'), hinge = mujoco:joint('hinge'),
            qpos = mujoco:qposIndex('hinge'), qvel = mujoco:qvelIndex('hinge'),
            actuator = mujoco:actuator('slide'), camera = mujoco:camera('fixed'),
            sizes = sizes.nq .. ' ' .. sizes.nv .. ' ' .. sizes.nu .. ' ' .. sizes.nbody,
            timestep = mujoco:timestep(), control = mujoco:controlTimestep(),
            unknown = select(2, pcall(function() return mujoco:joint('elbow') end)),
            dot = select(2, pcall(function() return mujoco.body('pole') end))}
end
function api:afterStep() return 0 end
function api:readProperty(key) return report[key] and tostring(report[key]) end
)");
  std::unique_ptr<Engine> engine = InitEngine(level, {{"frameSkip", "4"}});
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"pole", "3"},     {"hinge", "2"},       {"qpos", "2"},
      {"qvel", "2"},     {"actuator", "1"},    {"camera", "1"},
      {"sizes", "2 2 1 3"}, {"timestep", "0.01"}, {"control", "0.04"}};
  for (const auto& [key, value] : expected) {
    std::string read;
    ASSERT_TRUE(engine->ReadProperty(key, &read).ok());
    EXPECT_EQ(read, value) << key;
  }
  std::string message;
  ASSERT_TRUE(engine->ReadProperty("early", &message).ok());
  EXPECT_THAT(message, HasSubstr("'mujoco:body': the model loads after init"));
  ASSERT_TRUE(engine->ReadProperty("unknown", &message).ok());
  EXPECT_THAT(message, HasSubstr("'mujoco:joint': the model has no joint named 'elbow'"));
  ASSERT_TRUE(engine->ReadProperty("dot", &message).ok());
  EXPECT_THAT(message, HasSubstr("must be called with ':'"));
  std::string control;
  ASSERT_TRUE(engine->ReadProperty("engine.controlTimestep", &control).ok());
  EXPECT_EQ(control, "0.04");
  EXPECT_EQ(engine->fps(), 25);
}

}  // namespace
}  // namespace hosts::mujoco
