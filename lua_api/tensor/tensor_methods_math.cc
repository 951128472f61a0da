// The arithmetic methods of dmlab.system.tensor: scalar and component ops,
// rounding, reductions and the matrix product.
//
// Each is a thin reader of Lua arguments around one core call (see
// tensor/elementwise.h, reduce.h, matmul.h); the core checks everything
// before it writes, so a failed call leaves the tensor as it was.
// Mutating methods return self (the same userdata), so calls chain:
//   t:fill(1):mul{1, 2, 3}:clamp(nil, 2)
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/push.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/module_functions.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/elementwise.h"
#include "tensor/elementwise_ternary.h"
#include "tensor/matmul.h"
#include "tensor/reduce.h"

namespace lua_api {
namespace {

using tensor::ElementOp;

// [-0, +0, m] Reads the array table at `index` (argument `index - 1` of
// `method`) into `values`: entries 1 .. #table, each a number.
std::string ReadNumberArray(lua_State* L, int index, const char* method,
                            std::vector<double>* values) {
  const int length = static_cast<int>(lua_objlen(L, index));
  values->resize(length);
  for (int i = 1; i <= length; ++i) {
    lua_rawgeti(L, index, i);
    std::string why = ReadNumber(L, lua_gettop(L), &(*values)[i - 1]);
    lua_pop(L, 1);
    if (!why.empty()) return ArgumentError(method, index - 1, absl::StrCat("entry ", i, ": ", why));
  }
  return {};
}

// How a number meets an integer tensor.
enum class Arithmetic {
  kInDouble,  // DeepMind Lab's: in double, the result truncated (ApplyScalarsInDouble)
  kWhole,     // the tensor's own: x must be a value of its type (ApplyScalars)
};

// [-0, +1, e] t:fill(x), t:add(x), t:sub(x), t:mul(x), t:div(x): x is a
// number, or a table with one number per entry of the last dimension
// (applied along it). Returns self.
template <ElementOp kOp, Arithmetic kArithmetic = Arithmetic::kInDouble>
NResultsOr ScalarOp(LuaTensor& self, lua_State* L) {
  const char* method = tensor::ElementOpName(kOp);
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  double scalar = 0;
  std::vector<double> table;  // only a table argument allocates
  absl::Span<const double> values;
  switch (lua_type(L, 2)) {
    case LUA_TNUMBER:
      scalar = lua_tonumber(L, 2);
      values = absl::MakeConstSpan(&scalar, 1);
      break;
    case LUA_TTABLE:
      if (std::string e = ReadNumberArray(L, 2, method, &table); !e.empty()) return e;
      values = table;
      break;
    default:
      return ArgumentError(method, 1, Expected(L, 2, "number or table"));
  }
  // The core rejects a table whose length is not the last extent, results
  // (or, kWhole, values) the type cannot hold, and division by zero.
  const absl::Status done = kArithmetic == Arithmetic::kInDouble
                                ? tensor::ApplyScalarsInDouble(self.tensor(), kOp, values)
                                : tensor::ApplyScalars(self.tensor(), kOp, values);
  if (!done.ok()) return StatusError(method, done);
  return ReturnSelf(L);
}

// [-0, +1, e] t:add(x) for a number or table x as ScalarOp; t:add(u) and
// t:add(value, u) for a tensor u: t += value * u (value 1), pairing the
// elements of t and u in layout order (Torch7's add).
NResultsOr Add(LuaTensor& self, lua_State* L) {
  // lua_gettop first: t:add(x), the common call, then needs no type check.
  const bool scaled = lua_gettop(L) >= 3 && !lua_isnoneornil(L, 3);
  if (!scaled && LuaTensor::Read(L, 2) == nullptr) return ScalarOp<ElementOp::kAdd>(self, L);
  if (std::string e = self.CheckSelf("add"); !e.empty()) return e;
  double value = 1;  // t:add(u) is t:add(1, u), as in Torch7
  if (scaled && !ReadNumber(L, 2, &value).empty()) {
    return ArgumentError("add", 1, Expected(L, 2, "number"));
  }
  LuaTensor* other = nullptr;
  if (std::string e = ReadTensorArgument(L, scaled ? 3 : 2, "add", &other); !e.empty()) return e;
  if (absl::Status s = tensor::AddScaled(self.tensor(), value, other->tensor()); !s.ok()) {
    return StatusError("add", s);
  }
  return ReturnSelf(L);
}

constexpr const char* ComponentOpName(ElementOp op) {
  switch (op) {
    case ElementOp::kAssign: return "copy";
    case ElementOp::kAdd: return "cadd";
    case ElementOp::kSub: return "csub";
    case ElementOp::kMul: return "cmul";
    case ElementOp::kDiv: break;
  }
  return "cdiv";
}

// [-0, +1, e] t:copy(u), t:cadd(u), t:csub(u), t:cmul(u), t:cdiv(u): pairs
// the elements of t and u in layout order (shapes are ignored, counts must
// match). copy converts types; the others need u of t's type. Returns self.
template <ElementOp kOp>
NResultsOr ComponentOp(LuaTensor& self, lua_State* L) {
  constexpr const char* method = ComponentOpName(kOp);
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  LuaTensor* other = nullptr;
  if (std::string e = ReadTensorArgument(L, 2, method, &other); !e.empty()) return e;
  if (absl::Status s = tensor::ApplyComponents(self.tensor(), kOp, other->tensor()); !s.ok()) {
    return StatusError(method, s);
  }
  return ReturnSelf(L);
}

constexpr const char* RoundingName(tensor::Rounding rounding) {
  switch (rounding) {
    case tensor::Rounding::kFloor: return "floor";
    case tensor::Rounding::kCeil: return "ceil";
    case tensor::Rounding::kRound: break;
  }
  return "round";
}

// [-0, +1, e] t:floor(), t:ceil(), t:round() (halves away from zero).
// Integer tensors are already whole and stay as they are. Returns self.
template <tensor::Rounding kRounding>
NResultsOr RoundOp(LuaTensor& self, lua_State* L) {
  constexpr const char* method = RoundingName(kRounding);
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  if (absl::Status s = tensor::Round(self.tensor(), kRounding); !s.ok()) {
    return StatusError(method, s);
  }
  return ReturnSelf(L);
}

// [-0, +0, -] An optional bound of clamp: nil (or absent) is no bound.
// A bound the tensor's type cannot hold (its whole part out of range) is
// an error, with DeepMind Lab's word for it; a fraction limits to the
// nearest values inside.
std::string ReadBound(lua_State* L, int index, tensor::DType dtype, std::optional<double>* bound) {
  if (lua_isnoneornil(L, index)) return {};
  double value;
  if (!ReadNumber(L, index, &value).empty()) {
    return ArgumentError("clamp", index - 1, Expected(L, index, "number or nil"));
  }
  if (std::string why = CheckValue(std::trunc(value), dtype); !why.empty()) {
    return ArgumentError("clamp", index - 1, absl::StrCat("TypeMismatch: ", why));
  }
  *bound = value;
  return {};
}

// [-0, +1, e] t:clamp([min], [max]): limits every element to [min, max];
// a nil bound does not limit. min > max is an error. Returns self.
NResultsOr Clamp(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("clamp"); !e.empty()) return e;
  std::optional<double> min, max;
  if (std::string e = ReadBound(L, 2, self.tensor().dtype(), &min); !e.empty()) return e;
  if (std::string e = ReadBound(L, 3, self.tensor().dtype(), &max); !e.empty()) return e;
  if (absl::Status s = tensor::Clamp(self.tensor(), min, max); !s.ok()) {
    return StatusError("clamp", s);
  }
  return ReturnSelf(L);
}

// [-0, +1, e] t:product(): 1 for no elements.
NResultsOr Product(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("product"); !e.empty()) return e;
  return PushValueResult(L, "product", tensor::Product(self.tensor()));
}

// [-0, +1, e] t:lengthSquared(): the sum of the squares.
NResultsOr LengthSquared(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("lengthSquared"); !e.empty()) return e;
  return PushValueResult(L, "lengthSquared", tensor::LengthSquared(self.tensor()));
}

// [-0, +1, e] t:dot(u): the sum of products in layout order; u must have
// t's type and element count.
NResultsOr Dot(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("dot"); !e.empty()) return e;
  LuaTensor* other = nullptr;
  if (std::string e = ReadTensorArgument(L, 2, "dot", &other); !e.empty()) return e;
  return PushValueResult(L, "dot", tensor::Dot(self.tensor(), other->tensor()));
}

// [-0, +1, e] t:mmul(u): a new owning (m x n) tensor t . u, for t (m x k)
// and u (k x n) of one type.
NResultsOr MatMul(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("mmul"); !e.empty()) return e;
  LuaTensor* rhs = nullptr;
  if (std::string e = ReadTensorArgument(L, 2, "mmul", &rhs); !e.empty()) return e;
  if (rhs->tensor().dtype() != self.tensor().dtype()) {
    // DeepMind Lab's words.
    return ArgumentError("mmul", 1,
                         absl::StrCat("Must contain 1 RHS tensor of type ",
                                      LuaTensor::TypeName(self.tensor().dtype()), ", got ",
                                      LuaTensor::TypeName(rhs->tensor().dtype())));
  }
  absl::StatusOr<tensor::Tensor> product = tensor::MatMul(self.tensor(), rhs->tensor(), TensorAllocator(L));
  if (!product.ok()) return StatusError("mmul", product.status());
  LuaTensor::Push(L, *std::move(product));
  return 1;
}

// [-0, +1, e] t:sub(x) subtracts a number or a table, as fill does;
// t:sub(d1s, d1e, ...) is Torch7's view by index ranges (SubView).
NResultsOr Sub(LuaTensor& self, lua_State* L) {
  if (lua_gettop(L) <= 2) return ScalarOp<ElementOp::kSub>(self, L);
  return SubView(self, L);
}

}  // namespace

void RegisterMathMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"fill", &C::Member<&ScalarOp<ElementOp::kAssign>>},
                  {"add", &C::Member<&Add>},
                  {"sub", &C::Member<&Sub>},
                  {"mul", &C::Member<&ScalarOp<ElementOp::kMul>>},
                  {"div", &C::Member<&ScalarOp<ElementOp::kDiv>>},
                  {"copy", &C::Member<&ComponentOp<ElementOp::kAssign>>},
                  {"cadd", &C::Member<&ComponentOp<ElementOp::kAdd>>},
                  {"csub", &C::Member<&ComponentOp<ElementOp::kSub>>},
                  {"cmul", &C::Member<&ComponentOp<ElementOp::kMul>>},
                  {"cdiv", &C::Member<&ComponentOp<ElementOp::kDiv>>},
                  {"floor", &C::Member<&RoundOp<tensor::Rounding::kFloor>>},
                  {"ceil", &C::Member<&RoundOp<tensor::Rounding::kCeil>>},
                  {"round", &C::Member<&RoundOp<tensor::Rounding::kRound>>},
                  {"clamp", &C::Member<&Clamp>},
                  {"product", &C::Member<&Product>},
                  {"lengthSquared", &C::Member<&LengthSquared>},
                  {"dot", &C::Member<&Dot>},
                  {"mmul", &C::Member<&MatMul>},
              });
}

void RegisterWholeScalarMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  constexpr Arithmetic kWhole = Arithmetic::kWhole;
  C::Register(L, metatable,
              {
                  {"fill", &C::Member<&ScalarOp<ElementOp::kAssign, kWhole>>},
                  {"add", &C::Member<&ScalarOp<ElementOp::kAdd, kWhole>>},
                  {"sub", &C::Member<&ScalarOp<ElementOp::kSub, kWhole>>},
                  {"mul", &C::Member<&ScalarOp<ElementOp::kMul, kWhole>>},
                  {"div", &C::Member<&ScalarOp<ElementOp::kDiv, kWhole>>},
              });
}

void RegisterMathFunctions(lua_State* L, int module_index) {
  SetModuleFunctions(L, module_index,
                     {
                         {"floor", ModuleForm::kInPlace, 1},
                         {"ceil", ModuleForm::kInPlace, 1},
                         {"round", ModuleForm::kInPlace, 1},
                         {"clamp", ModuleForm::kInPlace, 1},
                         {"mul", ModuleForm::kInPlace, 2},
                         {"div", ModuleForm::kInPlace, 2},
                         {"cmul", ModuleForm::kInPlace, 2},
                         {"cdiv", ModuleForm::kInPlace, 2},
                         {"dot", ModuleForm::kSame, 2},
                     });
}

}  // namespace lua_api
