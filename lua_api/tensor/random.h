// LuaRandom: a random generator object of dmlab.system.random.
//
// A Mersenne Twister (std::mt19937_64, whose output the C++ standard fixes
// bit for bit) with the distributions written out here, so the same seed
// gives the same sequence on every platform, standard library and run.
// std::uniform_int_distribution and friends are not used: their algorithms
// differ between libstdc++, libc++ and MSVC. Those written here are
// libstdc++'s (GCC 11 and newer), which DeepMind Lab's dmlab.system.random
// draws with: a seeded DeepMind Lab level makes the same choices here.
//
// Lua API (`local random = require 'dmlab.system.random'`):
//   The module value IS the default generator, seeded with 0 when the
//   module is first required in a lua_State, as in DeepMind Lab:
//     random:seed(n)                       n: any integer (taken mod 2^64;
//                                          mixed with mixerSeed, below)
//     random:uniformInt(a, b)              integer in [a, b]; a > b is an error
//     random:uniformReal(a, b)             number in [a, b) (a when a == b)
//     random:normalDistribution(mean, sd)  sd >= 0 (sd == 0 gives mean)
//     random:discreteDistribution{w1, w2, ...}
//                                          1-based index i with probability
//                                          w_i / sum(w); weights >= 0, sum > 0
//   It can also make independent generators, which have the same methods:
//     local gen = random.Generator(42)     seed 42 (default 0); `random:Generator(42)`
//     gen:uniformInt(1, 6)                 works too
//   Methods need ':'. Errors read like Lua's own argument errors, e.g.
//   "bad argument #1 to 'uniformInt' (integer expected, got nil)".
//   Integers beyond 2^53 come back rounded to a Lua number, but never
//   outside [a, b].
//
// Example (from C++, e.g. tensor:shuffle(gen)):
//   LuaRandom* gen = LuaRandom::Read(L, 2);
//   std::int64_t j = gen->UniformInt(0, i);   // portable, unlike std::shuffle
#ifndef LUA_API_TENSOR_RANDOM_H_
#define LUA_API_TENSOR_RANDOM_H_

#include <cstdint>
#include <limits>
#include <random>
#include <utility>

#include "absl/types/span.h"
#include "lua_api/lua/lua.h"

namespace lua_api {

class LuaRandom {
 public:
  // The metatable of generators made by Generator(), and the type name
  // in error messages.
  static constexpr const char* kTypeName = "dmlab.system.random.Generator";
  // The metatable of the module value (the default generator): the same
  // methods plus Generator.
  static constexpr const char* kModuleTypeName = "dmlab.system.random";

  explicit LuaRandom(std::uint64_t seed = 0) : engine_(seed) {}

  std::mt19937_64& engine() { return engine_; }
  void Seed(std::uint64_t seed) { engine_.seed(seed); }

  // Uniform in [a, b]. Requires a <= b.
  std::int64_t UniformInt(std::int64_t a, std::int64_t b);

  // Uniform in [0, 1): one draw over 2^64, rounded to a double.
  double Uniform01();

  // Uniform in [a, b), or a if a == b. Requires finite a <= b.
  double UniformReal(double a, double b);

  // Normal (Marsaglia's polar method, one value of each pair). Requires
  // sd >= 0.
  double Normal(double mean, double sd);

  // A 0-based index i with probability weights[i] / sum. Requires finite
  // weights >= 0 with a positive, finite sum.
  std::size_t Discrete(absl::Span<const double> weights);

  // Permutes `values` as libstdc++'s std::shuffle does over this engine
  // (GCC 10 and newer), which DeepMind Lab's maze generation calls: one
  // draw places two elements while the engine's range holds n * n.
  template <typename T>
  void Shuffle(absl::Span<T> values);

  // [-0, +0, -] The generator at `index` (the module value or one made by
  // Generator), or null.
  static LuaRandom* Read(lua_State* L, int index);

 private:
  std::mt19937_64 engine_;
};

template <typename T>
void LuaRandom::Shuffle(absl::Span<T> values) {
  using std::swap;
  const std::uint64_t n = values.size();
  if (n < 2) return;
  // Engine range 2^64 - 1; n * n must not exceed it (as libstdc++ tests).
  if (std::numeric_limits<std::uint64_t>::max() / n < n) {
    for (std::uint64_t i = 1; i < n; ++i) {
      swap(values[i], values[static_cast<std::size_t>(UniformInt(0, static_cast<std::int64_t>(i)))]);
    }
    return;
  }
  std::uint64_t i = 1;
  // An even count leaves an odd number of swaps: the first goes alone.
  if (n % 2 == 0) {
    swap(values[i], values[static_cast<std::size_t>(UniformInt(0, 1))]);
    ++i;
  }
  while (i != n) {
    // Swap ranges i + 1 and i + 2 from one draw in [0, (i + 1)(i + 2)).
    const std::uint64_t first = i + 1, second = i + 2;
    const auto x = static_cast<std::uint64_t>(UniformInt(0, static_cast<std::int64_t>(first * second - 1)));
    swap(values[i], values[x / second]);
    swap(values[i + 1], values[x % second]);
    i += 2;
  }
}

// DeepMind Lab's mixerSeed: in L, every seed a level gives (gen:seed(n),
// random.Generator(n), maze_generation's seeds) becomes n ^ (mixer << 32),
// so that different mixers draw from disjoint seed spaces. 0 (the
// default) leaves seeds as they are.
// [-0, +0, m]
void SetSeedMixer(lua_State* L, std::uint32_t mixer);
// [-0, +0, -] n ^ (mixer << 32) for L's mixer.
std::uint64_t MixSeed(lua_State* L, std::uint64_t seed);

// [-0, +0, m] Makes `require 'dmlab.system.random'` work in L.
void RegisterRandomModule(lua_State* L);

}  // namespace lua_api

// [-0, +1, m] The plain entry point, for `require` of a shared library:
// registers the metatables and returns a new default generator (seed 0).
extern "C" int luaopen_dmlab_system_random(lua_State* L);

#endif  // LUA_API_TENSOR_RANDOM_H_
