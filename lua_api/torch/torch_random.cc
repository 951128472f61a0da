#include "lua_api/torch/torch_random.h"

#include <cstdint>
#include <random>
#include <sstream>
#include <string>

#include "absl/status/status.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/push.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/generator_argument.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/random.h"
#include "lua_api/torch/torch_flavour.h"
#include "tensor/random_fill.h"

namespace lua_api {
namespace {

// The largest value x:random() draws for each type, as Torch7: the type's
// maximum, or for floating types the largest integer below which all are
// exact.
std::int64_t DefaultRandomMax(tensor::DType dtype) {
  switch (dtype) {
    case tensor::DType::kUInt8: return 255;
    case tensor::DType::kInt8: return 127;
    case tensor::DType::kInt16: return 32767;
    case tensor::DType::kInt32: return 2147483647;
    case tensor::DType::kInt64: return INT64_MAX;
    case tensor::DType::kFloat16: return std::int64_t{1} << 11;
    case tensor::DType::kFloat32: return std::int64_t{1} << 24;
    default: return std::int64_t{1} << 53;
  }
}

// [-0, +(0|1), -] The generator given at stack 2, or the default one;
// *first is the stack index of the first parameter after it.
std::string ReadGenerator(lua_State* L, const char* method, LuaRandom** generator, int* first) {
  *generator = LuaRandom::Read(L, 2);
  *first = *generator == nullptr ? 2 : 3;
  if (*generator != nullptr) return {};
  const int top = lua_gettop(L);
  std::string e = PushDefaultGenerator(L, method, generator);
  // The pushed generator stays above the arguments, where no reader looks.
  if (e.empty()) lua_insert(L, top + 1);
  return e;
}

// [-(1..4), +1, e] x:random([gen,] [a,] [b]): integers in [a, b]; with
// one bound b, [1, b]; with none, [0, the type's maximum] (Torch7's
// ranges, drawn uniformly).
NResultsOr Random(LuaTensor& self, lua_State* L) {
  constexpr char kName[] = "random";
  if (std::string e = self.CheckSelf(kName); !e.empty()) return e;
  const int arguments = lua_gettop(L);
  LuaRandom* generator;
  int first;
  if (std::string e = ReadGenerator(L, kName, &generator, &first); !e.empty()) return e;
  const int given = arguments - first + 1;
  if (given > 2) return ArgumentAt(kName, first + 2, "no value expected");
  std::int64_t a = 0, b = DefaultRandomMax(self.tensor().dtype());
  if (given >= 1) {
    std::int64_t bound;
    if (std::string why = ReadInteger(L, first, &bound); !why.empty()) {
      return ArgumentAt(kName, first, why);
    }
    a = 1;
    b = bound;
  }
  if (given == 2) {
    a = b;
    if (std::string why = ReadInteger(L, first + 1, &b); !why.empty()) {
      return ArgumentAt(kName, first + 1, why);
    }
  }
  GeneratorSource source(*generator);
  if (absl::Status s = tensor::FillRandom(self.tensor(), a, b, source); !s.ok()) {
    return StatusError(kName, s);
  }
  lua_settop(L, 1);
  return 1;
}

using Fill1 = absl::Status (*)(const tensor::Tensor&, double, tensor::RandomSource&);
using Fill2 = absl::Status (*)(const tensor::Tensor&, double, double, tensor::RandomSource&);

// [-(1..4), +1, e] A fill with up to two parameters after the optional
// generator, each with its Torch7 default (NaN: required).
template <auto kFill, const char* kName, int kParameters>
NResultsOr FillDistribution(LuaTensor& self, lua_State* L, double first_default,
                            double second_default) {
  if (std::string e = self.CheckSelf(kName); !e.empty()) return e;
  const int arguments = lua_gettop(L);
  LuaRandom* generator;
  int first;
  if (std::string e = ReadGenerator(L, kName, &generator, &first); !e.empty()) return e;
  if (arguments > first + kParameters - 1) {
    return ArgumentAt(kName, first + kParameters, "no value expected");
  }
  double values[2] = {first_default, second_default};
  for (int i = 0; i < kParameters; ++i) {
    if (first + i > arguments) {
      if (values[i] != values[i]) return ArgumentAt(kName, first + i, "number expected, got no value");
      continue;
    }
    if (std::string why = ReadNumber(L, first + i, &values[i]); !why.empty()) {
      return ArgumentAt(kName, first + i, why);
    }
  }
  GeneratorSource source(*generator);
  absl::Status s;
  if constexpr (kParameters == 1) {
    s = kFill(self.tensor(), values[0], source);
  } else {
    s = kFill(self.tensor(), values[0], values[1], source);
  }
  if (!s.ok()) return StatusError(kName, s);
  lua_settop(L, 1);
  return 1;
}

constexpr char kExponential[] = "exponential";
constexpr char kCauchy[] = "cauchy";
constexpr char kLogNormal[] = "logNormal";
constexpr char kGeometric[] = "geometric";
constexpr double kRequired = __builtin_nan("");

// [-0, +1, e]
NResultsOr Exponential(LuaTensor& self, lua_State* L) {
  return FillDistribution<static_cast<Fill1>(&tensor::FillExponential), kExponential, 1>(self, L, 1,
                                                                                        0);
}
// [-0, +1, e]
NResultsOr Cauchy(LuaTensor& self, lua_State* L) {
  return FillDistribution<static_cast<Fill2>(&tensor::FillCauchy), kCauchy, 2>(self, L, 0, 1);
}
// [-0, +1, e]
NResultsOr LogNormal(LuaTensor& self, lua_State* L) {
  return FillDistribution<static_cast<Fill2>(&tensor::FillLogNormal), kLogNormal, 2>(self, L, 1,
                                                                                    2);
}
// [-0, +1, e]
NResultsOr Geometric(LuaTensor& self, lua_State* L) {
  return FillDistribution<static_cast<Fill1>(&tensor::FillGeometric), kGeometric, 1>(
      self, L, kRequired, 0);
}

// [-1, +1, m] internal.rngState(gen): the generator's whole state as text.
NResultsOr RngState(lua_State* L) {
  LuaRandom* generator = LuaRandom::Read(L, 1);
  if (generator == nullptr) return ArgumentError("getRNGState", 1, Expected(L, 1, "generator"));
  std::ostringstream text;
  text << generator->engine();
  Push(L, text.str());
  return 1;
}

// [-2, +0, m] internal.setRngState(gen, text): back to a state rngState gave.
NResultsOr SetRngState(lua_State* L) {
  LuaRandom* generator = LuaRandom::Read(L, 1);
  if (generator == nullptr) return ArgumentError("setRNGState", 1, Expected(L, 1, "generator"));
  std::string text;
  if (std::string why = ReadString(L, 2, &text); !why.empty()) {
    return ArgumentError("setRNGState", 2, why);
  }
  std::istringstream in(text);
  std::mt19937_64 engine;
  in >> engine;
  if (in.fail()) return ArgumentError("setRNGState", 2, "not a state that getRNGState gave");
  generator->engine() = engine;
  return 0;
}

}  // namespace

void PushTorchRandomInternals(lua_State* L) {
  lua_pushcfunction(L, &Raising<&RngState>);
  lua_setfield(L, -2, "rngState");
  lua_pushcfunction(L, &Raising<&SetRngState>);
  lua_setfield(L, -2, "setRngState");
}

void RegisterTorchRandomMethods(lua_State* L) {
  using C = Class<LuaTensor>;
  const MethodEntry methods[] = {
      {"random", &C::Member<&Random>},       {"exponential", &C::Member<&Exponential>},
      {"cauchy", &C::Member<&Cauchy>},       {"logNormal", &C::Member<&LogNormal>},
      {"geometric", &C::Member<&Geometric>},
  };
  AddTorchMethods(L, methods);
}

}  // namespace lua_api
