// Tensor limits: what dmlab.system.tensor may do in one lua_State.
//
// Tensor storage is C++ memory that Lua's garbage collector does not see:
// a userdata of a few dozen bytes can hold gigabytes. Without a bound, one
// constructor call with a huge shape, or a loop that makes large tensors
// faster than Lua collects them, ends in an OOM kill of the host. So every
// tensor that the module allocates for a lua_State comes from that state's
// allocator, TensorAllocator(L), which
//   - counts the bytes of the tensors it made that are still alive (views
//     share their storage's count), until the storage is freed, which may
//     be after L is closed when a host still holds the tensor;
//   - refuses an allocation that would take the count past the state's
//     limit, after one full garbage collection has freed what the script
//     no longer references. The refusal is a ResourceExhausted status, so
//     the method raises a Lua error that names it and the limit.
// Memory lent to Lua (engine frames, host_test.lend) is not counted; what a
// host spends for the state (a simulator's model) can be, with
// ChargeTensorMemory.
//
// The host can also forbid the file constructor
// ({file = {name = ...}}), which reads any file the process can read; the
// engine does so in its sandbox for untrusted levels.
//
// Example:
//   RegisterTensorModule(L);                        // the default limits
//   SetTensorLimits(L, {.memory_bytes = 64 << 20, .file_access = false});
//   // inside a constructor:
//   tensor::Tensor::Zeros(dtype, shape, TensorAllocator(L));
#ifndef LUA_API_TENSOR_TENSOR_LIMITS_H_
#define LUA_API_TENSOR_TENSOR_LIMITS_H_

#include <cstddef>

#include "absl/status/statusor.h"
#include "lua_api/lua/lua.h"
#include "tensor/allocator.h"

namespace lua_api {

// The limit of a state whose host set none: 4 GiB.
inline constexpr std::size_t kDefaultTensorMemoryBytes = std::size_t{4} << 30;

struct TensorLimits {
  // The most bytes of tensor storage alive at once, over all the tensors
  // that the module allocated for this state.
  std::size_t memory_bytes = kDefaultTensorMemoryBytes;
  // Whether {file = {...}} may read files.
  bool file_access = true;
};

// [-0, +0, m] Sets L's limits. The first call (RegisterTensorModule makes
// it with the defaults) creates L's allocator; later calls change the
// limits, and bytes already counted stay counted.
void SetTensorLimits(lua_State* L, const TensorLimits& limits);

// [-0, +0, -] L's limits; the defaults if none were set.
TensorLimits GetTensorLimits(lua_State* L);

// [-0, +0, -] The bytes of tensor storage that L's allocator has handed out
// and that are still alive.
std::size_t TensorMemoryInUse(lua_State* L);

// Memory a host spends on a state's behalf (a simulator's model and its
// data), counted against the state's limit as its tensors are, from
// ChargeTensorMemory until the charge is destroyed, which may be after the
// state is closed. Move-only.
class TensorMemoryCharge {
 public:
  TensorMemoryCharge() = default;
  TensorMemoryCharge(TensorMemoryCharge&& other) noexcept;
  TensorMemoryCharge& operator=(TensorMemoryCharge&& other) noexcept;
  ~TensorMemoryCharge();

  std::size_t bytes() const { return bytes_; }

  // [-0, +0, -] Counts `bytes` more against L's limit in this charge, as
  // ChargeTensorMemory does (L must be the state of the charge, if it has
  // one); on an error the charge is as it was.
  absl::Status Add(lua_State* L, std::size_t bytes);

 private:
  friend absl::StatusOr<TensorMemoryCharge> ChargeTensorMemory(lua_State* L, std::size_t bytes);
  void Release();

  tensor::Allocator* budget_ = nullptr;  // L's (tensor_limits.cc)
  std::size_t bytes_ = 0;
};

// [-0, +0, -] Counts `bytes` against L's limit, collecting L's garbage
// first if they do not fit; ResourceExhausted, naming the limit, if they
// still do not. L must be outside any protected call's finalizers (the
// host's own code, or a callback's).
absl::StatusOr<TensorMemoryCharge> ChargeTensorMemory(lua_State* L, std::size_t bytes);

// [-0, +0, -] The allocator for every tensor the module makes for L. If it
// must collect garbage to make room, it runs the collector on L (which may
// be a coroutine of the state). In a state whose host never called
// SetTensorLimits (nor RegisterTensorModule), it refuses every allocation
// with an error that says so.
tensor::Allocator& TensorAllocator(lua_State* L);

}  // namespace lua_api

#endif  // LUA_API_TENSOR_TENSOR_LIMITS_H_
