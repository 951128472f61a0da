// The sandbox of untrusted levels (engine_plugin/sandbox.h), through the
// engine and the C ABI: each forbidden facility is absent, each limit stops
// the script with an error that names it, and the engine carries on.
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "engine_plugin/env_c_api.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using Settings = std::vector<std::pair<std::string, std::string>>;


// A level file whose init asserts `expression`.
std::string AssertingLevel(const std::string& expression) {
  return absl::StrCat("local api = {}\n", kMap, "\nfunction api:init()\n  assert(", expression,
                      ", 'not true')\nend\nreturn api\n");
}

// Create + settings + Init of the level file `name` with `source`.
absl::Status InitLevel(const std::string& name, const std::string& source,
                       const Settings& settings = {}) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(WriteLevel(name, source));
  if (!engine.ok()) return engine.status();
  for (const auto& [key, value] : settings) {
    if (absl::Status set = (*engine)->SetSetting(key, value); !set.ok()) return set;
  }
  return (*engine)->Init();
}

// Facilities a sandboxed level must not have, and what it keeps.
constexpr const char* kAbsentInSandbox[] = {
    // io writes stdout and stderr only (game_scripts_test.cc).
    "io.open('/etc/passwd') == nil",
    "select(2, io.open('/etc/passwd')):find('no files', 1, true)",
    "io.popen == nil or io.popen('ls') == nil",
    "io.read == nil or io.read() == nil",
    // Of debug only traceback and getinfo, which hands out no function.
    "(function() local n = 0 for k in pairs(debug) do n = n + 1 end return n end)() == 2",
    "debug.traceback ~= nil and debug.sethook == nil and debug.getupvalue == nil",
    "debug.getinfo(1).func == nil and debug.getinfo(1).currentline > 0",
    "not pcall(debug.getinfo, 1, 'f')",
    "not pcall(debug.getinfo, coroutine.create(function() end), 1)",
    // Levels count from the caller: 1 is the function calling getinfo.
    "(function() return debug.getinfo(1, 'n').name end)() == nil and "
    "select(2, pcall(debug.getinfo, 1, 'L')):find(\"only 'S', 'l', 'n' and 'u'\", 1, true)",
    "dofile == nil",
    "loadfile == nil",
    "newproxy == nil",
    "os.execute == nil",
    "os.exit == nil",
    "os.getenv == nil",
    "os.remove == nil",
    "os.rename == nil",
    "os.tmpname == nil",
    "package.loadlib == nil",
    "package.loaded.io == io and package.loaded.debug == nil",
    "require('io') == io",
    "not pcall(require, 'debug')",
    // The C searchers are gone: no shared library is ever looked for.
    "not select(2, pcall(require, 'no_such_module')):find('.so', 1, true)",
    // Bytecode is refused, text is not.
    "loadstring(string.dump(function() end)) == nil",
    "select(2, loadstring(string.dump(function() end))):find('binary chunks', 1, true)",
    "load(function() return nil end) ~= nil",
    "not pcall(require, '..secret')",
    "not pcall(tensor.ByteTensor, {file = {name = '/proc/self/environ'}})",
};

constexpr const char* kKeptInSandbox[] = {
    "type(os.time()) == 'number' and type(os.clock()) == 'number'",
    "type(os.date('%Y')) == 'string' and os.difftime(2, 1) == 1",
    "loadstring('return 1 + 1')() == 2",
    "load((function() local done return function() "
    "  if not done then done = true return 'return 3' end end end)())() == 3",
    "require('dmlab.system.random') ~= nil and require('dmlab.system.game') ~= nil",
    "require('dmlab.system.events') ~= nil",
    "require('dmlab.system.maze_generation') ~= nil",
    "tensor.DoubleTensor{1, 2}:sum() == 3",
    "string.rep('x', 3) == 'xxx' and math.floor(1.5) == 1 and table.concat({1, 2}) == '12'",
};

std::string WithTensor(const std::string& expression) {
  return absl::StrCat("(function() local tensor = require 'dmlab.system.tensor'; return ",
                      expression, " end)()");
}

TEST(SandboxTest, ALevelFromAPathIsSandboxedByDefault) {
  for (const char* expression : kAbsentInSandbox) {
    SCOPED_TRACE(expression);
    absl::Status init = InitLevel("absent", AssertingLevel(WithTensor(expression)));
    EXPECT_TRUE(init.ok()) << init;
  }
}

TEST(SandboxTest, TheSandboxKeepsWhatCannotReachOutside) {
  for (const char* expression : kKeptInSandbox) {
    SCOPED_TRACE(expression);
    absl::Status init = InitLevel("kept", AssertingLevel(WithTensor(expression)));
    EXPECT_TRUE(init.ok()) << init;
  }
}

TEST(SandboxTest, SandboxFalseRestoresTheFacilities) {
  for (const char* expression : {
           "io ~= nil and debug ~= nil and dofile ~= nil and loadfile ~= nil",
           "os.execute ~= nil and os.getenv ~= nil and package.loadlib ~= nil",
           "loadstring(string.dump(function() return 5 end))() == 5",
       }) {
    SCOPED_TRACE(expression);
    absl::Status init =
        InitLevel("restored", AssertingLevel(expression), {{"sandbox", "false"}});
    EXPECT_TRUE(init.ok()) << init;
  }
}

TEST(SandboxTest, RequireFindsPureLuaNeighboursOnly) {
  const std::string level = WriteLevel("neighbour_level", AssertingLevel(
      "require('neighbour_helper').answer == 42"));
  const std::string directory = level.substr(0, level.rfind('/'));
  std::ofstream(directory + "/neighbour_helper.lua") << "return {answer = 42}\n";
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
  ASSERT_TRUE(engine.ok());
  absl::Status init = (*engine)->Init();
  EXPECT_TRUE(init.ok()) << init;

  // A precompiled neighbour is refused like a precompiled level.
  std::ofstream(directory + "/binary_helper.lua") << "\033Lua\x51";
  EXPECT_THAT(std::string(InitLevel("binary_neighbour", AssertingLevel("require 'binary_helper'")).message()),
              HasSubstr("binary chunks are not allowed in the sandbox"));
  EXPECT_THAT(std::string(InitLevel("binary_level", "\033LuaQ\0").message()),
              HasSubstr("binary chunks are not allowed in the sandbox"));
}

TEST(SandboxTest, BuiltInLevelsAreUnaffectedAndRunInTheSandboxToo) {
  for (const Settings& settings : {Settings{}, Settings{{"sandbox", "true"}}}) {
    std::unique_ptr<Engine> engine = InitEngine("demo_maze", settings);
    ASSERT_NE(engine, nullptr);
    ASSERT_TRUE(engine->Start(0, 1).ok());
    engine->Act(Forward());
    double reward = 0;
    absl::StatusOr<EpisodeStatus> status = engine->Advance(100, &reward);
    EXPECT_TRUE(status.ok()) << status.status();
  }
}

TEST(SandboxTest, AGrowingTableHitsTheMemoryCap) {
  ExpectStartFailsThenRecovers(
      "grow", FailingStart("local t = {} while true do t[#t + 1] = {#t} end"),
      {{"memoryLimitMegabytes", "16"}},
      {"not enough memory", "memory reached its limit of 16 MiB", "memoryLimitMegabytes"});
}

// Module functions allocate in C++ frames (userdata, result tables), where
// a refusal would longjmp over destructors and leak (LeakSanitizer, under
// --config=asan, would say so): the cap must strike in script code only.
TEST(SandboxTest, TheCapNeverStrikesInsideModuleFunctions) {
  for (const char* body : {
           "local t = {} while true do t[#t + 1] = tensor.DoubleTensor(2) end",
           "local t = {} while true do t[#t + 1] = tensor.DoubleTensor{1, 2}:shape() end",
           "local t = {} local m = tensor.DoubleTensor(2, 2) "
           "while true do t[#t + 1] = m:select(1, 1) t[#t + 1] = m:val() end",
       }) {
    SCOPED_TRACE(body);
    ExpectStartFailsThenRecovers(
        "module_grow",
        FailingStart(absl::StrCat("local tensor = require 'dmlab.system.tensor' ", body)),
        {{"memoryLimitMegabytes", "4"}}, {"not enough memory", "memoryLimitMegabytes"});
  }
}

TEST(SandboxTest, AHugeStringHitsTheMemoryCap) {
  ExpectStartFailsThenRecovers("rep", FailingStart("local s = string.rep('x', 2 ^ 30)"), {},
                               {"not enough memory", "256 MiB"});
}

TEST(SandboxTest, TheMemoryCapAppliesWhileTheLevelLoads) {
  absl::Status init = InitLevel("load_grow", "local t = {} while true do t[#t + 1] = #t end",
                                {{"memoryLimitMegabytes", "8"}});
  EXPECT_THAT(std::string(init.message()), AllOf(HasSubstr("not enough memory"), HasSubstr("8 MiB")));
}

TEST(SandboxTest, ARunawayCallbackHitsTheInstructionLimit) {
  const Settings settings = {{"instructionLimit", "100000"}};
  const std::string limit = "exceeded the instruction limit of 100000 instructions";
  ExpectStartFailsThenRecovers("spin", FailingStart("while true do end"), settings, {limit});
  // Catching the error does not help: every later instruction fails too.
  ExpectStartFailsThenRecovers(
      "spin_pcall", FailingStart("while true do pcall(function() while true do end end) end"),
      settings, {limit});
  // Nor does spreading the work over fresh coroutines.
  ExpectStartFailsThenRecovers(
      "spin_coroutines",
      FailingStart("while true do coroutine.wrap(function() for i = 1, 900 do end end)() end"),
      settings, {limit});
}

TEST(SandboxTest, TheSandboxHasADefaultInstructionLimit) {
  ExpectStartFailsThenRecovers("spin_default", FailingStart("while true do end"), {},
                               {"exceeded the instruction limit of 1000000000 instructions"});
}

TEST(SandboxTest, EachCallbackGetsTheWholeInstructionLimit) {
  // 60% of the limit per frame, over many frames.
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("busy", absl::StrCat("local api = {}\n", kMap,
                                      "\nfunction api:hasEpisodeFinished()\n"
                                      "  local n = 0 for i = 1, 20000 do n = n + i end\n"
                                      "  return false\nend\nreturn api\n")),
      {{"instructionLimit", "100000"}});
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  absl::StatusOr<EpisodeStatus> status = engine->Advance(20, &reward);
  EXPECT_TRUE(status.ok()) << status.status();
}

// The level never requires dmlab.system.tensor: its frames must still be
// tensors (a regression: they used to arrive without their metatable).
TEST(SandboxTest, ARunawayFrameHookFailsAdvanceAndStartRecovers) {
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("spin_frame",
                 absl::StrCat("local api = {}\n", kMap,
                              "\nfunction api:start(episode) api.episode = episode end\n"
                              "function api:observeFrame(rgb)\n"
                              "  if api.episode == 0 and rgb:size() > 0 then\n"
                              "    while true do rgb:fill(1) end\n"
                              "  end\nend\nreturn api\n")),
      {{"instructionLimit", "50000"}});
  ASSERT_NE(engine, nullptr);
  absl::Status started = engine->Start(0, 1);
  EXPECT_THAT(std::string(started.message()), HasSubstr("exceeded the instruction limit of 50000"));
  ASSERT_TRUE(engine->Start(1, 1).ok());
  double reward = 0;
  EXPECT_TRUE(engine->Advance(3, &reward).ok());
}

TEST(SandboxTest, TensorMemoryIsBoundedPerLevel) {
  const Settings settings = {{"tensorMemoryLimitMegabytes", "8"}};
  // One tensor past the limit; many that are garbage at once; too many kept.
  ExpectStartFailsThenRecovers(
      "tensor_big", FailingStart("require('dmlab.system.tensor').DoubleTensor(2, 1024, 1024)"),
      settings, {"'DoubleTensor'", "tensor memory limit", "8 MiB"});
  ExpectStartFailsThenRecovers(
      "tensor_kept",
      FailingStart("local tensor = require 'dmlab.system.tensor'\n"
                   "local kept = {}\n"
                   "for i = 1, 100 do kept[i] = tensor.ByteTensor(1024, 1024) end"),
      settings, {"tensor memory limit"});
  absl::Status garbage = InitLevel(
      "tensor_garbage",
      AssertingLevel("(function() local tensor = require 'dmlab.system.tensor'\n"
                     "  for i = 1, 100 do tensor.ByteTensor(1024, 1024):clone() end\n"
                     "  return true end)()"),
      settings);
  EXPECT_TRUE(garbage.ok()) << garbage;
}

TEST(SandboxTest, TheCApiReportsALimitAndTheContextRecovers) {
  const std::string level = WriteLevel("c_api_spin", FailingStart("while true do end"));
  EnvCApi api;
  void* context = nullptr;
  char error[256];
  ASSERT_EQ(env_connect(level.c_str(), &api, &context, error, sizeof(error)), 0) << error;
  ASSERT_EQ(api.setting(context, "instructionLimit", "10000"), 0);
  ASSERT_EQ(api.init(context), 0) << api.error_message(context);
  EXPECT_NE(api.start(context, 0, 1), 0);
  EXPECT_THAT(api.error_message(context), HasSubstr("exceeded the instruction limit of 10000"));
  EXPECT_EQ(api.start(context, 1, 1), 0) << api.error_message(context);
  double reward = 0;
  EXPECT_EQ(api.advance(context, 2, &reward), EnvCApi_EnvironmentStatus_Running);
  api.release_context(context);
}

// Regressions: script values the engine reads outside a protected call.
// Each used to run a metamethod unprotected (Lua's panic ends the process)
// or to dereference the wrong userdata.
TEST(SandboxTest, MetamethodsAndReplacedModulesCannotCrashTheEngine) {
  constexpr char kThrowing[] = "setmetatable({}, {__index = function() error('boom') end})";
  // The api table's members are read raw.
  absl::Status init = InitLevel(
      "meta_api", absl::StrCat("local api = ", kThrowing, "\n", kMap, "\nreturn api\n"));
  EXPECT_TRUE(init.ok()) << init;
  // So are the specs of customObservationSpec.
  init = InitLevel("meta_spec",
                   absl::StrCat("local api = {}\n", kMap,
                                "\nfunction api:customObservationSpec() return {", kThrowing,
                                "} end\nreturn api\n"));
  EXPECT_THAT(std::string(init.message()), HasSubstr("name: string expected, got nil"));
  // start's require goes around _G's metatable, and what it finds must be
  // the random module. The host's writeProperty('restore') undoes both.
  for (const char* breaking : {
           "_G.require = nil setmetatable(_G, {__index = function() error('boom') end})",
           "package.loaded['dmlab.system.random'] = {}",
       }) {
    SCOPED_TRACE(breaking);
    std::unique_ptr<Engine> engine = InitEngine(WriteLevel(
        "broken_random",
        absl::StrCat("local api = {}\n", kMap,
                     "\nlocal real, require = require 'dmlab.system.random', require\n"
                     "function api:init() ", breaking, " end\n"
                     "function api:writeProperty() setmetatable(_G, nil) _G.require = require\n"
                     "  package.loaded['dmlab.system.random'] = real return true end\n"
                     "return api\n")));
    ASSERT_NE(engine, nullptr);
    EXPECT_THAT(std::string(engine->Start(0, 1).message()), HasSubstr("dmlab.system.random"));
    ASSERT_TRUE(engine->WriteProperty("restore", "1").ok());
    EXPECT_TRUE(engine->Start(1, 1).ok());
  }
}

}  // namespace
}  // namespace engine_plugin
