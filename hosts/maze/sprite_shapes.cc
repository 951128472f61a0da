#include "hosts/maze/sprite_shapes.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace hosts::maze {
namespace {

constexpr Rgb kLeafGreen = {40, 170, 50};

// An apple: a red body with a green leaf on top. A lemon: the same in
// yellow. A goal: a gold coin with a bright centre, larger than a fruit.
constexpr SpriteShape kAppleShape = {
    {{{0, 0.18, 0.18, {200, 30, 30}}, {0.07, 0.37, 0.06, kLeafGreen}}}};
constexpr SpriteShape kLemonShape = {
    {{{0, 0.18, 0.18, {235, 215, 40}}, {0.07, 0.37, 0.06, kLeafGreen}}}};
constexpr SpriteShape kGoalShape = {
    {{{0, 0.3, 0.3, {230, 170, 30}}, {0, 0.3, 0.15, {255, 235, 100}}}}};

struct ModelShape {
  std::string_view model;
  SpriteShape shape;
};

// DeepMind Lab's own pickup models (common/pickups.lua).
constexpr ModelShape kModelShapes[] = {
    {"models/apple.md3", kAppleShape},
    {"models/lemon.md3", kLemonShape},
    {"models/goal_object_02.md3", kGoalShape},
    // Small, pink-red, a tuft on top.
    {"models/strawberry.md3", {{{{0, 0.14, 0.14, {215, 35, 75}}, {0, 0.29, 0.06, kLeafGreen}}}}},
    // A white stem under a red cap.
    {"models/toadstool.md3", {{{{0, 0.1, 0.07, {235, 230, 210}}, {0, 0.24, 0.16, {205, 30, 30}}}}}},
    // Large, green, red inside.
    {"models/watermelon.md3", {{{{0, 0.26, 0.26, {40, 130, 50}}, {0, 0.26, 0.18, {230, 60, 75}}}}}},
    // Orange, a leaf on top.
    {"models/mango.md3", {{{{0, 0.18, 0.18, {245, 150, 40}}, {0.07, 0.37, 0.06, kLeafGreen}}}}},
};

// FNV-1a: the same on every platform, so a model keeps its look.
std::uint32_t Hash(std::string_view text) {
  std::uint32_t hash = 2166136261u;
  for (const char c : text) hash = (hash ^ static_cast<std::uint8_t>(c)) * 16777619u;
  return hash;
}

// A colour from 8 bits of the hash: one of 8 hues at one of 4 levels,
// none grey, none dark enough to vanish into the fog.
Rgb HashedColour(std::uint32_t bits) {
  constexpr Rgb kHues[] = {{220, 50, 50},  {50, 180, 60},  {60, 90, 220},  {230, 200, 40},
                           {180, 60, 200}, {50, 190, 200}, {240, 130, 30}, {240, 240, 240}};
  const Rgb hue = kHues[bits & 7];
  const double level = 0.55 + 0.15 * (bits >> 3 & 3);
  auto scale = [level](std::uint8_t c) { return static_cast<std::uint8_t>(c * level + 0.5); };
  return {scale(hue.r), scale(hue.g), scale(hue.b)};
}

// A sprite of its own for any other model: a body and a mark, their
// colours, sizes and the mark's place from the hash of the model's name.
SpriteShape HashedShape(std::string_view model) {
  const std::uint32_t hash = Hash(model);
  const double radius = 0.14 + 0.02 * (hash >> 16 & 7);         // 0.14 .. 0.28
  const double mark = radius * (0.3 + 0.1 * (hash >> 19 & 3));  // of the body
  const double lateral = (static_cast<int>(hash >> 21 & 3) - 1.5) * 0.5 * (radius - mark);
  const bool on_top = (hash >> 23 & 1) != 0;
  Rgb body = HashedColour(hash);
  Rgb accent = HashedColour(hash >> 8);
  if (accent == body) accent = HashedColour((hash >> 8) + 1);
  return {{{{0, radius, radius, body}, {lateral, on_top ? 2 * radius : radius, mark, accent}}}};
}

}  // namespace

SpriteShape ShapeOf(const Pickup& pickup) {
  if (pickup.model.empty()) {
    if (pickup.kind == PickupKind::kGoal) return kGoalShape;
    return pickup.quantity < 0 ? kLemonShape : kAppleShape;
  }
  SpriteShape shape = HashedShape(pickup.model);
  for (const ModelShape& known : kModelShapes) {
    if (known.model == pickup.model) shape = known.shape;
  }
  if (pickup.skin) shape.discs[0].colour = *pickup.skin;
  return shape;
}

Rgb PlayerColour(int player) {
  // None red or gold, which the apples and the goal are.
  static constexpr Rgb kColours[] = {{255, 255, 255}, {60, 120, 240},  {250, 140, 40},
                                     {60, 200, 90},   {200, 80, 220},  {60, 220, 220},
                                     {250, 120, 190}, {150, 100, 60}};
  constexpr int kCount = sizeof(kColours) / sizeof(kColours[0]);
  if (player >= 0 && player < kCount) return kColours[player];
  // Past the palette: a colour from the number, the same in every run.
  return HashedColour(Hash(std::to_string(player)));
}

SpriteShape FigureShape(Rgb colour, double facing_right, bool facing_viewer) {
  constexpr Rgb kVisor = {30, 30, 36};
  // Taller and wider than any pickup.
  const Disc body{0, 0.34, 0.32, colour};
  const Disc visor{0.19 * std::clamp(facing_right, -1.0, 1.0), 0.46, 0.11, kVisor};
  // Discs are drawn in order: a visor drawn first hides behind the body.
  return facing_viewer ? SpriteShape{{body, visor}} : SpriteShape{{visor, body}};
}

}  // namespace hosts::maze
