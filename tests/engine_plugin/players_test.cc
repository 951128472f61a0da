// Several players in one level (docs/plugin.md, "Several players"): the
// plugin's players setting, per-player actions, frames, observations and
// rewards, and the maze's players meeting, blocking and seeing each other.
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hosts/maze/sprite_shapes.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

// A corridor, the spawn points two cells apart, with an apple between
// them and one behind each: every player starts facing +x (east).
constexpr char kCorridor[] = R"(
local game = require 'dmlab.system.game'
local api = {}
function api:nextMap() return "*********\n*AP A P A*\n*********\n" end
function api:updateSpawnVars(vars)
  if vars.classname == 'apple_reward' then
    api._apples = (api._apples or 0) + 1
    vars.id = tostring(api._apples)
  end
  return vars
end
function api:pickup(spawnId, playerId)
  api.taken = (api.taken or '') .. spawnId .. ':' .. playerId .. ' '
end
function api:readProperty(key)
  if key == 'taken' then return api.taken or '' end
  if key == 'info' then
    local one, two = game:playerInfo(1), game:playerInfo(2)
    return one.playerId .. ' ' .. two.playerId .. ' ' .. game:playerInfo().playerId
  end
end
return api
)";

std::unique_ptr<Engine> Corridor(int players, std::uint64_t seed = 1) {
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("corridor", kCorridor), {{"players", std::to_string(players)}, {"width", "32"},
                                          {"height", "24"}});
  if (engine == nullptr) return nullptr;
  absl::Status started = engine->Start(0, seed);
  EXPECT_TRUE(started.ok()) << started;
  return started.ok() ? std::move(engine) : nullptr;
}

std::vector<std::string> ObservationNames(const Engine& engine) {
  std::vector<std::string> names;
  for (const ObservationSpec& spec : engine.observation_specs()) names.push_back(spec.name);
  return names;
}

TEST(PlayersTest, TheSettingIsBoundedAndNamed) {
  for (const char* bad : {"0", "1000", "-1", "two"}) {
    absl::Status status = InitWith("demo_maze", {{"players", bad}});
    EXPECT_THAT(status.message(), HasSubstr("setting 'players': an integer in [1, 64]")) << bad;
  }
  // The maze carries 16.
  absl::Status too_many = InitWith("demo_maze", {{"players", "17"}});
  EXPECT_THAT(too_many.message(),
              HasSubstr("setting 'players' is 17, but the host 'maze' carries at most 16 players"));
}

TEST(PlayersTest, AHostOfOnePlayerRefusesMore) {
  absl::Status status = InitWith("cartpole_balance", {{"players", "2"}});
  EXPECT_THAT(status.message(),
              HasSubstr("setting 'players' is 2, but the host 'mujoco' carries at most 1 player"));
  EXPECT_TRUE(InitWith("cartpole_balance", {{"players", "1"}}).ok());
}

TEST(PlayersTest, DemoMazesObservationsAreOnePlayersAndSaySo) {
  EXPECT_THAT(InitWith("demo_maze", {{"players", "2"}}).message(),
              HasSubstr("with players = 2, set customObservations = 'false'"));
  EXPECT_TRUE(InitWith("demo_maze", {{"players", "2"}, {"customObservations", "false"}}).ok());
}

TEST(PlayersTest, OnePlayerKeepsDeepMindLabsNames) {
  std::unique_ptr<Engine> engine = Corridor(1);
  ASSERT_NE(engine, nullptr);
  EXPECT_THAT(ObservationNames(*engine),
              ::testing::ElementsAre("RGB_INTERLEAVED", "RGBD_INTERLEAVED", "DEBUG.POS.TRANS",
                                     "DEBUG.POS.ROT", "DEBUG.CAMERA.TOP_DOWN"));
  EXPECT_EQ(engine->discrete_actions()[0].name, "LOOK_LEFT_RIGHT_PIXELS_PER_FRAME");
  EXPECT_EQ(engine->discrete_actions().size(), 7u);
}

TEST(PlayersTest, EachPlayerHasNumberedObservationsActionsAndARewardObservation) {
  std::unique_ptr<Engine> engine = Corridor(2);
  ASSERT_NE(engine, nullptr);
  EXPECT_THAT(ObservationNames(*engine),
              ::testing::ElementsAre("1.RGB_INTERLEAVED", "2.RGB_INTERLEAVED",
                                     "1.RGBD_INTERLEAVED", "2.RGBD_INTERLEAVED",
                                     "1.DEBUG.POS.TRANS", "2.DEBUG.POS.TRANS", "1.DEBUG.POS.ROT",
                                     "2.DEBUG.POS.ROT", "DEBUG.CAMERA.TOP_DOWN", "1.REWARD",
                                     "2.REWARD", "1.STATUS", "2.STATUS"));
  const std::vector<DiscreteActionSpec>& actions = engine->discrete_actions();
  ASSERT_EQ(actions.size(), 14u);
  EXPECT_EQ(actions[0].name, "1.LOOK_LEFT_RIGHT_PIXELS_PER_FRAME");
  EXPECT_EQ(actions[6].name, "1.CROUCH");
  EXPECT_EQ(actions[7].name, "2.LOOK_LEFT_RIGHT_PIXELS_PER_FRAME");
  std::string ids;
  ASSERT_TRUE(engine->ReadProperty("info", &ids).ok());
  EXPECT_EQ(ids, "1 2 1");
}

TEST(PlayersTest, ThePlayersFramesAreViewsOfOneBuffer) {
  std::unique_ptr<Engine> engine = Corridor(2);
  ASSERT_NE(engine, nullptr);
  absl::StatusOr<ObservationValue> one = engine->Observation(0);
  absl::StatusOr<ObservationValue> two = engine->Observation(1);
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_THAT(one->tensor.layout().shape(), ::testing::ElementsAre(24, 32, 3));
  EXPECT_EQ(Bytes(*two), Bytes(*one) + 24 * 32 * 3);
  // Two places in the corridor, two different views.
  EXPECT_NE(std::memcmp(Bytes(*one), Bytes(*two), 24 * 32 * 3), 0);
  EXPECT_EQ(engine->frame_buffers_allocated(), 1);
}

// The player behind (west) sees the other ahead of it, in the other's
// colour; the one ahead sees only the corridor. Player 1 starts at the
// same spawn with one player or two (the first draw is its own).
TEST(PlayersTest, APlayerSeesTheOtherInItsColour) {
  int behind = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    std::unique_ptr<Engine> alone = Corridor(1, seed);
    std::unique_ptr<Engine> both = Corridor(2, seed);
    ASSERT_NE(alone, nullptr);
    ASSERT_NE(both, nullptr);
    const World* world = MazeWorldOf(*both);
    const bool first_behind = world->pose(0).position.x < world->pose(1).position.x;
    const std::uint8_t* solo = Bytes(*alone->Observation(0));
    const std::uint8_t* with = Bytes(*both->Observation(0));
    const bool differs = std::memcmp(solo, with, 24 * 32 * 3) != 0;
    EXPECT_EQ(differs, first_behind) << "seed " << seed;
    if (!first_behind) continue;
    ++behind;
    // Player 2's figure (blue) fills the middle of player 1's view.
    const hosts::maze::Rgb blue = hosts::maze::PlayerColour(1);
    ASSERT_GT(blue.b, blue.r + 100);
    const std::uint8_t* centre = with + (12 * 32 + 16) * 3;
    EXPECT_GT(centre[2], centre[0] + 60) << int(centre[0]) << "," << int(centre[2]);
  }
  EXPECT_GT(behind, 0) << "no seed put player 1 behind player 2";
}

TEST(PlayersTest, PlayersBlockEachOther) {
  std::unique_ptr<Engine> engine = Corridor(2);
  ASSERT_NE(engine, nullptr);
  std::vector<int> forward(14, 0);
  forward[3] = 1;   // both move east
  forward[10] = 1;
  double reward = 0;
  for (int step = 0; step < 120; ++step) {
    engine->Act(forward);
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
    const World* world = MazeWorldOf(*engine);
    const double apart = std::hypot(world->pose(0).position.x - world->pose(1).position.x,
                                    world->pose(0).position.y - world->pose(1).position.y);
    ASSERT_GE(apart, 2 * World::kPlayerRadius - 1e-9) << "step " << step;
  }
}

TEST(PlayersTest, EachPlayerPicksUpForItselfAndIsRewardedAlone) {
  std::unique_ptr<Engine> engine = Corridor(2);
  ASSERT_NE(engine, nullptr);
  const World* world = MazeWorldOf(*engine);
  // Only the player behind moves east, onto the apple between them.
  const int behind = world->pose(0).position.x < world->pose(1).position.x ? 0 : 1;
  std::vector<int> actions(14, 0);
  actions[behind * 7 + 3] = 1;
  const int reward_of[2] = {ObservationIndex(*engine, "1.REWARD"),
                            ObservationIndex(*engine, "2.REWARD")};
  double total = 0;
  double each[2] = {0, 0};
  for (int step = 0; step < 60; ++step) {
    engine->Act(actions);
    double reward = 0;
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
    total += reward;
    double sum = 0;
    for (int p = 0; p < 2; ++p) {
      absl::StatusOr<ObservationValue> r = engine->Observation(reward_of[p]);
      ASSERT_TRUE(r.ok()) << r.status();
      each[p] += Doubles(*r)[0];
      sum += Doubles(*r)[0];
    }
    EXPECT_EQ(sum, reward);  // the step's reward is every player's
  }
  EXPECT_EQ(each[behind], 1);
  EXPECT_EQ(each[1 - behind], 0);
  EXPECT_EQ(total, 1);
  std::string taken;
  ASSERT_TRUE(engine->ReadProperty("taken", &taken).ok());
  EXPECT_EQ(taken, absl::StrCat("2:", behind + 1, " "));
}

// The message of the first step's error of a two-player level in a
// two-cell room whose hasEpisodeFinished runs `finished` (and whose
// observeFrame runs `observe`); empty when the step succeeds.
std::string FirstStepError(const std::string& name, const std::string& finished,
                           const std::string& observe = "") {
  const std::string level = WriteLevel(name, R"(
local game = require 'dmlab.system.game'
local api = {}
function api:nextMap() return "*****\n*P P*\n*****\n" end
function api:observeFrame(rgb, depth) )" + observe + R"( end
function api:hasEpisodeFinished() )" + finished + R"( end
return api
)");
  std::unique_ptr<Engine> engine = InitEngine(level, {{"players", "2"}});
  if (engine == nullptr || !engine->Start(0, 1).ok()) return "no start";
  double reward = 0;
  return std::string(engine->Advance(1, &reward).status().message());
}

TEST(PlayersTest, PlayerIdsOutOfRangeAreErrorsNamingTheFunction) {
  const std::string score = FirstStepError("player_three", "game:addScore(3, 1)");
  EXPECT_THAT(score, HasSubstr("game:addScore"));
  EXPECT_THAT(score, HasSubstr("a player id in [1, 2] expected, got 3"));
  const std::string info = FirstStepError("player_zero", "game:playerInfo(0)");
  EXPECT_THAT(info, HasSubstr("game:playerInfo"));
  EXPECT_THAT(info, HasSubstr("got 0"));
  EXPECT_EQ(FirstStepError("player_two", "game:addScore(2, 1) game:playerInfo(2)"), "");
}

TEST(PlayersTest, ALevelCannotTakeARewardsName) {
  const std::string level = WriteLevel("reward_name", R"(
local api = {}
function api:nextMap() return "*****\n*P P*\n*****\n" end
function api:customObservationSpec() return {{name = '2.REWARD', type = 'Doubles', shape = {1}}} end
return api
)");
  EXPECT_THAT(InitWith(level, {{"players", "2"}}).message(),
              HasSubstr("observation '2.REWARD' is the plugin's"));
  EXPECT_TRUE(InitWith(level, {{"players", "1"}}).ok());
}

// One player's frame kept by a level callback is revoked with the rest.
TEST(PlayersTest, AFrameKeptFromObserveFrameIsRevoked) {
  EXPECT_THAT(FirstStepError("keep_frames", "if api.kept then api.kept:sum() end",
                             "api.kept = rgb:select(1, 2)"),
              HasSubstr("engine frame buffer"));
}

TEST(PlayersTest, TheSameSeedGivesTheSameEpisode) {
  auto run = [](std::uint64_t seed) {
    std::unique_ptr<Engine> engine = InitEngine("apple_race", {{"players", "3"}, {"width", "16"},
                                                               {"height", "16"}});
    std::vector<double> trace;
    if (engine == nullptr || !engine->Start(0, seed).ok()) return trace;
    std::uint64_t state = seed;
    for (int step = 0; step < 200; ++step) {
      std::vector<int> actions(21, 0);
      for (int p = 0; p < 3; ++p) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        actions[p * 7 + 0] = static_cast<int>(state >> 59) - 16;
        actions[p * 7 + 3] = 1;
      }
      engine->Act(actions);
      double reward = 0;
      absl::StatusOr<EpisodeStatus> status = engine->Advance(1, &reward);
      if (!status.ok()) break;
      for (int p = 0; p < 3; ++p) trace.push_back(MazeWorldOf(*engine)->pose(p).position.x);
      trace.push_back(reward);
      if (*status != EpisodeStatus::kRunning) break;
    }
    return trace;
  };
  const std::vector<double> first = run(7);
  EXPECT_GT(first.size(), 100u);
  EXPECT_EQ(first, run(7));
  EXPECT_NE(first, run(8));
}

// The rewards of the step just taken, by player.
std::vector<double> PlayerRewards(Engine& engine, int players) {
  std::vector<double> rewards;
  for (int p = 1; p <= players; ++p) {
    absl::StatusOr<ObservationValue> r =
        engine.Observation(ObservationIndex(engine, absl::StrCat(p, ".REWARD")));
    rewards.push_back(r.ok() ? Doubles(*r)[0] : -1);
  }
  return rewards;
}

// Stands `player` on the pickup with spawn id `spawn_id` (a test's
// shortcut: the maze's world is the host's).
void StandOn(const Engine& engine, int spawn_id, int player) {
  World& world = const_cast<World&>(*MazeWorldOf(engine));
  for (const Pickup& pickup : world.pickups()) {
    if (pickup.spawn_id == spawn_id) world.Teleport(pickup.position, 0, player);
  }
}

TEST(PlayersTest, CoopGoalsPaysBothOnlyOnceBothAreOnTheirGoals) {
  std::unique_ptr<Engine> engine = InitEngine("coop_goals", {{"players", "2"}, {"width", "16"},
                                                             {"height", "16"}});
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  // Player 1 on player 2's goal (spawn id 2): not its own, nothing happens.
  StandOn(*engine, 2, 0);
  ASSERT_EQ(*engine->Advance(1, &reward), EpisodeStatus::kRunning);
  EXPECT_THAT(PlayerRewards(*engine, 2), ::testing::ElementsAre(0, 0));
  // On its own: taken, still nothing paid.
  StandOn(*engine, 1, 0);
  ASSERT_EQ(*engine->Advance(1, &reward), EpisodeStatus::kRunning);
  EXPECT_THAT(PlayerRewards(*engine, 2), ::testing::ElementsAre(0, 0));
  // Then player 2 on its own: both are paid, and the episode is over.
  StandOn(*engine, 2, 1);
  reward = 0;
  ASSERT_EQ(*engine->Advance(1, &reward), EpisodeStatus::kTerminated);
  EXPECT_THAT(PlayerRewards(*engine, 2), ::testing::ElementsAre(10, 10));
  EXPECT_EQ(reward, 20);
  EXPECT_THAT(InitWith("coop_goals", {{"players", "3"}}).message(),
              HasSubstr("coop_goals has two goals, for at most two players; players = 3"));
}

TEST(PlayersTest, AppleRaceEndsWithTheLastApple) {
  std::unique_ptr<Engine> engine = InitEngine("apple_race", {{"players", "2"}, {"width", "16"},
                                                             {"height", "16"}});
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  std::vector<int> spawn_ids;
  for (const Pickup& pickup : MazeWorldOf(*engine)->pickups()) spawn_ids.push_back(pickup.spawn_id);
  ASSERT_EQ(spawn_ids.size(), 23u);
  double won[2] = {0, 0};
  for (std::size_t i = 0; i < spawn_ids.size(); ++i) {
    const int player = static_cast<int>(i % 2);
    StandOn(*engine, spawn_ids[i], player);
    double reward = 0;
    absl::StatusOr<EpisodeStatus> status = engine->Advance(1, &reward);
    ASSERT_TRUE(status.ok()) << status.status();
    const std::vector<double> rewards = PlayerRewards(*engine, 2);
    won[0] += rewards[0];
    won[1] += rewards[1];
    EXPECT_EQ(*status, i + 1 == spawn_ids.size() ? EpisodeStatus::kTerminated
                                                  : EpisodeStatus::kRunning);
  }
  EXPECT_EQ(won[0], 12);
  EXPECT_EQ(won[1], 11);
}

// A level that finishes players by the frame: player 2 at frame 5 (its
// task over), player 1 at frame 10 (cut short).
constexpr char kFinishing[] = R"(
local players = require 'dmlab.system.players'
local api = {}
function api:nextMap() return "**********\n*P   P   *\n**********\n" end
function api:start() api.frame = 0 end
function api:hasEpisodeFinished()
  api.frame = api.frame + 1
  if api.frame == 5 then players:finish(2) end
  if api.frame == 10 then players:finish(1, 'truncated') end
  if api.frame == 7 then
    assert(players:count() == PLAYERS)
    assert(players:status(2) == 'terminated' and players:status(1) == 'running')
    players:finish(2, 'truncated')  -- finished stays finished, as it was
  end
end
return api
)";

std::vector<int> Statuses(Engine& engine, int players) {
  std::vector<int> statuses;
  for (int p = 1; p <= players; ++p) {
    absl::StatusOr<ObservationValue> status =
        engine.Observation(ObservationIndex(engine, absl::StrCat(p, ".STATUS")));
    statuses.push_back(status.ok() ? Bytes(*status)[0] : -1);
  }
  return statuses;
}

TEST(PlayersTest, EachPlayersPartOfTheEpisodeEndsOnItsOwn) {
  std::string source = kFinishing;
  source.replace(source.find("PLAYERS"), 7, "2");
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("finishing", source),
                                              {{"players", "2"}, {"width", "8"}, {"height", "8"}});
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  EXPECT_THAT(Statuses(*engine, 2), ::testing::ElementsAre(0, 0));
  std::vector<int> forward(14, 0);
  forward[3] = forward[10] = 1;  // both try to walk on
  double reward = 0;
  WorldPoint stopped{};
  for (int frame = 1; frame <= 10; ++frame) {
    engine->Act(forward);
    absl::StatusOr<EpisodeStatus> status = engine->Advance(1, &reward);
    ASSERT_TRUE(status.ok()) << status.status();
    const World* world = MazeWorldOf(*engine);
    if (frame < 5) {
      EXPECT_THAT(Statuses(*engine, 2), ::testing::ElementsAre(0, 0));
    } else if (frame < 10) {
      EXPECT_THAT(Statuses(*engine, 2), ::testing::ElementsAre(0, 1)) << frame;
      EXPECT_EQ(*status, EpisodeStatus::kRunning);
      // A finished player stands still.
      if (frame == 6) stopped = world->pose(1).position;
      if (frame > 6) EXPECT_EQ(world->pose(1).position.x, stopped.x) << frame;
      // The other walks on (each has room to).
      if (frame > 6) EXPECT_GT(world->motion(0).velocity.x, 0) << frame;
    } else {
      EXPECT_THAT(Statuses(*engine, 2), ::testing::ElementsAre(2, 1));
      // Every player's part is over: terminated, as player 2's was.
      EXPECT_EQ(*status, EpisodeStatus::kTerminated);
    }
  }
  // A new episode runs every player again.
  ASSERT_TRUE(engine->Start(1, 1).ok());
  EXPECT_THAT(Statuses(*engine, 2), ::testing::ElementsAre(0, 0));
}

TEST(PlayersTest, OnePlayerFinishingEndsTheEpisode) {
  std::string source = kFinishing;
  source.replace(source.find("PLAYERS"), 7, "1");
  source.replace(source.find("players:finish(2)"), 17, "players:finish(1, 'truncated')");
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("finishing_one", source));
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  absl::StatusOr<EpisodeStatus> status = engine->Advance(10, &reward);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(*status, EpisodeStatus::kInterrupted);
  EXPECT_EQ(engine->episode_time_seconds(), 5.0 / 60);
}

TEST(PlayersTest, ThePlayersModuleNamesBadArguments) {
  EXPECT_THAT(FirstStepError("finish_three", "require('dmlab.system.players'):finish(3)"),
              HasSubstr("players:finish"));
  EXPECT_THAT(FirstStepError("finish_how", "require('dmlab.system.players'):finish(1, 'won')"),
              HasSubstr("'terminated' or 'truncated' expected, got 'won'"));
  EXPECT_THAT(FirstStepError("status_zero", "require('dmlab.system.players'):status(0)"),
              HasSubstr("a player id in [1, 2] expected, got 0"));
}

}  // namespace
}  // namespace engine_plugin
