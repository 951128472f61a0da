#include "engines/maze/texture_hooks.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lua_api/lua.h"
#include "lua_api/lua_tensor.h"
#include "lua_api/read.h"
#include "tensor/elementwise.h"
#include "tensor/loan.h"

namespace maze {
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

// The maze's own texture of `surface`: its built-in colour throughout.
std::string BuiltInImage(lua_State* L, int surface, Image* image) {
  if (std::string why = MakeImage(L, kBuiltInTextureSide, kBuiltInTextureSide, image);
      !why.empty()) {
    return why;
  }
  const Rgb colour = Surfaces::BuiltIn().colour(surface);
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
  const std::string name = Surfaces::Name(surface);
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

  Image image;
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
  // Otherwise the maze's own, if it has one of that name.
  const int built_in = image.rgba.empty() ? Surfaces::Find(loaded_name) : surface;
  if (built_in < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("the texture '", loaded_name, "' (replaceTextureName's name for '", name,
                     "') is neither the maze's nor given by loadTexture"));
  }

  // The image is made only for a level that modifies textures: an
  // untouched built-in surface stays one colour, at no cost.
  if (level.Defines("modifyTexture")) {
    if (image.rgba.empty()) {
      if (std::string why = BuiltInImage(L, built_in, &image); !why.empty()) {
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

  if (image.rgba.empty()) {
    surfaces_.SetColour(surface, Surfaces::BuiltIn().colour(built_in));
    return absl::OkStatus();
  }
  surfaces_.Set(surface, image.rgba.data(), image.height, image.width);
  // A texture of one colour is kept as that colour: its bytes go.
  if (surfaces_.texture(surface) != nullptr) charges_[surface] = std::move(image.charge);
  return absl::OkStatus();
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

}  // namespace maze
