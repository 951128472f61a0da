// Torch7's BLAS products and 2-D convolutions (see tensor/blas.h and
// tensor/conv.h), as methods and module functions:
//
//   res:mm(mat1, mat2)                          tensor.mm([res,] mat1, mat2)
//   res:addmm([v1,] [M,] [v2,] mat1, mat2)      tensor.addmm([res,] [v1,] M, [v2,] mat1, mat2)
//   (likewise mv, ger, bmm; addmv, addr, addbmm, baddbmm)
//   tensor.conv2([res,] x, k [, 'V' | 'F']), tensor.xcorr2(...)
//
// A method writes into self, a module function into res or a new tensor.
// The destination takes the result's shape: one that owns its storage is
// resized (it then holds new storage, as Torch7's resize may), one over
// lent memory must already have it. As in Torch7, the method form's M
// defaults to self, and a lone scalar before the operands is v2:
// y:addmv(0.5, A, x) is y = y + 0.5 * A . x.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/blas.h"
#include "tensor/conv.h"
#include "tensor/layout.h"

namespace lua_api {
namespace {

using tensor::BlasOp;

// A function being called: its name, and how its stack indices map to
// argument numbers (a method's argument #1 is after self, at index 2).
struct Call {
  const char* name;
  int shift;  // argument number = stack index - shift
  bool is_method() const { return shift == 1; }
};

Call MethodCall(const char* name) { return {name, 1}; }
Call FunctionCall(const char* name) { return {name, 0}; }

// [-0, +0, -] The valid tensor at stack `index`.
std::string ReadTensorAt(lua_State* L, const Call& call, int index, LuaTensor** out) {
  LuaTensor* tensor = LuaTensor::Read(L, index);
  const int argument = index - call.shift;
  if (tensor == nullptr) return ArgumentError(call.name, argument, Expected(L, index, "tensor"));
  if (absl::Status valid = tensor->tensor().CheckValid(); !valid.ok()) {
    return ArgumentError(call.name, argument,
                         absl::StrCat(tensor->type_name(), " is an ", valid.message()));
  }
  *out = tensor;
  return {};
}

// [-0, +0, -] Fails if there are arguments from stack `index` on.
std::string CheckNoMoreArguments(lua_State* L, const Call& call, int index) {
  if (lua_gettop(L) < index) return {};
  return ArgumentError(call.name, index - call.shift, Expected(L, index, "no value"));
}

// The tensor a result of `shape` is written into: dest's own if it has
// that shape, else a new one of `dtype` that Deliver gives to dest.
std::string PrepareTarget(lua_State* L, const Call& call, LuaTensor* dest, tensor::DType dtype,
                          const tensor::Shape& shape, tensor::Tensor* target) {
  if (dest != nullptr && dest->tensor().shape() == shape) {
    *target = dest->tensor();
    return {};
  }
  if (dest != nullptr && !dest->tensor().owns_storage()) {
    const std::string why = absl::StrCat(call.is_method() ? "self" : "res", " has shape ",
                                         dest->tensor().layout().ShapeString(), ", the result ",
                                         tensor::ShapeToString(shape),
                                         ", and it cannot be resized: its memory is lent");
    return call.is_method() ? absl::StrCat("'", call.name, "': ", why)
                            : ArgumentError(call.name, 1, why);
  }
  absl::StatusOr<tensor::Tensor> fresh = tensor::Tensor::Uninitialized(
      dest != nullptr ? dest->tensor().dtype() : dtype, shape, TensorAllocator(L));
  if (!fresh.ok()) return StatusError(call.name, fresh.status());
  *target = *std::move(fresh);
  return {};
}

// [-0, +1, m] Pushes the result: the destination at `dest_index` (which
// takes `target` if PrepareTarget made a new one), or, with no
// destination (index 0), a new userdata for `target`.
NResultsOr Deliver(lua_State* L, int dest_index, tensor::Tensor target) {
  if (dest_index == 0) {
    LuaTensor::Push(L, std::move(target));
    return 1;
  }
  LuaTensor* dest = LuaTensor::Read(L, dest_index);
  if (dest->tensor().storage() != target.storage() ||
      !(dest->tensor().layout() == target.layout())) {
    dest->Reset(std::move(target));
  }
  lua_pushvalue(L, dest_index);
  return 1;
}

// The operands and scalars of out = beta * add + alpha * (lhs . rhs).
struct ProductArgs {
  double beta = 1, alpha = 1;
  LuaTensor* add = nullptr;  // null: the destination itself
  LuaTensor* lhs = nullptr;
  LuaTensor* rhs = nullptr;
};

// Torch7's names of the add term and the operands, for usage messages.
const char* const* NamesOf(BlasOp op) {
  static const char* const kMatrix[] = {"M", "mat1", "mat2"};
  static const char* const kVector[] = {"vec1", "mat", "vec2"};
  static const char* const kOuter[] = {"mat", "vec1", "vec2"};
  static const char* const kBatch[] = {"M", "batch1", "batch2"};
  switch (op) {
    case BlasOp::kAddmv: return kVector;
    case BlasOp::kAddr: return kOuter;
    case BlasOp::kAddbmm:
    case BlasOp::kBaddbmm: return kBatch;
    default: return kMatrix;
  }
}

std::string Usage(const Call& call, BlasOp op) {
  const char* const* names = NamesOf(op);
  return call.is_method() ? absl::StrCat("self:", call.name, "([v1,] [", names[0], ",] [v2,] ",
                                         names[1], ", ", names[2], ")")
                          : absl::StrCat("tensor.", call.name, "([res,] [v1,] ", names[0],
                                         ", [v2,] ", names[1], ", ", names[2], ")");
}

// [-0, +0, -] Reads [v1,] [M,] [v2,] lhs, rhs from stack `first` to the top.
// M is required when `add_required` (module functions). Without M, a lone
// scalar is v2, as Torch7 reads r:addmm(s, mat1, mat2).
std::string ReadAddArguments(lua_State* L, const Call& call, BlasOp op, int first,
                             bool add_required, ProductArgs* args) {
  const int top = lua_gettop(L);
  const int lhs_index = std::max(top - 1, first);
  std::optional<double> v1, v2;
  int i = first;
  if (i < lhs_index && lua_type(L, i) == LUA_TNUMBER) v1 = lua_tonumber(L, i++);
  if (i < lhs_index && LuaTensor::Read(L, i) != nullptr) {
    if (std::string e = ReadTensorAt(L, call, i++, &args->add); !e.empty()) return e;
  }
  if (i < lhs_index && lua_type(L, i) == LUA_TNUMBER) v2 = lua_tonumber(L, i++);
  if (i < lhs_index) {
    return ArgumentError(
        call.name, i - call.shift,
        absl::StrCat("unexpected ", TypeNameAt(L, i), "; the arguments are ", Usage(call, op)));
  }
  if (std::string e = ReadTensorAt(L, call, lhs_index, &args->lhs); !e.empty()) return e;
  if (std::string e = ReadTensorAt(L, call, lhs_index + 1, &args->rhs); !e.empty()) return e;
  if (add_required && args->add == nullptr) {
    return ArgumentError(
        call.name, i - call.shift,
        absl::StrCat(NamesOf(op)[0], " expected; the arguments are ", Usage(call, op)));
  }
  if (args->add == nullptr && v1 && !v2) std::swap(v1, v2);
  args->beta = v1.value_or(1);
  args->alpha = v2.value_or(1);
  return {};
}

// [-0, +1, m] Computes into the destination at `dest_index` (0: a new
// tensor) and pushes it.
NResultsOr Compute(lua_State* L, const Call& call, BlasOp op, int dest_index,
                   const ProductArgs& args) {
  const tensor::Tensor& lhs = args.lhs->tensor();
  const tensor::Tensor& rhs = args.rhs->tensor();
  absl::StatusOr<tensor::Shape> shape = tensor::BlasResultShape(op, lhs, rhs);
  if (!shape.ok()) return StatusError(call.name, shape.status());
  LuaTensor* dest = dest_index == 0 ? nullptr : LuaTensor::Read(L, dest_index);
  tensor::Tensor target;
  if (std::string e = PrepareTarget(L, call, dest, lhs.dtype(), *shape, &target); !e.empty()) {
    return e;
  }
  // The plain products read no add term. Without one, the others add the
  // destination as it was (Torch7's default M).
  const bool plain =
      op == BlasOp::kMm || op == BlasOp::kMv || op == BlasOp::kGer || op == BlasOp::kBmm;
  const tensor::Tensor& add = args.add != nullptr         ? args.add->tensor()
                              : dest != nullptr && !plain ? dest->tensor()
                                                          : target;
  absl::Status status =
      tensor::AddProduct(op, target, args.beta, add, args.alpha, lhs, rhs, TensorAllocator(L));
  if (!status.ok()) return StatusError(call.name, status);
  return Deliver(L, dest_index, std::move(target));
}

// [-0, +1, e] self:mm(mat1, mat2), self:mv(mat, vec), self:ger(vec1, vec2),
// self:bmm(batch1, batch2): self = the product. Returns self.
template <BlasOp kOp>
NResultsOr ProductMethod(LuaTensor& self, lua_State* L) {
  const Call call = MethodCall(tensor::BlasOpName(kOp));
  if (std::string e = self.CheckSelf(call.name); !e.empty()) return e;
  ProductArgs args;
  args.beta = 0;
  if (std::string e = ReadTensorAt(L, call, 2, &args.lhs); !e.empty()) return e;
  if (std::string e = ReadTensorAt(L, call, 3, &args.rhs); !e.empty()) return e;
  if (std::string e = CheckNoMoreArguments(L, call, 4); !e.empty()) return e;
  return Compute(L, call, kOp, 1, args);
}

// [-0, +1, e] self:addmm([v1,] [M,] [v2,] mat1, mat2) and the others:
// self = v1 * M + v2 * product, M defaulting to self. Returns self.
template <BlasOp kOp>
NResultsOr AddProductMethod(LuaTensor& self, lua_State* L) {
  const Call call = MethodCall(tensor::BlasOpName(kOp));
  if (std::string e = self.CheckSelf(call.name); !e.empty()) return e;
  ProductArgs args;
  if (std::string e = ReadAddArguments(L, call, kOp, 2, false, &args); !e.empty()) return e;
  return Compute(L, call, kOp, 1, args);
}

// [-(2|3), +1, e] tensor.mm([res,] mat1, mat2) and the others.
template <BlasOp kOp>
NResultsOr ProductFunction(lua_State* L) {
  const Call call = FunctionCall(tensor::BlasOpName(kOp));
  const bool has_res = lua_gettop(L) >= 3;
  LuaTensor* res = nullptr;
  if (has_res) {
    if (std::string e = ReadTensorAt(L, call, 1, &res); !e.empty()) return e;
  }
  const int first = has_res ? 2 : 1;
  ProductArgs args;
  args.beta = 0;
  if (std::string e = ReadTensorAt(L, call, first, &args.lhs); !e.empty()) return e;
  if (std::string e = ReadTensorAt(L, call, first + 1, &args.rhs); !e.empty()) return e;
  if (std::string e = CheckNoMoreArguments(L, call, first + 2); !e.empty()) return e;
  return Compute(L, call, kOp, has_res ? 1 : 0, args);
}

// [-(3..6), +1, e] tensor.addmm([res,] [v1,] M, [v2,] mat1, mat2) and the
// others. res is there when four tensors are.
template <BlasOp kOp>
NResultsOr AddProductFunction(lua_State* L) {
  const Call call = FunctionCall(tensor::BlasOpName(kOp));
  int tensors = 0;
  for (int i = 1; i <= lua_gettop(L); ++i) tensors += LuaTensor::Read(L, i) != nullptr;
  const bool has_res = tensors >= 4;
  LuaTensor* res = nullptr;
  if (has_res) {
    if (std::string e = ReadTensorAt(L, call, 1, &res); !e.empty()) return e;
  }
  ProductArgs args;
  if (std::string e = ReadAddArguments(L, call, kOp, has_res ? 2 : 1, true, &args); !e.empty()) {
    return e;
  }
  return Compute(L, call, kOp, has_res ? 1 : 0, args);
}

// [-0, +0, -] The optional mode at `index`: 'V' (the default) or 'F'.
std::string ReadConvMode(lua_State* L, const Call& call, int index, tensor::ConvMode* mode) {
  if (lua_isnoneornil(L, index)) return {};
  std::string text;
  if (ReadString(L, index, &text).empty() && (text == "V" || text == "F")) {
    *mode = text == "V" ? tensor::ConvMode::kValid : tensor::ConvMode::kFull;
    return {};
  }
  const std::string got = lua_type(L, index) == LUA_TSTRING
                              ? absl::StrCat("'V' or 'F' expected, got '", text, "'")
                              : Expected(L, index, "'V' or 'F'");
  return ArgumentError(call.name, index - call.shift, got);
}

// [-(2..4), +1, e] tensor.conv2([res,] x, k [, 'V' | 'F']), and xcorr2.
// res is there when the third argument is a tensor.
template <tensor::ConvOp kOp>
NResultsOr ConvFunction(lua_State* L) {
  const Call call = FunctionCall(tensor::ConvOpName(kOp));
  const bool has_res = LuaTensor::Read(L, 3) != nullptr;
  LuaTensor *res = nullptr, *x = nullptr, *k = nullptr;
  if (has_res) {
    if (std::string e = ReadTensorAt(L, call, 1, &res); !e.empty()) return e;
  }
  const int first = has_res ? 2 : 1;
  if (std::string e = ReadTensorAt(L, call, first, &x); !e.empty()) return e;
  if (std::string e = ReadTensorAt(L, call, first + 1, &k); !e.empty()) return e;
  tensor::ConvMode mode = tensor::ConvMode::kValid;
  if (std::string e = ReadConvMode(L, call, first + 2, &mode); !e.empty()) return e;
  if (std::string e = CheckNoMoreArguments(L, call, first + 3); !e.empty()) return e;
  absl::StatusOr<tensor::Shape> shape =
      tensor::ConvResultShape(kOp, x->tensor(), k->tensor(), mode);
  if (!shape.ok()) return StatusError(call.name, shape.status());
  tensor::Tensor target;
  if (std::string e = PrepareTarget(L, call, res, x->tensor().dtype(), *shape, &target);
      !e.empty()) {
    return e;
  }
  absl::Status status =
      tensor::Convolve(kOp, target, x->tensor(), k->tensor(), mode, TensorAllocator(L));
  if (!status.ok()) return StatusError(call.name, status);
  return Deliver(L, has_res ? 1 : 0, std::move(target));
}

template <NResultsOr (*Function)(lua_State*)>
void SetFunction(lua_State* L, int module_index, const char* name) {
  lua_pushcfunction(L, &Raising<Function>);
  lua_setfield(L, module_index, name);
}

}  // namespace

void RegisterBlasMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"mm", &C::Member<&ProductMethod<BlasOp::kMm>>},
                  {"mv", &C::Member<&ProductMethod<BlasOp::kMv>>},
                  {"ger", &C::Member<&ProductMethod<BlasOp::kGer>>},
                  {"bmm", &C::Member<&ProductMethod<BlasOp::kBmm>>},
                  {"addmm", &C::Member<&AddProductMethod<BlasOp::kAddmm>>},
                  {"addmv", &C::Member<&AddProductMethod<BlasOp::kAddmv>>},
                  {"addr", &C::Member<&AddProductMethod<BlasOp::kAddr>>},
                  {"addbmm", &C::Member<&AddProductMethod<BlasOp::kAddbmm>>},
                  {"baddbmm", &C::Member<&AddProductMethod<BlasOp::kBaddbmm>>},
              });
}

void RegisterBlasFunctions(lua_State* L, int module_index) {
  SetFunction<&ProductFunction<BlasOp::kMm>>(L, module_index, "mm");
  SetFunction<&ProductFunction<BlasOp::kMv>>(L, module_index, "mv");
  SetFunction<&ProductFunction<BlasOp::kGer>>(L, module_index, "ger");
  SetFunction<&ProductFunction<BlasOp::kBmm>>(L, module_index, "bmm");
  SetFunction<&AddProductFunction<BlasOp::kAddmm>>(L, module_index, "addmm");
  SetFunction<&AddProductFunction<BlasOp::kAddmv>>(L, module_index, "addmv");
  SetFunction<&AddProductFunction<BlasOp::kAddr>>(L, module_index, "addr");
  SetFunction<&AddProductFunction<BlasOp::kAddbmm>>(L, module_index, "addbmm");
  SetFunction<&AddProductFunction<BlasOp::kBaddbmm>>(L, module_index, "baddbmm");
  SetFunction<&ConvFunction<tensor::ConvOp::kConv2>>(L, module_index, "conv2");
  SetFunction<&ConvFunction<tensor::ConvOp::kXcorr2>>(L, module_index, "xcorr2");
}

}  // namespace lua_api
