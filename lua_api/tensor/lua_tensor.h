// LuaTensor: the userdata behind every tensor in dmlab.system.tensor.
//
// It holds the type-erased core tensor; views share its storage through
// the core's reference counting, and __gc releases it. Each element type
// has its own metatable, "dmlab.system.tensor.<Type>", and all of them
// share one method table.
//
// Every method starts with CheckSelf, and every tensor argument is read
// with ReadTensorArgument, so an invalid tensor anywhere is an error that
// says "invalid", names the type, the method and the lender.
//
// Example (inside a method):
//   NResultsOr Narrow(LuaTensor& self, lua_State* L) {
//     if (std::string e = self.CheckSelf("narrow"); !e.empty()) return e;
//     ...
//     absl::StatusOr<tensor::Tensor> view = self.tensor().Narrow(dim, start, size);
//     if (!view.ok()) return StatusError("narrow", view.status());
//     LuaTensor::Push(L, *std::move(view));
//     return 1;
//   }
#ifndef LUA_API_TENSOR_LUA_TENSOR_H_
#define LUA_API_TENSOR_LUA_TENSOR_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "tensor/tensor.h"

namespace lua_api {

class LuaTensor {
 public:
  // Tensors come by rvalue here and in Push, not by value: each move copies
  // the inline shape and strides, and views are made per call.
  explicit LuaTensor(tensor::Tensor&& tensor) : tensor_(std::move(tensor)) {}

  const tensor::Tensor& tensor() const { return tensor_; }

  // The C++ memory this object holds, charged to the Lua memory cap: a
  // view of many dimensions keeps its shape and strides on the heap.
  std::size_t NativeBytes() const { return NativeBytesOfRank(tensor_.rank()); }
  static std::size_t NativeBytesOfRank(int rank) {
    return sizeof(LuaTensor) + 2 * sizeof(tensor::Index) * static_cast<std::size_t>(rank);
  }

  // Views are made per call and collected in bursts, which overflow
  // malloc's per-thread cache: a select spent 300 instructions in malloc
  // and free. So freed LuaTensors wait in a per-thread pool
  // (tensor/block_pool.h) for the next one.
  static void* operator new(std::size_t size);
  static void operator delete(void* block, std::size_t size);

  // Makes this userdata hold `tensor` instead: how an owning tensor is
  // resized, or a module function's `res` receives a result of another
  // shape. Views of the old tensor keep its storage, so none dangles.
  void Reset(tensor::Tensor tensor) {
    tensor_ = std::move(tensor);
    ++resets_;
  }
  // How many times Reset ran: a lender that keeps this userdata knows by
  // it whether it still holds what was lent (lent_tensor_slot.h).
  std::uint64_t resets() const { return resets_; }

  // The metatable that holds the methods every tensor type shares
  // (Class::Share); a method called on a bad self says this name.
  static constexpr char kFamily[] = "dmlab.system.tensor tensor";

  // "dmlab.system.tensor.DoubleTensor".
  const char* type_name() const { return TypeName(tensor_.dtype()); }
  static const char* TypeName(tensor::DType dtype);

  // [-0, +1, m] A new userdata holding `tensor`, with its type's metatable.
  static void Push(lua_State* L, tensor::Tensor&& tensor);

  // [-0, +0, -] The LuaTensor at `index`, or null if the value is not one.
  static LuaTensor* Read(lua_State* L, int index) {
    return Class<LuaTensor>::ReadObject(L, index);
  }

  // "" if this tensor is valid; otherwise the error for using it in
  // `method`: "'dmlab.system.tensor.DoubleTensor:narrow': invalid tensor:
  // its memory was lent by <lender> ...".
  std::string CheckSelf(const char* method) const { return CheckSelf(tensor_, method); }
  // The same for a tensor that a method holds as its self, such as apply's
  // after the callback ran. Inline, as every method asks it first.
  static std::string CheckSelf(const tensor::Tensor& self, const char* method) {
    if (self.owns_storage()) [[likely]] {
      return {};
    }
    return CheckLentSelf(self, method);
  }

 private:
  static std::string CheckLentSelf(const tensor::Tensor& self, const char* method);

  tensor::Tensor tensor_;
  std::uint64_t resets_ = 0;
};

// Reads the valid tensor at Lua stack `index`, which is argument `index - 1`
// of `method` (after self). Returns "" and sets *out, or the error:
// "bad argument #1 to 'cadd' (tensor expected, got nil)" or
// "bad argument #1 to 'cadd' (invalid tensor dmlab.system.tensor.DoubleTensor: ...)".
std::string ReadTensorArgument(lua_State* L, int index, const char* method, LuaTensor** out);

// The Lua error for a failed core call in `method`: "'<method>': <message>".
std::string StatusError(const char* method, const absl::Status& status);

// "" if a tensor of `dtype` holds `value` exactly (integer types: whole and
// in range; floating types: any number), else "ByteTensor cannot hold 2.5".
std::string CheckValue(double value, tensor::DType dtype);

// CheckValue for an element type known at compile time, without building
// a message: for loops that check every value.
template <typename T>
bool HoldsValue(double value) {
  if constexpr (tensor::kIsFloating<T>) {
    return true;
  } else if constexpr (std::is_same_v<T, bool>) {
    return value == 0 || value == 1;
  } else {
    // Both bounds are powers of two (or zero), so exact in double; NaN fails.
    constexpr double lowest = static_cast<double>(std::numeric_limits<T>::min());
    constexpr double past_highest =
        2.0 * static_cast<double>(std::numeric_limits<T>::max() / 2 + 1);
    return std::trunc(value) == value && value >= lowest && value < past_highest;
  }
}

// Fills `destination`, a new contiguous tensor, from the nested table of
// numbers at stack `index`, whose nesting must match destination's shape
// (row-major). Shared by the constructors and val(table). Returns "" or why
// not, naming the entry; `mismatch` starts the messages about nesting:
//   "<mismatch>[2] has 3 entries, expected 2"
//   "[2][1]: number expected, got string"
//   "[1][3]: ByteTensor cannot hold 2.5"
std::string ReadTableInto(lua_State* L, int index, const tensor::Tensor& destination,
                          absl::string_view mismatch);

// The element types the module exposes (the seven of the specification).
inline constexpr tensor::DType kLuaDTypes[] = {
    tensor::DType::kUInt8, tensor::DType::kInt8,    tensor::DType::kInt16,
    tensor::DType::kInt32, tensor::DType::kInt64,   tensor::DType::kFloat32,
    tensor::DType::kFloat64,
};

}  // namespace lua_api

#endif  // LUA_API_TENSOR_LUA_TENSOR_H_
