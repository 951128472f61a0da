// Method arguments: the readers and result pushers that tensor methods
// share, so that every method counts, checks and reports the same way.
//
// Methods see self at stack 1, so stack `index` is argument `index - 1` in
// messages. Each Read* and Check* returns an empty string on success and
// otherwise the whole Lua error for `method`. Dimensions are 1-based here
// and 0-based in the core; they are checked here, so messages count from 1.
//
// Example (t:size(dim)):
//   int dim;
//   if (std::string e = ReadDim(L, 2, self.tensor(), "size", &dim); !e.empty()) return e;
//   // "bad argument #1 to 'size' (dimension 3 out of range [1, 2])"
#ifndef LUA_API_TENSOR_METHOD_ARGUMENTS_H_
#define LUA_API_TENSOR_METHOD_ARGUMENTS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/push.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "tensor/tensor.h"

namespace lua_api {

// "bad argument #<index - 1> to '<method>' (<why>)".
std::string ArgumentAt(const char* method, int index, absl::string_view why);

// The errors of ReadBounded and ReadDim, out of line: those two are inline,
// as the readers of every method's integers.
std::string OutOfRange(const char* method, int index, const char* what, tensor::Index value,
                       tensor::Index low, tensor::Index high);
std::string DimensionOfEmpty(lua_State* L, int index, const char* method);

// [-0, +0, -] An integer `what` in [low, high] at stack `index`.
inline std::string ReadBounded(lua_State* L, int index, const char* method, const char* what,
                               tensor::Index low, tensor::Index high, tensor::Index* out) {
  std::int64_t value;
  if (std::string why = ReadInteger(L, index, &value); !why.empty()) [[unlikely]] {
    return ArgumentAt(method, index, why);
  }
  if (value < low || value > high) [[unlikely]] {
    return OutOfRange(method, index, what, value, low, high);
  }
  *out = value;
  return {};
}

// [-0, +0, -] A 1-based dimension in [1, rank of t + extra] at stack
// `index`, as the 0-based *dim. `extra` is 1 where a new dimension may go
// after the last (unsqueeze-like methods).
inline std::string ReadDim(lua_State* L, int index, const tensor::Tensor& t, const char* method,
                           int* dim, int extra = 0) {
  if (t.rank() + extra == 0) [[unlikely]] {
    return DimensionOfEmpty(L, index, method);
  }
  tensor::Index value;
  if (std::string e = ReadBounded(L, index, method, "dimension", 1, t.rank() + extra, &value);
      !e.empty()) [[unlikely]] {
    return e;
  }
  *dim = static_cast<int>(value - 1);
  return {};
}

// [-0, +0, -] An optional number; *value keeps its default for nil or none.
std::string ReadOptionalNumber(lua_State* L, int index, const char* method, double* value);

// [-0, +0, -] Fails if there are arguments past stack `last`: Torch7's
// result tensors ([res,] forms) are not taken, and should not be ignored.
std::string CheckNoMore(lua_State* L, int last, const char* method);

// [-0, +1, m] A new tensor userdata for `result`, or the core's error.
NResultsOr PushResult(lua_State* L, const char* method, absl::StatusOr<tensor::Tensor> result);

// [-0, +1, m] A number or boolean `result`, or the core's error.
template <typename T>
NResultsOr PushValueResult(lua_State* L, const char* method, const absl::StatusOr<T>& result) {
  if (!result.ok()) return StatusError(method, result.status());
  Push(L, *result);
  return 1;
}

// [-0, +1, -] Mutating methods return self, the userdata they were called
// on, not a new userdata over the same tensor: `t:add(1) == t` by identity.
inline NResultsOr ReturnSelf(lua_State* L) {
  lua_pushvalue(L, 1);
  return 1;
}

}  // namespace lua_api

#endif  // LUA_API_TENSOR_METHOD_ARGUMENTS_H_
