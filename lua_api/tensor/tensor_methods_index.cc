// Indexing, masks and resizing: index, indexCopy, indexAdd, indexFill,
// gather, scatter, maskedSelect, maskedCopy, maskedFill, nonzero, resize,
// resizeAs and zero, as in Torch7.
//
// Each is a thin reader of Lua arguments around one core call (see
// tensor/index.h, masked.h, resize.h). Dimensions and indices are 1-based
// here: dimensions are checked here, so messages count from 1, and index
// tensors go to the core with index base 1. Index tensors must be
// Int64Tensor (Torch7's LongTensor) and masks ByteTensor.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/module_functions.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/elementwise.h"
#include "tensor/index.h"
#include "tensor/masked.h"
#include "tensor/resize.h"
#include "tensor/tensor.h"

namespace lua_api {
namespace {

using tensor::DType;
using tensor::Index;
using tensor::Tensor;

// Index tensors count from 1, as Lua does.
constexpr Index kLuaIndexBase = 1;

// [-0, +0, -] A valid tensor of `dtype` at stack `index`.
std::string ReadTensorOf(lua_State* L, int index, DType dtype, const char* method,
                         LuaTensor** out) {
  if (std::string e = ReadTensorArgument(L, index, method, out); !e.empty()) return e;
  if ((*out)->tensor().dtype() != dtype) {
    return ArgumentAt(method, index, Expected(L, index, LuaTensor::TypeName(dtype)));
  }
  return {};
}

// [-0, +0, -] A number at stack `index` that a tensor of `dtype` holds.
std::string ReadValue(lua_State* L, int index, DType dtype, const char* method, double* value) {
  if (std::string why = ReadNumber(L, index, value); !why.empty()) {
    return ArgumentAt(method, index, why);
  }
  if (std::string why = CheckValue(*value, dtype); !why.empty()) {
    return ArgumentAt(method, index, why);
  }
  return {};
}

// The core reports bad values in an index tensor or a mask as OutOfRange,
// and dimensions, its other OutOfRange case, are checked here first: so an
// OutOfRange error is the fault of that argument, at stack `values_index`
// (0 for a method without one).
std::string CoreError(const char* method, const absl::Status& status, int values_index) {
  if (status.code() != absl::StatusCode::kOutOfRange || values_index == 0) {
    return StatusError(method, status);
  }
  absl::string_view why = status.message();
  absl::ConsumePrefix(&why, absl::StrCat(method, ": "));
  return ArgumentError(method, values_index - 1, why);
}

// [-0, +1, m] A new tensor userdata, or the core's error blamed as CoreError
// does.
NResultsOr PushIndexingResult(lua_State* L, const char* method, absl::StatusOr<Tensor> result,
                              int values_index) {
  if (!result.ok()) return CoreError(method, result.status(), values_index);
  LuaTensor::Push(L, *std::move(result));
  return 1;
}

// [-3, +1, m] t:index(dim, indices): a new tensor of t's entries
// indices[1], indices[2], ... along dim.
NResultsOr IndexSelect(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("index"); !e.empty()) return e;
  int dim;
  LuaTensor* indices = nullptr;
  if (std::string e = ReadDim(L, 2, self.tensor(), "index", &dim); !e.empty()) return e;
  if (std::string e = ReadTensorOf(L, 3, DType::kInt64, "index", &indices); !e.empty()) return e;
  return PushIndexingResult(
      L, "index",
      tensor::IndexSelect(self.tensor(), dim, indices->tensor(), kLuaIndexBase, TensorAllocator(L)),
      3);
}

using IndexWriteFn = absl::Status (*)(const Tensor&, int, const Tensor&, Index, const Tensor&);

// [-4, +1, e] t:indexCopy(dim, indices, src) and t:indexAdd(dim, indices,
// src): t's entry indices[k] along dim takes (or adds) src's entry k.
// Returns self.
template <IndexWriteFn kWrite>
NResultsOr IndexWrite(LuaTensor& self, lua_State* L) {
  const char* method = kWrite == &tensor::IndexAdd ? "indexAdd" : "indexCopy";
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  int dim;
  LuaTensor* indices = nullptr;
  LuaTensor* source = nullptr;
  if (std::string e = ReadDim(L, 2, self.tensor(), method, &dim); !e.empty()) return e;
  if (std::string e = ReadTensorOf(L, 3, DType::kInt64, method, &indices); !e.empty()) return e;
  if (std::string e = ReadTensorOf(L, 4, self.tensor().dtype(), method, &source); !e.empty()) {
    return e;
  }
  if (absl::Status s =
          kWrite(self.tensor(), dim, indices->tensor(), kLuaIndexBase, source->tensor());
      !s.ok()) {
    return CoreError(method, s, 3);
  }
  return ReturnSelf(L);
}

// [-4, +1, e] t:indexFill(dim, indices, value). Returns self.
NResultsOr IndexFill(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("indexFill"); !e.empty()) return e;
  int dim;
  LuaTensor* indices = nullptr;
  double value;
  if (std::string e = ReadDim(L, 2, self.tensor(), "indexFill", &dim); !e.empty()) return e;
  if (std::string e = ReadTensorOf(L, 3, DType::kInt64, "indexFill", &indices); !e.empty()) {
    return e;
  }
  if (std::string e = ReadValue(L, 4, self.tensor().dtype(), "indexFill", &value); !e.empty()) {
    return e;
  }
  if (absl::Status s =
          tensor::IndexFill(self.tensor(), dim, indices->tensor(), kLuaIndexBase, value);
      !s.ok()) {
    return CoreError("indexFill", s, 3);
  }
  return ReturnSelf(L);
}

// [-3, +1, m] t:gather(dim, indices): a new tensor of indices' shape, each
// element taken from t's row along dim at the index there.
NResultsOr Gather(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("gather"); !e.empty()) return e;
  int dim;
  LuaTensor* indices = nullptr;
  if (std::string e = ReadDim(L, 2, self.tensor(), "gather", &dim); !e.empty()) return e;
  if (std::string e = ReadTensorOf(L, 3, DType::kInt64, "gather", &indices); !e.empty()) return e;
  return PushIndexingResult(
      L, "gather",
      tensor::Gather(self.tensor(), dim, indices->tensor(), kLuaIndexBase, TensorAllocator(L)), 3);
}

// [-4, +1, e] t:scatter(dim, indices, src) and t:scatter(dim, indices,
// value): the reverse of gather. Returns self.
NResultsOr Scatter(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("scatter"); !e.empty()) return e;
  int dim;
  LuaTensor* indices = nullptr;
  if (std::string e = ReadDim(L, 2, self.tensor(), "scatter", &dim); !e.empty()) return e;
  if (std::string e = ReadTensorOf(L, 3, DType::kInt64, "scatter", &indices); !e.empty()) {
    return e;
  }
  absl::Status status;
  if (lua_type(L, 4) == LUA_TNUMBER) {
    double value;
    if (std::string e = ReadValue(L, 4, self.tensor().dtype(), "scatter", &value); !e.empty()) {
      return e;
    }
    status = tensor::ScatterFill(self.tensor(), dim, indices->tensor(), kLuaIndexBase, value);
  } else {
    if (LuaTensor::Read(L, 4) == nullptr) {
      return ArgumentError("scatter", 3, Expected(L, 4, "tensor or number"));
    }
    LuaTensor* source = nullptr;
    if (std::string e = ReadTensorOf(L, 4, self.tensor().dtype(), "scatter", &source); !e.empty()) {
      return e;
    }
    status =
        tensor::Scatter(self.tensor(), dim, indices->tensor(), kLuaIndexBase, source->tensor());
  }
  if (!status.ok()) return CoreError("scatter", status, 3);
  return ReturnSelf(L);
}

// [-2, +1, m] t:maskedSelect(mask): a new rank-1 tensor of the elements
// where the ByteTensor mask is 1, in row-major order.
NResultsOr MaskedSelect(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("maskedSelect"); !e.empty()) return e;
  LuaTensor* mask = nullptr;
  if (std::string e = ReadTensorOf(L, 2, DType::kUInt8, "maskedSelect", &mask); !e.empty()) {
    return e;
  }
  return PushIndexingResult(
      L, "maskedSelect", tensor::MaskedSelect(self.tensor(), mask->tensor(), TensorAllocator(L)), 2);
}

// [-3, +1, e] t:maskedCopy(mask, src): the k-th element where the mask is
// 1 takes src's k-th element. Returns self.
NResultsOr MaskedCopy(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("maskedCopy"); !e.empty()) return e;
  LuaTensor* mask = nullptr;
  LuaTensor* source = nullptr;
  if (std::string e = ReadTensorOf(L, 2, DType::kUInt8, "maskedCopy", &mask); !e.empty()) {
    return e;
  }
  if (std::string e = ReadTensorOf(L, 3, self.tensor().dtype(), "maskedCopy", &source);
      !e.empty()) {
    return e;
  }
  if (absl::Status s = tensor::MaskedCopy(self.tensor(), mask->tensor(), source->tensor());
      !s.ok()) {
    return CoreError("maskedCopy", s, 2);
  }
  return ReturnSelf(L);
}

// [-3, +1, e] t:maskedFill(mask, value). Returns self.
NResultsOr MaskedFill(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("maskedFill"); !e.empty()) return e;
  LuaTensor* mask = nullptr;
  double value;
  if (std::string e = ReadTensorOf(L, 2, DType::kUInt8, "maskedFill", &mask); !e.empty()) {
    return e;
  }
  if (std::string e = ReadValue(L, 3, self.tensor().dtype(), "maskedFill", &value); !e.empty()) {
    return e;
  }
  if (absl::Status s = tensor::MaskedFill(self.tensor(), mask->tensor(), value); !s.ok()) {
    return CoreError("maskedFill", s, 2);
  }
  return ReturnSelf(L);
}

// [-1, +1, m] t:nonzero(): a new Int64Tensor n x rank, the 1-based
// subscripts of the nonzero elements in row-major order.
NResultsOr NonZero(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("nonzero"); !e.empty()) return e;
  return PushIndexingResult(
      L, "nonzero", tensor::NonZero(self.tensor(), kLuaIndexBase, TensorAllocator(L)), 0);
}

// [-0, +0, -] One extent of resize at stack `index`: a whole number >= 0.
// Returns "" or why not. (Not ReadExtents of extents_argument.h, which
// refuses 0: Torch7 resizes to 0 elements, and to no dimensions with {}.)
std::string ReadExtent(lua_State* L, int index, Index* extent) {
  std::int64_t value;
  std::string why = ReadInteger(L, index, &value);
  if (why.empty() && value < 0) why = absl::StrCat("extent must be at least 0, got ", value);
  if (why.empty()) *extent = value;
  return why;
}

// [-(1 + k), +1, e] t:resize(d1, ..., dk) or t:resize{d1, ..., dk}: see
// tensor/resize.h. Returns self, which now holds the resized tensor.
NResultsOr Resize(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("resize"); !e.empty()) return e;
  const int top = lua_gettop(L);
  std::vector<Index> shape;
  if (lua_type(L, 2) == LUA_TTABLE) {
    if (top > 2) return ArgumentError("resize", 2, Expected(L, 3, "no value after a table"));
    shape.resize(lua_objlen(L, 2));
    for (std::size_t i = 0; i < shape.size(); ++i) {
      lua_rawgeti(L, 2, static_cast<int>(i + 1));
      std::string why = ReadExtent(L, lua_gettop(L), &shape[i]);
      lua_pop(L, 1);
      if (!why.empty()) return ArgumentError("resize", 1, absl::StrCat("[", i + 1, "]: ", why));
    }
  } else {
    if (top < 2) return ArgumentError("resize", 1, Expected(L, 2, "extents or a table of extents"));
    shape.resize(top - 1);
    for (int index = 2; index <= top; ++index) {
      if (std::string why = ReadExtent(L, index, &shape[index - 2]); !why.empty()) {
        return ArgumentError("resize", index - 1, why);
      }
    }
  }
  absl::StatusOr<Tensor> resized = tensor::Resize(self.tensor(), shape, TensorAllocator(L));
  if (!resized.ok()) return StatusError("resize", resized.status());
  self.Reset(*std::move(resized));
  return ReturnSelf(L);
}

// [-2, +1, e] t:resizeAs(u): t:resize to u's shape (u of any type).
NResultsOr ResizeAs(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("resizeAs"); !e.empty()) return e;
  LuaTensor* other = nullptr;
  if (std::string e = ReadTensorArgument(L, 2, "resizeAs", &other); !e.empty()) return e;
  absl::StatusOr<Tensor> resized =
      tensor::Resize(self.tensor(), other->tensor().shape(), TensorAllocator(L));
  if (!resized.ok()) return StatusError("resizeAs", resized.status());
  self.Reset(*std::move(resized));
  return ReturnSelf(L);
}

// [-1, +1, e] t:zero(): every element 0. Returns self.
NResultsOr Zero(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("zero"); !e.empty()) return e;
  const double zero = 0;
  if (absl::Status s = tensor::ApplyScalars(self.tensor(), tensor::ElementOp::kAssign, {&zero, 1});
      !s.ok()) {
    // The core speaks of the fill that zero is.
    absl::string_view why = s.message();
    absl::ConsumePrefix(&why, "fill: ");
    return StatusError("zero", absl::Status(s.code(), why));
  }
  return ReturnSelf(L);
}

}  // namespace

void RegisterIndexMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"index", &C::Member<&IndexSelect>},
                  {"indexCopy", &C::Member<&IndexWrite<&tensor::IndexCopy>>},
                  {"indexAdd", &C::Member<&IndexWrite<&tensor::IndexAdd>>},
                  {"indexFill", &C::Member<&IndexFill>},
                  {"gather", &C::Member<&Gather>},
                  {"scatter", &C::Member<&Scatter>},
                  {"maskedSelect", &C::Member<&MaskedSelect>},
                  {"maskedCopy", &C::Member<&MaskedCopy>},
                  {"maskedFill", &C::Member<&MaskedFill>},
                  {"nonzero", &C::Member<&NonZero>},
                  {"resize", &C::Member<&Resize>},
                  {"resizeAs", &C::Member<&ResizeAs>},
                  {"zero", &C::Member<&Zero>},
              });
}

void RegisterIndexFunctions(lua_State* L, int module_index) {
  SetModuleFunctions(L, module_index,
                     {
                         {"index", ModuleForm::kResult, 3},
                         {"gather", ModuleForm::kResult, 3},
                         {"maskedSelect", ModuleForm::kResult, 2},
                         {"nonzero", ModuleForm::kResult, 1},
                         // Torch7's torch.indexCopy(x, ...) and the like
                         // change x, as x:indexCopy(...) does.
                         {"indexCopy", ModuleForm::kSame, 4},
                         {"indexAdd", ModuleForm::kSame, 4},
                         {"indexFill", ModuleForm::kSame, 4},
                         {"scatter", ModuleForm::kSame, 4},
                         {"maskedCopy", ModuleForm::kSame, 3},
                         {"maskedFill", ModuleForm::kSame, 3},
                         {"zero", ModuleForm::kSame, 1},
                     });
}

}  // namespace lua_api
