#include "lua_api/tensor/lent_tensor_slot.h"

#include <algorithm>
#include <memory>
#include <new>
#include <utility>

#include "absl/status/statusor.h"
#include "lua_api/tensor/lua_tensor.h"

namespace lua_api {
namespace {

// The registry key of a state's open flag.
const char kOpenFlagKey = 0;

// [-0, +0, -] __gc of the flag's box, at lua_close: the state is closed.
int CloseFlag(lua_State* L) {
  auto* flag = static_cast<std::shared_ptr<bool>*>(lua_touserdata(L, 1));
  **flag = false;
  flag->~shared_ptr();
  return 0;
}

// [-0, +0, m] A flag that is true until L's state closes, made once per
// state and kept in its registry.
std::shared_ptr<const bool> OpenFlag(lua_State* L) {
  lua_pushlightuserdata(L, const_cast<char*>(&kOpenFlagKey));
  lua_rawget(L, LUA_REGISTRYINDEX);
  if (lua_isuserdata(L, -1)) {
    std::shared_ptr<const bool> flag = *static_cast<std::shared_ptr<bool>*>(lua_touserdata(L, -1));
    lua_pop(L, 1);
    return flag;
  }
  lua_pop(L, 1);
  lua_pushlightuserdata(L, const_cast<char*>(&kOpenFlagKey));
  void* box = lua_newuserdata(L, sizeof(std::shared_ptr<bool>));
  auto* flag = new (box) std::shared_ptr<bool>(std::make_shared<bool>(true));
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, &CloseFlag);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_rawset(L, LUA_REGISTRYINDEX);
  return *flag;
}

// Which state L belongs to: its registry, the same for all its threads.
const void* StateOf(lua_State* L) { return lua_topointer(L, LUA_REGISTRYINDEX); }

}  // namespace

absl::Status LentTensorSlot::Push(lua_State* L, tensor::DType dtype, const tensor::Layout& layout,
                                  void* data, std::size_t bytes) {
  if (Renew(L, dtype, layout, data, bytes, /*push=*/true)) return absl::OkStatus();
  return PushNew(L, dtype, layout, data, bytes);
}

absl::Status LentTensorSlot::PushContiguous(lua_State* L, tensor::DType dtype,
                                            absl::Span<const std::int64_t> shape, void* data,
                                            std::size_t bytes) {
  const tensor::Shape& lent = tensor_.shape();
  if (std::equal(shape.begin(), shape.end(), lent.begin(), lent.end()) &&
      tensor_.layout().IsContiguous() &&
      Renew(L, dtype, tensor_.layout(), data, bytes, /*push=*/true)) {
    return absl::OkStatus();
  }
  absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous(shape);
  if (!layout.ok()) return layout.status();
  return PushNew(L, dtype, *std::move(layout), data, bytes);
}

bool LentTensorSlot::Relend(lua_State* L, tensor::DType dtype, const tensor::Layout& layout,
                            const void* data, std::size_t bytes) {
  return Renew(L, dtype, layout, data, bytes, /*push=*/false);
}

bool LentTensorSlot::Renew(lua_State* L, tensor::DType dtype, const tensor::Layout& layout,
                           const void* data, std::size_t bytes, bool push) {
  if (held_ == nullptr || !*state_open_ || StateOf(L) != state_ || data != data_ ||
      bytes != bytes_ || dtype != tensor_.dtype() || !(layout == tensor_.layout()) ||
      held_->resets() != resets_) {  // the level made it hold another tensor
    return false;
  }
  if (push) lua_rawgeti(L, LUA_REGISTRYINDEX, reference_);
  loan_->Renew();
  return true;
}

absl::Status LentTensorSlot::PushNew(lua_State* L, tensor::DType dtype, tensor::Layout layout,
                                     void* data, std::size_t bytes) {
  // What the level kept of the old memory stays an error for good.
  Revoke();
  std::shared_ptr<tensor::Loan> loan = tensor::Loan::Create(lender_);
  absl::StatusOr<tensor::Tensor> lent =
      tensor::Tensor::Lend(dtype, std::move(layout), data, bytes, loan);
  if (!lent.ok()) return lent.status();
  if (held_ != nullptr && *state_open_ && StateOf(L) == state_) {
    luaL_unref(L, LUA_REGISTRYINDEX, reference_);
  }
  held_ = nullptr;
  loan_ = std::move(loan);
  tensor_ = *lent;
  data_ = data;
  bytes_ = bytes;
  state_ = StateOf(L);
  state_open_ = OpenFlag(L);
  LuaTensor::Push(L, *std::move(lent));
  lua_pushvalue(L, -1);
  reference_ = luaL_ref(L, LUA_REGISTRYINDEX);
  held_ = LuaTensor::Read(L, -1);
  resets_ = held_->resets();
  return absl::OkStatus();
}

}  // namespace lua_api
