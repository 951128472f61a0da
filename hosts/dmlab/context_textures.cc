// Context's texture hooks (context.h): as the engine loads a texture it
// asks the level for another name (api:replaceTextureName(name)), for the
// image itself (api:loadTexture(name): a ByteTensor H x W x 4, RGBA) and
// for changes to the pixels it loaded (api:modifyTexture(name, image), the
// image lent for the call), as DeepMind Lab's context does.
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/lua_fields.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "tensor/elementwise.h"
#include "tensor/loan.h"

namespace hosts::dmlab {
namespace {

// The engine's textures are at most this many texels a side.
constexpr std::int64_t kMaxTextureSide = 4096;

}  // namespace

bool Context::ReplaceTextureName(const char* name, char* new_name, int max_size) {
  bool replaced = false;
  CallLevel(
      "replaceTextureName", 1,
      [&](lua_State* L) {
        lua_pushstring(L, name);
        return 1;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        if (lua_type(L, first) != LUA_TSTRING) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[replaceTextureName] - must return a texture name or nil, not ",
              luaL_typename(L, first)));
        }
        if (!CopyString(lua_tostring(L, first), new_name, max_size)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[replaceTextureName] - the name for '", name, "' is longer than the engine's ",
              max_size - 1, " characters"));
        }
        replaced = true;
        return absl::OkStatus();
      });
  return replaced;
}

bool Context::LoadTexture(const char* name, unsigned char** pixels, int* width, int* height,
                          void* (*allocator)(int size)) {
  bool loaded = false;
  CallLevel(
      "loadTexture", 1,
      [&](lua_State* L) {
        lua_pushstring(L, name);
        return 1;
      },
      [&](lua_State* L, int first) {
        if (lua_isnil(L, first)) return absl::OkStatus();
        const lua_api::LuaTensor* image = lua_api::LuaTensor::Read(L, first);
        const auto* shape = image == nullptr ? nullptr : &image->tensor().layout().shape();
        if (image == nullptr || image->tensor().dtype() != tensor::DType::kUInt8 ||
            shape->size() != 3 || (*shape)[2] != 4 || (*shape)[0] < 1 || (*shape)[1] < 1 ||
            (*shape)[0] > kMaxTextureSide || (*shape)[1] > kMaxTextureSide) {
          return absl::InvalidArgumentError(absl::StrCat(
              "[loadTexture] - for '", name, "' must return nil or a ByteTensor H x W x 4 of at "
              "most ", kMaxTextureSide, " texels a side"));
        }
        if (absl::Status valid = image->tensor().CheckValid(); !valid.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat("[loadTexture] - for '", name, "': ", valid.message()));
        }
        const int rows = static_cast<int>((*shape)[0]), columns = static_cast<int>((*shape)[1]);
        auto* out = static_cast<unsigned char*>(allocator(rows * columns * 4));
        if (out == nullptr) return absl::ResourceExhaustedError("[loadTexture] - no memory");
        // Through a tensor lent over the engine's memory: any layout copies.
        tensor::ScopedLoan loan("the engine's texture");
        absl::StatusOr<tensor::Tensor> target = tensor::Tensor::Lend(
            tensor::DType::kUInt8, *tensor::Layout::Contiguous({rows, columns, 4}), out,
            static_cast<std::size_t>(rows) * columns * 4, loan.token());
        if (!target.ok()) return target.status();
        absl::Status copied =
            tensor::ApplyComponents(*target, tensor::ElementOp::kAssign, image->tensor());
        if (!copied.ok()) {
          std::memset(out, 0, static_cast<std::size_t>(rows) * columns * 4);
          return copied;
        }
        *pixels = out;
        *width = columns;
        *height = rows;
        loaded = true;
        return absl::OkStatus();
      });
  return loaded;
}

bool Context::ModifyRgbaTexture(const char* name, unsigned char* data, int width, int height) {
  if (level_ == nullptr || width < 1 || height < 1 || !level_->Defines("modifyTexture")) {
    return false;
  }
  bool modified = false;
  // What the level keeps of the pixels is an error once the call returns.
  tensor::ScopedLoan loan(absl::StrCat("the engine's texture '", name, "'"));
  absl::StatusOr<tensor::Tensor> lent = tensor::Tensor::Lend(
      tensor::DType::kUInt8, *tensor::Layout::Contiguous({height, width, 4}), data,
      static_cast<std::size_t>(width) * height * 4, loan.token());
  if (!lent.ok()) {
    Record(lent.status());
    return false;
  }
  CallLevel(
      "modifyTexture", 1,
      [&](lua_State* L) {
        lua_pushstring(L, name);
        lua_api::LuaTensor::Push(L, *std::move(lent));
        return 2;
      },
      [&](lua_State* L, int first) {
        return ReadBool(L, first, "modifyTexture", &modified);
      });
  return modified;
}

}  // namespace hosts::dmlab
