// Reductions along a dimension, sorting and whole-tensor statistics of
// dmlab.system.tensor, with Torch7's argument conventions.
//
// Without a dimension, a reduction gives a number (t:sum(), t:max(),
// t:norm()); with one, a new tensor with extent 1 there (t:sum(2)). max,
// min, median, mode, kthvalue, sort and topk with a dimension give two
// tensors: the values and their 1-based Int64 positions along it.
// Dimensions are 1-based. Each method is a thin reader around one core
// call (tensor/reduce_dim.h, statistics.h, sort.h).
#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
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
#include "tensor/reduce.h"
#include "tensor/reduce_dim.h"
#include "tensor/sort.h"
#include "tensor/statistics.h"

namespace lua_api {
namespace {

using tensor::Tensor;
using tensor::ValuesAndIndices;

// Lua's indices count from 1.
constexpr tensor::Index kFirstIndex = 1;

enum class DefaultDim { kFirst, kLast };

// The dimension a method works along when none is given.
std::string DefaultDimOf(const Tensor& t, const char* method, DefaultDim fallback, int* dim) {
  if (t.rank() == 0) {
    return absl::StrCat("'", method, "': the tensor is empty; it has no dimension to work along");
  }
  *dim = fallback == DefaultDim::kFirst ? 0 : t.rank() - 1;
  return {};
}

// [-0, +0, -] ReadDim, or the default dimension where the argument is
// nil or absent.
std::string ReadDimOr(lua_State* L, int index, const Tensor& t, const char* method,
                      DefaultDim fallback, int* dim) {
  if (!lua_isnoneornil(L, index)) return ReadDim(L, index, t, method, dim);
  return DefaultDimOf(t, method, fallback, dim);
}

// [-0, +0, -] An optional boolean; *flag keeps its default for nil.
std::string ReadFlag(lua_State* L, int index, const char* method, bool* flag) {
  if (lua_isnoneornil(L, index)) return {};
  if (!lua_isboolean(L, index)) return ArgumentAt(method, index, Expected(L, index, "boolean"));
  *flag = lua_toboolean(L, index) != 0;
  return {};
}

// [-0, +0, -] An integer k.
std::string ReadK(lua_State* L, int index, const char* method, std::int64_t* k) {
  if (std::string why = ReadInteger(L, index, k); !why.empty()) {
    return ArgumentAt(method, index, why);
  }
  return {};
}

// [-0, +2, m]
NResultsOr PushPair(lua_State* L, const char* method, absl::StatusOr<ValuesAndIndices> result) {
  if (!result.ok()) return StatusError(method, result.status());
  LuaTensor::Push(L, std::move(result->values));
  LuaTensor::Push(L, std::move(result->indices));
  return 2;
}

// [-0, +1, e] t:sum([dim]): a number, or the sums along dim. Integer sums
// along dim keep the type and wrap; the number does not.
NResultsOr Sum(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("sum"); !e.empty()) return e;
  if (lua_isnoneornil(L, 2)) return PushValueResult(L, "sum", tensor::Sum(self.tensor()));
  int dim;
  if (std::string e = ReadDim(L, 2, self.tensor(), "sum", &dim); !e.empty()) return e;
  return PushResult(L, "sum", tensor::SumAlong(self.tensor(), dim, TensorAllocator(L)));
}

// [-0, +1, e] t:prod([dim]): a number, or the products along dim.
NResultsOr Prod(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("prod"); !e.empty()) return e;
  if (lua_isnoneornil(L, 2)) return PushValueResult(L, "prod", tensor::Product(self.tensor()));
  int dim;
  if (std::string e = ReadDim(L, 2, self.tensor(), "prod", &dim); !e.empty()) return e;
  return PushResult(L, "prod", tensor::ProductAlong(self.tensor(), dim, TensorAllocator(L)));
}

// [-0, +1, e] t:mean([dim]).
NResultsOr Mean(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("mean"); !e.empty()) return e;
  if (lua_isnoneornil(L, 2)) return PushValueResult(L, "mean", tensor::MeanOf(self.tensor()));
  int dim;
  if (std::string e = ReadDim(L, 2, self.tensor(), "mean", &dim); !e.empty()) return e;
  return PushResult(L, "mean", tensor::MeanAlong(self.tensor(), dim, TensorAllocator(L)));
}

// [-0, +1, e] t:var([dim] [, biased]), t:std([dim] [, biased]): biased
// (default false) divides by n instead of n - 1. t:var(true) is biased
// over all elements.
template <tensor::Spread kSpread>
NResultsOr SpreadOp(LuaTensor& self, lua_State* L) {
  constexpr const char* method = kSpread == tensor::Spread::kVariance ? "var" : "std";
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  const bool whole = lua_isnoneornil(L, 2) || lua_isboolean(L, 2);
  bool biased = false;
  if (std::string e = ReadFlag(L, whole ? 2 : 3, method, &biased); !e.empty()) return e;
  if (whole) return PushValueResult(L, method, tensor::SpreadOf(self.tensor(), kSpread, biased));
  int dim;
  if (std::string e = ReadDim(L, 2, self.tensor(), method, &dim); !e.empty()) return e;
  return PushResult(L, method,
                    tensor::SpreadAlong(self.tensor(), dim, kSpread, biased, TensorAllocator(L)));
}

// [-0, +(1|2), e] t:max([dim]), t:min([dim]): a number, or the values and
// 1-based indices along dim (the first of equal extremes; NaN wins).
template <tensor::Extreme kExtreme>
NResultsOr ExtremeOp(LuaTensor& self, lua_State* L) {
  constexpr const char* method = kExtreme == tensor::Extreme::kMax ? "max" : "min";
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  if (lua_isnoneornil(L, 2)) {
    return PushValueResult(L, method, tensor::ExtremeOf(self.tensor(), kExtreme));
  }
  int dim;
  if (std::string e = ReadDim(L, 2, self.tensor(), method, &dim); !e.empty()) return e;
  return PushPair(L, method, tensor::ExtremeAlong(self.tensor(), dim, kExtreme, kFirstIndex,
                                                  TensorAllocator(L)));
}

// [-0, +2, e] t:median([dim]), t:mode([dim]): along dim, by default the
// last.
NResultsOr Median(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("median"); !e.empty()) return e;
  int dim;
  if (std::string e = ReadDimOr(L, 2, self.tensor(), "median", DefaultDim::kLast, &dim);
      !e.empty()) {
    return e;
  }
  return PushPair(L, "median",
                  tensor::MedianAlong(self.tensor(), dim, kFirstIndex, TensorAllocator(L)));
}

// [-0, +1, e]
NResultsOr Mode(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("mode"); !e.empty()) return e;
  int dim;
  if (std::string e = ReadDimOr(L, 2, self.tensor(), "mode", DefaultDim::kLast, &dim); !e.empty()) {
    return e;
  }
  return PushPair(L, "mode", tensor::ModeAlong(self.tensor(), dim, kFirstIndex, TensorAllocator(L)));
}

// [-0, +2, e] t:kthvalue(k [, dim]): the k-th smallest along dim (the last
// by default).
NResultsOr KthValue(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("kthvalue"); !e.empty()) return e;
  std::int64_t k;
  if (std::string e = ReadK(L, 2, "kthvalue", &k); !e.empty()) return e;
  int dim;
  if (std::string e = ReadDimOr(L, 3, self.tensor(), "kthvalue", DefaultDim::kLast, &dim);
      !e.empty()) {
    return e;
  }
  return PushPair(L, "kthvalue", tensor::KthValueAlong(self.tensor(), k, dim, kFirstIndex,
                                                       TensorAllocator(L)));
}

// [-0, +1, e] t:cumsum([dim]), t:cumprod([dim]): running sums (products)
// along dim, by default the first, as Torch7's.
template <tensor::Scan kScan>
NResultsOr ScanOp(LuaTensor& self, lua_State* L) {
  constexpr const char* method = kScan == tensor::Scan::kSum ? "cumsum" : "cumprod";
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  int dim;
  if (std::string e = ReadDimOr(L, 2, self.tensor(), method, DefaultDim::kFirst, &dim);
      !e.empty()) {
    return e;
  }
  return PushResult(L, method, tensor::ScanAlong(self.tensor(), dim, kScan, TensorAllocator(L)));
}

// [-0, +2, e] t:sort([dim] [, descending]): stable, along dim (the last by
// default); t:sort(true) sorts the last dimension descending.
NResultsOr Sort(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("sort"); !e.empty()) return e;
  const bool no_dim = lua_isboolean(L, 2);
  int dim;
  std::string dim_error = no_dim ? DefaultDimOf(self.tensor(), "sort", DefaultDim::kLast, &dim)
                                 : ReadDimOr(L, 2, self.tensor(), "sort", DefaultDim::kLast, &dim);
  if (!dim_error.empty()) return dim_error;
  bool descending = false;
  if (std::string e = ReadFlag(L, no_dim ? 2 : 3, "sort", &descending); !e.empty()) return e;
  const auto order = descending ? tensor::SortOrder::kDescending : tensor::SortOrder::kAscending;
  return PushPair(L, "sort",
                  tensor::SortAlong(self.tensor(), dim, order, kFirstIndex, TensorAllocator(L)));
}

// [-0, +2, e] t:topk(k [, dim] [, largest] [, sorted]): the k smallest (or
// largest) along dim (the last by default). The results are always
// sorted, which Torch7's unsorted default allows; `sorted` is checked but
// changes nothing.
NResultsOr TopK(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("topk"); !e.empty()) return e;
  std::int64_t k;
  if (std::string e = ReadK(L, 2, "topk", &k); !e.empty()) return e;
  const bool no_dim = lua_isboolean(L, 3);
  int dim;
  std::string dim_error = no_dim ? DefaultDimOf(self.tensor(), "topk", DefaultDim::kLast, &dim)
                                 : ReadDimOr(L, 3, self.tensor(), "topk", DefaultDim::kLast, &dim);
  if (!dim_error.empty()) return dim_error;
  const int flags = no_dim ? 3 : 4;
  bool largest = false, sorted = false;
  if (std::string e = ReadFlag(L, flags, "topk", &largest); !e.empty()) return e;
  if (std::string e = ReadFlag(L, flags + 1, "topk", &sorted); !e.empty()) return e;
  const auto order = largest ? tensor::SortOrder::kDescending : tensor::SortOrder::kAscending;
  return PushPair(L, "topk", tensor::TopKAlong(self.tensor(), k, dim, order, kFirstIndex,
                                               TensorAllocator(L)));
}

// [-0, +1, e] t:norm([p] [, dim]): the p-norm (default 2) of all elements,
// a number, or along dim, a tensor.
NResultsOr Norm(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("norm"); !e.empty()) return e;
  double p = 2;
  if (std::string e = ReadOptionalNumber(L, 2, "norm", &p); !e.empty()) return e;
  if (lua_isnoneornil(L, 3)) return PushValueResult(L, "norm", tensor::NormOf(self.tensor(), p));
  int dim;
  if (std::string e = ReadDim(L, 3, self.tensor(), "norm", &dim); !e.empty()) return e;
  return PushResult(L, "norm", tensor::NormAlong(self.tensor(), p, dim, TensorAllocator(L)));
}

// [-0, +1, e] t:renorm(p, dim, maxnorm): scales each slice along dim whose
// p-norm exceeds maxnorm down to it, in place. Returns self.
NResultsOr Renorm(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("renorm"); !e.empty()) return e;
  double p, maxnorm;
  if (std::string why = ReadNumber(L, 2, &p); !why.empty()) return ArgumentAt("renorm", 2, why);
  int dim;
  if (std::string e = ReadDim(L, 3, self.tensor(), "renorm", &dim); !e.empty()) return e;
  if (std::string why = ReadNumber(L, 4, &maxnorm); !why.empty()) {
    return ArgumentAt("renorm", 4, why);
  }
  if (absl::Status s = tensor::Renorm(self.tensor(), p, dim, maxnorm); !s.ok()) {
    return StatusError("renorm", s);
  }
  return ReturnSelf(L);
}

// [-0, +1, e] t:dist(u [, p]): the p-norm (default 2) of t - u.
NResultsOr Dist(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("dist"); !e.empty()) return e;
  LuaTensor* other = nullptr;
  if (std::string e = ReadTensorArgument(L, 2, "dist", &other); !e.empty()) return e;
  double p = 2;
  if (std::string e = ReadOptionalNumber(L, 3, "dist", &p); !e.empty()) return e;
  return PushValueResult(L, "dist", tensor::DistanceOf(self.tensor(), other->tensor(), p));
}

// [-0, +1, e] t:trace(): the sum of a matrix's diagonal.
NResultsOr Trace(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("trace"); !e.empty()) return e;
  return PushValueResult(L, "trace", tensor::TraceOf(self.tensor()));
}

// [-0, +1, e] t:all(), t:any() on a ByteTensor mask.
NResultsOr All(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("all"); !e.empty()) return e;
  return PushValueResult(L, "all", tensor::AllOf(self.tensor()));
}

// [-0, +1, e]
NResultsOr Any(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("any"); !e.empty()) return e;
  return PushValueResult(L, "any", tensor::AnyOf(self.tensor()));
}

}  // namespace

void RegisterReduceMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  using tensor::Extreme;
  using tensor::Scan;
  using tensor::Spread;
  C::Register(L, metatable,
              {
                  {"sum", &C::Member<&Sum>},
                  {"prod", &C::Member<&Prod>},
                  {"mean", &C::Member<&Mean>},
                  {"var", &C::Member<&SpreadOp<Spread::kVariance>>},
                  {"std", &C::Member<&SpreadOp<Spread::kStandardDeviation>>},
                  {"max", &C::Member<&ExtremeOp<Extreme::kMax>>},
                  {"min", &C::Member<&ExtremeOp<Extreme::kMin>>},
                  {"median", &C::Member<&Median>},
                  {"mode", &C::Member<&Mode>},
                  {"kthvalue", &C::Member<&KthValue>},
                  {"cumsum", &C::Member<&ScanOp<Scan::kSum>>},
                  {"cumprod", &C::Member<&ScanOp<Scan::kProduct>>},
                  {"sort", &C::Member<&Sort>},
                  {"topk", &C::Member<&TopK>},
                  {"norm", &C::Member<&Norm>},
                  {"renorm", &C::Member<&Renorm>},
                  {"dist", &C::Member<&Dist>},
                  {"trace", &C::Member<&Trace>},
                  {"all", &C::Member<&All>},
                  {"any", &C::Member<&Any>},
              });
}

void RegisterReduceFunctions(lua_State* L, int module_index) {
  SetModuleFunctions(L, module_index,
                     {
                         {"sum", ModuleForm::kResult, 1},
                         {"prod", ModuleForm::kResult, 1},
                         {"mean", ModuleForm::kResult, 1},
                         {"var", ModuleForm::kResult, 1},
                         {"std", ModuleForm::kResult, 1},
                         {"cumsum", ModuleForm::kResult, 1},
                         {"cumprod", ModuleForm::kResult, 1},
                         {"norm", ModuleForm::kResult, 1},
                         {"max", ModuleForm::kSame, 1},
                         {"min", ModuleForm::kSame, 1},
                         {"median", ModuleForm::kSame, 1},
                         {"mode", ModuleForm::kSame, 1},
                         {"kthvalue", ModuleForm::kSame, 2},
                         {"sort", ModuleForm::kSame, 1},
                         {"topk", ModuleForm::kSame, 2},
                         {"renorm", ModuleForm::kInPlace, 4},
                         {"dist", ModuleForm::kSame, 2},
                         {"trace", ModuleForm::kSame, 1},
                         {"all", ModuleForm::kSame, 1},
                         {"any", ModuleForm::kSame, 1},
                     });
}

}  // namespace lua_api
