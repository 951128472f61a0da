// Reads the extents that Torch7's shape-taking functions accept, either as
// numbers or as one table: t:view(2, 3), t:view{2, 3}, tensor.zeros(2, 3).
//
// Example (a method, self at stack 1, extents from stack 2 on):
//   std::vector<tensor::Index> extents;
//   if (std::string e = ReadExtents(L, 2, 1, "expand", ExtentsAllow::kKeep, &extents);
//       !e.empty()) return e;
//   // "bad argument #2 to 'expand' (extent must be at least 1, got 0)"
#ifndef LUA_API_TENSOR_EXTENTS_ARGUMENT_H_
#define LUA_API_TENSOR_EXTENTS_ARGUMENT_H_

#include <string>
#include <vector>

#include "lua_api/lua/lua.h"
#include "tensor/layout.h"

namespace lua_api {

enum class ExtentsAllow {
  kPositive,  // every extent at least 1
  kInferred,  // also -1: one extent inferred from the element count (view)
  kKeep,      // also -1: keep the current extent (expand)
};

// [-0, +0, -] Reads the extents from stack index `first` to the top: either
// integers, or a single table of integers. `first_argument` is the
// argument number of stack index `first` in messages. Returns "" and fills
// *extents, or the error for `function`.
std::string ReadExtents(lua_State* L, int first, int first_argument, const char* function,
                        ExtentsAllow allow, std::vector<tensor::Index>* extents);

}  // namespace lua_api

#endif  // LUA_API_TENSOR_EXTENTS_ARGUMENT_H_
