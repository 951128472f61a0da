// LentTensorSlot: memory that a lender lends to Lua call after call, as
// one tensor userdata under one loan.
//
// A host lends the same buffers (a frame, mjData's qpos) to level
// callbacks at every step. A new userdata, storage and loan for each lend
// cost thousands of instructions a step and made garbage for the
// collector to visit. A slot makes them once: each lend of the same
// memory renews the loan and pushes the same userdata, and the lender
// revokes the loan when the call returns. So a tensor the level keeps
// (or a view of it) is an error naming the lender between lends, and is
// usable again exactly while the same memory is lent again, when it is
// the very tensor the callback receives.
//
// A lend of other memory, or of another type or layout, revokes the old
// loan for good and makes a new userdata; so does a lend after the level
// made the userdata hold another tensor (resize, or passed as `res`).
//
// The userdata lives in the registry of the state it was pushed into,
// until the slot lends other memory there or the state closes; the slot
// never touches a state after that, so it may outlive it.
//
// Example:
//   LentTensorSlot slot("observation 'RGB'");
//   absl::Status lent = slot.Push(L, tensor::DType::kUInt8, shape, pixels, bytes);
//   ... call the level's callback with it ...
//   slot.Revoke();   // on every exit path
#ifndef LUA_API_TENSOR_LENT_TENSOR_SLOT_H_
#define LUA_API_TENSOR_LENT_TENSOR_SLOT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "lua_api/lua/lua.h"
#include "tensor/layout.h"
#include "tensor/loan.h"
#include "tensor/tensor.h"

namespace lua_api {

class LuaTensor;

class LentTensorSlot {
 public:
  // `lender` names who lends, in the errors of kept tensors.
  explicit LentTensorSlot(std::string lender) : lender_(std::move(lender)) {}
  // Revokes: what the level kept stays an error.
  ~LentTensorSlot() { Revoke(); }

  LentTensorSlot(const LentTensorSlot&) = delete;
  LentTensorSlot& operator=(const LentTensorSlot&) = delete;

  const std::string& lender() const { return lender_; }

  // [-0, +1, m] Lends `bytes` bytes at `data` as a tensor of `dtype` and
  // `layout` until Revoke, and pushes it. An error (nothing pushed) if the
  // layout reaches outside the bytes.
  absl::Status Push(lua_State* L, tensor::DType dtype, const tensor::Layout& layout, void* data,
                    std::size_t bytes);
  // The same for a row-major `shape`.
  absl::Status PushContiguous(lua_State* L, tensor::DType dtype,
                              absl::Span<const std::int64_t> shape, void* data,
                              std::size_t bytes);

  // Lends the memory lent last again without pushing it (a host that
  // keeps the userdata where the level finds it): true if `data`, `bytes`,
  // `dtype` and `layout` are what it was and the userdata still holds it
  // in L's state; else false, and Push makes a new one.
  bool Relend(lua_State* L, tensor::DType dtype, const tensor::Layout& layout, const void* data,
              std::size_t bytes);

  // Ends the current lend. Idempotent.
  void Revoke() {
    if (loan_ != nullptr) loan_->Revoke();
  }

 private:
  // [-0, +(0|1), -] Renews the loan and, if `push`, pushes the userdata
  // lent last, if it is L's and still holds the tensor over `data`,
  // `bytes`, `dtype` and `layout`; else pushes nothing: false.
  bool Renew(lua_State* L, tensor::DType dtype, const tensor::Layout& layout, const void* data,
             std::size_t bytes, bool push);
  // [-0, +1, m] A new userdata under a new loan.
  absl::Status PushNew(lua_State* L, tensor::DType dtype, tensor::Layout layout, void* data,
                       std::size_t bytes);

  const std::string lender_;
  std::shared_ptr<tensor::Loan> loan_;
  tensor::Tensor tensor_;  // what the userdata held when lent
  const void* data_ = nullptr;
  std::size_t bytes_ = 0;
  // The state that holds the userdata (its registry), and whether it is
  // still open (a state opened later may have the same address).
  const void* state_ = nullptr;
  std::shared_ptr<const bool> state_open_;
  int reference_ = LUA_NOREF;        // the userdata, in that state's registry
  const LuaTensor* held_ = nullptr;  // its object, while the state is open
  std::uint64_t resets_ = 0;         // held_->resets() when lent
};

}  // namespace lua_api

#endif  // LUA_API_TENSOR_LENT_TENSOR_SLOT_H_
