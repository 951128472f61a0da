// The engine's lifecycle, settings, world, episodes and determinism.
#include "engine_plugin/engine.h"

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

// A corridor running east: spawn, an apple 3 cells on, a goal 6 cells on.
constexpr char kCorridorLevel[] = R"(
local game = require 'dmlab.system.game'
local api = {}
function api:init(settings) api.settings = settings end
function api:nextMap() return "*********\n*P  A  G*\n*********\n" end
function api:readProperty(key)
  if key == 'test.setting' then return api.settings.custom end
  if key == 'test.engine_settings' then
    return tostring(api.settings.width) .. ' ' .. tostring(api.settings.fps) .. ' ' ..
           tostring(api.settings.sandbox) .. ' ' .. tostring(api.settings.episodeLengthSeconds)
  end
end
return api
)";

TEST(EngineTest, DemoMazeRunsWithItsObservations) {
  std::unique_ptr<Engine> engine = InitEngine("demo_maze");
  ASSERT_NE(engine, nullptr);
  std::vector<std::string> names;
  for (const ObservationSpec& spec : engine->observation_specs()) names.push_back(spec.name);
  EXPECT_THAT(names, ::testing::ElementsAre("RGB_INTERLEAVED", "RGBD_INTERLEAVED",
                                            "DEBUG.POS.TRANS", "DEBUG.POS.ROT",
                                            "DEBUG.CAMERA.TOP_DOWN", "GRAY_HALF",
                                            "GOAL_DIRECTION"));
  absl::Status started = engine->Start(0, 1);
  ASSERT_TRUE(started.ok()) << started;
  for (int i = 0; i < static_cast<int>(engine->observation_specs().size()); ++i) {
    absl::StatusOr<ObservationValue> value = engine->Observation(i);
    ASSERT_TRUE(value.ok()) << engine->observation_specs()[i].name << ": " << value.status();
    const auto& shape = value->tensor.layout().shape();
    EXPECT_THAT(std::vector<std::int64_t>(shape.begin(), shape.end()),
                ::testing::ElementsAreArray(engine->observation_specs()[i].shape));
  }
  double reward = 0;
  engine->Act(Forward());
  absl::StatusOr<EpisodeStatus> status = engine->Advance(10, &reward);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(*status, EpisodeStatus::kRunning);
}

// An even frame is used whole; an odd one loses its last row and column.
class DemoMazeObservationsTest : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(DemoMazeObservationsTest, FollowTheFrameAndThePose) {
  const auto [width, height] = GetParam();
  std::unique_ptr<Engine> engine = InitEngine(
      "demo_maze", {{"width", std::to_string(width)}, {"height", std::to_string(height)}});
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 3).ok());
  engine->Act({30, 0, 0, 1, 0, 0, 0});
  double reward = 0;
  ASSERT_TRUE(engine->Advance(20, &reward).ok());
  ObservationValue rgb = *engine->Observation(0);
  ObservationValue gray = *engine->Observation(ObservationIndex(*engine, "GRAY_HALF"));
  ASSERT_THAT(engine->observation_specs()[ObservationIndex(*engine, "GRAY_HALF")].shape,
              ::testing::ElementsAre(height / 2, width / 2));
  const double luma[3] = {0.299, 0.587, 0.114};
  for (int row = 0; row < height / 2; ++row) {
    for (int col = 0; col < width / 2; ++col) {
      double sum = 0;
      for (int dr = 0; dr < 2; ++dr) {
        for (int dc = 0; dc < 2; ++dc) {
          for (int c = 0; c < 3; ++c) {
            sum += luma[c] * Bytes(rgb)[((2 * row + dr) * width + 2 * col + dc) * 3 + c];
          }
        }
      }
      EXPECT_NEAR(Doubles(gray)[row * (width / 2) + col], sum / 4 / 255, 1e-12)
          << row << "," << col;
    }
  }
  // The goal direction, in the player's frame, against the world's pose.
  ObservationValue direction = *engine->Observation(ObservationIndex(*engine, "GOAL_DIRECTION"));
  const World& world = *MazeWorldOf(*engine);
  WorldPoint goal{};
  for (const Pickup& pickup : world.pickups()) {
    if (pickup.kind == PickupKind::kGoal) goal = pickup.position;
  }
  const double dx = goal.x - world.pose().position.x;
  const double dy = goal.y - world.pose().position.y;
  const double yaw = world.pose().yaw * M_PI / 180;
  const double length = std::hypot(dx, dy);
  EXPECT_NEAR(Doubles(direction)[0], (std::cos(yaw) * dx + std::sin(yaw) * dy) / length, 1e-9);
  EXPECT_NEAR(Doubles(direction)[1], (-std::sin(yaw) * dx + std::cos(yaw) * dy) / length, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(EvenAndOdd, DemoMazeObservationsTest,
                         ::testing::Values(std::make_pair(10, 8), std::make_pair(11, 9)));

// The level looks the goal up once a map: taking it (which reloads the
// map) must not leave GOAL_DIRECTION pointing at a stale goal or at none.
TEST(EngineTest, DemoMazeGoalDirectionFollowsTheGoalAfterItIsTaken) {
  std::unique_ptr<Engine> engine = InitEngine("demo_maze", {{"width", "8"}, {"height", "8"}});
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 3).ok());
  double reward = 0;
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  const int direction_index = ObservationIndex(*engine, "GOAL_DIRECTION");
  auto expect_direction = [&](const char* when) {
    const World& world = *MazeWorldOf(*engine);
    ObservationValue direction = *engine->Observation(direction_index);
    for (const Pickup& pickup : world.pickups()) {
      if (pickup.kind != PickupKind::kGoal) continue;
      ASSERT_TRUE(pickup.active) << when;
      const double dx = pickup.position.x - world.pose().position.x;
      const double dy = pickup.position.y - world.pose().position.y;
      const double yaw = world.pose().yaw * M_PI / 180;
      const double length = std::hypot(dx, dy);
      EXPECT_NEAR(Doubles(direction)[0], (std::cos(yaw) * dx + std::sin(yaw) * dy) / length, 1e-9)
          << when;
      EXPECT_NEAR(Doubles(direction)[1], (-std::sin(yaw) * dx + std::cos(yaw) * dy) / length,
                  1e-9)
          << when;
    }
  };
  expect_direction("before");
  // Onto the goal: the next step takes it, and the map reloads.
  World& world = const_cast<World&>(*MazeWorldOf(*engine));
  for (const Pickup& pickup : world.pickups()) {
    if (pickup.kind == PickupKind::kGoal) world.Teleport(pickup.position, 0);
  }
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  EXPECT_GE(reward, 10);
  std::string taken;
  ASSERT_TRUE(engine->ReadProperty("demo.pickups", &taken).ok());
  EXPECT_EQ(taken, "1");
  expect_direction("after the goal was taken");
  ASSERT_TRUE(engine->Advance(3, &reward).ok());
  expect_direction("steps later");
}

TEST(EngineTest, RandomMazeLoadsGeneratedMaps) {
  std::unique_ptr<Engine> engine = InitEngine("random_maze", {{"mazeSize", "11"}});
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 5).ok());
  EXPECT_EQ(MazeWorldOf(*engine)->map().rows(), 11);
  EXPECT_EQ(MazeWorldOf(*engine)->map().cols(), 11);
}

// DeepMind Lab's mixerSeed: the same seed with another mixer is another
// episode (another maze here); mixer 0 is no mixer.
TEST(EngineTest, TheMixerSeedGivesDisjointEpisodes) {
  const auto maze = [](const char* mixer) {
    std::vector<std::pair<std::string, std::string>> settings = {{"mazeSize", "15"}};
    if (mixer != nullptr) settings.push_back({"mixerSeed", mixer});
    std::unique_ptr<Engine> engine = InitEngine("random_maze", settings);
    EXPECT_NE(engine, nullptr);
    if (engine == nullptr || !engine->Start(0, 5).ok()) return std::string();
    return MazeWorldOf(*engine)->map().EntityLayer();
  };
  const std::string plain = maze(nullptr);
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(maze("0"), plain);
  EXPECT_NE(maze("1"), plain);
  EXPECT_EQ(maze("1"), maze("1"));
  EXPECT_NE(maze("4294967295"), plain);
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create("random_maze");
  ASSERT_TRUE(engine.ok());
  for (const char* bad : {"-1", "4294967296", "x", "1.5"}) {
    absl::Status status = (*engine)->SetSetting("mixerSeed", bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(status.message(), HasSubstr("mixerSeed")) << bad;
  }
}

TEST(EngineTest, UnknownLevelIsNotFound) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create("no_such_level");
  EXPECT_EQ(engine.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(engine.status().message(), HasSubstr("no_such_level"));
  engine = Engine::Create("/no/such/dir/level.lua");
  EXPECT_EQ(engine.status().code(), absl::StatusCode::kNotFound);
}

TEST(EngineTest, SettingsAreCheckedAndReachTheLevel) {
  absl::StatusOr<std::unique_ptr<Engine>> engine =
      Engine::Create(WriteLevel("settings", kCorridorLevel));
  ASSERT_TRUE(engine.ok());
  Engine& e = **engine;
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"width", "abc"}, {"width", "0"}, {"height", "5000"}, {"fps", "-1"},
           {"episodeLengthSeconds", "0"}, {"episodeLengthSeconds", "x"}}) {
    absl::Status status = e.SetSetting(key, value);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << key << "=" << value;
    EXPECT_THAT(status.message(), HasSubstr(key));
  }
  ASSERT_TRUE(e.SetSetting("width", "32").ok());
  ASSERT_TRUE(e.SetSetting("height", "24").ok());
  ASSERT_TRUE(e.SetSetting("custom", "first").ok());
  ASSERT_TRUE(e.SetSetting("custom", "second").ok());  // the last one wins
  ASSERT_TRUE(e.Init().ok());
  EXPECT_EQ(e.SetSetting("width", "16").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(e.Init().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(e.observation_specs()[0].shape, ::testing::ElementsAre(24, 32, 3));
  std::string value;
  ASSERT_EQ(*e.ReadProperty("test.setting", &value), PropertyResult::kSuccess);
  EXPECT_EQ(value, "second");
}

// As in DeepMind Lab, the engine's own settings (the host's frame size and
// rate, the plugin's limits) stay with it; episodeLengthSeconds, a level
// parameter there too, reaches the level as well.
TEST(EngineTest, TheEnginesOwnSettingsDoNotReachTheLevel) {
  absl::StatusOr<std::unique_ptr<Engine>> engine =
      Engine::Create(WriteLevel("own_settings", kCorridorLevel));
  ASSERT_TRUE(engine.ok());
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"width", "32"}, {"fps", "30"}, {"sandbox", "true"}, {"episodeLengthSeconds", "5"},
           {"custom", "yes"}}) {
    ASSERT_TRUE((*engine)->SetSetting(key, value).ok()) << key;
  }
  ASSERT_TRUE((*engine)->Init().ok());
  std::string value;
  ASSERT_EQ(*(*engine)->ReadProperty("test.engine_settings", &value), PropertyResult::kSuccess);
  EXPECT_EQ(value, "nil nil nil 5");
  ASSERT_EQ(*(*engine)->ReadProperty("test.setting", &value), PropertyResult::kSuccess);
  EXPECT_EQ(value, "yes");
}

TEST(EngineTest, ObservationDeviceSettingsAreChecked) {
  absl::StatusOr<std::unique_ptr<Engine>> engine =
      Engine::Create(WriteLevel("device_settings", kCorridorLevel));
  ASSERT_TRUE(engine.ok());
  Engine& e = **engine;
  for (const char* bad : {"gpu", "cuda", "cuda:", "cuda:-1", "cuda:+1", "cuda:x", "CUDA:0",
                          "cuda:0x", "cuda:99999999999", "cpu:0", ""}) {
    absl::Status status = e.SetSetting("observationDevice", bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(status.message(), HasSubstr("'cpu' or 'cuda:N'")) << bad;
  }
  for (const char* bad : {"yes", "1", "True", ""}) {
    absl::Status status = e.SetSetting("pinnedStaging", bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(status.message(), HasSubstr("pinnedStaging")) << bad;
  }
  EXPECT_TRUE(e.SetSetting("observationDevice", "cuda:1").ok());
  // The last value wins, and pinned staging has no effect on the CPU.
  EXPECT_TRUE(e.SetSetting("observationDevice", "cpu").ok());
  EXPECT_TRUE(e.SetSetting("pinnedStaging", "true").ok());
  ASSERT_TRUE(e.Init().ok());
  ASSERT_TRUE(e.Start(0, 1).ok());
  absl::StatusOr<ObservationValue> rgb = e.Observation(0);
  ASSERT_TRUE(rgb.ok()) << rgb.status();
  EXPECT_TRUE(rgb->tensor.device().is_cpu());
}

// This test runs in a build without a CUDA backend (the default): a CUDA
// observation device is refused by Init, which leaves the engine usable.
TEST(EngineTest, CudaObservationDeviceFailsAtInitWithoutABackend) {
  for (bool pinned : {false, true}) {
    absl::StatusOr<std::unique_ptr<Engine>> engine =
        Engine::Create(WriteLevel("no_backend", kCorridorLevel));
    ASSERT_TRUE(engine.ok());
    Engine& e = **engine;
    ASSERT_TRUE(e.SetSetting("observationDevice", "cuda:0").ok());
    ASSERT_TRUE(e.SetSetting("pinnedStaging", pinned ? "true" : "false").ok());
    absl::Status init = e.Init();
    EXPECT_EQ(init.code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(init.message(), HasSubstr("setting 'observationDevice' is 'cuda:0'"));
    EXPECT_THAT(init.message(), HasSubstr("no backend"));
    EXPECT_THAT(init.message(), HasSubstr("--config=cuda"));
    EXPECT_EQ(e.Start(0, 1).code(), absl::StatusCode::kFailedPrecondition);
  }
}

TEST(EngineTest, CallsOutOfOrderAreErrors) {
  absl::StatusOr<std::unique_ptr<Engine>> engine =
      Engine::Create(WriteLevel("order", kCorridorLevel));
  ASSERT_TRUE(engine.ok());
  double reward = 0;
  EXPECT_EQ((*engine)->Start(0, 0).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE((*engine)->Init().ok());
  EXPECT_EQ((*engine)->Advance(1, &reward).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*engine)->Observation(0).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE((*engine)->Start(0, 0).ok());
  EXPECT_EQ((*engine)->Advance(0, &reward).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*engine)->Observation(-1).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ((*engine)->Observation(99).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(EngineTest, WallsStopThePlayer) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("walls", kCorridorLevel));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  engine->Act({0, 0, -1, 0, 0, 0, 0});  // strafe left: north, into the wall
  double reward = 0;
  ASSERT_TRUE(engine->Advance(120, &reward).ok());
  const Pose& pose = MazeWorldOf(*engine)->pose();
  EXPECT_NEAR(pose.position.x, 1.5, 1e-9);
  EXPECT_LE(pose.position.y, 2.0 - World::kPlayerRadius + 1e-9);  // the wall's face is y = 2
  EXPECT_GT(pose.position.y, 1.5);
}

TEST(EngineTest, PickupsRewardOnceAndTheGoalEndsTheMap) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("pickups", R"(
local game = require 'dmlab.system.game'
local events = require 'dmlab.system.events'
local api = {maps = 0}
function api:nextMap()
  api.maps = api.maps + 1
  return "*********\n*P  A  G*\n*********\n"
end
-- As DeepMind Lab's levels: spawn variables give each pickup an id (so
-- that pickup(spawnId) is called) and a count (its reward).
local classes = {}
function api:updateSpawnVars(v)
  if v.classname ~= 'info_player_start' then
    classes[#classes + 1] = v.classname
    v.id = tostring(#classes)
    v.count = v.classname == 'goal' and '20' or '2'
  end
  return v
end
function api:pickup(spawnId)
  events:add('pickup', classes[spawnId], tostring(spawnId))
end
function api:readProperty(key) if key == 'maps' then return tostring(api.maps) end end
return api
)"));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  engine->Act(Forward());
  std::vector<double> rewards;
  std::vector<std::string> picked;
  for (int frame = 0; frame < 150; ++frame) {
    double reward = 0;
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
    if (reward != 0) rewards.push_back(reward);
    for (const Event& event : engine->events()) {
      EXPECT_EQ(engine->event_type_names()[event.type], "pickup");
      picked.push_back(event.values[0].text + event.values[1].text);
    }
  }
  EXPECT_THAT(rewards, ::testing::ElementsAre(2.0, 20.0));
  EXPECT_THAT(picked, ::testing::ElementsAre("apple_reward1", "goal2"));
  std::string maps;
  ASSERT_EQ(*engine->ReadProperty("maps", &maps), PropertyResult::kSuccess);
  EXPECT_EQ(maps, "2");  // the goal finished the first map
  EXPECT_LT(MazeWorldOf(*engine)->pose().position.x, 4.0);  // respawned
}

TEST(EngineTest, PickupsWithoutACallbackGiveTheDefaultRewards) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("defaults", kCorridorLevel));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  engine->Act(Forward());
  double reward = 0;
  ASSERT_TRUE(engine->Advance(150, &reward).ok());
  EXPECT_EQ(reward, 11.0);
}

TEST(EngineTest, TheLevelEndsTheEpisodeAndStartBeginsANewOne) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("ends", R"(
local api = {}
function api:nextMap() return "*****\n*P  *\n*****\n" end
function api:hasEpisodeFinished(seconds) return seconds >= 0.5 end
return api
)"));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  double reward = 0;
  absl::StatusOr<EpisodeStatus> status = engine->Advance(29, &reward);
  EXPECT_EQ(*status, EpisodeStatus::kRunning);
  status = engine->Advance(100, &reward);
  EXPECT_EQ(*status, EpisodeStatus::kTerminated);
  EXPECT_DOUBLE_EQ(engine->episode_time_seconds(), 0.5);  // stopped at frame 30
  EXPECT_EQ(engine->Advance(1, &reward).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(engine->Start(1, 0).ok());
  EXPECT_EQ(engine->episode_time_seconds(), 0.0);
  EXPECT_EQ(*engine->Advance(1, &reward), EpisodeStatus::kRunning);
}

TEST(EngineTest, EpisodeLengthSettingInterrupts) {
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("interrupted", kCorridorLevel), {{"episodeLengthSeconds", "1"}, {"fps", "30"}});
  ASSERT_TRUE(engine->Start(0, 0).ok());
  double reward = 0;
  EXPECT_EQ(*engine->Advance(29, &reward), EpisodeStatus::kRunning);
  EXPECT_EQ(*engine->Advance(5, &reward), EpisodeStatus::kInterrupted);
  EXPECT_DOUBLE_EQ(engine->episode_time_seconds(), 1.0);
}

// A level that keeps its own clock says whether its end is the task's
// ('terminated', or true) or a time limit's ('truncated').
TEST(EngineTest, TheLevelSaysHowTheEpisodeEnded) {
  for (const auto& [word, expected] :
       {std::pair<const char*, EpisodeStatus>{"'truncated'", EpisodeStatus::kInterrupted},
        {"'terminated'", EpisodeStatus::kTerminated},
        {"true", EpisodeStatus::kTerminated}}) {
    SCOPED_TRACE(word);
    std::unique_ptr<Engine> engine = InitEngine(WriteLevel("ends_how", absl::StrCat(R"(
local api = {}
function api:nextMap() return "*****\n*P  *\n*****\n" end
function api:hasEpisodeFinished(seconds) return seconds >= 0.5 and )", word, R"( end
return api
)")));
    ASSERT_TRUE(engine->Start(0, 0).ok());
    double reward = 0;
    EXPECT_EQ(*engine->Advance(29, &reward), EpisodeStatus::kRunning);
    EXPECT_EQ(*engine->Advance(100, &reward), expected);
    EXPECT_DOUBLE_EQ(engine->episode_time_seconds(), 0.5);
  }
}

TEST(EngineTest, HasEpisodeFinishedResultsOutsideItsContractAreErrors) {
  for (const auto& [result, message] :
       {std::pair<const char*, const char*>{"'done'", "got 'done'"},
        {"1", "got number 1"},
        {"{}", "got table"}}) {
    SCOPED_TRACE(result);
    std::unique_ptr<Engine> engine = InitEngine(WriteLevel("ends_badly", absl::StrCat(R"(
local api = {}
function api:nextMap() return "*****\n*P  *\n*****\n" end
function api:hasEpisodeFinished(seconds) return )", result, R"( end
return api
)")));
    ASSERT_TRUE(engine->Start(0, 0).ok());
    double reward = 0;
    absl::StatusOr<EpisodeStatus> status = engine->Advance(1, &reward);
    EXPECT_THAT(status.status().message(), HasSubstr("'hasEpisodeFinished'"));
    EXPECT_THAT(status.status().message(), HasSubstr(message));
    EXPECT_THAT(status.status().message(), HasSubstr("'truncated'"));
    // The next episode starts as after any level error.
    EXPECT_TRUE(engine->Start(1, 0).ok());
  }
}

constexpr char kTimedLevel[] = R"(
local api = {}
api.episodeLengthSeconds = 1
function api:nextMap() return "*****\n*P  *\n*****\n" end
return api
)";

TEST(EngineTest, TheLevelsEpisodeLengthInterruptsAndTheSettingWins) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("timed", kTimedLevel), {{"fps", "30"}});
  ASSERT_TRUE(engine->Start(0, 0).ok());
  double reward = 0;
  EXPECT_EQ(*engine->Advance(29, &reward), EpisodeStatus::kRunning);
  EXPECT_EQ(*engine->Advance(5, &reward), EpisodeStatus::kInterrupted);
  EXPECT_DOUBLE_EQ(engine->episode_time_seconds(), 1.0);

  engine = InitEngine(WriteLevel("timed", kTimedLevel),
                      {{"fps", "30"}, {"episodeLengthSeconds", "2"}});
  ASSERT_TRUE(engine->Start(0, 0).ok());
  EXPECT_EQ(*engine->Advance(59, &reward), EpisodeStatus::kRunning);
  EXPECT_EQ(*engine->Advance(5, &reward), EpisodeStatus::kInterrupted);
  EXPECT_DOUBLE_EQ(engine->episode_time_seconds(), 2.0);
}

TEST(EngineTest, ABadLevelEpisodeLengthFailsInit) {
  for (const char* length : {"'30'", "0", "-1", "0/0", "1/0", "{}"}) {
    SCOPED_TRACE(length);
    absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(WriteLevel(
        "timed_badly", absl::StrCat("local api = {}\napi.episodeLengthSeconds = ", length,
                                    "\nreturn api\n")));
    ASSERT_TRUE(engine.ok()) << engine.status();
    absl::Status init = (*engine)->Init();
    EXPECT_THAT(init.message(), HasSubstr("api.episodeLengthSeconds"));
    EXPECT_THAT(init.message(), HasSubstr("number of seconds"));
  }
}

// demo_maze's 30 s are a time limit, not the task's end.
TEST(EngineTest, DemoMazeEpisodesEndAtTheirTimeLimit) {
  std::unique_ptr<Engine> engine = InitEngine("demo_maze", {{"fps", "10"}});
  ASSERT_TRUE(engine->Start(0, 0).ok());
  double reward = 0;
  EXPECT_EQ(*engine->Advance(299, &reward), EpisodeStatus::kRunning);
  EXPECT_EQ(*engine->Advance(1, &reward), EpisodeStatus::kInterrupted);
  EXPECT_DOUBLE_EQ(engine->episode_time_seconds(), 30.0);
}

// Frames and rewards of `steps` random steps of demo_maze from `seed`.
std::pair<std::vector<std::uint8_t>, double> RandomRun(std::uint64_t seed, int steps) {
  std::unique_ptr<Engine> engine = InitEngine("demo_maze");
  EXPECT_TRUE(engine->Start(0, seed).ok());
  std::mt19937_64 agent(seed);
  std::vector<std::uint8_t> frames;
  double total = 0;
  for (int step = 0; step < steps; ++step) {
    engine->Act({static_cast<int>(agent() % 41) - 20, 0, static_cast<int>(agent() % 3) - 1,
                 static_cast<int>(agent() % 3) - 1, 0, 0, 0});
    double reward = 0;
    absl::StatusOr<EpisodeStatus> status = engine->Advance(4, &reward);
    EXPECT_TRUE(status.ok()) << status.status();
    total += reward;
    ObservationValue rgb = *engine->Observation(0);
    const std::uint8_t* bytes = Bytes(rgb);
    frames.insert(frames.end(), bytes, bytes + rgb.tensor.layout().num_elements());
  }
  return {frames, total};
}

TEST(EngineTest, TheSameSeedGivesTheSameFramesAndRewards) {
  auto [frames, total] = RandomRun(7, 200);
  auto [again, total_again] = RandomRun(7, 200);
  EXPECT_TRUE(frames == again);
  EXPECT_EQ(total, total_again);
  auto [other, total_other] = RandomRun(8, 200);
  EXPECT_FALSE(frames == other);
}

}  // namespace
}  // namespace engine_plugin
