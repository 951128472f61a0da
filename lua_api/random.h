// LuaRandom: a random generator object of dmlab.system.random.
//
// A Mersenne Twister (std::mt19937_64), so the same seed gives the same
// sequence on every platform and run. The module's default generator is
// seeded with 0.
//
// Example (from C++, e.g. tensor:shuffle(gen)):
//   LuaRandom* gen = LuaRandom::Read(L, 2);
//   std::shuffle(first, last, gen->engine());
#ifndef LUA_API_RANDOM_H_
#define LUA_API_RANDOM_H_

#include <random>

#include "lua_api/lua.h"

namespace lua_api {

class LuaRandom {
 public:
  static constexpr const char* kTypeName = "dmlab.system.random.Generator";

  std::mt19937_64& engine() { return engine_; }

  // [-0, +0, -] The generator at `index`, or null.
  static LuaRandom* Read(lua_State* L, int index);

 private:
  std::mt19937_64 engine_{0};
};

// [-0, +0, m] Makes `require 'dmlab.system.random'` work in L.
void RegisterRandomModule(lua_State* L);

}  // namespace lua_api

// [-0, +1, m] The plain entry point, for `require` of a shared library.
extern "C" int luaopen_dmlab_system_random(lua_State* L);

#endif  // LUA_API_RANDOM_H_
