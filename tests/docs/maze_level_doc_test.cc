// Runs the levels of docs/maze.md (its ```lua blocks: the worked example,
// the map maker's) on the maze, and checks what the text says they do.
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

// The first ```lua block after the heading `heading` of docs/maze.md.
std::string ExampleLevel(const std::string& heading) {
  std::ifstream doc("docs/maze.md");
  std::stringstream text;
  text << doc.rdbuf();
  const std::string markdown = text.str();
  const std::size_t at = markdown.find(heading);
  EXPECT_NE(at, std::string::npos) << "no heading '" << heading << "' in docs/maze.md";
  const std::regex block("```lua\n([^`]*)```");
  std::smatch match;
  const std::string after = markdown.substr(at == std::string::npos ? 0 : at);
  EXPECT_TRUE(std::regex_search(after, match, block)) << "no ```lua block after " << heading;
  return match[1];
}

TEST(MazeLevelDocTest, TheWorkedExampleRunsAsDescribed) {
  std::unique_ptr<Engine> engine =
      InitEngine(WriteLevel("worked_example", ExampleLevel("### A worked example")),
                 {{"bonus", "0.5"}});
  ASSERT_NE(engine, nullptr);
  const int brightness = ObservationIndex(*engine, "BRIGHTNESS");
  ASSERT_GE(brightness, 0);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  engine->Act(Forward());
  double total = 0;
  int pickups = 0;
  // Frames whose centre is bright, the first one's (from start) too: each
  // earns the bonus, paid with the next step's reward.
  int bright = Doubles(*engine->Observation(brightness))[0] > 0.4 ? 1 : 0;
  for (int step = 0; step < 150; ++step) {
    double reward = 0;
    absl::StatusOr<EpisodeStatus> status = engine->Advance(1, &reward);
    ASSERT_TRUE(status.ok()) << status.status();
    total += reward;
    pickups += static_cast<int>(engine->events().size());
    const double mean = Doubles(*engine->Observation(brightness))[0];
    EXPECT_GE(mean, 0.0);
    EXPECT_LE(mean, 1.0);
    if (mean > 0.4) ++bright;
    if (*status != EpisodeStatus::kRunning) break;
  }
  EXPECT_EQ(pickups, 2);  // the apple, then the goal
  // 1 for the apple, 5 for the goal, and a bonus of 0.5 for each bright
  // frame, of which the walk has some.
  EXPECT_GT(bright, 0);
  EXPECT_DOUBLE_EQ(total - 6, 0.5 * bright);
}

// The map maker's example makes a room with a goal three cells east of the
// spawn point: walking east reaches it.
TEST(MazeLevelDocTest, TheMapMakersExampleMakesItsRoom) {
  std::unique_ptr<Engine> engine =
      InitEngine(WriteLevel("map_maker_example", ExampleLevel("### `dmlab.system.map_maker`")));
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  engine->Act(Forward());
  double reward = 0;
  ASSERT_TRUE(engine->Advance(70, &reward).ok());
  EXPECT_EQ(reward, 10);  // the goal's
}

}  // namespace
}  // namespace engine_plugin
