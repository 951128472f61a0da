// How pickups look: by their class's model (DeepMind Lab's fruit and goal
// models drawn after them; any other model a look of its own, the same on
// every platform), or without one by what they give.
#include "hosts/maze/sprite_shapes.h"

#include <cmath>
#include <string>
#include <utility>

#include "gtest/gtest.h"

namespace hosts::maze {
namespace {

Pickup Of(PickupKind kind, double quantity, std::string model) {
  Pickup pickup{0, kind, {1.5, 1.5}, true};
  pickup.quantity = quantity;
  pickup.model = std::move(model);
  return pickup;
}

Rgb Body(const Pickup& pickup) { return ShapeOf(pickup).discs[0].colour; }

bool SameShape(const SpriteShape& a, const SpriteShape& b) {
  for (int i = 0; i < 2; ++i) {
    const Disc& x = a.discs[i];
    const Disc& y = b.discs[i];
    if (x.lateral != y.lateral || x.height != y.height || x.radius != y.radius ||
        !(x.colour == y.colour)) {
      return false;
    }
  }
  return true;
}

TEST(SpriteShapesTest, WithoutAModelAPickupShowsWhatItGives) {
  EXPECT_EQ(Body(Of(PickupKind::kReward, 1, "")), (Rgb{200, 30, 30}));  // an apple
  EXPECT_EQ(Body(Of(PickupKind::kReward, 0, "")), (Rgb{200, 30, 30}));
  EXPECT_EQ(Body(Of(PickupKind::kReward, -1, "")), (Rgb{235, 215, 40}));  // a lemon
  EXPECT_EQ(Body(Of(PickupKind::kGoal, 10, "")), (Rgb{230, 170, 30}));    // a gold coin
}

TEST(SpriteShapesTest, AModelIsDrawnAsItselfWhateverItGives) {
  // A lemon that rewards is still a lemon; an apple that costs, an apple.
  EXPECT_EQ(Body(Of(PickupKind::kReward, 5, "models/lemon.md3")), (Rgb{235, 215, 40}));
  EXPECT_EQ(Body(Of(PickupKind::kReward, -5, "models/apple.md3")), (Rgb{200, 30, 30}));
  EXPECT_EQ(Body(Of(PickupKind::kReward, 1, "models/goal_object_02.md3")), (Rgb{230, 170, 30}));
  // DeepMind Lab's fruit look apart from each other.
  const char* fruit[] = {"models/apple.md3",         "models/lemon.md3",
                         "models/strawberry.md3",    "models/toadstool.md3",
                         "models/watermelon.md3",    "models/mango.md3",
                         "models/goal_object_02.md3"};
  for (const char* a : fruit) {
    for (const char* b : fruit) {
      if (std::string(a) == b) continue;
      EXPECT_FALSE(
          SameShape(ShapeOf(Of(PickupKind::kReward, 1, a)), ShapeOf(Of(PickupKind::kReward, 1, b))))
          << a << " and " << b;
    }
  }
}

TEST(SpriteShapesTest, OtherModelsEachHaveALookOfTheirOwn) {
  const char* models[] = {"models/hr_cake.md3",         "models/hr_hat.md3",
                          "models/hr_can.md3",          "models/hr_balloon.md3",
                          "models/hr_key_lrg.md3",      "models/hr_ice_lolly_lrg.md3",
                          "models/fut_obj_cube_01.md3", "m"};
  for (const char* a : models) {
    const SpriteShape shape = ShapeOf(Of(PickupKind::kReward, 1, a));
    // The same model, the same look, whatever it gives.
    EXPECT_TRUE(SameShape(shape, ShapeOf(Of(PickupKind::kGoal, -3, a)))) << a;
    for (const Disc& disc : shape.discs) {
      // Standing on the floor, within its cell, under the ceiling.
      EXPECT_GE(disc.height - disc.radius, -1e-12) << a;
      EXPECT_LE(disc.height + disc.radius, 1.0) << a;
      EXPECT_LE(std::abs(disc.lateral) + disc.radius, 0.5) << a;
      EXPECT_GT(disc.colour.r + disc.colour.g + disc.colour.b, 120) << a;  // not lost in the fog
    }
    EXPECT_FALSE(shape.discs[0].colour == shape.discs[1].colour) << a;
    for (const char* b : models) {
      if (std::string(a) == b) continue;
      EXPECT_FALSE(SameShape(shape, ShapeOf(Of(PickupKind::kReward, 1, b)))) << a << " " << b;
    }
  }
  // The look is a function of the name alone, the same on every platform.
  const SpriteShape cake = ShapeOf(Of(PickupKind::kReward, 1, "models/hr_cake.md3"));
  EXPECT_DOUBLE_EQ(cake.discs[0].radius, 0.26);
  EXPECT_EQ(cake.discs[0].colour, (Rgb{240, 240, 240}));
  EXPECT_EQ(cake.discs[1].colour, (Rgb{168, 91, 21}));
}

}  // namespace
}  // namespace hosts::maze
