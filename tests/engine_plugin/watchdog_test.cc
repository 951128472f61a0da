// The instruction watchdog against levels that try to outlast it: message
// handlers that loop, a replaced debug.traceback, and tensor calls that
// run for hours inside one C function. A regression here hangs the test
// (its timeout fails it) instead of passing.
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

const Settings kLimit = {{"instructionLimit", "100000"}};
constexpr char kStopped[] = "exceeded the instruction limit of 100000 instructions";

// Lua runs the handler of an error raised from the count hook with hooks
// off: a looping handler used to run for ever.
TEST(WatchdogTest, LoopingMessageHandlersCannotOutlastIt) {
  for (const char* body : {
           "local function spin() while true do end end xpcall(spin, spin)",
           // Variants: a handler that loops only after its first call, one
           // inside a coroutine, and nested handlers.
           "local calls = 0\n"
           "xpcall(function() while true do end end,\n"
           "       function(m) calls = calls + 1 while calls > 0 do end end)",
           "coroutine.wrap(function()\n"
           "  local function spin() while true do end end xpcall(spin, spin)\n"
           "end)()",
           "local function spin() while true do end end\n"
           "xpcall(function() xpcall(spin, spin) end, spin)",
       }) {
    SCOPED_TRACE(body);
    ExpectStartFailsThenRecovers("spin_handler", FailingStart(body), kLimit, {kStopped});
  }
}

// The plugin's own message handler used to call the level's global
// debug.traceback.
TEST(WatchdogTest, AReplacedTracebackIsNeverCalled) {
  for (const char* body : {
           "debug.traceback = function() while true do end end while true do end",
           "debug = setmetatable({}, {__index = function() while true do end end})\n"
           "while true do end",
           // A variant: the error is an ordinary one, after the level broke
           // the traceback.
           "debug.traceback = function() while true do end end error('plain')",
       }) {
    SCOPED_TRACE(body);
    ExpectStartFailsThenRecovers("spin_traceback", FailingStart(body), kLimit,
                                 {"stack traceback:"});
  }
}

// Before the watchdog trips, a level's handler is an ordinary function:
// it runs, under the watchdog.
TEST(WatchdogTest, HandlersStillRunBeforeTheWatchdogTrips) {
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("handler", absl::StrCat("local api = {}\n", kMap,
                                         "\nfunction api:start()\n"
                                         "  local ok, m = xpcall(function() error('x', 0) end,\n"
                                         "                       function(m) return m .. '!' end)\n"
                                         "  assert(not ok and m == 'x!', m)\n"
                                         "end\nreturn api\n")),
      kLimit);
  ASSERT_NE(engine, nullptr);
  absl::Status started = engine->Start(0, 1);
  EXPECT_TRUE(started.ok()) << started;
}

// Work inside one C function: each element a tensor operation visits counts
// as one instruction, so these fail at once instead of running for hours.
TEST(WatchdogTest, TensorWorkCountsAgainstTheLimit) {
  for (const char* body : {
           "tensor.ByteTensor{1}:expand(2 ^ 50):sum()",
           "local a, b = tensor.ByteTensor{1}:expand(2 ^ 50), tensor.ByteTensor{1}:expand(2 ^ 50)\n"
           "local same = a == b",
           "tensor.ByteTensor{1}:expand(2 ^ 40):apply(select)",
           "tensor.DoubleTensor{1}:expand(2 ^ 45):map(tensor.DoubleTensor{1}:expand(2 ^ 45), "
           "select)",
           // Variants whose work is not their operands' size: products and
           // convolutions of small results over huge expanded operands.
           "local m = tensor.DoubleTensor(1, 1):fill(1):expand(2 ^ 16, 2 ^ 30)\n"
           "local v = tensor.DoubleTensor{1}:expand(2 ^ 30)\n"
           "local r = tensor.DoubleTensor(2 ^ 16):mv(m, v)",
           "local x = tensor.DoubleTensor(1, 1):fill(1):expand(2 ^ 20 + 3, 2 ^ 20 + 3)\n"
           "local k = tensor.DoubleTensor(1, 1):fill(1):expand(2 ^ 20, 2 ^ 20)\n"
           "local r = tensor.conv2(x, k)",
       }) {
    SCOPED_TRACE(body);
    ExpectStartFailsThenRecovers(
        "spin_tensor",
        FailingStart(absl::StrCat("local tensor = require 'dmlab.system.tensor'\n", body)), kLimit,
        {kStopped, "per element"});
  }
}

// Work that a module function does for a few instructions, repeated in a
// loop: printing a tensor, making one, splitting one into pieces, reading
// a table into one, a range, weights, mazes. Each call is bounded, but a
// loop of them ran for hours under the default limit (a fuzz finding:
// tostring of an expanded view, thousands of times, from few
// instructions). Each now charges its work, so the loops stop.
TEST(WatchdogTest, ModuleWorkRepeatedInALoopCounts) {
  const Settings limit = {{"instructionLimit", "10000000"}};
  for (const char* body : {
           "local big = tensor.ByteTensor{1}:expand(6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6)\n"
           "while true do local s = tostring(big) end",
           "while true do local t = tensor.ByteTensor(2 ^ 20) end",
           "local t = tensor.ByteTensor(20000)\nwhile true do local pieces = t:split(1) end",
           "local t = tensor.ByteTensor(20000)\nwhile true do local pieces = t:chunk(20000) end",
           "local w = tensor.DoubleTensor(2 ^ 19):val()\n"
           "while true do local t = tensor.DoubleTensor(w) end",
           "while true do local r = tensor.DoubleTensor{range = {1, 2 ^ 20}} end",
           "local w = tensor.DoubleTensor(2 ^ 19):fill(1):val()\n"
           "local random = require 'dmlab.system.random'\n"
           "while true do random:discreteDistribution(w) end",
           "local mazes = require 'dmlab.system.maze_generation'\n"
           "while true do mazes.randomMazeGeneration{seed = 1, height = 255, width = 255} end",
           "local mazes = require 'dmlab.system.maze_generation'\n"
           "local m = mazes.mazeGeneration{height = 1023, width = 1023}\n"
           "while true do local s = m:entityLayer() end",
       }) {
    SCOPED_TRACE(body);
    ExpectStartFailsThenRecovers(
        "spin_module_work",
        FailingStart(absl::StrCat("local tensor = require 'dmlab.system.tensor'\n", body)), limit,
        {"exceeded the instruction limit of 10000000 instructions", "per element"});
  }
}

// The exchange rate leaves ordinary work alone, and without a limit work
// is not counted at all.
TEST(WatchdogTest, OrdinaryTensorWorkFitsAndNoLimitCountsNothing) {
  const std::string level = WriteLevel(
      "tensor_work", absl::StrCat("local tensor = require 'dmlab.system.tensor'\n"
                                  "local api = {}\n",
                                  kMap,
                                  "\nfunction api:start()\n"
                                  "  assert(tensor.ByteTensor{1}:expand(50000):sum() == 50000)\n"
                                  "end\nreturn api\n"));
  for (const Settings& settings : {kLimit, Settings{{"instructionLimit", "0"}}}) {
    std::unique_ptr<Engine> engine = InitEngine(level, settings);
    ASSERT_NE(engine, nullptr);
    absl::Status started = engine->Start(0, 1);
    EXPECT_TRUE(started.ok()) << started;
  }
  std::unique_ptr<Engine> engine =
      InitEngine(level, {{"instructionLimit", "40000"}});
  ASSERT_NE(engine, nullptr);
  EXPECT_THAT(std::string(engine->Start(0, 1).message()),
              HasSubstr("exceeded the instruction limit of 40000"));
}

}  // namespace
}  // namespace engine_plugin
