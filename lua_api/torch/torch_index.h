// Torch7's indexing of torch-flavoured tensors (torch_flavour.h):
//
//   x[i]                 rank 1: the number; otherwise x:select(1, i)
//   x[{i, j}]            one index per leading dimension, as x[i][j]
//   x[{ {a, b}, c }]     {a, b}: entries a..b of that dimension; {a}: a..a;
//                        {}: all of it
//   x[mask]              a ByteTensor mask: the elements where it is 1
//
// Negative indices count from the end (-1 is the last). Assignment takes
// the same keys: x[key] = number fills, x[key] = tensor copies (element
// counts must agree), x[mask] = number | tensor is maskedFill | maskedCopy.
// Numbers meet integer types as in Torch7, truncated toward zero; one out
// of the type's range (undefined in Torch7) is an error here.
//
// Errors name the dimension: "bad argument #1 to '__index' (index 5 out of
// range for dimension 1 of size 4)".
#ifndef LUA_API_TORCH_TORCH_INDEX_H_
#define LUA_API_TORCH_TORCH_INDEX_H_

#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/tensor/lua_tensor.h"

namespace lua_api {

// [-0, +1, m] x[key] for a key that is not a string: the element or view,
// or nil for a key that is no index.
NResultsOr TorchIndexGet(LuaTensor& self, lua_State* L);

// [-0, +1, m] The element i (at stack 2) of a vector, for `method`.
NResultsOr TorchElement(LuaTensor& self, lua_State* L, const char* method);

// [-0, +0, m] x[key] = value.
NResultsOr TorchIndexSet(LuaTensor& self, lua_State* L);

// The number a Torch7 tensor of `dtype` stores for `value`: whole numbers
// toward zero for integer types. "" and *stored, or why not ("IntTensor
// cannot hold 3e10").
std::string TorchValue(double value, tensor::DType dtype, double* stored);

}  // namespace lua_api

#endif  // LUA_API_TORCH_TORCH_INDEX_H_
