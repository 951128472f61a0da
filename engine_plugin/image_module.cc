#include "engine_plugin/image_module.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/image.h"
#include "engine_plugin/level_files.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_limits.h"

namespace engine_plugin {
namespace {

using lua_api::ArgumentError;
using lua_api::NResultsOr;

constexpr char kContentPrefix[] = "content:";

// The valid tensor at stack `index` (argument `index` of `function`), or
// the argument error.
std::string ReadImage(lua_State* L, int index, const char* function, lua_api::LuaTensor** out) {
  *out = lua_api::LuaTensor::Read(L, index);
  if (*out == nullptr)
    return ArgumentError(function, index, lua_api::Expected(L, index, "ByteTensor"));
  return lua_api::LuaTensor::CheckSelf((*out)->tensor(), function);
}

// [-0, +1, e]
NResultsOr Load(lua_State* L) {
  constexpr char kName[] = "image.load";
  std::string name;
  if (std::string why = lua_api::ReadString(L, 1, &name); !why.empty()) {
    return ArgumentError(kName, 1, why);
  }
  if (!absl::EndsWithIgnoreCase(name, ".png")) {
    return lua_api::StatusError(
        kName, absl::InvalidArgumentError(absl::StrCat(
                   "'", name, "': unsupported file type (PNG only: a name ending in .png)")));
  }
  std::string bytes;
  lua_api::TensorMemoryCharge charge;  // the file's bytes while they are decoded
  if (absl::StartsWith(name, kContentPrefix)) {
    if (std::string why = lua_api::ReadString(L, 2, &bytes); !why.empty()) {
      return ArgumentError(kName, 2, absl::StrCat("the image's bytes: ", why));
    }
  } else {
    const auto* paths = static_cast<const LevelPaths*>(lua_touserdata(L, lua_upvalueindex(1)));
    absl::StatusOr<std::string> read = ReadNamedLevelFile(*paths, name);
    if (!read.ok()) return lua_api::StatusError(kName, read.status());
    absl::StatusOr<lua_api::TensorMemoryCharge> charged =
        lua_api::ChargeTensorMemory(L, read->size());
    if (!charged.ok()) return lua_api::StatusError(kName, charged.status());
    bytes = *std::move(read);
    charge = *std::move(charged);
  }
  absl::StatusOr<tensor::Tensor> image = DecodePng(bytes, lua_api::TensorAllocator(L));
  if (!image.ok()) {
    return lua_api::StatusError(
        kName, absl::Status(image.status().code(),
                            absl::StrCat("'", name, "': ", image.status().message())));
  }
  lua_api::LuaTensor::Push(L, *std::move(image));
  return 1;
}

// [-0, +1, e]
NResultsOr Scale(lua_State* L) {
  constexpr char kName[] = "image.scale";
  lua_api::LuaTensor* source = nullptr;
  if (std::string e = ReadImage(L, 1, kName, &source); !e.empty()) return e;
  std::int64_t rows = 0, columns = 0;
  if (std::string why = lua_api::ReadInteger(L, 2, &rows); !why.empty()) {
    return ArgumentError(kName, 2, why);
  }
  if (std::string why = lua_api::ReadInteger(L, 3, &columns); !why.empty()) {
    return ArgumentError(kName, 3, why);
  }
  ScaleMode mode = ScaleMode::kBilinear;
  if (!lua_isnoneornil(L, 4)) {
    std::string name;
    if (std::string why = lua_api::ReadString(L, 4, &name); !why.empty()) {
      return ArgumentError(kName, 4, why);
    }
    if (name == "nearest") {
      mode = ScaleMode::kNearest;
    } else if (name != "bilinear") {
      return ArgumentError(kName, 4,
                           absl::StrCat("'bilinear' or 'nearest' expected, got '", name, "'"));
    }
  }
  absl::StatusOr<tensor::Tensor> scaled =
      ScaleImage(source->tensor(), rows, columns, mode, lua_api::TensorAllocator(L));
  if (!scaled.ok()) return lua_api::StatusError(kName, scaled.status());
  lua_api::LuaTensor::Push(L, *std::move(scaled));
  return 1;
}

// [-0, +1, e]
NResultsOr SetHueOf(lua_State* L) {
  constexpr char kName[] = "image.setHue";
  lua_api::LuaTensor* image = nullptr;
  if (std::string e = ReadImage(L, 1, kName, &image); !e.empty()) return e;
  double hue = 0;
  if (std::string why = lua_api::ReadNumber(L, 2, &hue); !why.empty()) {
    return ArgumentError(kName, 2, why);
  }
  if (absl::Status s = SetHue(image->tensor(), hue); !s.ok()) {
    return lua_api::StatusError(kName, s);
  }
  lua_settop(L, 1);
  return 1;
}

// The colour {R, G, B} at stack `index`, read raw (no metamethod runs).
std::string ReadColour(lua_State* L, int index, const char* function, Rgb* colour) {
  const std::string expected = "{R, G, B} of integers from 0 to 255 expected";
  if (!lua_istable(L, index)) {
    return ArgumentError(function, index,
                         absl::StrCat(expected, ", got ", lua_api::TypeNameAt(L, index)));
  }
  for (int i = 0; i < 3; ++i) {
    lua_rawgeti(L, index, i + 1);
    const double value = lua_tonumber(L, -1);
    const bool ok =
        lua_type(L, -1) == LUA_TNUMBER && value >= 0 && value <= 255 && value == std::floor(value);
    lua_pop(L, 1);
    if (!ok) return ArgumentError(function, index, absl::StrCat(expected, " (entry ", i + 1, ")"));
    (*colour)[i] = static_cast<std::uint8_t>(value);
  }
  return {};
}

// [-0, +1, e]
NResultsOr SetMaskedPatternOf(lua_State* L) {
  constexpr char kName[] = "image.setMaskedPattern";
  if (lua_gettop(L) != 4) {
    return absl::StrCat("'", kName,
                        "': 4 arguments expected (image, pattern, color1, color2), got ",
                        lua_gettop(L));
  }
  lua_api::LuaTensor* image = nullptr;
  lua_api::LuaTensor* pattern = nullptr;
  if (std::string e = ReadImage(L, 1, kName, &image); !e.empty()) return e;
  if (std::string e = ReadImage(L, 2, kName, &pattern); !e.empty()) return e;
  Rgb color1, color2;
  if (std::string e = ReadColour(L, 3, kName, &color1); !e.empty()) return e;
  if (std::string e = ReadColour(L, 4, kName, &color2); !e.empty()) return e;
  if (absl::Status s = SetMaskedPattern(image->tensor(), pattern->tensor(), color1, color2);
      !s.ok()) {
    return lua_api::StatusError(kName, s);
  }
  lua_settop(L, 1);
  return 1;
}

// [-0, +1, m] The loader in package.preload; upvalue 1 is the level's
// paths, which image.load closes over in turn.
int Open(lua_State* L) {
  lua_createtable(L, 0, 4);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushcclosure(L, &lua_api::Raising<&Load>, 1);
  lua_setfield(L, -2, "load");
  lua_pushcfunction(L, &lua_api::Raising<&Scale>);
  lua_setfield(L, -2, "scale");
  lua_pushcfunction(L, &lua_api::Raising<&SetHueOf>);
  lua_setfield(L, -2, "setHue");
  lua_pushcfunction(L, &lua_api::Raising<&SetMaskedPatternOf>);
  lua_setfield(L, -2, "setMaskedPattern");
  return 1;
}

}  // namespace

void RegisterImageModule(lua_State* L, const LevelPaths* paths) {
  lua_api::SetPreload(L, "dmlab.system.image", &Open, const_cast<LevelPaths*>(paths));
}

}  // namespace engine_plugin
