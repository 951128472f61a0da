// Runs the level of docs/engine.md's worked example (its ```lua block) in
// the engine, and checks what the text says it does.
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

std::string ExampleLevel() {
  std::ifstream doc("docs/engine.md");
  std::stringstream text;
  text << doc.rdbuf();
  const std::string markdown = text.str();
  const std::regex block("```lua\n([^`]*)```");
  std::smatch match;
  EXPECT_TRUE(std::regex_search(markdown, match, block)) << "no ```lua block in docs/engine.md";
  return match[1];
}

TEST(EngineLevelDocTest, TheWorkedExampleRunsAsDescribed) {
  std::unique_ptr<Engine> engine =
      InitEngine(WriteLevel("worked_example", ExampleLevel()), {{"bonus", "0.5"}});
  ASSERT_NE(engine, nullptr);
  const int brightness = ObservationIndex(*engine, "BRIGHTNESS");
  ASSERT_GE(brightness, 0);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  engine->Act(Forward());
  double total = 0;
  int pickups = 0;
  for (int step = 0; step < 150; ++step) {
    double reward = 0;
    absl::StatusOr<EpisodeStatus> status = engine->Advance(1, &reward);
    ASSERT_TRUE(status.ok()) << status.status();
    total += reward;
    pickups += static_cast<int>(engine->events().size());
    const double mean = Doubles(*engine->Observation(brightness))[0];
    EXPECT_GE(mean, 0.0);
    EXPECT_LE(mean, 1.0);
  }
  EXPECT_EQ(pickups, 2);  // the apple, then the goal
  // 1 for the apple, 5 for the goal, and bonuses of 0.5.
  const double bonuses = total - 6;
  EXPECT_GE(bonuses, 0.0);
  EXPECT_DOUBLE_EQ(bonuses / 0.5, std::round(bonuses / 0.5));
}

}  // namespace
}  // namespace engine_plugin
