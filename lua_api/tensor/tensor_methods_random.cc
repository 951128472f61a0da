// Random fills in place, after Torch7: t:uniform, t:normal, t:bernoulli.
//
// Each takes an optional dmlab.system.random generator first, then its
// parameters, and returns self:
//   t:uniform()                  [0, 1) from the default generator
//   t:uniform(gen, -1, 1)        [-1, 1) from gen
//   t:normal(gen, 0, 0.1)        mean 0, standard deviation 0.1
//   t:bernoulli(0.25)            1 with probability 0.25, else 0
// uniform and normal are not defined for integer types (as in Torch7).
#include <string>

#include "absl/status/status.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/generator_argument.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/random.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/random_fill.h"

namespace lua_api {
namespace {

// The generator and the stack index of the first parameter after it.
struct GeneratorArgument {
  LuaRandom* generator = nullptr;
  int first = 2;
};

// [-0, +0, -] A generator at stack 2 is the explicit one.
GeneratorArgument ReadExplicitGenerator(lua_State* L) {
  LuaRandom* given = LuaRandom::Read(L, 2);
  return given == nullptr ? GeneratorArgument{} : GeneratorArgument{given, 3};
}

using Fill2 = absl::Status (*)(const tensor::Tensor&, double, double, tensor::RandomSource&);

// [-(1..4), +1, e] uniform([gen,] [a = 0, b = 1]) and
// normal([gen,] [mean = 0, stdv = 1]).
template <Fill2 kFill, const char* kName>
NResultsOr FillTwoParameters(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf(kName); !e.empty()) return e;
  GeneratorArgument gen = ReadExplicitGenerator(L);
  if (std::string e = CheckNoMore(L, gen.first + 1, kName); !e.empty()) return e;
  double first = 0, second = 1;
  if (std::string e = ReadOptionalNumber(L, gen.first, kName, &first); !e.empty()) return e;
  if (std::string e = ReadOptionalNumber(L, gen.first + 1, kName, &second); !e.empty()) return e;
  if (gen.generator == nullptr) {
    if (std::string e = PushDefaultGenerator(L, kName, &gen.generator); !e.empty()) return e;
  }
  GeneratorSource source(*gen.generator);
  if (absl::Status s = kFill(self.tensor(), first, second, source); !s.ok()) {
    return StatusError(kName, s);
  }
  return ReturnSelf(L);
}
constexpr char kUniform[] = "uniform";
constexpr char kNormal[] = "normal";

// [-(1..3), +1, e] bernoulli([gen,] [p = 0.5]).
NResultsOr Bernoulli(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("bernoulli"); !e.empty()) return e;
  GeneratorArgument gen = ReadExplicitGenerator(L);
  if (std::string e = CheckNoMore(L, gen.first, "bernoulli"); !e.empty()) return e;
  double p = 0.5;
  if (std::string e = ReadOptionalNumber(L, gen.first, "bernoulli", &p); !e.empty()) return e;
  if (gen.generator == nullptr) {
    if (std::string e = PushDefaultGenerator(L, "bernoulli", &gen.generator); !e.empty()) return e;
  }
  GeneratorSource source(*gen.generator);
  if (absl::Status s = tensor::FillBernoulli(self.tensor(), p, source); !s.ok()) {
    return StatusError("bernoulli", s);
  }
  return ReturnSelf(L);
}

}  // namespace

void RegisterRandomMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"uniform", &C::Member<&FillTwoParameters<&tensor::FillUniform, kUniform>>},
                  {"normal", &C::Member<&FillTwoParameters<&tensor::FillNormal, kNormal>>},
                  {"bernoulli", &C::Member<&Bernoulli>},
              });
}

}  // namespace lua_api
