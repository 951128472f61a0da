// The DeepMind Lab host's hooks against the real engine's habits, on
// test_engine.so: the order the level's callbacks are reached in (pinned
// against a trace of the real engine), the engine's generator and the
// seeds it draws, and a callback that raises in any hook.
#include <climits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hosts/dmlab/dmlab_testing.h"

namespace hosts::dmlab {
namespace {

using engine_plugin::Engine;
using engine_plugin::EpisodeStatus;
using ::testing::HasSubstr;
using ::testing::Not;

// As DeepMind Lab's context: the engine's generator, seeded with the
// episode's seed, draws the level's seed.
// With mixerSeed m, DeepMind Lab's context seeds the engine's generator
// with seed ^ (m << 32) (its Context::Start).
TEST(DmlabHooksTest, TheLevelsSeedIsTheEnginesFirstDraw) {
  for (const std::uint32_t mixer : {0u, 1u, 4294967295u}) {
    std::mt19937_64 prbg(7u ^ (std::uint64_t{mixer} << 32));  // Started's seed
    const int expected = std::uniform_int_distribution<int>(1, 2147483647)(prbg);
    EXPECT_NE(expected, 7);
    std::unique_ptr<Engine> engine = Created(WriteLevel(
        "seed", absl::StrCat(kPickups, "function api:start(episode, seed) api.seed = seed end\n",
                             "function api:hasEpisodeFinished() return api.seed == ", expected,
                             " end\n")));
    ASSERT_NE(engine, nullptr);
    ASSERT_TRUE(engine->SetSetting("mixerSeed", absl::StrCat(mixer)).ok());
    ASSERT_TRUE(engine->Init().ok());
    ASSERT_TRUE(engine->Start(0, 7).ok());
    EpisodeStatus status = EpisodeStatus::kRunning;
    Forward(*engine, 1, &status);
    EXPECT_EQ(status, EpisodeStatus::kTerminated) << mixer;
  }
}

// A level that records the callbacks the engine's hooks reach;
// readProperty('trace') returns them (repeats run together) and clears.
constexpr char kTracing[] = R"(
local trace = {}
local function log(name) if trace[#trace] ~= name then trace[#trace + 1] = name end end
function api:commandLine(old) log('commandLine') return old end
function api:gameType() log('gameType') return 0 end
function api:nextMap() log('nextMap') return 'corridor_apple' end
function api:mapLoaded() log('mapLoaded') end
function api:updateSpawnVars(vars) log('updateSpawnVars') return vars end
function api:extraEntities()
  log('extraEntities')
  return {{classname = 'apple_reward', origin = '150 0 0'}}
end
function api:registerDynamicItems() log('registerDynamicItems') return {'lemon_reward'} end
function api:createPickup(c)
  log('createPickup')
  return {name = c, classname = c, model = 'fruit', quantity = 1, type = 9}
end
function api:replaceModelName(name) log('replaceModelName') end
function api:createModel(name) log('createModel') end
function api:canPickup(id) log('canPickup') return true end
function api:pickup(id) log('pickup') end
function api:rewardOverride(args) log('rewardOverride') end
function api:modifyControl(actions) log('modifyControl') return actions end
function api:hasEpisodeFinished(t) log('hasEpisodeFinished') return false end
function api:readProperty(key)
  local out = table.concat(trace, ' ')
  trace = {}
  return out
end
)";

std::string Trace(Engine& engine) {
  std::string trace;
  EXPECT_TRUE(engine.ReadProperty("trace", &trace).ok());
  return trace;
}

// The order DeepMind Lab's engine reached these callbacks in, recorded in
// this project's sessions of 2026-11-28 and 2026-11-29 with the level
// above on the real engine (./lab dmlab from deepmind/lab's HEAD;
// seekavoid_arena_01 for the map, and Touch_Item in its game/g_items.c for
// a pickup: can_pickup, then override_pickup, then the score's
// reward_override; createPickup once per class and item list):
//   start: gameType commandLine nextMap registerDynamicItems createPickup
//          (updateSpawnVars createPickup?)+ extraEntities
//          registerDynamicItems createPickup
//          (replaceModelName createModel?)+ mapLoaded
//   step:  modifyControl [canPickup pickup rewardOverride] hasEpisodeFinished
// The models: the renderer's, each asked for another name, then built by
// the level when no file has it (once, or once per level of detail while
// the level builds one), after the map's entities and before mapLoaded
// (recorded 2026-11-29 with createModel and replaceModelName added).
// The test engine must call them so.
TEST(DmlabHooksTest, HooksRunInTheRealEnginesOrder) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("tracing", kTracing));
  ASSERT_NE(engine, nullptr);
  constexpr char kMapLoad[] =
      "nextMap registerDynamicItems createPickup updateSpawnVars createPickup extraEntities "
      "registerDynamicItems createPickup replaceModelName createModel mapLoaded";
  EXPECT_EQ(Trace(*engine), absl::StrCat("gameType commandLine ", kMapLoad));
  Forward(*engine, 1);
  EXPECT_EQ(Trace(*engine), "modifyControl hasEpisodeFinished");
  Forward(*engine, 1);  // the apple at x = 100
  EXPECT_EQ(Trace(*engine), "modifyControl canPickup pickup rewardOverride hasEpisodeFinished");
  // The first start only asks gameType and commandLine.
  ASSERT_TRUE(engine->Start(1, 2).ok());
  EXPECT_EQ(Trace(*engine), kMapLoad);
}

// Each callback a hook reaches, raising: the start or step it runs in
// fails naming it, the engine is never left half-way, and the level can
// start again.
TEST(DmlabHooksTest, ACallbackThatRaisesInAnyHookFailsOnlyItsCall) {
  const char* callbacks[] = {"commandLine",     "gameType",   "nextMap",       "mapLoaded",
                             "updateSpawnVars", "createPickup", "canPickup",   "pickup",
                             "rewardOverride",  "modifyControl", "hasEpisodeFinished", "addBots",
                             "extraEntities",   "registerDynamicItems"};
  for (const char* callback : callbacks) {
    const std::string level = WriteLevel(
        absl::StrCat("raising_", callback),
        absl::StrCat(kTracing, "local inner = api.", callback, "\n", "api.", callback,
                     " = function(self, ...) error('boom in ", callback, "') end\n"));
    std::unique_ptr<Engine> engine = Created(level);
    ASSERT_NE(engine, nullptr);
    ASSERT_TRUE(engine->Init().ok());
    absl::Status failed = engine->Start(0, 1);
    for (int step = 0; failed.ok() && step < 4; ++step) {
      engine->Act({0, 0, 0, 1, 0, 0, 0});
      double reward = 0;
      failed = engine->Advance(1, &reward).status();
    }
    ASSERT_FALSE(failed.ok()) << callback;
    EXPECT_THAT(failed.message(), HasSubstr(absl::StrCat("boom in ", callback))) << callback;
    // The engine is sound: a new episode starts or fails cleanly again.
    absl::Status again = engine->Start(1, 2);
    if (!again.ok()) {
      EXPECT_THAT(again.message(), HasSubstr("boom")) << callback;
    }
  }
}

// The engine asks the level whether the episode ended; the plugin does not
// ask again (a level may log or score in the callback), and the level's
// kind of end stands.
TEST(DmlabHooksTest, TheLevelIsAskedOnceAStepHowItsEpisodeEnds) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("ends", std::string(kPickups) + R"(
api.asked = 0
function api:hasEpisodeFinished(seconds)
  api.asked = api.asked + 1
  if api.asked ~= math.floor(seconds * 60 + 0.5) then error('asked twice') end
  if api.asked == 3 then return 'truncated' end
  return false
end
)"));
  ASSERT_NE(engine, nullptr);
  EpisodeStatus status = EpisodeStatus::kRunning;
  Forward(*engine, 5, &status);
  EXPECT_EQ(status, EpisodeStatus::kInterrupted);
  EXPECT_DOUBLE_EQ(engine->episode_time_seconds(), 3.0 / 60);
}

// The engine draws the game module's seed at each map load (its
// SV_InitGameVM; the test engine shows its low byte in the top-right
// pixel's green), and the spawn points and bots follow from it. DeepMind's
// context draws api:start's seed from the same generator first, only for a
// level that has api:start: without one, the game's seed is the first draw.
TEST(DmlabHooksTest, TheGamesSeedFollowsTheLevelsOnlyWithApiStart) {
  std::mt19937_64 prbg(7u);  // Started's seed, mixerSeed 0
  std::uniform_int_distribution<int> draw(1, INT_MAX);
  const int first = draw(prbg);
  const int second = draw(prbg);
  ASSERT_NE(first & 0xff, second & 0xff);
  for (const bool has_start : {true, false}) {
    std::unique_ptr<Engine> engine = Started(WriteLevel(
        has_start ? "with_start" : "without_start",
        absl::StrCat(kPickups, has_start ? "function api:start(episode, seed) end\n" : "")));
    ASSERT_NE(engine, nullptr);
    absl::StatusOr<engine_plugin::ObservationValue> frame = engine->Observation(0);
    ASSERT_TRUE(frame.ok());
    EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(*frame->tensor.data())[7 * 3 + 1],
              (has_start ? second : first) & 0xff)
        << has_start;
  }
}

// game:console queues a command, as DeepMind's context does, for the
// engine's issue_console_commands in its next frame (the test engine ends
// the process on a command from inside a callback, as the real engine's
// may: it obeys each at once); only the commands DeepMind Lab's levels
// give pass, so that a level cannot end, restart or reconfigure the engine.
TEST(DmlabHooksTest, ConsoleCommandsWaitForTheFrameAndOnlyALevelsPass) {
  std::unique_ptr<Engine> engine = Created(WriteLevel("console", absl::StrCat(kPickups, R"(
function api:start(episode, seed)
  game:console('set cg_redteam_r 0.5')
end
function api:hasEpisodeFinished()
  game:console('weapnext')
  game:console('weapon 3')
  game:console('cg_drawFPS 1')
  return false
end
)")));
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->SetSetting("logToStdErr", "true").ok());
  ASSERT_TRUE(engine->Init().ok());
  ::testing::internal::CaptureStderr();
  ASSERT_TRUE(engine->Start(0, 7).ok());
  EXPECT_THAT(::testing::internal::GetCapturedStderr(), Not(HasSubstr("console:")));
  ::testing::internal::CaptureStderr();
  Forward(*engine, 1);
  std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(log, HasSubstr("test engine: console: set cg_redteam_r 0.5\n"));
  EXPECT_THAT(log, Not(HasSubstr("weapnext")));  // asked after the frame's input
  ::testing::internal::CaptureStderr();
  Forward(*engine, 1);
  log = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(log, HasSubstr("test engine: console: weapnext\ntest engine: console: weapon 3\n"
                             "test engine: console: cg_drawFPS 1\n"));

  constexpr char kNotAllowed[] = "is not a command a level may give (it may give: set or seta";
  constexpr char kOneCommand[] = "has a character a level's command may not have";
  for (const auto& [command, why] :
       {std::pair{std::string("quit"), kNotAllowed},
        std::pair{std::string("map_restart"), kNotAllowed},
        std::pair{std::string("map corridor"), kNotAllowed},
        std::pair{std::string("exec autoexec.cfg"), kNotAllowed},
        std::pair{std::string("set sv_killserver 1"), kNotAllowed},
        std::pair{std::string("set cg_x"), kNotAllowed},
        std::pair{std::string("cg_x"), kNotAllowed},
        std::pair{std::string("sv_cheats 1"), kNotAllowed},
        std::pair{std::string("weapon 1000"), kNotAllowed},
        std::pair{std::string("weapnext; quit"), kOneCommand},
        std::pair{std::string("weapnext\nquit"), kOneCommand},
        std::pair{std::string("set cg_x \"1\""), kOneCommand},
        std::pair{std::string(300, 'w'), "a command of 300 bytes; at most 256"}}) {
    std::unique_ptr<Engine> bad = Started(WriteLevel("bad_console", absl::StrCat(kPickups,
        "function api:hasEpisodeFinished() game:console(api.command) return false end\n"
        "function api:writeProperty(key, value) api.command = value return true end\n")));
    ASSERT_NE(bad, nullptr);
    ASSERT_TRUE(bad->WriteProperty("command", command).ok());
    bad->Act({0, 0, 0, 0, 0, 0, 0});
    double reward = 0;
    const absl::StatusOr<EpisodeStatus> step = bad->Advance(1, &reward);
    ASSERT_FALSE(step.ok()) << command;
    EXPECT_THAT(std::string(step.status().message()), HasSubstr("console")) << command;
    EXPECT_THAT(std::string(step.status().message()), HasSubstr(why)) << command;
  }
  // A level that queues without end is stopped at 64 waiting.
  std::unique_ptr<Engine> flood = Started(WriteLevel("console_flood", absl::StrCat(kPickups,
      "function api:hasEpisodeFinished() for i = 1, 65 do game:console('weapnext') end end\n")));
  ASSERT_NE(flood, nullptr);
  flood->Act({0, 0, 0, 0, 0, 0, 0});
  double reward = 0;
  const absl::StatusOr<EpisodeStatus> step = flood->Advance(1, &reward);
  ASSERT_FALSE(step.ok());
  EXPECT_THAT(std::string(step.status().message()),
              HasSubstr("64 commands wait for the engine's next frame already"));
}

}  // namespace
}  // namespace hosts::dmlab
