// The level's hand on the controls, on the maze host: DeepMind Lab's
// modifyControl (the level sees the player's controls of each frame and
// may change them for that frame) and its own discrete actions
// (customDiscreteActionSpec, customDiscreteActions).
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

TEST(CustomActionsTest, TheLevelsActionsFollowTheSevenAndReachIt) {
  std::unique_ptr<Engine> engine = Started(R"(
function api:customDiscreteActionSpec()
  return {{name = 'SWITCH_GADGET', min = -1, max = 1}, {name = 'SELECT_GADGET', min = 0, max = 10}}
end
function api:customDiscreteActions(actions)
  api.seen[#api.seen + 1] = table.concat(actions, ',')
end
)");
  ASSERT_NE(engine, nullptr);
  const std::vector<DiscreteActionSpec>& specs = engine->discrete_actions();
  ASSERT_EQ(specs.size(), 9u);
  EXPECT_EQ(specs[6].name, "CROUCH");
  EXPECT_EQ(specs[7].name, "SWITCH_GADGET");
  EXPECT_EQ(specs[7].min, -1);
  EXPECT_EQ(specs[8].name, "SELECT_GADGET");
  EXPECT_EQ(specs[8].max, 10);
  engine->Act({0, 0, 0, 0, 0, 0, 0, -1, 12});  // 12 is clamped to the level's bound
  double reward = 0;
  ASSERT_TRUE(engine->Advance(3, &reward).ok());  // once for the act, not per frame
  std::string seen;
  ASSERT_EQ(*engine->ReadProperty("seen", &seen), PropertyResult::kSuccess);
  EXPECT_EQ(seen, "-1,10");
}

TEST(CustomActionsTest, BadSpecsFailInitAndAMissingReceiverFailsTheStep) {
  for (const auto& [spec, says] :
       {std::pair{"{{name = 'FIRE', min = 0, max = 1}}", "action 1: the name 'FIRE' is taken"},
        std::pair{"{{name = 'A', min = 2, max = 1}}", "action 1: min exceeds max"},
        std::pair{"{{name = 'A', min = 0, max = 1}, {name = 'A', min = 0, max = 1}}",
                  "action 2: the name 'A' is taken"},
        std::pair{"{{min = 0, max = 1}}", "action 1: name: string expected, got nil"},
        std::pair{"7", "must return a list of {name =, min =, max =}, not number"}}) {
    SCOPED_TRACE(spec);
    char source[2048];
    std::snprintf(
        source, sizeof source, kLevel,
        (std::string("function api:customDiscreteActionSpec() return ") + spec + " end").c_str());
    const absl::Status init = InitWith(WriteLevel("bad_actions", source), {});
    EXPECT_FALSE(init.ok());
    EXPECT_THAT(std::string(init.message()), HasSubstr(says));
  }
  std::unique_ptr<Engine> deaf = Started(
      "function api:customDiscreteActionSpec() return {{name = 'A', min = 0, max = 1}} end");
  ASSERT_NE(deaf, nullptr);
  double reward = 0;
  absl::StatusOr<EpisodeStatus> status = deaf->Advance(1, &reward);
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.status().message()),
              HasSubstr("declares custom actions (customDiscreteActionSpec) but has no "
                        "customDiscreteActions"));
}

}  // namespace
}  // namespace engine_plugin
