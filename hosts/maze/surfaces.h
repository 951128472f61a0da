// What the maze's surfaces look like: the walls (plain, and one per
// variation letter 'A'..'Z'), closed doors, the floor (plain, and one per
// variation letter) and the ceiling.
// Each is one colour, as the maze draws them by default, or a texture that
// a level gave through DeepMind Lab's texture callbacks (texture_hooks.h),
// which the raycaster maps onto it: across each wall face and once per
// cell on the floor and ceiling. Textures are opaque: their alpha is
// dropped.
//
// Each surface has a name, by which the texture callbacks and
// game:updateTexture know it: "maze/wall", "maze/wall_A" .. "maze/wall_Z",
// "maze/door", "maze/ceiling", and for the floors DeepMind Lab's own
// (its CUSTOMIZABLE_FLOORS texture set's images, which its
// decorators/custom_floors.lua recolours per variation):
// "textures/map/lab_games/lg_floor_placeholder_0_d.tga" outside any
// variation and "..._A_d.tga" .. "..._Z_d.tga" in one. Every floor is the
// maze's floor colour until a level changes it.
//
// Example:
//   Surfaces surfaces;                       // the maze's own colours
//   surfaces.Set(Surfaces::kFloor, rgba, 64, 64);  // a chequered floor, say
//   RenderFirstPerson(map, pickups, camera, frame, surfaces);
#ifndef HOSTS_MAZE_SURFACES_H_
#define HOSTS_MAZE_SURFACES_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace hosts::maze {

struct Rgb {
  std::uint8_t r, g, b;
  bool operator==(const Rgb& other) const { return r == other.r && g == other.g && b == other.b; }
};

// Texels, row 0 at the top.
struct Texture {
  int width = 0;
  int height = 0;
  std::vector<Rgb> texels;  // height * width
};

class Surfaces {
 public:
  static constexpr int kPlainWall = 0;
  static constexpr int kFirstVariation = 1;  // 'A'; 'Z' is 26
  static constexpr int kDoor = 27;
  static constexpr int kFloor = 28;  // outside any variation
  static constexpr int kCeiling = 29;
  static constexpr int kFirstFloorVariation = 30;  // 'A'; 'Z' is 55
  static constexpr int kCount = 56;

  // The character by which the raycaster marks a closed door's wall
  // (no map character: those are printable).
  static constexpr char kDoorLook = 1;

  // The surface of a wall drawn with `look`: a variation letter, kDoorLook
  // or anything else (a plain wall).
  static int OfWall(char look) {
    if (look == kDoorLook) return kDoor;
    return look >= 'A' && look <= 'Z' ? kFirstVariation + (look - 'A') : kPlainWall;
  }
  // The floor of a cell of `variation`.
  static int OfFloor(char variation) {
    return variation >= 'A' && variation <= 'Z' ? kFirstFloorVariation + (variation - 'A') : kFloor;
  }
  static std::string Name(int surface);
  // The surface called `name`, or -1.
  static int Find(absl::string_view name);

  // The maze's own look: every surface one colour.
  Surfaces() = default;
  static const Surfaces& BuiltIn();

  // What `surface` is drawn with: a texture, or null for one colour.
  const Texture* texture(int surface) const { return textures_[surface].get(); }
  // Its colour when it has no texture.
  Rgb colour(int surface) const { return colours_[surface]; }

  // Whether the floor differs from cell to cell (a variation's floor, or
  // the floor itself, is not the plain one colour): then the raycaster
  // looks each floor pixel's cell up.
  bool floors_vary() const { return floors_vary_; }

  // Gives `surface` one colour.
  void SetColour(int surface, Rgb colour);
  // Gives `surface` the look of `rgba`, height x width x 4 bytes, row-major:
  // one colour if every texel has the same rgb, else the texture. Height
  // and width are at least 1.
  void Set(int surface, const std::uint8_t* rgba, int height, int width);

 private:
  void UpdateFloorsVary();

  std::array<Rgb, kCount> colours_ = BuiltInColours();
  bool floors_vary_ = false;
  // Shared: a Surfaces copied to a custom view costs no texels.
  std::array<std::shared_ptr<const Texture>, kCount> textures_;

  static std::array<Rgb, kCount> BuiltInColours();
};

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_SURFACES_H_
