// The constructors of the tensor module after Torch7: tensor.zeros, ones,
// eye, range, linspace, logspace, rand, randn, randperm and cat.
//
// Each makes a new DoubleTensor, or takes a leading `res` tensor, as
// torch.zeros([res,] m, n) does: res receives the result and is returned.
// A res of the result's shape is written in place (a view writes through
// to its storage); one of another shape is resized if it owns its storage,
// and is an error if its memory is lent. The result has res's type.
// The random ones take an optional dmlab.system.random generator after
// res: tensor.rand([res,] [gen,] m [, n...]).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/extents_argument.h"
#include "lua_api/tensor/generator_argument.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/random.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/create.h"
#include "tensor/elementwise.h"
#include "tensor/random_fill.h"
#include "tensor/tensor.h"

namespace lua_api {
namespace {

using tensor::DType;
using tensor::Index;
using tensor::Tensor;

// Reads the valid tensor at stack `index`, argument #index of `function`.
std::string ReadTensorAt(lua_State* L, int index, const char* function, LuaTensor** out) {
  *out = LuaTensor::Read(L, index);
  if (*out == nullptr) return ArgumentError(function, index, Expected(L, index, "tensor"));
  if (absl::Status valid = (*out)->tensor().CheckValid(); !valid.ok()) {
    return ArgumentError(function, index,
                         absl::StrCat((*out)->type_name(), " is an ", valid.message()));
  }
  return {};
}

// The optional res at stack 1: sets *res (or null) and *first, the stack
// index of the first argument after it.
std::string ReadRes(lua_State* L, const char* function, LuaTensor** res, int* first) {
  *res = nullptr;
  *first = 1;
  if (LuaTensor::Read(L, 1) == nullptr) return {};
  *first = 2;
  return ReadTensorAt(L, 1, function, res);
}

std::string CannotResize(const char* function, const LuaTensor& res,
                         absl::Span<const Index> shape) {
  return ArgumentError(function, 1,
                       absl::StrCat("res has shape ", res.tensor().layout().ShapeString(),
                                    ", the result ", tensor::ShapeToString(shape),
                                    ", and res cannot be resized: its memory is lent"));
}

// The tensor a constructor fills: res itself when it has `shape`, else a
// new one of res's type (DoubleTensor without res).
std::string TargetFor(lua_State* L, const char* function, const LuaTensor* res,
                      absl::Span<const Index> shape, Tensor* target) {
  if (res != nullptr && res->tensor().shape() == tensor::Shape(shape.begin(), shape.end())) {
    *target = res->tensor();
    return {};
  }
  if (res != nullptr && !res->tensor().owns_storage()) return CannotResize(function, *res, shape);
  const DType dtype = res == nullptr ? DType::kFloat64 : res->tensor().dtype();
  absl::StatusOr<Tensor> fresh = Tensor::Uninitialized(dtype, shape, TensorAllocator(L));
  if (!fresh.ok()) return StatusError(function, fresh.status());
  *target = *std::move(fresh);
  return {};
}

// [-0, +1, m] Returns the filled target: res, which takes it if it is new,
// or a new tensor.
NResultsOr PushTarget(lua_State* L, LuaTensor* res, Tensor target) {
  if (res == nullptr) {
    LuaTensor::Push(L, std::move(target));
    return 1;
  }
  if (res->tensor().shape() != target.shape()) res->Reset(std::move(target));
  lua_pushvalue(L, 1);
  return 1;
}

// Fails if extra arguments follow the last one a function takes, at `last`.
std::string NoMoreArguments(lua_State* L, const char* function, int last) {
  if (lua_gettop(L) <= last) return {};
  return ArgumentError(function, last + 1, Expected(L, last + 1, "no value"));
}

std::string ReadNumberAt(lua_State* L, int index, const char* function, double* out) {
  if (std::string why = ReadNumber(L, index, out); !why.empty()) {
    return ArgumentError(function, index, why);
  }
  return {};
}

// An integer count >= 1 at stack `index`; absent or nil gives `fallback`
// when it is set.
std::string ReadCount(lua_State* L, int index, const char* function,
                      std::optional<Index> fallback, Index* out) {
  if (fallback.has_value() && lua_isnoneornil(L, index)) {
    *out = *fallback;
    return {};
  }
  std::int64_t value;
  if (std::string why = ReadInteger(L, index, &value); !why.empty()) {
    return ArgumentError(function, index, why);
  }
  if (value < 1) return ArgumentError(function, index, absl::StrCat("must be at least 1, got ", value));
  *out = value;
  return {};
}

// [-k, +1, m] tensor.zeros([res,] m [, n...]), tensor.ones(...).
template <int kValue, const char* kName>
NResultsOr Constant(lua_State* L) {
  LuaTensor* res;
  int first;
  if (std::string e = ReadRes(L, kName, &res, &first); !e.empty()) return e;
  std::vector<Index> shape;
  if (std::string e = ReadExtents(L, first, first, kName, ExtentsAllow::kPositive, &shape);
      !e.empty()) {
    return e;
  }
  Tensor target;
  if (std::string e = TargetFor(L, kName, res, shape, &target); !e.empty()) return e;
  const double values[] = {kValue};
  if (absl::Status s = tensor::ApplyScalars(target, tensor::ElementOp::kAssign, values); !s.ok()) {
    return StatusError(kName, s);
  }
  return PushTarget(L, res, std::move(target));
}
constexpr char kZeros[] = "zeros";
constexpr char kOnes[] = "ones";

// [-k, +1, m] tensor.eye([res,] n [, m]): the n x m (n x n) identity.
NResultsOr Eye(lua_State* L) {
  LuaTensor* res;
  int first;
  if (std::string e = ReadRes(L, "eye", &res, &first); !e.empty()) return e;
  Index rows, columns;
  if (std::string e = ReadCount(L, first, "eye", std::nullopt, &rows); !e.empty()) return e;
  if (std::string e = ReadCount(L, first + 1, "eye", rows, &columns); !e.empty()) return e;
  if (std::string e = NoMoreArguments(L, "eye", first + 1); !e.empty()) return e;
  Tensor target;
  if (std::string e = TargetFor(L, "eye", res, {rows, columns}, &target); !e.empty()) return e;
  if (absl::Status s = tensor::FillEye(target); !s.ok()) return StatusError("eye", s);
  return PushTarget(L, res, std::move(target));
}

// [-k, +1, m] tensor.range([res,] x, y [, step = 1]): x, x + step, ...
// up to y inclusive.
NResultsOr Range(lua_State* L) {
  LuaTensor* res;
  int first;
  if (std::string e = ReadRes(L, "range", &res, &first); !e.empty()) return e;
  double from, to, step = 1;
  if (std::string e = ReadNumberAt(L, first, "range", &from); !e.empty()) return e;
  if (std::string e = ReadNumberAt(L, first + 1, "range", &to); !e.empty()) return e;
  if (!lua_isnoneornil(L, first + 2)) {
    if (std::string e = ReadNumberAt(L, first + 2, "range", &step); !e.empty()) return e;
  }
  if (std::string e = NoMoreArguments(L, "range", first + 2); !e.empty()) return e;
  absl::StatusOr<Index> count = tensor::RangeCount(from, to, step);
  if (!count.ok()) return StatusError("range", count.status());
  Tensor target;
  if (std::string e = TargetFor(L, "range", res, {*count}, &target); !e.empty()) return e;
  if (absl::Status s = tensor::FillRange(target, from, step); !s.ok()) {
    return StatusError("range", s);
  }
  return PushTarget(L, res, std::move(target));
}

using FillSpaced = absl::Status (*)(const Tensor&, double, double);

// [-k, +1, m] tensor.linspace([res,] x1, x2 [, n = 100]) and logspace.
template <FillSpaced kFill, const char* kName>
NResultsOr Spaced(lua_State* L) {
  LuaTensor* res;
  int first;
  if (std::string e = ReadRes(L, kName, &res, &first); !e.empty()) return e;
  double from, to;
  Index n;
  if (std::string e = ReadNumberAt(L, first, kName, &from); !e.empty()) return e;
  if (std::string e = ReadNumberAt(L, first + 1, kName, &to); !e.empty()) return e;
  if (std::string e = ReadCount(L, first + 2, kName, 100, &n); !e.empty()) return e;
  if (std::string e = NoMoreArguments(L, kName, first + 2); !e.empty()) return e;
  Tensor target;
  if (std::string e = TargetFor(L, kName, res, {n}, &target); !e.empty()) return e;
  if (absl::Status s = kFill(target, from, to); !s.ok()) return StatusError(kName, s);
  return PushTarget(L, res, std::move(target));
}
constexpr char kLinspace[] = "linspace";
constexpr char kLogspace[] = "logspace";

using FillRandom = absl::Status (*)(const Tensor&, tensor::RandomSource&);

absl::Status FillRand(const Tensor& t, tensor::RandomSource& source) {
  return tensor::FillUniform(t, 0, 1, source);
}
absl::Status FillRandn(const Tensor& t, tensor::RandomSource& source) {
  return tensor::FillNormal(t, 0, 1, source);
}
// [-k, +1, m] tensor.rand([res,] [gen,] m [, n...]) (uniform in [0, 1)),
// tensor.randn (standard normal) and tensor.randperm([res,] [gen,] n).
template <FillRandom kFill, const char* kName, bool kPermutation>
NResultsOr Random(lua_State* L) {
  LuaTensor* res;
  int first;
  if (std::string e = ReadRes(L, kName, &res, &first); !e.empty()) return e;
  // Read first, pushed last: the default generator goes on top of the stack.
  LuaRandom* generator = LuaRandom::Read(L, first);
  if (generator != nullptr) ++first;
  std::vector<Index> shape(1);
  if constexpr (kPermutation) {
    if (std::string e = ReadCount(L, first, kName, std::nullopt, &shape[0]); !e.empty()) return e;
    if (std::string e = NoMoreArguments(L, kName, first); !e.empty()) return e;
  } else if (std::string e = ReadExtents(L, first, first, kName, ExtentsAllow::kPositive, &shape);
             !e.empty()) {
    return e;
  }
  // Checked before anything is allocated or drawn; the fill would say
  // 'uniform' or 'normal'.
  if (!kPermutation && res != nullptr && !tensor::IsFloating(res->tensor().dtype())) {
    return absl::StrCat("'", kName, "': not defined for ",
                        tensor::DTypeTensorName(res->tensor().dtype()));
  }
  Tensor target;
  if (std::string e = TargetFor(L, kName, res, shape, &target); !e.empty()) return e;
  if (generator == nullptr) {
    if (std::string e = PushDefaultGenerator(L, kName, &generator); !e.empty()) return e;
  }
  GeneratorSource source(*generator);
  if (absl::Status s = kFill(target, source); !s.ok()) return StatusError(kName, s);
  return PushTarget(L, res, std::move(target));
}
constexpr char kRand[] = "rand";
constexpr char kRandn[] = "randn";
constexpr char kRandPerm[] = "randperm";

// Reads the tensors of cat: the table at stack `index`, or the tensors
// from `index` on; sets *next to the stack index after them.
std::string ReadCatInputs(lua_State* L, int index, std::vector<Tensor>* inputs, int* next) {
  if (lua_type(L, index) == LUA_TTABLE) {
    const auto length = static_cast<int>(lua_objlen(L, index));
    if (length == 0) return ArgumentError("cat", index, "no tensors in the table");
    for (int i = 1; i <= length; ++i) {
      lua_rawgeti(L, index, i);
      LuaTensor* input = LuaTensor::Read(L, -1);
      std::string why = input == nullptr ? Expected(L, -1, "tensor") : std::string();
      if (input != nullptr) {
        if (absl::Status valid = input->tensor().CheckValid(); !valid.ok()) {
          why = absl::StrCat(input->type_name(), " is an ", valid.message());
        }
      }
      lua_pop(L, 1);
      if (!why.empty()) return ArgumentError("cat", index, absl::StrCat("[", i, "]: ", why));
      inputs->push_back(input->tensor());
    }
    *next = index + 1;
    return {};
  }
  for (*next = index; LuaTensor::Read(L, *next) != nullptr; ++*next) {
    LuaTensor* input;
    if (std::string e = ReadTensorAt(L, *next, "cat", &input); !e.empty()) return e;
    inputs->push_back(input->tensor());
  }
  if (inputs->empty()) return ArgumentError("cat", index, Expected(L, index, "tensor or table"));
  return {};
}

// [-k, +1, m] tensor.cat(x1, x2, ... [, dim]) and
// tensor.cat([res,] {x1, x2, ...} [, dim]): joined along dim (default, or
// -1: the last). Empty tensors are skipped.
NResultsOr Cat(lua_State* L) {
  LuaTensor* res = nullptr;
  int first = 1;
  if (lua_type(L, 2) == LUA_TTABLE) {
    if (std::string e = ReadTensorAt(L, 1, "cat", &res); !e.empty()) return e;
    first = 2;
  }
  std::vector<Tensor> inputs;
  int next;
  if (std::string e = ReadCatInputs(L, first, &inputs, &next); !e.empty()) return e;
  std::optional<int> dim;
  if (!lua_isnoneornil(L, next)) {
    std::int64_t value;
    if (std::string why = ReadInteger(L, next, &value); !why.empty()) {
      return ArgumentError("cat", next, Expected(L, next, "tensor or dimension"));
    }
    int rank = 0;
    for (const Tensor& input : inputs) rank = rank > 0 ? rank : input.rank();
    if (value != -1 && rank > 0 && (value < 1 || value > rank)) {
      return ArgumentError("cat", next,
                           absl::StrCat("dimension ", value, " out of range [1, ", rank, "]"));
    }
    if (value != -1) dim = static_cast<int>(value - 1);
  }
  if (std::string e = NoMoreArguments(L, "cat", next); !e.empty()) return e;
  absl::StatusOr<Tensor> joined = tensor::Cat(inputs, dim, TensorAllocator(L));
  if (!joined.ok()) return StatusError("cat", joined.status());
  if (res == nullptr) return PushTarget(L, nullptr, *std::move(joined));
  if (res->tensor().dtype() != joined->dtype()) {
    return ArgumentError("cat", 1,
                         absl::StrCat("res must be a ", tensor::DTypeTensorName(joined->dtype()),
                                      ", got ", tensor::DTypeTensorName(res->tensor().dtype())));
  }
  if (res->tensor().shape() == joined->shape()) {
    absl::Status s = tensor::ApplyComponents(res->tensor(), tensor::ElementOp::kAssign, *joined);
    if (!s.ok()) return StatusError("cat", s);
  } else if (!res->tensor().owns_storage()) {
    return CannotResize("cat", *res, joined->shape());
  }
  return PushTarget(L, res, *std::move(joined));
}

}  // namespace

void RegisterCreateFunctions(lua_State* L, int module_index) {
  const luaL_Reg functions[] = {
      {"zeros", &Raising<&Constant<0, kZeros>>},
      {"ones", &Raising<&Constant<1, kOnes>>},
      {"eye", &Raising<&Eye>},
      {"range", &Raising<&Range>},
      {"linspace", &Raising<&Spaced<&tensor::FillLinspace, kLinspace>>},
      {"logspace", &Raising<&Spaced<&tensor::FillLogspace, kLogspace>>},
      {"rand", &Raising<&Random<&FillRand, kRand, false>>},
      {"randn", &Raising<&Random<&FillRandn, kRandn, false>>},
      {"randperm", &Raising<&Random<&tensor::FillRandPerm, kRandPerm, true>>},
      {"cat", &Raising<&Cat>},
  };
  for (const luaL_Reg& function : functions) {
    lua_pushcfunction(L, function.func);
    lua_setfield(L, module_index, function.name);
  }
}

}  // namespace lua_api
