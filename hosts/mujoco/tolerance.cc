#include "hosts/mujoco/tolerance.h"

#include <cmath>
#include <cstring>

namespace hosts::mujoco {
namespace {

// The sigmoids of rewards.lua, by name; each maps the distance d (in
// margins) and the scale to (0, 1].
enum class Sigmoid {
  kGaussian,
  kHyperbolic,
  kLongTail,
  kReciprocal,
  kCosine,
  kLinear,
  kQuadratic,
  kTanhSquared,
};

struct NamedSigmoid {
  const char* name;
  Sigmoid sigmoid;
};

constexpr NamedSigmoid kSigmoids[] = {
    {"gaussian", Sigmoid::kGaussian},       {"hyperbolic", Sigmoid::kHyperbolic},
    {"long_tail", Sigmoid::kLongTail},      {"reciprocal", Sigmoid::kReciprocal},
    {"cosine", Sigmoid::kCosine},           {"linear", Sigmoid::kLinear},
    {"quadratic", Sigmoid::kQuadratic},     {"tanh_squared", Sigmoid::kTanhSquared},
};

constexpr double kPi = 3.14159265358979323846;

double At(Sigmoid sigmoid, double d, double scale) {
  switch (sigmoid) {
    case Sigmoid::kGaussian: {
      const double scaled = d * scale;
      return std::exp(-0.5 * scaled * scaled);
    }
    case Sigmoid::kHyperbolic:
      return 1 / std::cosh(d * scale);
    case Sigmoid::kLongTail: {
      const double scaled = d * scale;
      return 1 / (scaled * scaled + 1);
    }
    case Sigmoid::kReciprocal:
      return 1 / (std::abs(d) * scale + 1);
    case Sigmoid::kCosine: {
      const double scaled = d * scale;
      return std::abs(scaled) < 1 ? (1 + std::cos(kPi * scaled)) / 2 : 0;
    }
    case Sigmoid::kLinear: {
      const double scaled = d * scale;
      return std::abs(scaled) < 1 ? 1 - scaled : 0;
    }
    case Sigmoid::kQuadratic: {
      const double scaled = d * scale;
      return std::abs(scaled) < 1 ? 1 - scaled * scaled : 0;
    }
    case Sigmoid::kTanhSquared: {
      const double t = std::tanh(d * scale);
      return 1 - t * t;
    }
  }
  return 0;
}

// [-1, +1, e] The measure: upvalues lower, upper, margin, the sigmoid's
// index, scale and the fallback.
int Measure(lua_State* L) {
  if (lua_type(L, 1) != LUA_TNUMBER) {
    lua_pushvalue(L, lua_upvalueindex(6));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
  }
  const double x = lua_tonumber(L, 1);
  const double lower = lua_tonumber(L, lua_upvalueindex(1));
  const double upper = lua_tonumber(L, lua_upvalueindex(2));
  if (x >= lower && x <= upper) {
    lua_pushnumber(L, 1);
    return 1;
  }
  const double margin = lua_tonumber(L, lua_upvalueindex(3));
  if (margin == 0) {
    lua_pushnumber(L, 0);
    return 1;
  }
  const auto sigmoid = static_cast<Sigmoid>(lua_tointeger(L, lua_upvalueindex(4)));
  const double d = (x < lower ? lower - x : x - upper) / margin;
  lua_pushnumber(L, At(sigmoid, d, lua_tonumber(L, lua_upvalueindex(5))));
  return 1;
}

// [-6, +1, e] measure(lower, upper, margin, sigmoid, scale, fallback).
// rewards.lua checked every value before it asks.
int MakeMeasure(lua_State* L) {
  const char* name = luaL_checkstring(L, 4);
  int index = -1;
  for (int i = 0; i < static_cast<int>(sizeof(kSigmoids) / sizeof(kSigmoids[0])); ++i) {
    if (std::strcmp(kSigmoids[i].name, name) == 0) index = i;
  }
  if (index < 0) return luaL_error(L, "unknown sigmoid '%s'", name);
  luaL_checktype(L, 6, LUA_TFUNCTION);
  lua_settop(L, 6);
  lua_pushinteger(L, static_cast<lua_Integer>(kSigmoids[index].sigmoid));
  lua_replace(L, 4);
  lua_pushcclosure(L, &Measure, 6);
  return 1;
}

}  // namespace

void PushToleranceMaker(lua_State* L) { lua_pushcfunction(L, &MakeMeasure); }

}  // namespace hosts::mujoco
