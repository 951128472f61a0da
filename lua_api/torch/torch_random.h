// Torch7's random fills that dmlab.system.tensor lacks, as methods of the
// torch-flavoured tensors (each takes an optional dmlab.system.random
// generator first; without one, the default generator):
//   x:random([gen,] [a,] [b])          integers in [a, b], [1, b], or [0, max]
//   x:exponential([gen,] [lambda = 1])
//   x:cauchy([gen,] [median = 0] [, sigma = 1])
//   x:logNormal([gen,] [mean = 1] [, stdv = 2])    exp(normal(mean, stdv))
//   x:geometric([gen,] p)              i >= 1 with probability (1 - p) p^(i - 1)
#ifndef LUA_API_TORCH_TORCH_RANDOM_H_
#define LUA_API_TORCH_TORCH_RANDOM_H_

#include "lua_api/lua/lua.h"

namespace lua_api {

// [-0, +0, m] Adds the methods to every torch class table.
// REQUIRES: RegisterTorchFlavour(L) ran.
void RegisterTorchRandomMethods(lua_State* L);

// [-0, +0, m] Adds rngState(gen) and setRngState(gen, text), the
// generator's state as text and back, to the table on top of the stack.
void PushTorchRandomInternals(lua_State* L);

}  // namespace lua_api

#endif  // LUA_API_TORCH_TORCH_RANDOM_H_
