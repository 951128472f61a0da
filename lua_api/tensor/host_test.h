// dmlab.system.host_test: plays a host that lends its memory, for tests.
//
// Lua code cannot make a non-owning tensor by itself; only a host (the
// engine) can, by lending a buffer for one scope. This module lets Lua
// tests do exactly that, so that ownership and validity are testable
// without an engine:
//
//   local host_test = require 'dmlab.system.host_test'
//   local kept
//   local n = host_test.lend('DoubleTensor', {2, 3}, 7, function(t, extra)
//     kept = t                    -- a non-owning DoubleTensor of 7s
//     return t:sum() + extra      -- fn's results are lend's results
//   end, 1)                       -- n == 43
//   kept:sum()  --> error: "... invalid ... host_test.lend buffer ..."
//
// lend(typeName, shape, fillValue, fn, ...):
//   typeName   'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
//              'Int64Tensor', 'FloatTensor' or 'DoubleTensor';
//   shape      a non-empty table of integer extents >= 0;
//   fillValue  a number that the type can represent exactly (integer
//              types) or in range (FloatTensor);
//   fn         called as fn(tensor, ...) in protected mode.
// The buffer is a host-owned std::vector lent through a tensor::ScopedLoan
// named "host_test.lend buffer". After fn returns or raises, the loan is
// revoked and the buffer freed; then lend returns fn's results, or raises
// fn's error value unchanged (same object, no traceback added).
#ifndef LUA_API_TENSOR_HOST_TEST_H_
#define LUA_API_TENSOR_HOST_TEST_H_

#include "lua_api/lua/lua.h"

namespace lua_api {

// The lender name that errors about the lent tensors mention.
inline constexpr const char kHostTestLender[] = "host_test.lend buffer";

// [-0, +0, m] Sets package.preload['dmlab.system.host_test']. lend itself
// requires 'dmlab.system.tensor', which the host must have registered.
void RegisterHostTestModule(lua_State* L);

}  // namespace lua_api

// [-0, +1, m] The plain entry point: returns the module table {lend = ...}.
extern "C" int luaopen_dmlab_system_host_test(lua_State* L);

#endif  // LUA_API_TENSOR_HOST_TEST_H_
