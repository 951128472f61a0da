// Tensor methods: metadata, val, the layout views, copies, printing and ==.
//
// Dimensions and indices are 1-based here and 0-based in the core. They are
// checked here, before the core sees them, so that messages count from 1:
// "bad argument #2 to 'narrow' (index 5 out of range [1, 4])".
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/types/span.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/lua_memory.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/push.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/compare.h"
#include "tensor/convert.h"
#include "tensor/elementwise.h"
#include "tensor/print.h"
#include "tensor/tensor.h"
#include "tensor/work_meter.h"

namespace lua_api {
namespace {

using tensor::DType;
using tensor::Index;
using tensor::Tensor;

// [-1, +1, -] "dmlab.system.tensor.DoubleTensor".
NResultsOr Type(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("type"); !e.empty()) return e;
  lua_pushstring(L, self.type_name());
  return 1;
}

// [-(1|2), +1, -] size(): the element count (DeepMind Lab); size(dim): the
// extent of dimension dim (Torch7).
NResultsOr Size(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("size"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  if (lua_gettop(L) == 1) {
    Push(L, t.num_elements());
    return 1;
  }
  int dim;
  if (std::string e = ReadDim(L, 2, t, "size", &dim); !e.empty()) return e;
  Push(L, t.shape()[dim]);
  return 1;
}

// [-1, +1, m] {d1, ..., dk}; {} for the empty tensor.
NResultsOr Shape(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("shape"); !e.empty()) return e;
  const tensor::Shape& shape = self.tensor().shape();
  Push(L, absl::Span<const Index>(shape.data(), shape.size()));
  return 1;
}

// [-1, +1, -]
NResultsOr OwnsStorage(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("ownsStorage"); !e.empty()) return e;
  Push(L, self.tensor().owns_storage());
  return 1;
}

// An element as a Lua number (the half types through float).
template <typename T>
lua_Number AsLuaNumber(T value) {
  return static_cast<lua_Number>(static_cast<tensor::ComputeType<T>>(value));
}

// [-0, +1, m] Nested tables of the elements of dimensions `dim` onwards
// of `layout`, read straight from the storage: `first` is element 0's
// address, `offset` (in elements) the start of this slice.
template <typename T>
void PushNested(lua_State* L, const T* first, const tensor::Layout& layout, int dim, Index offset) {
  const Index extent = layout.shape()[dim];
  const Index stride = layout.strides()[dim];
  lua_createtable(L, static_cast<int>(extent), 0);
  for (Index i = 0; i < extent; ++i, offset += stride) {
    if (dim + 1 == layout.rank()) {
      lua_pushnumber(L, AsLuaNumber(first[offset]));
    } else {
      PushNested(L, first, layout, dim + 1, offset);
    }
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
}

// [-1, +1, m] val(): a number for shape {1}, else nested tables ({} when
// empty).
NResultsOr PushValues(const Tensor& t, lua_State* L) {
  if (t.rank() == 0) {
    lua_newtable(L);
    return 1;
  }
  // One level of nesting holds a table and its parent.
  if (!lua_checkstack(L, t.rank() + 2)) return "'val': the tensor has too many dimensions";
  // The result is as large as the tensor has elements, whatever its
  // storage: check that it fits before building it (lua_memory.h).
  const Index rows = t.shape().back() == 0 ? 0 : t.num_elements() / t.shape().back();
  constexpr std::size_t kBytesPerNumber = 16, kBytesPerTable = 64;
  if (std::string e = CheckLuaMemory(L,
                                     static_cast<std::size_t>(t.num_elements()) * kBytesPerNumber +
                                         static_cast<std::size_t>(rows) * kBytesPerTable,
                                     "val");
      !e.empty()) {
    return e;
  }
  if (absl::Status charged = tensor::ChargeWork(t.num_elements()); !charged.ok()) {
    return StatusError("val", charged);
  }
  absl::StatusOr<std::byte*> data = t.data();
  if (!data.ok()) return StatusError("val", data.status());
  if (!t.device().is_cpu()) return "'val': element access needs a CPU tensor";
  return tensor::DispatchDType(t.dtype(), [&](auto tag) -> NResultsOr {
    using T = typename decltype(tag)::type;
    const T* first = reinterpret_cast<const T*>(*data);
    if (t.rank() == 1 && t.shape()[0] == 1) {
      lua_pushnumber(L, AsLuaNumber(*first));
    } else {
      PushNested(L, first, t.layout(), 0, 0);
    }
    return 1;
  });
}

// [-2, +1, m] val(x): sets the only element; returns x.
NResultsOr SetValue(LuaTensor& self, lua_State* L) {
  double value;
  if (std::string why = ReadNumber(L, 2, &value); !why.empty()) return ArgumentAt("val", 2, why);
  if (std::string why = CheckValue(value, self.tensor().dtype()); !why.empty()) {
    return ArgumentAt("val", 2, why);
  }
  if (self.tensor().num_elements() != 1) {
    return ArgumentAt("val", 2,
                      absl::StrCat("a number sets a tensor of one element, but this one has ",
                                   self.tensor().num_elements(), "; give a table"));
  }
  const double values[] = {value};
  if (absl::Status s = tensor::ApplyScalars(self.tensor(), tensor::ElementOp::kAssign, values);
      !s.ok()) {
    return StatusError("val", s);
  }
  lua_settop(L, 2);  // the value set, as DeepMind Lab returns it
  return 1;
}

// [-2, +1, m] val(table): sets every element; nothing changes on error.
// Returns the table.
NResultsOr SetValues(LuaTensor& self, lua_State* L) {
  const Tensor& t = self.tensor();
  absl::StatusOr<Tensor> staged = Tensor::Uninitialized(t.dtype(), t.shape(), TensorAllocator(L));
  if (!staged.ok()) return StatusError("val", staged.status());
  const std::string mismatch =
      absl::StrCat("table does not match shape ", t.layout().ShapeString(), ": ");
  if (std::string why = ReadTableInto(L, 2, *staged, mismatch); !why.empty()) {
    return ArgumentAt("val", 2, why);
  }
  if (absl::Status s = tensor::ApplyComponents(t, tensor::ElementOp::kAssign, *staged); !s.ok()) {
    return StatusError("val", s);
  }
  lua_settop(L, 2);  // the table, as DeepMind Lab returns it
  return 1;
}

// [-(1|2), +1, m] val(), val(number) or val(table).
NResultsOr Val(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("val"); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 2, "val"); !e.empty()) return e;
  switch (lua_type(L, 2)) {
    case LUA_TNONE: return PushValues(self.tensor(), L);
    case LUA_TTABLE: return SetValues(self, L);
    default: return SetValue(self, L);
  }
}

// [-3, +1, m] The slice at index `i` of dimension `dim`.
NResultsOr Select(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("select"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  int dim;
  Index index;
  if (std::string e = ReadDim(L, 2, t, "select", &dim); !e.empty()) return e;
  if (std::string e = ReadBounded(L, 3, "select", "index", 1, t.shape()[dim], &index); !e.empty()) {
    return e;
  }
  return PushResult(L, "select", t.Select(dim, index - 1));
}

// [-(k+1), +1, m] t(i1, ..., ik) is t:select(1, i1):select(1, i2)...
// At most one index per dimension: selecting from rank 1 keeps an extent-1
// dimension, and a further index into it is taken for a mistake.
NResultsOr Call(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("__call"); !e.empty()) return e;
  Tensor t = self.tensor();
  if (lua_gettop(L) - 1 > t.rank()) {
    return ArgumentAt(
        "__call", t.rank() + 2,
        absl::StrCat("too many indices: ", lua_gettop(L) - 1, " for a tensor of rank ", t.rank()));
  }
  for (int i = 2; i <= lua_gettop(L); ++i) {
    Index index;
    if (std::string e = ReadBounded(L, i, "__call", "index", 1, t.shape()[0], &index); !e.empty()) {
      return e;
    }
    absl::StatusOr<Tensor> slice = t.Select(0, index - 1);
    if (!slice.ok()) return StatusError("__call", slice.status());
    t = *std::move(slice);
  }
  return PushResult(L, "__call", std::move(t));
}

// [-4, +1, m] Entries i .. i + n - 1 of dimension `dim`.
NResultsOr Narrow(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("narrow"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  int dim;
  Index start, length;
  if (std::string e = ReadDim(L, 2, t, "narrow", &dim); !e.empty()) return e;
  const Index extent = t.shape()[dim];
  if (std::string e = ReadBounded(L, 3, "narrow", "index", 1, extent, &start); !e.empty()) {
    return e;
  }
  // A size of 0 is an empty view, as in DeepMind Lab (Torch7 refuses it:
  // its flavour checks first, lua_api/torch/tensor.lua).
  if (std::string e = ReadBounded(L, 4, "narrow", "size", 0, extent - start + 1, &length);
      !e.empty()) {
    return e;
  }
  return PushResult(L, "narrow", t.Narrow(dim, start - 1, length));
}

// [-3, +1, m] Dimensions d1 and d2 swapped.
NResultsOr Transpose(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("transpose"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  int dim0, dim1;
  if (std::string e = ReadDim(L, 2, t, "transpose", &dim0); !e.empty()) return e;
  if (std::string e = ReadDim(L, 3, t, "transpose", &dim1); !e.empty()) return e;
  return PushResult(L, "transpose", t.Transpose(dim0, dim1));
}

// [-2, +1, m] Dimension `dim` walked backwards.
NResultsOr Reverse(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("reverse"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  int dim;
  if (std::string e = ReadDim(L, 2, t, "reverse", &dim); !e.empty()) return e;
  return PushResult(L, "reverse", t.Reverse(dim));
}

// [-2, +1, m] reshape{d1, ..., dk}: a view, so only where the strides can
// express the new shape; one extent may be -1 (inferred).
NResultsOr Reshape(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("reshape"); !e.empty()) return e;
  if (lua_type(L, 2) != LUA_TTABLE) return ArgumentAt("reshape", 2, Expected(L, 2, "table"));
  const auto rank = static_cast<int>(lua_objlen(L, 2));
  std::vector<Index> shape(rank);
  for (int i = 1; i <= rank; ++i) {
    lua_rawgeti(L, 2, i);
    std::int64_t extent = 0;
    std::string why = ReadInteger(L, -1, &extent);
    lua_pop(L, 1);
    if (why.empty() && extent < 1 && extent != -1) why = "extent must be at least 1 (or -1)";
    if (!why.empty()) return ArgumentAt("reshape", 2, absl::StrCat("[", i, "]: ", why));
    shape[i - 1] = extent;
  }
  // Stray keys would otherwise be ignored.
  lua_pushnil(L);
  for (int keys = 0; lua_next(L, 2) != 0; ++keys) {
    lua_pop(L, 1);
    if (keys == rank) {
      lua_pop(L, 1);
      return ArgumentAt("reshape", 2, "a table of extents {d1, ..., dk} expected");
    }
  }
  absl::StatusOr<Tensor> view = self.tensor().Reshape(shape);
  if (!view.ok()) {
    return ArgumentAt("reshape", 2, absl::StripPrefix(view.status().message(), "reshape: "));
  }
  return PushResult(L, "reshape", *std::move(view));
}

// [-1, +1, m] A new owning, contiguous copy.
NResultsOr CloneTensor(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("clone"); !e.empty()) return e;
  return PushResult(L, "clone", tensor::Clone(self.tensor(), TensorAllocator(L)));
}

constexpr const char* ConversionName(DType dtype) {
  switch (dtype) {
    case DType::kUInt8: return "byte";
    case DType::kInt8: return "char";
    case DType::kInt16: return "int16";
    case DType::kInt32: return "int32";
    case DType::kInt64: return "int64";
    case DType::kFloat32: return "float";
    default: return "double";
  }
}

// [-1, +1, m] byte(), char(), ...: a new owning copy of another type. A
// value that the type cannot hold is an error.
template <DType D>
NResultsOr ConvertTo(LuaTensor& self, lua_State* L) {
  constexpr const char* kName = ConversionName(D);
  if (std::string e = self.CheckSelf(kName); !e.empty()) return e;
  return PushResult(L, kName, tensor::Convert(self.tensor(), D, TensorAllocator(L)));
}

// [-0, +1, e]
NResultsOr PushText(const Tensor& t, lua_State* L, const char* method, Index max_elements) {
  absl::StatusOr<std::string> text = tensor::ToString(t, {.max_elements = max_elements});
  if (!text.ok()) return StatusError(method, text.status());
  Push(L, *text);
  return 1;
}

// [-1, +1, m] print(t), tostring(t).
NResultsOr ToStringMeta(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("__tostring"); !e.empty()) return e;
  return PushText(self.tensor(), L, "__tostring", tensor::PrintOptions{}.max_elements);
}

// [-(1|2), +1, m] t:tostring([maxElements]): long dimensions are elided
// once the tensor has more than maxElements (default 1024) elements.
NResultsOr ToStringMethod(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("tostring"); !e.empty()) return e;
  Index max_elements = tensor::PrintOptions{}.max_elements;
  if (!lua_isnoneornil(L, 2)) {
    if (std::string why = ReadInteger(L, 2, &max_elements); !why.empty()) {
      return ArgumentAt("tostring", 2, why);
    }
    if (max_elements < 0) {
      return ArgumentAt("tostring", 2,
                        absl::StrCat("maxElements must be at least 0, got ", max_elements));
    }
  }
  return PushText(self.tensor(), L, "tostring", max_elements);
}

// [-2, +1, -] a == b: type, shape and values, whatever the layouts.
NResultsOr Eq(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("__eq"); !e.empty()) return e;
  LuaTensor* other;
  if (std::string e = ReadTensorArgument(L, 2, "__eq", &other); !e.empty()) return e;
  absl::StatusOr<bool> equal = tensor::Equal(self.tensor(), other->tensor());
  if (!equal.ok()) return StatusError("__eq", equal.status());
  Push(L, *equal);
  return 1;
}

}  // namespace

void RegisterViewMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"type", &C::Member<&Type>},
                  {"size", &C::Member<&Size>},
                  {"shape", &C::Member<&Shape>},
                  {"ownsStorage", &C::Member<&OwnsStorage>},
                  {"val", &C::Member<&Val>},
                  {"select", &C::Member<&Select>},
                  {"__call", &C::Member<&Call>},
                  {"narrow", &C::Member<&Narrow>},
                  {"transpose", &C::Member<&Transpose>},
                  {"reverse", &C::Member<&Reverse>},
                  {"reshape", &C::Member<&Reshape>},
                  {"clone", &C::Member<&CloneTensor>},
                  {"byte", &C::Member<&ConvertTo<DType::kUInt8>>},
                  {"char", &C::Member<&ConvertTo<DType::kInt8>>},
                  {"int16", &C::Member<&ConvertTo<DType::kInt16>>},
                  {"int32", &C::Member<&ConvertTo<DType::kInt32>>},
                  {"int64", &C::Member<&ConvertTo<DType::kInt64>>},
                  {"float", &C::Member<&ConvertTo<DType::kFloat32>>},
                  {"double", &C::Member<&ConvertTo<DType::kFloat64>>},
                  {"__tostring", &C::Member<&ToStringMeta>},
                  {"tostring", &C::Member<&ToStringMethod>},
                  {"__eq", &C::Member<&Eq>},
              });
}

}  // namespace lua_api
