// Tensor metadata after Torch7: nElement, dim, nDimension, stride,
// storageOffset, isContiguous, contiguous, isSameSizeAs, isSize. (size()
// and size(dim) are in tensor_methods_view.cc.)
#include <cstdint>
#include <string>
#include <utility>

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
#include "tensor/convert.h"
#include "tensor/tensor.h"

namespace lua_api {
namespace {

using tensor::Index;

// [-1, +1, -]
NResultsOr NElement(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("nElement"); !e.empty()) return e;
  Push(L, self.tensor().num_elements());
  return 1;
}

// [-1, +1, -] dim() and nDimension(): the rank (0 for the empty tensor).
template <const char* kName>
NResultsOr Rank(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf(kName); !e.empty()) return e;
  Push(L, self.tensor().rank());
  return 1;
}
constexpr char kDim[] = "dim";
constexpr char kNDimension[] = "nDimension";

// [-(1|2), +1, m] stride(): a table of strides in elements; stride(dim):
// one of them.
NResultsOr Stride(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("stride"); !e.empty()) return e;
  const tensor::Strides& strides = self.tensor().layout().strides();
  if (lua_gettop(L) == 1) {
    Push(L, absl::Span<const Index>(strides.data(), strides.size()));
    return 1;
  }
  // ReadDim would word the empty tensor's case differently; stride keeps its message.
  Index dim;
  if (std::string e = ReadBounded(L, 2, "stride", "dimension", 1, self.tensor().rank(), &dim);
      !e.empty()) {
    return e;
  }
  Push(L, strides[dim - 1]);
  return 1;
}

// [-1, +1, -]
NResultsOr IsContiguous(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("isContiguous"); !e.empty()) return e;
  Push(L, self.tensor().layout().IsContiguous());
  return 1;
}

// [-1, +1, m] self if it is contiguous, else a contiguous copy.
NResultsOr Contiguous(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("contiguous"); !e.empty()) return e;
  if (self.tensor().layout().IsContiguous()) {
    return ReturnSelf(L);
  }
  absl::StatusOr<tensor::Tensor> copy = tensor::Clone(self.tensor(), TensorAllocator(L));
  if (!copy.ok()) return StatusError("contiguous", copy.status());
  LuaTensor::Push(L, *std::move(copy));
  return 1;
}

// [-1, +1, -] The 1-based storage index of the first element, as Torch7.
NResultsOr StorageOffset(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("storageOffset"); !e.empty()) return e;
  Push(L, self.tensor().layout().offset() + 1);
  return 1;
}

// [-2, +1, -]
NResultsOr IsSameSizeAs(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("isSameSizeAs"); !e.empty()) return e;
  LuaTensor* other = nullptr;
  if (std::string e = ReadTensorArgument(L, 2, "isSameSizeAs", &other); !e.empty()) return e;
  Push(L, self.tensor().shape() == other->tensor().shape());
  return 1;
}

// [-2, +1, -] isSize{d1, ..., dk}: whether the shape is exactly that.
NResultsOr IsSize(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("isSize"); !e.empty()) return e;
  if (lua_type(L, 2) != LUA_TTABLE) return ArgumentError("isSize", 1, Expected(L, 2, "table"));
  const tensor::Shape& shape = self.tensor().shape();
  const auto length = static_cast<int>(lua_objlen(L, 2));
  bool same = length == static_cast<int>(shape.size());
  for (int i = 1; i <= length; ++i) {
    lua_rawgeti(L, 2, i);
    std::int64_t extent = 0;
    std::string why = ReadInteger(L, -1, &extent);
    lua_pop(L, 1);
    if (!why.empty()) return ArgumentError("isSize", 1, absl::StrCat("[", i, "]: ", why));
    same = same && extent == shape[i - 1];
  }
  Push(L, same);
  return 1;
}

}  // namespace

void RegisterMetadataMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"nElement", &C::Member<&NElement>},
                  {"dim", &C::Member<&Rank<kDim>>},
                  {"nDimension", &C::Member<&Rank<kNDimension>>},
                  {"stride", &C::Member<&Stride>},
                  {"isContiguous", &C::Member<&IsContiguous>},
                  {"contiguous", &C::Member<&Contiguous>},
                  {"storageOffset", &C::Member<&StorageOffset>},
                  {"isSameSizeAs", &C::Member<&IsSameSizeAs>},
                  {"isSize", &C::Member<&IsSize>},
              });
}

void RegisterMetadataFunctions(lua_State* L, int module_index) {
  SetModuleFunctions(L, module_index, {{"contiguous", ModuleForm::kSame, 1}});
}

}  // namespace lua_api
