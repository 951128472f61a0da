#include "hosts/maze/surfaces.h"

#include "absl/strings/str_cat.h"

namespace hosts::maze {

std::string Surfaces::Name(int surface) {
  switch (surface) {
    case kPlainWall:
      return "maze/wall";
    case kDoor:
      return "maze/door";
    case kFloor:
      return "textures/map/lab_games/lg_floor_placeholder_0_d.tga";
    case kCeiling:
      return "maze/ceiling";
    default:
      if (surface >= kFirstFloorVariation) {
        return absl::StrCat("textures/map/lab_games/lg_floor_placeholder_",
                            std::string(1, 'A' + (surface - kFirstFloorVariation)), "_d.tga");
      }
      return absl::StrCat("maze/wall_", std::string(1, 'A' + (surface - kFirstVariation)));
  }
}

int Surfaces::Find(absl::string_view name) {
  for (int surface = 0; surface < kCount; ++surface) {
    if (Name(surface) == name) return surface;
  }
  return -1;
}

const Surfaces& Surfaces::BuiltIn() {
  static const Surfaces* const built_in = new Surfaces();
  return *built_in;
}

std::array<Rgb, Surfaces::kCount> Surfaces::BuiltInColours() {
  // One distinct colour per variation letter, none of them grey, so
  // regions stay apart in the image; every floor the same.
  std::array<Rgb, kCount> colours = {{
      {140, 140, 140},  // plain wall
      {200, 60, 60},   {60, 160, 70},  {70, 90, 200},   {210, 180, 50},  {170, 70, 190},
      {60, 180, 180},  {230, 130, 40}, {140, 100, 60},  {230, 120, 160}, {120, 190, 60},
      {40, 120, 140},  {180, 40, 100}, {110, 110, 210}, {200, 200, 120}, {90, 60, 140},
      {240, 170, 120}, {30, 100, 60},  {150, 40, 40},   {100, 200, 150}, {190, 150, 220},
      {130, 130, 40},  {40, 60, 110},  {220, 90, 90},   {90, 150, 220},  {160, 120, 100},
      {200, 230, 90},   // 'Z'
      {120, 80, 45},    // door
      {120, 95, 70},    // floor
      {110, 140, 190},  // ceiling
  }};
  for (int floor = kFirstFloorVariation; floor < kCount; ++floor) colours[floor] = colours[kFloor];
  return colours;
}

void Surfaces::SetColour(int surface, Rgb colour) {
  colours_[surface] = colour;
  textures_[surface] = nullptr;
  UpdateFloorsVary();
}

void Surfaces::UpdateFloorsVary() {
  floors_vary_ = textures_[kFloor] != nullptr;
  for (int floor = kFirstFloorVariation; floor < kCount && !floors_vary_; ++floor) {
    floors_vary_ = textures_[floor] != nullptr || !(colours_[floor] == colours_[kFloor]);
  }
}

void Surfaces::Set(int surface, const std::uint8_t* rgba, int height, int width) {
  auto texture = std::make_shared<Texture>();
  texture->width = width;
  texture->height = height;
  texture->texels.resize(static_cast<std::size_t>(width) * height);
  bool uniform = true;
  for (std::size_t i = 0; i < texture->texels.size(); ++i) {
    texture->texels[i] = {rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]};
    uniform = uniform && texture->texels[i] == texture->texels[0];
  }
  // One colour is drawn as one colour: the fast path, and the same pixels
  // as the maze's own look for a texture of its colour.
  if (uniform && !texture->texels.empty()) {
    colours_[surface] = texture->texels[0];
    textures_[surface] = nullptr;
  } else {
    textures_[surface] = std::move(texture);
  }
  UpdateFloorsVary();
}

}  // namespace hosts::maze
