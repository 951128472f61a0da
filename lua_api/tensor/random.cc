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

// ---- The distributions, on the engine's raw 64-bit output only. ----

std::int64_t LuaRandom::UniformInt(std::int64_t a, std::int64_t b) {
  // Unsigned arithmetic: b - a may not fit in int64 (a = -2^63, b = 2^63-1).
  const std::uint64_t span = static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
  std::uint64_t x = engine_();
  if (span != std::numeric_limits<std::uint64_t>::max()) {
    // Rejection sampling: of the 2^64 engine values, keep the largest
    // multiple of n so that x % n is exactly uniform.
    const std::uint64_t n = span + 1;
    const std::uint64_t rejected = (0 - n) % n;  // 2^64 mod n
    while (x < rejected) x = engine_();
    x %= n;
  }
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + x);
}

double LuaRandom::Uniform01() {
  // The top 53 bits fill a double's mantissa exactly: k / 2^53.
  return static_cast<double>(engine_() >> 11) * 0x1p-53;
}

double LuaRandom::UniformReal(double a, double b) {
  if (!(a < b)) return a;
  const double u = Uniform01();
  const double width = b - a;
  // For bounds near ±DBL_MAX the width overflows; interpolate instead.
  double r = std::isfinite(width) ? a + width * u : a * (1 - u) + b * u;
  // Rounding can reach b; the interval is half-open.
  if (r >= b) r = std::nextafter(b, a);
  if (r < a) r = a;
  return r;
}

double LuaRandom::Normal(double mean, double sd) {
  // Box-Muller. u1 is in (0, 1] so that log(u1) is finite; the second value
  // of the pair is dropped so that seed() fully determines what follows.
  const double u1 = 1.0 - Uniform01();
  const double u2 = Uniform01();
  const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  return mean + sd * z;
}

std::size_t LuaRandom::Discrete(absl::Span<const double> weights) {
  double sum = 0;
  for (double w : weights) sum += w;
  const double r = Uniform01() * sum;
  double cumulative = 0;
  std::size_t last_positive = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] <= 0) continue;
    last_positive = i;
    cumulative += weights[i];
    if (r < cumulative) return i;
  }
  // Only when rounding makes the running sum fall short of `sum`.
  return last_positive;
}

LuaRandom* LuaRandom::Read(lua_State* L, int index) {
  return Class<LuaRandom>::ReadObject(L, index);
}

namespace {

// ---- Lua methods. Stack index 1 is self, so argument #k is index k + 1. ----

// [-0, +0, e] gen:seed(n)
NResultsOr SeedMethod(LuaRandom& self, lua_State* L) {
  std::int64_t seed;
  if (std::string why = ReadInteger(L, 2, &seed); !why.empty()) {
    return ArgumentError("seed", 1, why);
  }
  self.Seed(static_cast<std::uint64_t>(seed));
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
  Class<LuaRandom>::CreateObject(L, LuaRandom::kTypeName, static_cast<std::uint64_t>(seed));
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
