#include "hosts/maze/world.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "hosts/maze/text_map.h"

namespace hosts::maze {
namespace {

constexpr double kFrame = 1.0 / 60;
constexpr double kR = World::kPlayerRadius;

World WorldOf(const char* entities, int spawn = 0) {
  absl::StatusOr<TextMap> map = TextMap::Parse(entities);
  EXPECT_TRUE(map.ok()) << map.status();
  return World(*std::move(map), spawn);
}

Actions Look(int left_right, int down_up) {
  Actions a{};
  a[kLookLeftRight] = left_right;
  a[kLookDownUp] = down_up;
  return a;
}

Actions Move(int strafe, int forward) {
  Actions a{};
  a[kStrafeLeftRight] = strafe;
  a[kMoveBackForward] = forward;
  return a;
}

void StepFrames(World& world, const Actions& actions, double seconds, int frames) {
  for (int i = 0; i < frames; ++i) world.Step(actions, seconds);
}

// True if the player's circle overlaps a wall cell by more than rounding.
bool OverlapsWall(const TextMap& map, WorldPoint p) {
  for (int col = static_cast<int>(std::floor(p.x - kR)); col <= std::floor(p.x + kR); ++col) {
    for (int y = static_cast<int>(std::floor(p.y - kR)); y <= std::floor(p.y + kR); ++y) {
      if (!map.IsWall(map.rows() - 1 - y, col)) continue;
      const double dx = std::max({0.0, col - p.x, p.x - (col + 1)});
      const double dy = std::max({0.0, y - p.y, p.y - (y + 1)});
      if (dx * dx + dy * dy < kR * kR - 1e-12) return true;
    }
  }
  return false;
}

// 12 x 12 open floor inside a border; spawn at x = 1.5, y = 12.5.
constexpr char kOpenRoom[] =
    "**************\n"
    "*P           *\n"
    "*            *\n"
    "*            *\n"
    "*            *\n"
    "*            *\n"
    "*            *\n"
    "*            *\n"
    "*            *\n"
    "*            *\n"
    "*            *\n"
    "*            *\n"
    "*            *\n"
    "**************\n";

void PlaceInOpenRoom(World& world, double yaw) { world.set_pose({{7, 7}, yaw, 0}); }

TEST(WorldTest, SpawnsAtTheSpawnCellCentreFacingPlusX) {
  World world = WorldOf("*****\n*P P*\n*****\n", /*spawn=*/3);
  EXPECT_DOUBLE_EQ(world.pose().position.x, 3.5);  // 3 % 2 spawns = the second
  EXPECT_DOUBLE_EQ(world.pose().position.y, 1.5);
  EXPECT_EQ(world.pose().yaw, 0);
  EXPECT_EQ(world.pose().pitch, 0);
}

TEST(WorldTest, LookingRightDecreasesYawAndLeftIncreasesIt) {
  World world = WorldOf(kOpenRoom);
  world.Step(Look(100, 0), kFrame);
  EXPECT_NEAR(world.pose().yaw, -10, 1e-12);
  world.Step(Look(-300, 0), kFrame);
  EXPECT_NEAR(world.pose().yaw, 20, 1e-12);
}

TEST(WorldTest, YawWrapsIntoMinus180To180) {
  World world = WorldOf(kOpenRoom);
  world.set_pose({world.pose().position, 175, 0});
  world.Step(Look(-100, 0), kFrame);  // 185
  EXPECT_NEAR(world.pose().yaw, -175, 1e-9);
  world.Step(Look(50, 0), kFrame);  // -180 is in range, 180 is not
  EXPECT_NEAR(world.pose().yaw, -180, 1e-9);
  EXPECT_GE(world.pose().yaw, -180);
  StepFrames(world, Look(-512, 0), kFrame, 100);
  EXPECT_GE(world.pose().yaw, -180);
  EXPECT_LT(world.pose().yaw, 180);
}

TEST(WorldTest, PitchFollowsLookDownUpAndIsClamped) {
  World world = WorldOf(kOpenRoom);
  world.Step(Look(0, 100), kFrame);  // positive looks down
  EXPECT_NEAR(world.pose().pitch, -10, 1e-12);
  StepFrames(world, Look(0, 512), kFrame, 10);
  EXPECT_EQ(world.pose().pitch, -90);
  StepFrames(world, Look(0, -512), kFrame, 10);
  EXPECT_EQ(world.pose().pitch, 90);
}

TEST(WorldTest, ForwardMovesKMoveSpeedCellsPerSecondAlongYaw) {
  World world = WorldOf(kOpenRoom);
  PlaceInOpenRoom(world, 30);
  StepFrames(world, Move(0, 1), kFrame, 60);
  const double yaw = 30 * std::acos(-1.0) / 180;
  EXPECT_NEAR(world.pose().position.x, 7 + World::kMoveSpeed * std::cos(yaw), 1e-9);
  EXPECT_NEAR(world.pose().position.y, 7 + World::kMoveSpeed * std::sin(yaw), 1e-9);

  PlaceInOpenRoom(world, 0);
  world.Step(Move(0, -1), 0.5);
  EXPECT_NEAR(world.pose().position.x, 7 - 0.5 * World::kMoveSpeed, 1e-9);
  EXPECT_NEAR(world.pose().position.y, 7, 1e-9);
}

// DeepMind Lab's playerInfo().vel and anglesVel: the last frame's motion.
TEST(WorldTest, MotionIsTheLastFramesVelocityAndTurnRates) {
  World world = WorldOf(kOpenRoom);
  EXPECT_EQ(world.motion().velocity.x, 0);  // before any step
  PlaceInOpenRoom(world, 90);
  world.Step(Move(0, 1), kFrame);
  EXPECT_NEAR(world.motion().velocity.x, 0, 1e-9);
  EXPECT_NEAR(world.motion().velocity.y, World::kMoveSpeed, 1e-9);
  // Turning across +-180 takes the short way: 10 degrees right is -10.
  world.set_pose({world.pose().position, -175, 0});
  world.Step(Look(100, -50), kFrame);
  EXPECT_NEAR(world.motion().yaw_rate, -10 / kFrame, 1e-6);
  EXPECT_NEAR(world.motion().pitch_rate, 5 / kFrame, 1e-6);
  EXPECT_EQ(world.motion().velocity.y, 0);  // no move this frame
  world.set_pose({world.pose().position, 175, 0});
  world.Step(Look(-100, 0), kFrame);  // 175 -> -175 turning left
  EXPECT_NEAR(world.motion().yaw_rate, 10 / kFrame, 1e-6);
  world.Step(Move(0, 1), 0);  // no time: no rate
  EXPECT_EQ(world.motion().yaw_rate, 0);
}

TEST(WorldTest, StrafingMovesSidewaysAtKMoveSpeed) {
  World world = WorldOf(kOpenRoom);
  PlaceInOpenRoom(world, 0);  // facing +x, so right is -y
  world.Step(Move(1, 0), 0.5);
  EXPECT_NEAR(world.pose().position.x, 7, 1e-9);
  EXPECT_NEAR(world.pose().position.y, 7 - 0.5 * World::kMoveSpeed, 1e-9);

  PlaceInOpenRoom(world, 90);  // facing +y, so left is -x
  world.Step(Move(-1, 0), 0.5);
  EXPECT_NEAR(world.pose().position.x, 7 - 0.5 * World::kMoveSpeed, 1e-9);
  EXPECT_NEAR(world.pose().position.y, 7, 1e-9);
}

TEST(WorldTest, StrafingWhileMovingIsNormalisedToKMoveSpeed) {
  World world = WorldOf(kOpenRoom);
  PlaceInOpenRoom(world, 0);
  world.Step(Move(1, 1), 0.5);
  const double leg = 0.5 * World::kMoveSpeed / std::sqrt(2.0);
  EXPECT_NEAR(world.pose().position.x, 7 + leg, 1e-9);
  EXPECT_NEAR(world.pose().position.y, 7 - leg, 1e-9);
}

TEST(WorldTest, ActionValuesAreClampedToDeepMindLabBounds) {
  World clamped = WorldOf(kOpenRoom);
  World bound = WorldOf(kOpenRoom);
  PlaceInOpenRoom(clamped, 0);
  PlaceInOpenRoom(bound, 0);
  Actions huge = {10000, -10000, 7, 5, 3, -2, 9};
  Actions limits = {512, -512, 1, 1, 1, 0, 1};
  clamped.Step(huge, 0.1);
  bound.Step(limits, 0.1);
  EXPECT_EQ(clamped.pose().yaw, bound.pose().yaw);
  EXPECT_EQ(clamped.pose().pitch, bound.pose().pitch);
  EXPECT_EQ(clamped.pose().position.x, bound.pose().position.x);
  EXPECT_EQ(clamped.pose().position.y, bound.pose().position.y);
  EXPECT_NEAR(clamped.pose().yaw, -51.2, 1e-9);
}

TEST(WorldTest, FireJumpAndCrouchDoNotMoveThePlayer) {
  World world = WorldOf(kOpenRoom);
  PlaceInOpenRoom(world, 0);
  world.Step({0, 0, 0, 0, 1, 1, 1}, 0.5);
  EXPECT_EQ(world.pose().position.x, 7);
  EXPECT_EQ(world.pose().position.y, 7);
}

TEST(WorldTest, AWallStopsThePlayerOneRadiusAway) {
  // The east wall's face is at x = 13.
  World world = WorldOf(kOpenRoom);
  PlaceInOpenRoom(world, 0);
  StepFrames(world, Move(0, 1), kFrame, 300);
  EXPECT_NEAR(world.pose().position.x, 13 - kR, 1e-6);
  EXPECT_LE(world.pose().position.x, 13 - kR);
  EXPECT_NEAR(world.pose().position.y, 7, 1e-9);
}

TEST(WorldTest, ThePlayerSlidesAlongAWallItMeetsAtAnAngle) {
  World world = WorldOf(kOpenRoom);
  world.set_pose({{12.5, 3}, 45, 0});
  // Blocked along x at once; y keeps its share of the speed.
  world.Step(Move(0, 1), 1.0);
  EXPECT_NEAR(world.pose().position.x, 13 - kR, 1e-6);
  EXPECT_NEAR(world.pose().position.y, 3 + World::kMoveSpeed * std::sqrt(0.5), 1e-9);
}

TEST(WorldTest, ThePlayerStopsInACornerOneRadiusFromBothWalls) {
  World world = WorldOf(kOpenRoom);
  PlaceInOpenRoom(world, 45);  // towards the north-east corner at (13, 13)
  StepFrames(world, Move(0, 1), kFrame, 300);
  EXPECT_NEAR(world.pose().position.x, 13 - kR, 1e-6);
  EXPECT_NEAR(world.pose().position.y, 13 - kR, 1e-6);
}

TEST(WorldTest, APillarsCornerStopsTheCircleWhereItTouches) {
  // A lone pillar covers x in [3, 4), y in [2, 3). Passing it with the
  // centre at y = 3.1 meets its top-left corner with the circle's edge.
  World world = WorldOf(
      "*******\n"
      "*     *\n"
      "*     *\n"
      "*P *  *\n"
      "*     *\n"
      "*******\n");
  world.set_pose({{1.5, 3.1}, 0, 0});
  for (int i = 0; i < 120; ++i) {
    world.Step(Move(0, 1), kFrame);
    ASSERT_FALSE(OverlapsWall(world.map(), world.pose().position)) << "frame " << i;
  }
  // Held back along x only, it rests against the corner, not the face.
  EXPECT_NEAR(world.pose().position.x, 3 - std::sqrt(kR * kR - 0.1 * 0.1), 1e-6);
  EXPECT_NEAR(world.pose().position.y, 3.1, 1e-12);
}

TEST(WorldTest, LargeTimeStepsDoNotTunnelThroughAThinWall) {
  // One wall column at x in [4, 5) between two rooms.
  constexpr char kTwoRooms[] =
      "*********\n"
      "*P  *   *\n"
      "*   *   *\n"
      "*********\n";
  for (double seconds : {0.2, 1.0, 10.0, 1e9, std::numeric_limits<double>::infinity()}) {
    SCOPED_TRACE(seconds);
    World world = WorldOf(kTwoRooms);
    world.Step(Move(0, 1), seconds);
    EXPECT_NEAR(world.pose().position.x, seconds < 1 ? 1.5 + 3 * seconds : 4 - kR, 1e-6);
    EXPECT_LE(world.pose().position.x, 4 - kR);
  }
}

TEST(WorldTest, NonPositiveOrNaNSecondsDoNotMove) {
  World world = WorldOf(kOpenRoom);
  PlaceInOpenRoom(world, 0);
  for (double seconds : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    world.Step(Move(1, 1), seconds);
    EXPECT_EQ(world.pose().position.x, 7);
    EXPECT_EQ(world.pose().position.y, 7);
  }
}

TEST(WorldTest, RandomActionsNeverPutThePlayerInsideAWall) {
  const std::vector<std::string> maps = {
      kOpenRoom,
      // A maze of one-cell corridors.
      "***********\n"
      "*P  *     *\n"
      "* * * *** *\n"
      "* *   *   *\n"
      "* ***** * *\n"
      "*   *   * *\n"
      "*** * *** *\n"
      "*     *   *\n"
      "***********\n",
      // Pillars, so corners are met from every side; a short row.
      "*******\n"
      "*P    *\n"
      "* * * *\n"
      "*     \n"
      "* * * *\n"
      "*     *\n"
      "*******\n",
      // Diagonal wall steps.
      "********\n"
      "*P     *\n"
      "**     *\n"
      "***    *\n"
      "****   *\n"
      "*****  *\n"
      "********\n",
  };
  const double kSeconds[] = {1.0 / 60, 1.0 / 15, 0.3, 2.0};
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<int> look(-600, 600), move(-2, 2), pick(0, 3);
  for (std::size_t m = 0; m < maps.size(); ++m) {
    World world = WorldOf(maps[m].c_str());
    for (int step = 0; step < 3000; ++step) {
      const Actions actions = {look(rng), 0, move(rng), move(rng), 0, 0, 0};
      world.Step(actions, kSeconds[pick(rng)]);
      const WorldPoint p = world.pose().position;
      ASSERT_FALSE(OverlapsWall(world.map(), p))
          << "map " << m << ", step " << step << ": (" << p.x << ", " << p.y << ")";
    }
  }
}

TEST(WorldTest, PickupsCopyTheMapsInReadingOrderAndStartActive) {
  World world = WorldOf("*****\n*PGA*\n*A  *\n*****\n");
  ASSERT_EQ(world.pickups().size(), 3u);
  EXPECT_EQ(world.pickup(0).kind, PickupKind::kGoal);
  EXPECT_EQ(world.pickup(1).kind, PickupKind::kReward);
  EXPECT_EQ(world.pickup(2).kind, PickupKind::kReward);
  EXPECT_DOUBLE_EQ(world.pickup(2).position.x, 1.5);
  EXPECT_DOUBLE_EQ(world.pickup(2).position.y, 1.5);
  for (int id = 0; id < 3; ++id) {
    EXPECT_EQ(world.pickup(id).id, id);
    EXPECT_TRUE(world.pickup(id).active);
  }
}

TEST(WorldTest, WalkingOverPickupsCollectsEachOnceInTurn) {
  World world = WorldOf("*******\n*P A G*\n*******\n");
  std::vector<std::pair<int, int>> taken;  // (frame, id)
  for (int frame = 0; frame < 200; ++frame) {
    for (int id : world.Step(Move(0, 1), kFrame)) taken.emplace_back(frame, id);
  }
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0].second, 0);
  EXPECT_EQ(taken[1].second, 1);
  EXPECT_LT(taken[0].first, taken[1].first);
  EXPECT_FALSE(world.pickup(0).active);
  EXPECT_FALSE(world.pickup(1).active);
}

TEST(WorldTest, PickupsTakenTogetherComeInIdOrderAndOnlyOnce) {
  // Apples at (2.5, 2.5) and (2.5, 1.5); a goal at (3.5, 2.5), out of reach.
  World world = WorldOf("*****\n*PAG*\n* A *\n*****\n");
  world.set_pose({{2.5, 2.0}, 0, 0});  // half a cell from both apples
  EXPECT_EQ(world.Step(Actions{}, kFrame), (std::vector<int>{0, 2}));
  EXPECT_FALSE(world.pickup(0).active);
  EXPECT_TRUE(world.pickup(1).active);
  EXPECT_FALSE(world.pickup(2).active);
  EXPECT_TRUE(world.Step(Actions{}, kFrame).empty());
}

}  // namespace
}  // namespace hosts::maze
