#include "lua_api/tensor/random.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/push.h"
#include "lua_api/lua/read.h"
#include "tensor/work_meter.h"

namespace lua_api {

// ---- The distributions, written out here so that the same seed gives the
// same values with any standard library, and with the algorithms of
// libstdc++'s (GCC 11 and newer) distributions over std::mt19937_64, a
// fresh one per draw: those DeepMind Lab's dmlab.system.random draws with,
// so that a seeded level makes the same choices here as in DeepMind Lab.
// random_test.cc checks them against the standard library's and against
// values printed by DeepMind Lab's own module. ----

std::int64_t LuaRandom::UniformInt(std::int64_t a, std::int64_t b) {
  // Unsigned arithmetic: b - a may not fit in int64 (a = -2^63, b = 2^63-1).
  const std::uint64_t span = static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
  std::uint64_t x;
  if (span == std::numeric_limits<std::uint64_t>::max()) {
    x = engine_();
  } else {
    // Lemire's multiply-and-shift, rejecting the low products that would
    // bias it: x = floor(draw * n / 2^64), exactly uniform in [0, n).
    const std::uint64_t n = span + 1;
    unsigned __int128 product = static_cast<unsigned __int128>(engine_()) * n;
    std::uint64_t low = static_cast<std::uint64_t>(product);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
      while (low < threshold) {
        product = static_cast<unsigned __int128>(engine_()) * n;
        low = static_cast<std::uint64_t>(product);
      }
    }
    x = static_cast<std::uint64_t>(product >> 64);
  }
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + x);
}

double LuaRandom::Uniform01() {
  // One draw over 2^64, rounded to a double; a draw that rounds up to 1
  // becomes the largest double below it.
  const double u = static_cast<double>(engine_()) * 0x1p-64;
  return u < 1 ? u : std::nextafter(1.0, 0.0);
}

double LuaRandom::UniformReal(double a, double b) {
  if (!(a < b)) return a;
  const double u = Uniform01();
  const double width = b - a;
  // For bounds near ±DBL_MAX the width overflows; interpolate instead.
  double r = std::isfinite(width) ? u * width + a : a * (1 - u) + b * u;
  // Rounding can reach b; the interval is half-open.
  if (r >= b) r = std::nextafter(b, a);
  if (r < a) r = a;
  return r;
}

double LuaRandom::Normal(double mean, double sd) {
  // Marsaglia's polar method; the second value of the pair is dropped, as
  // a fresh distribution per draw drops it.
  double x, y, r2;
  do {
    x = 2.0 * Uniform01() - 1.0;
    y = 2.0 * Uniform01() - 1.0;
    r2 = x * x + y * y;
  } while (r2 > 1.0 || r2 == 0.0);
  return y * std::sqrt(-2 * std::log(r2) / r2) * sd + mean;
}

std::size_t LuaRandom::Discrete(absl::Span<const double> weights) {
  if (weights.size() <= 1) return 0;
  double sum = 0;
  for (double w : weights) sum += w;
  // The first index whose cumulative probability reaches the draw; the
  // last cumulative probability is 1 whatever the rounding.
  const double u = Uniform01();
  double cumulative = 0;
  for (std::size_t i = 0; i + 1 < weights.size(); ++i) {
    cumulative += weights[i] / sum;
    if (cumulative >= u) return i;
  }
  return weights.size() - 1;
}

LuaRandom* LuaRandom::Read(lua_State* L, int index) {
  return Class<LuaRandom>::ReadObject(L, index);
}

namespace {

// The registry key of L's mixer (a number; absent: 0).
char mixer_key;

}  // namespace

void SetSeedMixer(lua_State* L, std::uint32_t mixer) {
  lua_pushlightuserdata(L, &mixer_key);
  lua_pushnumber(L, mixer);
  lua_rawset(L, LUA_REGISTRYINDEX);
}

std::uint64_t MixSeed(lua_State* L, std::uint64_t seed) {
  lua_pushlightuserdata(L, &mixer_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  const auto mixer = static_cast<std::uint64_t>(lua_isnumber(L, -1) ? lua_tonumber(L, -1) : 0);
  lua_pop(L, 1);
  return seed ^ (mixer << 32);
}

namespace {

// ---- Lua methods. Stack index 1 is self, so argument #k is index k + 1. ----

// [-0, +0, e] gen:seed(n)
NResultsOr SeedMethod(LuaRandom& self, lua_State* L) {
  std::int64_t seed;
  if (std::string why = ReadInteger(L, 2, &seed); !why.empty()) {
    return ArgumentError("seed", 1, why);
  }
  self.Seed(MixSeed(L, static_cast<std::uint64_t>(seed)));
  return 0;
}

// [-0, +1, e] gen:uniformInt(a, b)
NResultsOr UniformIntMethod(LuaRandom& self, lua_State* L) {
  std::int64_t a, b;
  if (std::string why = ReadInteger(L, 2, &a); !why.empty()) {
    return ArgumentError("uniformInt", 1, why);
  }
  if (std::string why = ReadInteger(L, 3, &b); !why.empty()) {
    return ArgumentError("uniformInt", 2, why);
  }
  if (a > b) {
    return ArgumentError("uniformInt", 2, absl::StrCat("empty range [", a, ", ", b, "]"));
  }
  Push(L, self.UniformInt(a, b));
  return 1;
}

// Reads a finite number as argument `argument` of `function`.
std::string ReadFinite(lua_State* L, int index, const char* function, double* value) {
  if (std::string why = ReadNumber(L, index, value); !why.empty()) {
    return ArgumentError(function, index - 1, why);
  }
  if (!std::isfinite(*value)) {
    return ArgumentError(function, index - 1, Expected(L, index, "finite number"));
  }
  return {};
}

// [-0, +1, e] gen:uniformReal(a, b)
NResultsOr UniformRealMethod(LuaRandom& self, lua_State* L) {
  double a, b;
  if (std::string e = ReadFinite(L, 2, "uniformReal", &a); !e.empty()) return e;
  if (std::string e = ReadFinite(L, 3, "uniformReal", &b); !e.empty()) return e;
  if (a > b) {
    return ArgumentError("uniformReal", 2, absl::StrCat("empty range [", a, ", ", b, ")"));
  }
  Push(L, self.UniformReal(a, b));
  return 1;
}

// [-0, +1, e] gen:normalDistribution(mean, sd)
NResultsOr NormalMethod(LuaRandom& self, lua_State* L) {
  double mean, sd;
  if (std::string e = ReadFinite(L, 2, "normalDistribution", &mean); !e.empty()) return e;
  if (std::string e = ReadFinite(L, 3, "normalDistribution", &sd); !e.empty()) return e;
  if (sd < 0) {
    return ArgumentError("normalDistribution", 2,
                         absl::StrCat("standard deviation must be >= 0, got ", sd));
  }
  Push(L, self.Normal(mean, sd));
  return 1;
}

// [-0, +1, e] gen:discreteDistribution{w1, w2, ...}
NResultsOr DiscreteMethod(LuaRandom& self, lua_State* L) {
  constexpr const char* kName = "discreteDistribution";
  if (!lua_istable(L, 2)) return ArgumentError(kName, 1, Expected(L, 2, "table of weights"));
  const std::size_t n = lua_objlen(L, 2);
  if (n == 0) return ArgumentError(kName, 1, "no weights");
  // Reading and summing the weights: work the watchdog sees (work_meter.h).
  if (absl::Status charged = tensor::ChargeWork(static_cast<std::int64_t>(n)); !charged.ok()) {
    return absl::StrCat("'", kName, "': ", charged.message());
  }
  std::vector<double> weights;
  weights.reserve(n);
  double sum = 0;
  for (std::size_t i = 1; i <= n; ++i) {
    lua_rawgeti(L, 2, static_cast<int>(i));
    const bool number = lua_type(L, -1) == LUA_TNUMBER;
    const double w = number ? lua_tonumber(L, -1) : 0;
    if (!number || !(w >= 0) || !std::isfinite(w)) {
      std::string why = absl::StrCat("weight ", i, ": ",
                                     Expected(L, -1, "finite non-negative number"));
      lua_pop(L, 1);
      return ArgumentError(kName, 1, why);
    }
    lua_pop(L, 1);
    weights.push_back(w);
    sum += w;
  }
  if (!(sum > 0) || !std::isfinite(sum)) {
    return ArgumentError(kName, 1, absl::StrCat("weights must have a positive, finite sum, got ",
                                                sum));
  }
  Push(L, self.Discrete(weights) + 1);
  return 1;
}

// [-0, +1, -] tostring(gen)
NResultsOr ToStringMethod(LuaRandom&, lua_State* L) {
  Push(L, TypeNameAt(L, 1));
  return 1;
}

// [-0, +1, e] random.Generator([seed]), or random:Generator([seed]).
NResultsOr NewGenerator(lua_State* L) {
  // Accept ':' as well as '.': skip a generator passed as self.
  const int index = LuaRandom::Read(L, 1) != nullptr ? 2 : 1;
  std::int64_t seed = 0;
  if (!lua_isnoneornil(L, index)) {
    if (std::string why = ReadInteger(L, index, &seed); !why.empty()) {
      return ArgumentError("Generator", 1, why);
    }
  }
  Class<LuaRandom>::CreateObject(L, LuaRandom::kTypeName,
                                 MixSeed(L, static_cast<std::uint64_t>(seed)));
  return 1;
}

using R = Class<LuaRandom>;

// [-0, +0, m] Both metatables: generators, and the module value, which also
// has Generator.
void RegisterMetatables(lua_State* L) {
  for (const char* name : {LuaRandom::kTypeName, LuaRandom::kModuleTypeName}) {
    R::Register(L, name,
                {{"seed", &R::Member<&SeedMethod>},
                 {"uniformInt", &R::Member<&UniformIntMethod>},
                 {"uniformReal", &R::Member<&UniformRealMethod>},
                 {"normalDistribution", &R::Member<&NormalMethod>},
                 {"discreteDistribution", &R::Member<&DiscreteMethod>},
                 {"__tostring", &R::Member<&ToStringMethod>}});
  }
  R::Register(L, LuaRandom::kModuleTypeName, {{"Generator", &Raising<&NewGenerator>}});
}

}  // namespace

void RegisterRandomModule(lua_State* L) {
  SetPreload(L, "dmlab.system.random", &luaopen_dmlab_system_random);
}

}  // namespace lua_api

extern "C" int luaopen_dmlab_system_random(lua_State* L) {
  lua_api::RegisterMetatables(L);
  lua_api::Class<lua_api::LuaRandom>::CreateObject(L, lua_api::LuaRandom::kModuleTypeName,
                                                   std::uint64_t{0});
  return 1;
}
