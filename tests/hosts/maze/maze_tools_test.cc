// What the maze offers tools through engine_plugin::HostTools: its agents,
// the path and the overview, reached as run_level reaches them, through
// Engine::host_tools() only.
#include "hosts/maze/maze_tools.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine_plugin/engine.h"
#include "engine_plugin/host.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::unique_ptr<Engine> StartedDemo() {
  std::unique_ptr<Engine> engine = InitEngine("demo_maze", {{"width", "32"}, {"height", "24"}});
  if (engine != nullptr) EXPECT_TRUE(engine->Start(0, 1).ok());
  return engine;
}

TEST(MazeToolsTest, OffersItsAgentsAndRefusesOthersByName) {
  std::unique_ptr<Engine> engine = StartedDemo();
  ASSERT_NE(engine, nullptr);
  HostTools* tools = engine->host_tools();
  ASSERT_NE(tools, nullptr);
  EXPECT_THAT(tools->AgentNames(), ElementsAre("random", "forward"));
  absl::StatusOr<std::unique_ptr<HostAgent>> bogus = tools->MakeAgent("bogus", 1);
  ASSERT_FALSE(bogus.ok());
  EXPECT_THAT(bogus.status().message(), HasSubstr("no agent 'bogus'"));
  EXPECT_THAT(bogus.status().message(), HasSubstr("random, forward"));
}

TEST(MazeToolsTest, TheForwardAgentMovesThePlayerAndTheSeedFixesTheRandomOne) {
  std::unique_ptr<Engine> engine = StartedDemo();
  ASSERT_NE(engine, nullptr);
  HostTools* tools = engine->host_tools();
  ASSERT_NE(tools, nullptr);
  absl::StatusOr<std::unique_ptr<HostAgent>> forward = tools->MakeAgent("forward", 1);
  ASSERT_TRUE(forward.ok()) << forward.status();
  std::vector<int> actions(engine->discrete_actions().size(), 7);
  (*forward)->NextActions(absl::MakeSpan(actions));
  // DeepMind Lab's MOVE_BACK_FORWARD is 1; every other action 0.
  std::vector<int> expected(actions.size(), 0);
  expected[3] = 1;
  EXPECT_EQ(actions, expected);
  const WorldPoint before = MazeWorldOf(*engine)->pose().position;
  double reward = 0;
  // Long enough to turn away from a wall ahead (90 degrees take 45 steps).
  for (int step = 0; step < 200; ++step) {
    (*forward)->NextActions(absl::MakeSpan(actions));
    engine->Act(actions);
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
  }
  const WorldPoint after = MazeWorldOf(*engine)->pose().position;
  EXPECT_GT(std::hypot(after.x - before.x, after.y - before.y), 0.5);

  auto moves = [&](std::uint64_t seed) {
    std::unique_ptr<HostAgent> agent = *tools->MakeAgent("random", seed);
    std::vector<int> all;
    for (int step = 0; step < 50; ++step) {
      agent->NextActions(absl::MakeSpan(actions));
      all.insert(all.end(), actions.begin(), actions.end());
    }
    return all;
  };
  EXPECT_EQ(moves(3), moves(3));
  EXPECT_NE(moves(3), moves(4));
}

TEST(MazeToolsTest, TheOverviewDrawsThePathUntilItIsCleared) {
  std::unique_ptr<Engine> engine = StartedDemo();
  ASSERT_NE(engine, nullptr);
  HostTools* tools = engine->host_tools();
  ASSERT_NE(tools, nullptr);
  constexpr int kSize = 96;
  const std::vector<std::uint8_t> bare = tools->Overview(kSize);
  ASSERT_EQ(bare.size(), static_cast<std::size_t>(kSize) * kSize * 3);
  EXPECT_TRUE(std::any_of(bare.begin(), bare.end(), [](std::uint8_t v) { return v != 0; }));
  std::unique_ptr<HostAgent> forward = *tools->MakeAgent("forward", 1);
  std::vector<int> actions(engine->discrete_actions().size());
  const WorldPoint start = MazeWorldOf(*engine)->pose().position;
  double reward = 0;
  for (int step = 0; step < 200; ++step) {
    tools->RecordPath();
    forward->NextActions(absl::MakeSpan(actions));
    engine->Act(actions);
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
  }
  tools->RecordPath();
  const WorldPoint end = MazeWorldOf(*engine)->pose().position;
  ASSERT_GT(std::hypot(end.x - start.x, end.y - start.y), 0.5);
  const std::vector<std::uint8_t> with_path = tools->Overview(kSize);
  tools->ClearPath();
  // The same world and player, without the line.
  EXPECT_NE(tools->Overview(kSize), with_path);
}

}  // namespace
}  // namespace engine_plugin
