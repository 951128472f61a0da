// DeepMind Lab's modifyControl on the maze host: the level sees the
// player's controls of each frame and may change them for that frame.
#include <cmath>
#include <memory>
#include <string>

#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

constexpr char kLevel[] = R"(
local api = {seen = {}}
function api:nextMap() return "*********\n*P      *\n*********\n" end
function api:readProperty() return table.concat(api.seen, ' ') end
%s
return api
)";

std::unique_ptr<Engine> Started(const char* callback) {
  char source[2048];
  std::snprintf(source, sizeof source, kLevel, callback);
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("controls", source));
  if (engine == nullptr || !engine->Start(0, 0).ok()) return nullptr;
  return engine;
}

TEST(ModifyControlTest, TheLevelSeesEachFramesControls) {
  std::unique_ptr<Engine> engine = Started(R"(
function api:modifyControl(c)
  api.seen[#api.seen + 1] = table.concat({c.lookLeftRight, c.lookDownUp, c.moveBackForward,
                                          c.strafeLeftRight, c.crouchJump, c.buttonsDown}, ',')
end
)");
  ASSERT_NE(engine, nullptr);
  engine->Act({-20, 10, -1, 1, 1, 0, 1});  // fire, crouch
  double reward = 0;
  ASSERT_TRUE(engine->Advance(2, &reward).ok());
  std::string seen;
  ASSERT_EQ(*engine->ReadProperty("seen", &seen), PropertyResult::kSuccess);
  EXPECT_EQ(seen, "-20,10,1,-1,-1,1 -20,10,1,-1,-1,1");
}

TEST(ModifyControlTest, WhatItReturnsIsWhatThePlayerDoesThatFrame) {
  std::unique_ptr<Engine> moved = Started(R"(
function api:modifyControl(c)
  c.moveBackForward = 7  -- clamped to 1
  c.lookLeftRight = 1e9  -- clamped to 512
  return c
end
)");
  ASSERT_NE(moved, nullptr);
  moved->Act(std::vector<int>(7, 0));  // the agent stands still
  double reward = 0;
  ASSERT_TRUE(moved->Advance(1, &reward).ok());
  // Turned right by 512 pixels, then a frame's step forward that way.
  const double yaw = -512 * World::kDegreesPerPixel;
  EXPECT_NEAR(MazeWorldOf(*moved)->pose().yaw, yaw, 1e-9);
  const double step = World::kMoveSpeed / 60;
  EXPECT_NEAR(MazeWorldOf(*moved)->pose().position.x, 1.5 + step * std::cos(yaw * M_PI / 180),
              1e-9);
  EXPECT_NEAR(MazeWorldOf(*moved)->pose().position.y, 1.5 + step * std::sin(yaw * M_PI / 180),
              1e-9);
}

TEST(ModifyControlTest, BadReturnsAreErrors) {
  for (const auto& [callback, says] :
       {std::pair{"function api:modifyControl() return 7 end",
                  "'modifyControl' must return the controls (a table) or nil, not number"},
        std::pair{"function api:modifyControl(c) c.moveBackForward = 'x' return c end",
                  "'modifyControl' returned controls whose moveBackForward: number expected"},
        std::pair{"function api:modifyControl(c) c.lookDownUp = 0/0 return c end",
                  "returned controls whose lookDownUp: finite number expected"}}) {
    SCOPED_TRACE(callback);
    std::unique_ptr<Engine> engine = Started(callback);
    ASSERT_NE(engine, nullptr);
    double reward = 0;
    absl::StatusOr<EpisodeStatus> status = engine->Advance(1, &reward);
    ASSERT_FALSE(status.ok());
    EXPECT_THAT(std::string(status.status().message()), HasSubstr(says));
  }
}

}  // namespace
}  // namespace engine_plugin
