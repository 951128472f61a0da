#include "hosts/maze/texture_hooks.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "tensor/elementwise.h"
#include "tensor/loan.h"

namespace hosts::maze {
namespace {

// Longer names are not textures (Quake's own limit is 64).
constexpr std::size_t kMaxNameLength = 256;

// RGBA bytes, height x width x 4, with their charge to the level's budget.
struct Image {
  int height = 0;
  int width = 0;
  std::vector<std::uint8_t> rgba;
  lua_api::TensorMemoryCharge charge;
};

// Charges, then allocates, a height x width image.
std::string MakeImage(lua_State* L, int height, int width, Image* image) {
  const std::size_t bytes = static_cast<std::size_t>(height) * width * 4;
  absl::StatusOr<lua_api::TensorMemoryCharge> charge = lua_api::ChargeTensorMemory(L, bytes);
  if (!charge.ok()) return std::string(charge.status().message());
  image->height = height;
  image->width = width;
  image->charge = *std::move(charge);
  image->rgba.assign(bytes, 0);
  return "";
}

// Copies `source`, a ByteTensor H x W x 4 of any layout, into *image.
std::string CopyImage(lua_State* L, const tensor::Tensor& source, Image* image) {
  const auto& shape = source.layout().shape();
  if (source.dtype() != tensor::DType::kUInt8 || shape.size() != 3 || shape[2] != 4) {
    return "a ByteTensor of H x W x 4 (RGBA) expected";
  }
  if (shape[0] < 1 || shape[0] > kMaxTextureSide || shape[1] < 1 || shape[1] > kMaxTextureSide) {
    return absl::StrCat("a texture is 1 to ", kMaxTextureSide, " texels a side, not ", shape[0],
                        " x ", shape[1]);
  }
  if (absl::Status valid = source.CheckValid(); !valid.ok()) return std::string(valid.message());
  if (std::string why = MakeImage(L, static_cast<int>(shape[0]), static_cast<int>(shape[1]), image);
      !why.empty()) {
    return why;
  }
  // Through a tensor lent over the image, so the copy takes any layout.
  tensor::ScopedLoan loan("texture copy");
  absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous(shape);
  absl::StatusOr<tensor::Tensor> target =
      tensor::Tensor::Lend(tensor::DType::kUInt8, *std::move(layout), image->rgba.data(),
                           image->rgba.size(), loan.token());
  if (!target.ok()) return std::string(target.status().message());
  absl::Status copied = tensor::ApplyComponents(*target, tensor::ElementOp::kAssign, source);
  return copied.ok() ? "" : std::string(copied.message());
}

// A texture of one colour throughout, as the engine's own are.
std::string OneColourImage(lua_State* L, Rgb colour, Image* image) {
  if (std::string why = MakeImage(L, kBuiltInTextureSide, kBuiltInTextureSide, image);
      !why.empty()) {
    return why;
  }
  for (std::size_t i = 0; i < image->rgba.size(); i += 4) {
    image->rgba[i] = colour.r;
    image->rgba[i + 1] = colour.g;
    image->rgba[i + 2] = colour.b;
    image->rgba[i + 3] = 255;
  }
  return "";
}

void PushName(lua_State* L, const std::string& name) {
  lua_pushlstring(L, name.data(), name.size());
}

// A texture loaded as DeepMind Lab's renderer loads one, through the
// level's hooks: its image (empty when no hook made or touched one: then
// `colour` is the engine's own texture's colour, which is one colour).
struct HookedTexture {
  Image image;
  Rgb colour;
};

// Loads `name`. `built_in(loaded name)` is the colour of the engine's own
// texture of that name, or nullopt where it has none.
absl::StatusOr<HookedTexture> LoadThroughHooks(
    engine_plugin::Level& level, lua_State* L, const std::string& name,
    absl::FunctionRef<std::optional<Rgb>(const std::string&)> built_in) {
  std::string loaded_name = name;
  absl::StatusOr<bool> called = level.Call(
      "replaceTextureName", 1, [&](lua_State* L) { return PushName(L, name), 1; },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        if (lua_type(L, first) != LUA_TSTRING) {
          return absl::InvalidArgumentError(
              absl::StrCat("for '", name, "' must return a texture name or nil, not ",
                           lua_api::TypeNameAt(L, first)));
        }
        std::size_t length = 0;
        const char* text = lua_tolstring(L, first, &length);
        if (length > kMaxNameLength) {
          return absl::InvalidArgumentError(absl::StrCat(
              "for '", name, "' returned a name of ", length, " bytes; at most ", kMaxNameLength));
        }
        loaded_name.assign(text, length);
        return absl::OkStatus();
      });
  if (!called.ok()) return called.status();

  HookedTexture texture;
  Image& image = texture.image;
  called = level.Call(
      "loadTexture", 1, [&](lua_State* L) { return PushName(L, loaded_name), 1; },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        const lua_api::LuaTensor* returned = lua_api::LuaTensor::Read(L, first);
        const std::string why = returned == nullptr
                                    ? "a ByteTensor of H x W x 4 (RGBA) or nil expected, got " +
                                          lua_api::TypeNameAt(L, first)
                                    : CopyImage(L, returned->tensor(), &image);
        if (why.empty()) return absl::OkStatus();
        return absl::InvalidArgumentError(absl::StrCat("for '", loaded_name, "': ", why));
      });
  if (!called.ok()) return called.status();
  // Otherwise the engine's own, if it has one of that name.
  if (image.rgba.empty()) {
    std::optional<Rgb> own = built_in(loaded_name);
    if (!own) {
      return absl::InvalidArgumentError(
          absl::StrCat("the texture '", loaded_name, "' (replaceTextureName's name for '", name,
                       "') is neither the maze's nor given by loadTexture"));
    }
    texture.colour = *own;
  }

  // The image is made only for a level that modifies textures: an
  // untouched built-in texture stays one colour, at no cost.
  if (level.Defines("modifyTexture")) {
    if (image.rgba.empty()) {
      if (std::string why = OneColourImage(L, texture.colour, &image); !why.empty()) {
        return absl::ResourceExhaustedError(absl::StrCat("texture '", name, "': ", why));
      }
    }
    // What the level keeps of the image is an error once the call returns.
    tensor::ScopedLoan loan(absl::StrCat("texture '", name, "'"));
    absl::StatusOr<tensor::Tensor> lent = tensor::Tensor::Lend(
        tensor::DType::kUInt8, *tensor::Layout::Contiguous({image.height, image.width, 4}),
        image.rgba.data(), image.rgba.size(), loan.token());
    if (!lent.ok()) return lent.status();
    called = level.Call(
        "modifyTexture", 1,
        [&](lua_State* L) {
          PushName(L, name);
          lua_api::LuaTensor::Push(L, *std::move(lent));
          return 2;
        },
        [&](lua_State* L, int first) {
          if (lua_isboolean(L, first)) return absl::OkStatus();
          return absl::InvalidArgumentError(absl::StrCat(
              "for '", name, "' must return true or false, not ", lua_api::TypeNameAt(L, first)));
        });
    if (!called.ok()) return called.status();
  }
  return texture;
}

}  // namespace

absl::Status SurfaceTextures::Load(engine_plugin::Level& level, lua_State* L) {
  surfaces_ = Surfaces();
  charges_ = {};
  for (int surface = 0; surface < Surfaces::kCount; ++surface) {
    if (absl::Status s = LoadSurface(level, L, surface); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status SurfaceTextures::LoadSurface(engine_plugin::Level& level, lua_State* L, int surface) {
  absl::StatusOr<HookedTexture> loaded = LoadThroughHooks(
      level, L, Surfaces::Name(surface), [](const std::string& name) -> std::optional<Rgb> {
        const int own = Surfaces::Find(name);
        if (own < 0) return std::nullopt;
        return Surfaces::BuiltIn().colour(own);
      });
  if (!loaded.ok()) return loaded.status();
  Image& image = loaded->image;
  if (image.rgba.empty()) {
    surfaces_.SetColour(surface, loaded->colour);
    return absl::OkStatus();
  }
  surfaces_.Set(surface, image.rgba.data(), image.height, image.width);
  // A texture of one colour is kept as that colour: its bytes go.
  if (surfaces_.texture(surface) != nullptr) charges_[surface] = std::move(image.charge);
  return absl::OkStatus();
}

absl::StatusOr<std::optional<Rgb>> ModelSkinColour(engine_plugin::Level& level, lua_State* L,
                                                   const std::string& model, Rgb colour) {
  // DeepMind Lab's models name their skins after themselves; a prefix (a
  // decorator's "HRP_3:") stays, a transform suffix ("%scale{2}") goes.
  std::string skin = model.substr(0, model.find('%'));
  if (absl::EndsWith(skin, ".md3")) skin.resize(skin.size() - 4);
  skin += "_d.tga";
  absl::StatusOr<HookedTexture> loaded =
      LoadThroughHooks(level, L, skin, [colour](const std::string&) { return colour; });
  if (!loaded.ok()) return loaded.status();
  const Image& image = loaded->image;
  if (image.rgba.empty()) return std::nullopt;
  // The sprite shows the skin's mean colour.
  std::array<std::uint64_t, 3> sum = {0, 0, 0};
  for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
    for (int c = 0; c < 3; ++c) sum[c] += image.rgba[i + c];
  }
  const std::uint64_t texels = image.rgba.size() / 4;
  const Rgb mean = {static_cast<std::uint8_t>((sum[0] + texels / 2) / texels),
                    static_cast<std::uint8_t>((sum[1] + texels / 2) / texels),
                    static_cast<std::uint8_t>((sum[2] + texels / 2) / texels)};
  if (mean == colour) return std::nullopt;
  return mean;
}

std::string SurfaceTextures::Update(lua_State* L, absl::string_view name,
                                    const tensor::Tensor& image) {
  const int surface = Surfaces::Find(name);
  if (surface < 0) {
    return absl::StrCat("the maze has no texture named '", name,
                        "' (its surfaces: maze/wall, maze/wall_A .. maze/wall_Z, maze/door, "
                        "maze/ceiling, textures/map/lab_games/lg_floor_placeholder_0_d.tga and "
                        "_A_d.tga .. _Z_d.tga)");
  }
  Image copy;
  if (std::string why = CopyImage(L, image, &copy); !why.empty()) return why;
  surfaces_.Set(surface, copy.rgba.data(), copy.height, copy.width);
  charges_[surface] = surfaces_.texture(surface) != nullptr ? std::move(copy.charge)
                                                            : lua_api::TensorMemoryCharge();
  return "";
}

}  // namespace hosts::maze
