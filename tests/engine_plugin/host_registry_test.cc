// Which host runs a level: the name in its leading comments, or the maze;
// an unknown name is an error that lists the hosts the binary has.
#include <memory>
#include <string>
#include <vector>

#include "engine_plugin/engine.h"
#include "engine_plugin/env_c_api.h"
#include "engine_plugin/host_registry.h"
#include "engine_plugin/level_source.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(HostRegistryTest, ALevelNamesItsHostInItsLeadingComments) {
  EXPECT_EQ(HostNamedBy("-- host: ball\nreturn {}"), "ball");
  EXPECT_EQ(HostNamedBy("\n-- A level.\n--   host:   mujoco  \nreturn {}"), "mujoco");
  EXPECT_EQ(HostNamedBy("return {}"), "maze");
  // Only the leading comments count: not a comment after code, nor a
  // host: that is not at the start of a comment line.
  EXPECT_EQ(HostNamedBy("local x = 1\n-- host: ball\n"), "maze");
  EXPECT_EQ(HostNamedBy("-- the host: ball\n"), "maze");
  EXPECT_EQ(HostNamedBy("-- host:\n"), "maze");
}

TEST(HostRegistryTest, TheMazeIsRegisteredWhenLinked) {
  EXPECT_THAT(HostNames(), ElementsAre("maze"));
  EXPECT_TRUE(CreateHost("maze").ok());
}

// This binary links the maze alone: MuJoCo's built-in levels are not
// runnable here, so neither list has them.
TEST(HostRegistryTest, TheRunnableBuiltinLevelsAreThoseOfLinkedHosts) {
  std::vector<std::string> names;
  for (const BuiltinLevel& level : RunnableBuiltinLevels()) {
    EXPECT_EQ(level.host, "maze") << level.name;
    names.push_back(level.name);
  }
  EXPECT_THAT(names, ElementsAre("apple_race", "coop_goals", "demo_maze", "random_maze"));
  ASSERT_EQ(env_level_count(), 4);
  EXPECT_STREQ(env_level_name(2), "demo_maze");
  EXPECT_STREQ(env_level_host(3), "maze");
  EXPECT_EQ(env_level_name(4), nullptr);
  EXPECT_EQ(env_level_name(-1), nullptr);
  EXPECT_EQ(env_level_host(4), nullptr);
}

TEST(HostRegistryTest, AnUnknownHostListsTheHostsThereAre) {
  const std::string path = WriteLevel("unknown_host", "-- host: warp\nreturn {}\n");
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(path);
  ASSERT_FALSE(engine.ok());
  EXPECT_THAT(std::string(engine.status().message()),
              HasSubstr("no host 'warp' in this binary; it has: maze"));
}

TEST(HostRegistryTest, TheEngineSaysWhichHostItRuns) {
  std::unique_ptr<Engine> engine = InitEngine("demo_maze");
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(engine->host_name(), "maze");
  EXPECT_EQ(engine->discrete_actions().size(), 7u);
  EXPECT_TRUE(engine->continuous_actions().empty());
}

}  // namespace
}  // namespace engine_plugin
