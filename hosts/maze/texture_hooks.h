// DeepMind Lab's texture callbacks, on the maze's surfaces (surfaces.h).
//
// Each time the host loads a map, for each surface in turn (surfaces.h
// names them: the walls, the door, the floors, the ceiling), as DeepMind
// Lab's renderer loads a texture:
//   1. replaceTextureName(name) may return the name of the texture to load
//      instead (nil keeps it);
//   2. loadTexture(loaded name) may return a ByteTensor(H, W, 4), RGBA,
//      which is copied; otherwise the maze's own texture of that name is
//      loaded: a 64 x 64 texture of that surface's colour. A name neither
//      knows is an error naming it;
//   3. modifyTexture(name, image) gets the loaded texture lent for that call
//      only, H x W x 4, and may change it in place; it returns true or
//      false, as DeepMind Lab insists (the texture is taken as the call
//      left it either way).
// game:updateTexture(name, image) replaces a surface's texture later (the
// game module calls Update).
//
// Textures are 1 to kMaxTextureSide texels a side. The bytes of each
// texture the level makes, or the maze lends it, are charged to the
// level's tensor budget while they are in use. Alpha is dropped: the
// maze's surfaces are opaque.
#ifndef HOSTS_MAZE_TEXTURE_HOOKS_H_
#define HOSTS_MAZE_TEXTURE_HOOKS_H_

#include <array>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/host.h"
#include "hosts/maze/surfaces.h"
#include "lua_api/lua/lua.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/tensor.h"

namespace hosts::maze {

inline constexpr int kMaxTextureSide = 1024;
inline constexpr int kBuiltInTextureSide = 64;

class SurfaceTextures {
 public:
  // Runs the three callbacks for every surface; from then on surfaces()
  // is what they made. L is the level's state, whose budget is charged.
  absl::Status Load(engine_plugin::Level& level, lua_State* L);

  // Gives the surface called `name` the texture `image` (a ByteTensor
  // H x W x 4, any layout), charged to L's budget: "" or what is wrong.
  std::string Update(lua_State* L, absl::string_view name, const tensor::Tensor& image);

  const Surfaces& surfaces() const { return surfaces_; }

 private:
  absl::Status LoadSurface(engine_plugin::Level& level, lua_State* L, int surface);

  Surfaces surfaces_;
  std::array<lua_api::TensorMemoryCharge, Surfaces::kCount> charges_;
};

// A model's skin through the same callbacks, for a pickup drawn as its
// model (sprite_shapes.h): the skin is named after the model as DeepMind
// Lab's are ("HRP_3:models/hr_cake.md3%scale{2}" has the skin
// "HRP_3:models/hr_cake_d.tga": a decorator's prefix kept, a transform
// dropped), the engine's own is a texture of `colour`, and the sprite
// shows the mean colour of what the callbacks leave; nullopt when they
// change nothing. DeepMind Lab's human_recognisable_pickups colours its
// objects so, through the skin's alpha, which the engine's own skin has
// opaque.
absl::StatusOr<std::optional<Rgb>> ModelSkinColour(engine_plugin::Level& level, lua_State* L,
                                                   const std::string& model, Rgb colour);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_TEXTURE_HOOKS_H_
