#include "hosts/maze/raycaster.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "hosts/maze/sprite_shapes.h"
#include "hosts/maze/text_map.h"
#include "hosts/maze/world.h"

namespace hosts::maze {
namespace {

// A frame's buffers, depth prefilled with NaN so a pixel left unwritten shows.
struct Image {
  Image(int width, int height)
      : width(width),
        height(height),
        rgb(static_cast<std::size_t>(width) * height * 3, 0),
        depth(static_cast<std::size_t>(width) * height,
              std::numeric_limits<float>::quiet_NaN()) {}

  Frame frame() { return {rgb.data(), depth.data(), width, height}; }
  Frame rgb_only() { return {rgb.data(), nullptr, width, height}; }

  const std::uint8_t* At(int x, int y) const {
    return &rgb[(static_cast<std::size_t>(y) * width + x) * 3];
  }
  float DepthAt(int x, int y) const { return depth[static_cast<std::size_t>(y) * width + x]; }

  int width, height;
  std::vector<std::uint8_t> rgb;
  std::vector<float> depth;
};

std::uint64_t Fnv1a64(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t hash = 14695981039346656037u;
  for (std::uint8_t b : bytes) {
    hash ^= b;
    hash *= 1099511628211u;
  }
  return hash;
}

TextMap MapOf(const char* entities, const char* variations = "") {
  absl::StatusOr<TextMap> map = TextMap::Parse(entities, variations);
  EXPECT_TRUE(map.ok()) << map.status();
  return *std::move(map);
}

Camera CameraAt(double x, double y, double yaw, double pitch = 0) {
  return {{x, y}, yaw, pitch};
}

// Walls in four colours, a goal and two apples. The player spawns at
// (4.5, 1.5).
constexpr char kRoom[] =
    "*********\n"
    "*   G   *\n"
    "* A   A *\n"
    "*   P   *\n"
    "*********\n";
constexpr char kRoomVariations[] =
    "AAAABBBBB\n"
    "C.......D\n"
    "C.......D\n"
    "C.......D\n"
    "EEEEFFFFF\n";

TEST(RaycasterTest, GoldenFirstPersonFrame) {
  // Pinned after checking the image by eye (walls A, B, D in view, the goal
  // and the right-hand apple in front of them); any change to the
  // renderer's output changes it.
  constexpr std::uint64_t kGolden = 678188775834943163u;
  World world(MapOf(kRoom, kRoomVariations), 0);
  Image image(84, 84);
  RenderFirstPerson(world.map(), world.pickups(), CameraAt(4.5, 1.5, 70, 10), image.frame());
  EXPECT_EQ(Fnv1a64(image.rgb), kGolden);
}

TEST(RaycasterTest, RenderingIsAPureFunctionOfItsInputs) {
  World world(MapOf(kRoom, kRoomVariations), 0);
  const Camera camera = CameraAt(4.2, 1.7, 80, -5);
  Image first(84, 84), other(100, 30), again(84, 84), no_depth(84, 84);
  RenderFirstPerson(world.map(), world.pickups(), camera, first.frame());
  RenderFirstPerson(world.map(), world.pickups(), CameraAt(2, 2, 10), other.frame());
  RenderFirstPerson(world.map(), world.pickups(), camera, again.frame());
  RenderFirstPerson(world.map(), world.pickups(), camera, no_depth.rgb_only());
  EXPECT_EQ(first.rgb, again.rgb);
  EXPECT_EQ(first.rgb, no_depth.rgb);  // depth is an output only
  for (std::size_t i = 0; i < first.depth.size(); ++i) {
    ASSERT_EQ(first.depth[i], again.depth[i]) << i;
  }
}

TEST(RaycasterTest, WallDepthIsThePerpendicularDistanceInEveryColumn) {
  // The east wall's face is at x = 8, 4.5 cells ahead. A 60 degree view
  // sees only that wall across the middle row, and with no fisheye every
  // column reports the same distance.
  const TextMap map = MapOf(
      "*********\n"
      "*       *\n"
      "*       *\n"
      "*       *\n"
      "*P      *\n"
      "*       *\n"
      "*       *\n"
      "*       *\n"
      "*********\n");
  Camera camera = CameraAt(3.5, 4.5, 0);
  camera.horizontal_fov = 60;
  Image image(85, 64);
  RenderFirstPerson(map, {}, camera, image.frame());
  for (int x = 0; x < image.width; ++x) {
    EXPECT_NEAR(image.DepthAt(x, 32), 4.5, 1e-5) << "column " << x;
  }
}

TEST(RaycasterTest, ASymmetricSceneRendersMirrored) {
  // Symmetric about y = 3.5 (walls, variations and goals; an apple is not,
  // its leaf sits to one side). A power-of-two width makes every column's
  // ray the exact mirror of its partner's.
  const TextMap map = MapOf(
      "*******\n"
      "*    **\n"
      "* *  G*\n"
      "*P  G *\n"
      "* *  G*\n"
      "*    **\n"
      "*******\n",
      "AAAAAAA\n"
      "B.....C\n"
      "B.D...C\n"
      "B.....C\n"
      "B.D...C\n"
      "B.....C\n"
      "AAAAAAA\n");
  World world(map, 0);
  Image image(64, 48);
  RenderFirstPerson(map, world.pickups(), CameraAt(1.5, 3.5, 0), image.frame());
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width / 2; ++x) {
      const std::uint8_t* left = image.At(x, y);
      const std::uint8_t* right = image.At(image.width - 1 - x, y);
      ASSERT_TRUE(left[0] == right[0] && left[1] == right[1] && left[2] == right[2])
          << "(" << x << ", " << y << ")";
      ASSERT_EQ(image.DepthAt(x, y), image.DepthAt(image.width - 1 - x, y));
    }
  }
}

// The first row, from the top, of the centre column that shows the wall
// at `distance`.
int WallTop(const Image& image, float distance) {
  for (int y = 0; y < image.height; ++y) {
    if (std::abs(image.DepthAt(image.width / 2, y) - distance) < 1e-4) return y;
  }
  return image.height;
}

TEST(RaycasterTest, LookingUpMovesTheHorizonDown) {
  World world(MapOf(kRoom), 0);  // the north wall's face is 2.5 cells ahead
  int previous = -1;
  for (double pitch : {-30.0, -10.0, 0.0, 10.0, 30.0}) {
    SCOPED_TRACE(pitch);
    Image image(84, 84);
    RenderFirstPerson(world.map(), {}, CameraAt(4.5, 1.5, 90, pitch), image.frame());
    const int top = WallTop(image, 2.5f);
    EXPECT_GT(top, previous);  // more ceiling above the wall
    previous = top;
  }
}

TEST(RaycasterTest, OnlyActivePickupsAreDrawn) {
  World world(MapOf(kRoom), 0);
  const Camera camera = CameraAt(4.5, 1.5, 90);  // the goal is 2 cells ahead
  Image empty(84, 84), active(84, 84), inactive(84, 84);
  std::vector<Pickup> pickups = world.pickups();
  RenderFirstPerson(world.map(), {}, camera, empty.frame());
  RenderFirstPerson(world.map(), pickups, camera, active.frame());
  for (Pickup& pickup : pickups) pickup.active = false;
  RenderFirstPerson(world.map(), pickups, camera, inactive.frame());
  EXPECT_NE(active.rgb, empty.rgb);
  EXPECT_EQ(inactive.rgb, empty.rgb);
}

// The darkest pixel's brightness (r + g + b) within the middle third of
// the image's columns, between rows `top` and `bottom`.
int DarkestInMiddle(const Image& image, int top, int bottom) {
  int darkest = 3 * 255;
  for (int y = top; y < bottom; ++y) {
    for (int x = image.width / 3; x < 2 * image.width / 3; ++x) {
      const std::uint8_t* p = image.At(x, y);
      darkest = std::min(darkest, p[0] + p[1] + p[2]);
    }
  }
  return darkest;
}

TEST(RaycasterTest, AFigureStandsInItsColourAndShowsWhichWayItFaces) {
  World world(MapOf(kRoom), 0);
  const Camera camera = CameraAt(4.5, 1.5, 90);  // looking along +y
  const Rgb colour = PlayerColour(1);
  Image none(84, 84), away(84, 84), facing(84, 84), sideways(84, 84);
  RenderFirstPerson(world.map(), {}, camera, none.frame());
  // Two cells ahead, facing away (+y), towards the camera (-y), and right.
  const Figure figures[] = {{{4.5, 3.5}, 90, colour}, {{4.5, 3.5}, -90, colour},
                            {{4.5, 3.5}, 0, colour}};
  RenderFirstPerson(world.map(), {}, camera, away.frame(), Surfaces::BuiltIn(), {&figures[0], 1});
  RenderFirstPerson(world.map(), {}, camera, facing.frame(), Surfaces::BuiltIn(),
                    {&figures[1], 1});
  RenderFirstPerson(world.map(), {}, camera, sideways.frame(), Surfaces::BuiltIn(),
                    {&figures[2], 1});
  // Its body, in its colour (shaded by distance: blue well above red).
  const std::uint8_t* centre = away.At(42, 44);
  EXPECT_GT(centre[2], centre[0] + 60);
  EXPECT_FLOAT_EQ(away.DepthAt(42, 44), 2.0f);
  // The visor shows only on a figure that faces the camera, and moves
  // with where it looks.
  const int dark_away = DarkestInMiddle(away, 30, 50);
  const int dark_facing = DarkestInMiddle(facing, 30, 50);
  EXPECT_LT(dark_facing, dark_away / 2) << dark_facing << " against " << dark_away;
  EXPECT_NE(sideways.rgb, away.rgb);
  EXPECT_NE(away.rgb, none.rgb);
}

TEST(RaycasterTest, ASpritesDepthIsItsDistanceAlongTheView) {
  World world(MapOf(kRoom), 0);
  Image image(84, 84);
  RenderFirstPerson(world.map(), world.pickups(), CameraAt(4.5, 1.5, 90), image.frame());
  // The goal is 2 cells ahead on the middle column: 42 / 2 = 21 pixels a
  // cell, so its disc's centre, 0.2 cells below the eye, is 4.2 rows below
  // the horizon (row 42).
  EXPECT_FLOAT_EQ(image.DepthAt(42, 46), 2.0f);
}

TEST(RaycasterTest, APickupBehindAWallIsHidden) {
  // The same corridor with and without a wall between the camera and an
  // apple: without it the apple shows, with it nothing changes.
  const TextMap open = MapOf("*******\n*P   A*\n*******\n");
  const TextMap blocked = MapOf("*******\n*P * A*\n*******\n");
  World open_world(open, 0), blocked_world(blocked, 0);
  const Camera camera = CameraAt(1.5, 1.5, 0);
  Image shown(84, 84), open_bare(84, 84), hidden(84, 84), blocked_bare(84, 84);
  RenderFirstPerson(open, open_world.pickups(), camera, shown.frame());
  RenderFirstPerson(open, {}, camera, open_bare.frame());
  RenderFirstPerson(blocked, blocked_world.pickups(), camera, hidden.frame());
  RenderFirstPerson(blocked, {}, camera, blocked_bare.frame());
  EXPECT_NE(shown.rgb, open_bare.rgb);
  EXPECT_EQ(hidden.rgb, blocked_bare.rgb);
  EXPECT_EQ(hidden.depth, blocked_bare.depth);
}

TEST(RaycasterTest, AClosedMapHasNoFarDepthAtPitchZero) {
  World world(MapOf(kRoom, kRoomVariations), 0);
  for (double yaw = -180; yaw < 180; yaw += 7.5) {
    for (WorldPoint p : {WorldPoint{4.5, 1.5}, WorldPoint{1.3, 3.7}, WorldPoint{7.74, 1.26}}) {
      Image image(84, 84);
      RenderFirstPerson(world.map(), world.pickups(), CameraAt(p.x, p.y, yaw), image.frame());
      for (float d : image.depth) {
        ASSERT_GT(d, 0) << "yaw " << yaw;
        ASSERT_LT(d, kFarDepth) << "yaw " << yaw;
      }
    }
  }
}

TEST(RaycasterTest, AnySizeRendersEveryPixel) {
  // Wider than one chunk of columns (4096) too.
  World world(MapOf(kRoom, kRoomVariations), 0);
  for (auto [width, height] : {std::pair{1, 1}, std::pair{3, 7}, std::pair{7, 3},
                               std::pair{320, 240}, std::pair{4100, 3}}) {
    SCOPED_TRACE(testing::Message() << width << "x" << height);
    Image image(width, height);
    RenderFirstPerson(world.map(), world.pickups(), CameraAt(4.5, 1.5, 60, 5), image.frame());
    for (float d : image.depth) ASSERT_FALSE(std::isnan(d));
    RenderTopDown(world.map(), world.pickups(), {world.pose()}, image.rgb_only());
  }
}

// A frame without pixels is left alone (a null one is not touched), and a
// camera anywhere, facing anywhere, still writes every pixel of a frame
// and a depth that is a number (what ASan and UBSan also check here: no
// read or write outside the map or the frame).
TEST(RaycasterTest, EmptyFramesAndWildCamerasAreHarmless) {
  World world(MapOf(kRoom), 0);
  RenderFirstPerson(world.map(), world.pickups(), CameraAt(4.5, 1.5, 0), {nullptr, nullptr, 84, 84});
  Image image(16, 16);
  std::fill(image.rgb.begin(), image.rgb.end(), 0xAB);
  RenderFirstPerson(world.map(), world.pickups(), CameraAt(4.5, 1.5, 0), {image.rgb.data(), nullptr, 0, 16});
  EXPECT_TRUE(std::all_of(image.rgb.begin(), image.rgb.end(), [](auto b) { return b == 0xAB; }));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const Camera& camera : {CameraAt(nan, nan, nan, nan), CameraAt(inf, -inf, inf, -inf),
                               CameraAt(-1e300, 1e300, 1e300, 1e300),
                               Camera{{4.5, 1.5}, 0, 0, nan}, Camera{{4.5, 1.5}, 0, 0, 0}}) {
    SCOPED_TRACE(::testing::Message() << camera.position.x << ", " << camera.position.y);
    Image drawn(16, 16);
    RenderFirstPerson(world.map(), world.pickups(), camera, drawn.frame());
    for (float d : drawn.depth) ASSERT_FALSE(std::isnan(d));
    // Every pixel written: the same frame from a background of 0xAB and of
    // 0x00 comes out the same.
    Image over(16, 16);
    std::fill(over.rgb.begin(), over.rgb.end(), 0xAB);
    RenderFirstPerson(world.map(), world.pickups(), camera, over.frame());
    EXPECT_EQ(over.rgb, drawn.rgb);
    std::fill(over.rgb.begin(), over.rgb.end(), 0xAB);
    std::fill(drawn.rgb.begin(), drawn.rgb.end(), 0x00);
    const Pose pose{camera.position, camera.yaw, camera.pitch};
    RenderTopDown(world.map(), world.pickups(), {pose}, over.rgb_only());
    RenderTopDown(world.map(), world.pickups(), {pose}, drawn.rgb_only());
    EXPECT_EQ(over.rgb, drawn.rgb);
  }
}

// The number of pixels of `image` with colour (r, g, b).
int CountColour(const Image& image, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  int count = 0;
  for (std::size_t i = 0; i < image.rgb.size(); i += 3) {
    count += image.rgb[i] == r && image.rgb[i + 1] == g && image.rgb[i + 2] == b;
  }
  return count;
}

TEST(RaycasterTest, TopDownShowsThePlayerAndFollowsIt) {
  World world(MapOf(kRoom, kRoomVariations), 0);
  Image here(84, 84), turned(84, 84), moved(84, 84);
  Pose pose = world.pose();
  RenderTopDown(world.map(), world.pickups(), {pose}, here.rgb_only());
  // The map is 9 x 5 cells: 84 / 9 pixels a cell, letterboxed vertically.
  // The player's marker (white) covers its position, (4.5, 1.5); the pixel
  // left of the centre, as the heading line runs right from it.
  const double scale = 84.0 / 9;
  const double top = (84 - 5 * scale) / 2;
  const std::uint8_t* marker = here.At(static_cast<int>(4.5 * scale) - 1,
                                       static_cast<int>(top + (5 - 1.5) * scale));
  EXPECT_EQ(marker[0], 255);
  EXPECT_EQ(marker[1], 255);
  EXPECT_EQ(marker[2], 255);
  EXPECT_GT(CountColour(here, 255, 255, 255), 4);
  // About 18 letterbox rows, black, above the map and as many below.
  EXPECT_GE(CountColour(here, 0, 0, 0), 84 * 2 * 18);

  pose.yaw = 180;
  RenderTopDown(world.map(), world.pickups(), {pose}, turned.rgb_only());
  EXPECT_NE(turned.rgb, here.rgb);
  pose.position = {2.5, 3.5};
  RenderTopDown(world.map(), world.pickups(), {pose}, moved.rgb_only());
  EXPECT_NE(moved.rgb, turned.rgb);
}

TEST(RaycasterTest, TopDownShowsEveryPlayerInItsColour) {
  World world(MapOf(kRoom, kRoomVariations), 0);
  Image image(84, 84);
  const Pose players[] = {{{2.5, 1.5}, 0, 0}, {{6.5, 3.5}, 90, 0}};
  RenderTopDown(world.map(), {}, players, image.rgb_only());
  const Rgb second = PlayerColour(1);
  EXPECT_GT(CountColour(image, 255, 255, 255), 4);
  EXPECT_GT(CountColour(image, second.r, second.g, second.b), 4);
}

TEST(RaycasterTest, TopDownDrawsOnlyActivePickups) {
  World world(MapOf(kRoom), 0);
  std::vector<Pickup> pickups = world.pickups();
  Image with(84, 84), without(84, 84), none(84, 84);
  RenderTopDown(world.map(), pickups, {world.pose()}, with.rgb_only());
  RenderTopDown(world.map(), {}, {world.pose()}, none.rgb_only());
  for (Pickup& pickup : pickups) pickup.active = false;
  RenderTopDown(world.map(), pickups, {world.pose()}, without.rgb_only());
  EXPECT_NE(with.rgb, none.rgb);
  EXPECT_EQ(without.rgb, none.rgb);
}

// The path runs blue to yellow along the walk; a jump of more than a cell
// (a respawn) is not drawn, nor a NaN position.
TEST(RaycasterTest, TopDownPathFollowsTheWalkAndSkipsJumps) {
  World world(MapOf(kRoom), 0);
  Image image(90, 50);  // 10 pixels a cell, no letterbox
  RenderTopDown(world.map(), {}, {world.pose()}, image.rgb_only());
  const std::vector<std::uint8_t> before = image.rgb;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Along row y = 3.5 (image row 15) from x = 1.5 to 3.5; then a jump to
  // (7.5, 3.5) and a step from there, then a NaN.
  const std::vector<WorldPoint> path = {
      {1.5, 3.5}, {2.5, 3.5}, {3.5, 3.5}, {7.5, 3.5}, {7.5, 3.2}, {nan, 3.0}};
  DrawTopDownPath(world.map(), path, image.rgb_only());
  const std::uint8_t* start = image.At(16, 15);
  const std::uint8_t* end = image.At(75, 16);  // the step after the jump
  EXPECT_GT(start[2], start[0]);  // blue first
  EXPECT_GT(end[0], end[2]);      // yellow last
  // Nothing between x = 3.5 and 7.5 (image columns 36 to 74) on that row.
  for (int x = 37; x < 74; ++x) {
    const std::uint8_t* pixel = image.At(x, 15);
    const std::uint8_t* old = &before[(static_cast<std::size_t>(15) * 90 + x) * 3];
    EXPECT_TRUE(pixel[0] == old[0] && pixel[1] == old[1] && pixel[2] == old[2]) << x;
  }
  EXPECT_NE(image.rgb, before);
  // Too short a path, or no pixels, draws nothing.
  const std::vector<std::uint8_t> drawn = image.rgb;
  DrawTopDownPath(world.map(), std::vector<WorldPoint>{{1.5, 1.5}}, image.rgb_only());
  EXPECT_EQ(image.rgb, drawn);
  DrawTopDownPath(world.map(), path, {nullptr, nullptr, 90, 50});
}

}  // namespace
}  // namespace hosts::maze
