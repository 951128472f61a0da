// Every allocation a level can cause is charged to one of its budgets,
// and no Lua error crosses a live C++ object (docs/levels.md, "Sandbox").
// Each case used to grow the process far past the level's caps, or leak.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;
using Settings = std::vector<std::pair<std::string, std::string>>;

constexpr char kRequire[] =
    "local tensor = require 'dmlab.system.tensor'\n"
    "local events = require 'dmlab.system.events'\n"
    "local maze_generation = require 'dmlab.system.maze_generation'\n";

// A level whose init asserts what `body` (a function body) returns.
absl::Status InitAsserting(const std::string& name, const std::string& body,
                           const Settings& settings) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(WriteLevel(
      name, absl::StrCat(kRequire, "local api = {}\n", kMap,
                         "\nfunction api:init()\n  assert((function()\n", body,
                         "\n  end)())\nend\nreturn api\n")));
  if (!engine.ok()) return engine.status();
  for (const auto& [key, value] : settings) {
    if (absl::Status set = (*engine)->SetSetting(key, value); !set.ok()) return set;
  }
  return (*engine)->Init();
}

// The cap used to stay doubled for the rest of a callback after a Lua
// error inside a module's C++ frame (a val() refused mid-way).
TEST(MemoryCapsTest, TheCapStaysTheCapAfterAFailedModuleCall) {
  absl::Status init = InitAsserting(
      "cap_after_error",
      "  local big = tensor.DoubleTensor{1}:expand(2 ^ 26)\n"
      "  local ok, message = pcall(function() return big:val() end)\n"
      "  assert(not ok and message:find('not enough memory'), message)\n"
      "  local t = {}\n"
      "  ok = pcall(function() while true do t[#t + 1] = {} end end)\n"
      "  local peak = collectgarbage('count') * 1024\n"
      "  t = nil\n"
      "  assert(not ok and peak < 32 * 2 ^ 20 * 1.05, peak)\n"
      "  return true",
      {{"memoryLimitMegabytes", "32"}});
  EXPECT_TRUE(init.ok()) << init;
}

// Module functions read option tables raw: a metamethod (script code)
// never runs inside their C++ frames.
TEST(MemoryCapsTest, ModulesReadOptionTablesRaw) {
  absl::Status init = InitAsserting(
      "raw_options",
      "  local boom = {__index = function() error('boom') end}\n"
      "  local maze = maze_generation.randomMazeGeneration(\n"
      "      setmetatable({seed = 1, height = 11, width = 11}, boom))\n"
      "  assert(maze:entityLayer():find('*'))\n"
      "  return maze_generation.mazeGeneration(setmetatable({height = 3, width = 5}, boom))",
      {{"memoryLimitMegabytes", "32"}});
  EXPECT_TRUE(init.ok()) << init;
}

TEST(MemoryCapsTest, PrintingAnyShapeIsSmall) {
  absl::Status init = InitAsserting(
      "print_shapes",
      "  local ones = {} for i = 1, 30000 do ones[i] = 1 end\n"
      "  local deep = tostring(tensor.DoubleTensor(1):view(ones))\n"
      "  assert(deep:find('too many to print'), deep:sub(-80))\n"
      "  local sixes = {} for i = 1, 12 do sixes[i] = 6 end\n"
      "  local wide = tostring(tensor.ByteTensor{1}:expand(sixes))\n"
      "  return #wide < 200000",
      {{"memoryLimitMegabytes", "32"}});
  EXPECT_TRUE(init.ok()) << init;
}

// The C++ side of a tensor view counts against the Lua cap: a view of
// 30000 dimensions keeps 480 KB of shape and strides.
TEST(MemoryCapsTest, ManyDimensionalViewsCountAgainstTheLuaCap) {
  ExpectStartFailsThenRecovers(
      "deep_views",
      FailingStart(absl::StrCat(kRequire,
                                "local ones = {} for i = 1, 30000 do ones[i] = 1 end\n"
                                "local one, kept = tensor.DoubleTensor(1), {}\n"
                                "for i = 1, 1000 do kept[i] = one:view(ones) end")),
      {{"memoryLimitMegabytes", "16"}}, {"not enough memory"});
}

// A maze keeps its layers in C++: 2 MB for the largest.
TEST(MemoryCapsTest, MazesCountAgainstTheLuaCap) {
  ExpectStartFailsThenRecovers(
      "many_mazes",
      FailingStart(absl::StrCat(kRequire,
                                "local kept = {}\n"
                                "for i = 1, 1000 do\n"
                                "  kept[i] = maze_generation.mazeGeneration{height = 1024, width = 1024}\n"
                                "end")),
      {{"memoryLimitMegabytes", "16"}}, {"not enough memory"});
}

TEST(MemoryCapsTest, EventsAreChargedToTheirBudgetBeforeTheyAreCopied) {
  const Settings settings = {{"tensorMemoryLimitMegabytes", "16"}};
  for (const char* body : {
           // 1 GiB from a one-byte tensor.
           "events:add('big', tensor.ByteTensor{1}:expand(2 ^ 30))",
           // 64 copies of a 16 MiB string in one callback, in one add or many.
           "local s = string.rep('x', 2 ^ 24)\n"
           "events:add('strings', s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)",
           "local s = string.rep('x', 2 ^ 24) for i = 1, 64 do events:add('string', s) end",
       }) {
    SCOPED_TRACE(body);
    ExpectStartFailsThenRecovers("events_budget", FailingStart(absl::StrCat(kRequire, body)),
                                 settings, {"'add'", "events of one step may hold 16 MiB"});
  }
  // Names are kept for the engine's life: long ones, or too many, are refused.
  ExpectStartFailsThenRecovers(
      "event_name", FailingStart(absl::StrCat(kRequire, "events:add(string.rep('n', 2 ^ 22))")),
      settings, {"the event name has 4194304 bytes; at most 1024"});
  ExpectStartFailsThenRecovers(
      "event_names",
      FailingStart(absl::StrCat(kRequire, "for i = 1, 5000 do events:add('e' .. i) end")),
      settings, {"4096 event types"});
  // A step's budget is whole again at the next one.
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("event_steps",
                 absl::StrCat(kRequire, "local api = {}\n", kMap,
                              "\nfunction api:hasEpisodeFinished()\n"
                              "  events:add('frame', tensor.ByteTensor(10, 2 ^ 20))\n"
                              "  return false\nend\nreturn api\n")),
      settings);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  for (int step = 0; step < 5; ++step) {
    absl::StatusOr<EpisodeStatus> status = engine->Advance(1, &reward);
    ASSERT_TRUE(status.ok()) << status.status();
  }
  EXPECT_EQ(engine->events().size(), 1u);
}

// A custom observation that is not contiguous is compacted from the
// level's tensor budget.
TEST(MemoryCapsTest, ACompactedObservationIsChargedToTheTensorBudget) {
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("observation_expand",
                 absl::StrCat(kRequire, "local api = {}\n", kMap,
                              "\nfunction api:customObservationSpec()\n"
                              "  return {{name = 'HUGE', type = 'Bytes', shape = {4096, 4096}}}\n"
                              "end\n"
                              "function api:customObservation()\n"
                              "  return tensor.ByteTensor(1, 1):expand(4096, 4096)\n"
                              "end\nreturn api\n")),
      {{"tensorMemoryLimitMegabytes", "8"}});
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  absl::StatusOr<ObservationValue> huge = engine->Observation(ObservationIndex(*engine, "HUGE"));
  EXPECT_THAT(std::string(huge.status().message()), HasSubstr("tensor memory limit"));
}

}  // namespace
}  // namespace engine_plugin
