#include "lua_api/tensor/lent_tensor_slot.h"

#include <algorithm>
#include <utility>

#include "absl/status/statusor.h"
#include "lua_api/tensor/lua_tensor.h"

namespace lua_api {

absl::Status LentTensorSlot::Push(lua_State* L, tensor::DType dtype, const tensor::Layout& layout,
                                  void* data, std::size_t bytes) {
  // The registry tells states apart, and a coroutine's thread from a
  // state's other threads not at all: the userdata is the state's.
  const void* registry = lua_topointer(L, LUA_REGISTRYINDEX);
  if (PushSame(L, registry, dtype, layout, data, bytes)) return absl::OkStatus();
  return PushNew(L, registry, dtype, layout, data, bytes);
}

absl::Status LentTensorSlot::PushContiguous(lua_State* L, tensor::DType dtype,
                                            absl::Span<const std::int64_t> shape, void* data,
                                            std::size_t bytes) {
  const void* registry = lua_topointer(L, LUA_REGISTRYINDEX);
  const tensor::Shape& lent = tensor_.shape();
  if (std::equal(shape.begin(), shape.end(), lent.begin(), lent.end()) &&
      tensor_.layout().IsContiguous() &&
      PushSame(L, registry, dtype, tensor_.layout(), data, bytes)) {
    return absl::OkStatus();
  }
  absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous(shape);
  if (!layout.ok()) return layout.status();
  return PushNew(L, registry, dtype, *std::move(layout), data, bytes);
}

bool LentTensorSlot::PushSame(lua_State* L, const void* registry, tensor::DType dtype,
                              const tensor::Layout& layout, const void* data, std::size_t bytes) {
  if (reference_ == LUA_NOREF || registry != registry_ || data != data_ || bytes != bytes_ ||
      dtype != tensor_.dtype() || !(layout == tensor_.layout())) {
    return false;
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, reference_);
  const LuaTensor* held = LuaTensor::Read(L, -1);
  if (held == nullptr || held->tensor().storage() != tensor_.storage() ||
      held->tensor().dtype() != dtype || !(held->tensor().layout() == layout)) {
    lua_pop(L, 1);  // the level made it hold another tensor
    return false;
  }
  loan_->Renew();
  return true;
}

absl::Status LentTensorSlot::PushNew(lua_State* L, const void* registry, tensor::DType dtype,
                                     tensor::Layout layout, void* data, std::size_t bytes) {
  // What the level kept of the old memory stays an error for good.
  Revoke();
  std::shared_ptr<tensor::Loan> loan = tensor::Loan::Create(lender_);
  absl::StatusOr<tensor::Tensor> lent =
      tensor::Tensor::Lend(dtype, std::move(layout), data, bytes, loan);
  if (!lent.ok()) return lent.status();
  if (reference_ != LUA_NOREF && registry == registry_) {
    luaL_unref(L, LUA_REGISTRYINDEX, reference_);
  }
  loan_ = std::move(loan);
  tensor_ = *lent;
  data_ = data;
  bytes_ = bytes;
  LuaTensor::Push(L, *std::move(lent));
  lua_pushvalue(L, -1);
  reference_ = luaL_ref(L, LUA_REGISTRYINDEX);
  registry_ = registry;
  return absl::OkStatus();
}

}  // namespace lua_api
