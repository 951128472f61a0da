// The element-wise functions of dmlab.system.tensor (Torch7's names):
// abs, sign, neg, cinv, the trigonometric and hyperbolic functions, exp,
// log, log1p, sqrt, rsqrt, sigmoid, trunc, frac; pow, fmod, remainder
// with a number; cpow, cfmod, cremainder, atan2 with a tensor; cmax, cmin
// with either; lerp, addcmul, addcdiv.
//
// Each method works in place and returns self, so calls chain:
//   t:mul(2):exp():add(1):log()
// Each is also a module function, tensor.exp([res,] x, ...), which leaves
// x as it is (see module_functions.h).
//
// Each method is a thin reader of Lua arguments around one core call
// (tensor/elementwise_unary.h, elementwise_binary.h, elementwise_ternary.h);
// the core checks everything before it writes, so a failed call leaves
// the tensor as it was.
#include <string>

#include "absl/status/status.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/module_functions.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/elementwise_binary.h"
#include "tensor/elementwise_ternary.h"
#include "tensor/elementwise_unary.h"

namespace lua_api {
namespace {

using tensor::BinaryFunction;
using tensor::UnaryFunction;

// [-0, +1, e] t:exp(), t:abs(), ...: t = f(t). Torch7's t:exp(u), which
// would set t from u, is an error rather than a silent in-place exp of t;
// tensor.exp(t, u) is that form.
template <UnaryFunction kF>
NResultsOr Unary(LuaTensor& self, lua_State* L) {
  const char* method = tensor::UnaryFunctionName(kF);
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  if (!lua_isnone(L, 2)) return ArgumentError(method, 1, Expected(L, 2, "no argument"));
  if (absl::Status s = tensor::ApplyUnary(self.tensor(), kF); !s.ok()) {
    return StatusError(method, s);
  }
  return ReturnSelf(L);
}

// [-0, +1, e] t:pow(n), t:fmod(v), t:remainder(v): t = f(t, number).
template <BinaryFunction kF>
NResultsOr WithNumber(LuaTensor& self, lua_State* L) {
  const char* method = tensor::BinaryScalarName(kF);
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  double value = 0;
  if (!ReadNumber(L, 2, &value).empty()) return ArgumentError(method, 1, Expected(L, 2, "number"));
  if (absl::Status s = tensor::ApplyBinaryScalar(self.tensor(), kF, value); !s.ok()) {
    return StatusError(method, s);
  }
  return ReturnSelf(L);
}

// [-0, +1, e] t:cpow(u), t:cfmod(u), t:cremainder(u), t:atan2(u):
// t = f(t, u) element by element, in layout order.
template <BinaryFunction kF>
NResultsOr WithTensor(LuaTensor& self, lua_State* L) {
  const char* method = tensor::BinaryTensorName(kF);
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  LuaTensor* other = nullptr;
  if (std::string e = ReadTensorArgument(L, 2, method, &other); !e.empty()) return e;
  if (absl::Status s = tensor::ApplyBinaryTensor(self.tensor(), kF, other->tensor()); !s.ok()) {
    return StatusError(method, s);
  }
  return ReturnSelf(L);
}

// [-0, +1, e] t:cmax(x), t:cmin(x): x a number or a tensor.
template <BinaryFunction kF>
NResultsOr WithNumberOrTensor(LuaTensor& self, lua_State* L) {
  const char* method = tensor::BinaryTensorName(kF);
  if (lua_type(L, 2) == LUA_TNUMBER) return WithNumber<kF>(self, L);
  if (LuaTensor::Read(L, 2) != nullptr) return WithTensor<kF>(self, L);
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  return ArgumentError(method, 1, Expected(L, 2, "number or tensor"));
}

// [-0, +1, e] t:lerp(end, weight): t = t + weight * (end - t).
NResultsOr Lerp(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("lerp"); !e.empty()) return e;
  LuaTensor* end = nullptr;
  if (std::string e = ReadTensorArgument(L, 2, "lerp", &end); !e.empty()) return e;
  double weight = 0;
  if (!ReadNumber(L, 3, &weight).empty()) return ArgumentError("lerp", 2, Expected(L, 3, "number"));
  if (absl::Status s = tensor::Lerp(self.tensor(), end->tensor(), weight); !s.ok()) {
    return StatusError("lerp", s);
  }
  return ReturnSelf(L);
}

using Update = absl::Status (*)(const tensor::Tensor&, double, const tensor::Tensor&,
                                const tensor::Tensor&);

// [-0, +1, e] t:addcmul([value,] a, b), t:addcdiv([value,] a, b):
// t = t + value * a * b (or a / b); value defaults to 1.
template <Update kUpdate>
NResultsOr AddC(LuaTensor& self, lua_State* L) {
  const char* method = kUpdate == &tensor::AddCMul ? "addcmul" : "addcdiv";
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  double value = 1;
  const bool has_value = lua_type(L, 2) == LUA_TNUMBER;
  if (has_value) ReadNumber(L, 2, &value);  // cannot fail: the type was just checked
  const int first = has_value ? 3 : 2;
  LuaTensor* a = nullptr;
  LuaTensor* b = nullptr;
  if (LuaTensor::Read(L, 2) == nullptr && !has_value) {
    return ArgumentError(method, 1, Expected(L, 2, "number or tensor"));
  }
  if (std::string e = ReadTensorArgument(L, first, method, &a); !e.empty()) return e;
  if (std::string e = ReadTensorArgument(L, first + 1, method, &b); !e.empty()) return e;
  if (absl::Status s = kUpdate(self.tensor(), value, a->tensor(), b->tensor()); !s.ok()) {
    return StatusError(method, s);
  }
  return ReturnSelf(L);
}

}  // namespace

void RegisterElementwiseMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  using U = UnaryFunction;
  using B = BinaryFunction;
  C::Register(L, metatable,
              {
                  {"abs", &C::Member<&Unary<U::kAbs>>},
                  {"sign", &C::Member<&Unary<U::kSign>>},
                  {"neg", &C::Member<&Unary<U::kNeg>>},
                  {"cinv", &C::Member<&Unary<U::kCinv>>},
                  {"acos", &C::Member<&Unary<U::kAcos>>},
                  {"asin", &C::Member<&Unary<U::kAsin>>},
                  {"atan", &C::Member<&Unary<U::kAtan>>},
                  {"cos", &C::Member<&Unary<U::kCos>>},
                  {"cosh", &C::Member<&Unary<U::kCosh>>},
                  {"sin", &C::Member<&Unary<U::kSin>>},
                  {"sinh", &C::Member<&Unary<U::kSinh>>},
                  {"tan", &C::Member<&Unary<U::kTan>>},
                  {"tanh", &C::Member<&Unary<U::kTanh>>},
                  {"exp", &C::Member<&Unary<U::kExp>>},
                  {"log", &C::Member<&Unary<U::kLog>>},
                  {"log1p", &C::Member<&Unary<U::kLog1p>>},
                  {"sqrt", &C::Member<&Unary<U::kSqrt>>},
                  {"rsqrt", &C::Member<&Unary<U::kRsqrt>>},
                  {"sigmoid", &C::Member<&Unary<U::kSigmoid>>},
                  {"trunc", &C::Member<&Unary<U::kTrunc>>},
                  {"frac", &C::Member<&Unary<U::kFrac>>},
                  {"pow", &C::Member<&WithNumber<B::kPow>>},
                  {"fmod", &C::Member<&WithNumber<B::kFmod>>},
                  {"remainder", &C::Member<&WithNumber<B::kRemainder>>},
                  {"cpow", &C::Member<&WithTensor<B::kPow>>},
                  {"cfmod", &C::Member<&WithTensor<B::kFmod>>},
                  {"cremainder", &C::Member<&WithTensor<B::kRemainder>>},
                  {"atan2", &C::Member<&WithTensor<B::kAtan2>>},
                  {"cmax", &C::Member<&WithNumberOrTensor<B::kMax>>},
                  {"cmin", &C::Member<&WithNumberOrTensor<B::kMin>>},
                  {"lerp", &C::Member<&Lerp>},
                  {"addcmul", &C::Member<&AddC<&tensor::AddCMul>>},
                  {"addcdiv", &C::Member<&AddC<&tensor::AddCDiv>>},
              });
}

void RegisterElementwiseFunctions(lua_State* L, int module_index) {
  using F = ModuleForm;
  SetModuleFunctions(
      L, module_index,
      {
          {"abs", F::kInPlace, 1},   {"sign", F::kInPlace, 1},      {"neg", F::kInPlace, 1},
          {"cinv", F::kInPlace, 1},  {"acos", F::kInPlace, 1},      {"asin", F::kInPlace, 1},
          {"atan", F::kInPlace, 1},  {"cos", F::kInPlace, 1},       {"cosh", F::kInPlace, 1},
          {"sin", F::kInPlace, 1},   {"sinh", F::kInPlace, 1},      {"tan", F::kInPlace, 1},
          {"tanh", F::kInPlace, 1},  {"exp", F::kInPlace, 1},       {"log", F::kInPlace, 1},
          {"log1p", F::kInPlace, 1}, {"sqrt", F::kInPlace, 1},      {"rsqrt", F::kInPlace, 1},
          {"sigmoid", F::kInPlace, 1}, {"trunc", F::kInPlace, 1},   {"frac", F::kInPlace, 1},
          {"pow", F::kInPlace, 2},   {"fmod", F::kInPlace, 2},      {"remainder", F::kInPlace, 2},
          {"cpow", F::kInPlace, 2},  {"cfmod", F::kInPlace, 2},     {"cremainder", F::kInPlace, 2},
          {"atan2", F::kInPlace, 2}, {"cmax", F::kInPlace, 2},      {"cmin", F::kInPlace, 2},
          // tensor.lerp([res,] a, b, weight), tensor.addcmul([res,] x [,value], a, b),
          // tensor.add([res,] x, value [, y]).
          {"lerp", F::kInPlace, 3},  {"addcmul", F::kInPlace, 3},   {"addcdiv", F::kInPlace, 3},
          {"add", F::kInPlace, 2},
      });
}

}  // namespace lua_api
