// Torch7's bitwise methods of the torch-flavoured tensors (tensor/bitwise.h),
// each in place, returning self:
//   x:bitand(n), x:bitor(n), x:bitxor(n)       integer types
//   x:lshift(n), x:rshift(n)                   integers shift; floats scale by 2^n
//   x:cbitand(y), x:cbitor(y), x:cbitxor(y), x:clshift(y), x:crshift(y)
// dmlab.system.torch adds the module forms, torch.bitand([res,] x, n) ...
#ifndef LUA_API_TORCH_TORCH_BITWISE_H_
#define LUA_API_TORCH_TORCH_BITWISE_H_

#include "lua_api/lua/lua.h"

namespace lua_api {

// [-0, +0, m] Adds the methods to every torch class table.
// REQUIRES: RegisterTorchFlavour(L) ran.
void RegisterTorchBitwiseMethods(lua_State* L);

}  // namespace lua_api

#endif  // LUA_API_TORCH_TORCH_BITWISE_H_
