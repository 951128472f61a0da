// How the raycaster draws a pickup: up to two discs standing on the floor,
// a sprite that always faces the camera.
//
// A pickup whose class names a model (createPickup's `model`) is drawn as
// that model's sprite: DeepMind Lab's fruit and goal models
// (common/pickups.lua: models/apple.md3, lemon, strawberry, toadstool,
// watermelon, mango, goal_object_02) have sprites drawn to look like them;
// any other model gets one of its own, its colours and sizes taken from a
// hash of its name, so that two models look apart and a model looks the
// same in every episode. A pickup with no model (the maze's own 'A' and
// 'G', and classes without one) is drawn by what it gives: an apple for a
// reward of 0 or more, a lemon below, a gold coin for a goal. A model
// whose skin the level's texture callbacks coloured (Pickup::skin) has
// that colour for its body.
#ifndef HOSTS_MAZE_SPRITE_SHAPES_H_
#define HOSTS_MAZE_SPRITE_SHAPES_H_

#include <array>

#include "hosts/maze/surfaces.h"
#include "hosts/maze/world.h"

namespace hosts::maze {

struct Disc {
  double lateral;  // cells to the right of the pickup's centre
  double height;   // of the disc's centre above the floor, cells
  double radius;   // cells, at most 0.5
  Rgb colour;
};

struct SpriteShape {
  std::array<Disc, 2> discs;  // drawn in order
};

SpriteShape ShapeOf(const Pickup& pickup);

// Player `player`'s colour (from 0): white for the first, as the one
// player of a single-player level is drawn, then colours far apart.
Rgb PlayerColour(int player);

// A player's figure: a body in `colour` and a dark visor on the side it
// faces. `facing_right` is how much it faces the viewer's right, in [-1,
// 1]; `facing_viewer` whether it faces the viewer or side-on (the visor in
// front of the body) or away (behind it).
SpriteShape FigureShape(Rgb colour, double facing_right, bool facing_viewer);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_SPRITE_SHAPES_H_
