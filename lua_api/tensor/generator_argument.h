// The generator of the tensor module's random functions.
//
// Every random function (t:uniform, tensor.rand, ...) takes an optional
// dmlab.system.random generator as its first argument, after self or res.
// Without one it draws from the default generator: the value of
// `require 'dmlab.system.random'` in the same lua_State, which the engine
// seeds at the start of each episode.
//
// Example:
//   LuaRandom* gen = LuaRandom::Read(L, 2);         // given, or null
//   if (gen == nullptr) {
//     if (std::string e = PushDefaultGenerator(L, "uniform", &gen); !e.empty()) return e;
//   }
//   GeneratorSource source(*gen);
//   absl::Status s = tensor::FillUniform(t, 0, 1, source);
#ifndef LUA_API_TENSOR_GENERATOR_ARGUMENT_H_
#define LUA_API_TENSOR_GENERATOR_ARGUMENT_H_

#include <cstdint>
#include <string>

#include "lua_api/lua/lua.h"
#include "lua_api/tensor/random.h"
#include "tensor/random_fill.h"

namespace lua_api {

// A LuaRandom as the core's RandomSource: the same portable distributions
// as gen:uniformReal, gen:normalDistribution and gen:uniformInt.
class GeneratorSource final : public tensor::RandomSource {
 public:
  explicit GeneratorSource(LuaRandom& generator) : generator_(generator) {}

  double UniformReal(double a, double b) override { return generator_.UniformReal(a, b); }
  double Normal(double mean, double sd) override { return generator_.Normal(mean, sd); }
  std::int64_t UniformInt(std::int64_t a, std::int64_t b) override {
    return generator_.UniformInt(a, b);
  }

 private:
  LuaRandom& generator_;
};

// [-0, +(0|1), -] Pushes the default generator and sets *out, or returns the
// error of `function` (when require fails or a script replaced the module).
// The pushed value keeps the generator alive while it is used.
std::string PushDefaultGenerator(lua_State* L, const char* function, LuaRandom** out);

}  // namespace lua_api

#endif  // LUA_API_TENSOR_GENERATOR_ARGUMENT_H_
