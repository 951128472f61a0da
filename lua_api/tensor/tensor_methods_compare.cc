// The element-wise comparisons of dmlab.system.tensor: t:lt(x), t:le(x),
// t:gt(x), t:ge(x), t:eq(x), t:ne(x), x a number or a tensor of t's type
// and element count. Each returns a new ByteTensor mask of t's shape, 1
// where the comparison holds and 0 elsewhere; t is unchanged.
//
// The module functions tensor.lt([res,] t, x), ... write the mask into a
// ByteTensor res when one is given (see module_functions.h).
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/module_functions.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/elementwise_compare.h"

namespace lua_api {
namespace {

using tensor::CompareOp;

// [-0, +1, e] t:lt(x) ... t:ne(x).
template <CompareOp kOp>
NResultsOr Compare(LuaTensor& self, lua_State* L) {
  const char* method = tensor::CompareOpName(kOp);
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  absl::StatusOr<tensor::Tensor> mask;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    double value = 0;
    ReadNumber(L, 2, &value);  // cannot fail: the type was just checked
    mask = tensor::CompareScalar(self.tensor(), kOp, value, TensorAllocator(L));
  } else if (LuaTensor::Read(L, 2) != nullptr) {
    LuaTensor* other = nullptr;
    if (std::string e = ReadTensorArgument(L, 2, method, &other); !e.empty()) return e;
    mask = tensor::CompareTensor(self.tensor(), kOp, other->tensor(), TensorAllocator(L));
  } else {
    return ArgumentError(method, 1, Expected(L, 2, "number or tensor"));
  }
  if (!mask.ok()) return StatusError(method, mask.status());
  LuaTensor::Push(L, *std::move(mask));
  return 1;
}

}  // namespace

void RegisterCompareMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"lt", &C::Member<&Compare<CompareOp::kLt>>},
                  {"le", &C::Member<&Compare<CompareOp::kLe>>},
                  {"gt", &C::Member<&Compare<CompareOp::kGt>>},
                  {"ge", &C::Member<&Compare<CompareOp::kGe>>},
                  {"eq", &C::Member<&Compare<CompareOp::kEq>>},
                  {"ne", &C::Member<&Compare<CompareOp::kNe>>},
              });
}

void RegisterCompareFunctions(lua_State* L, int module_index) {
  SetModuleFunctions(L, module_index,
                     {
                         {"lt", ModuleForm::kResult, 2},
                         {"le", ModuleForm::kResult, 2},
                         {"gt", ModuleForm::kResult, 2},
                         {"ge", ModuleForm::kResult, 2},
                         {"eq", ModuleForm::kResult, 2},
                         {"ne", ModuleForm::kResult, 2},
                     });
}

}  // namespace lua_api
