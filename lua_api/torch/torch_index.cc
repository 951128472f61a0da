#include "lua_api/torch/torch_index.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/torch/torch_tensor.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/masked.h"
#include "tensor/tensor.h"

namespace lua_api {
namespace {

using tensor::Index;
using tensor::Tensor;

// What a key selects: a view, or one element (a rank-0 view) where the
// last index fell on a rank-1 tensor.
struct Selection {
  Tensor view;
  bool element = false;
};

const char* TorchName(tensor::DType dtype) {
  const TorchType* type = FindTorchType(dtype);
  return type != nullptr ? type->short_name : tensor::DTypeTensorName(dtype);
}

// A 1-based index into an extent, negative from the end, as 0-based.
std::string ReadPosition(lua_State* L, int index, const char* method, const char* what, int dim,
                         Index extent, Index* out) {
  std::int64_t value;
  if (std::string why = ReadInteger(L, index, &value); !why.empty()) {
    return ArgumentError(method, 1, absl::StrCat(what, ": ", why));
  }
  const Index position = value < 0 ? extent + value : value - 1;
  if (position < 0 || position >= extent) {
    return ArgumentError(method, 1,
                         absl::StrCat(what, " ", value, " out of range for dimension ", dim + 1,
                                      " of size ", extent));
  }
  *out = position;
  return {};
}

// The range table at stack top ({a, b}, {a} or {}) narrows dimension `dim`.
std::string NarrowByRange(lua_State* L, const char* method, int dim, Selection* selection) {
  const Index extent = selection->view.shape()[dim];
  Index start = 0, end = extent - 1;
  lua_rawgeti(L, -1, 1);
  if (!lua_isnil(L, -1)) {
    if (std::string e = ReadPosition(L, -1, method, "start index", dim, extent, &start);
        !e.empty()) {
      return e;
    }
    end = start;
  }
  lua_pop(L, 1);
  lua_rawgeti(L, -1, 2);
  if (!lua_isnil(L, -1)) {
    if (std::string e = ReadPosition(L, -1, method, "end index", dim, extent, &end); !e.empty()) {
      return e;
    }
  }
  lua_pop(L, 1);
  if (end < start) {
    return ArgumentError(method, 1,
                         absl::StrCat("end index ", end + 1, " is before start index ", start + 1,
                                      " in dimension ", dim + 1));
  }
  absl::StatusOr<Tensor> narrowed = selection->view.Narrow(dim, start, end - start + 1);
  if (!narrowed.ok()) return StatusError(method, narrowed.status());
  selection->view = *std::move(narrowed);
  return {};
}

// Index `position` of the leading dimension `dim`: an element of a rank-1
// view, else a select.
std::string SelectPosition(const char* method, int dim, Index position, Selection* selection) {
  selection->element = selection->view.rank() == 1;
  absl::StatusOr<Tensor> selected = selection->view.Select(dim, position);
  if (!selected.ok()) return StatusError(method, selected.status());
  selection->view = *std::move(selected);
  return {};
}

// The table key at stack 2: entries in dimension order, each a number
// (select), a range table (narrow) or nothing (stop).
std::string SelectByTable(lua_State* L, const char* method, Selection* selection) {
  const int rank = selection->view.rank();
  const auto entries = static_cast<int>(lua_objlen(L, 2));
  if (entries > rank) {
    return ArgumentError(method, 1,
                         absl::StrCat("too many indices (", entries, ") for a tensor of rank ",
                                      rank));
  }
  int dim = 0;  // the dimension the next entry indexes; selects remove one
  for (int entry = 1; entry <= rank && !selection->element; ++entry) {
    lua_rawgeti(L, 2, entry);
    std::string error;
    if (lua_type(L, -1) == LUA_TNUMBER) {
      Index position;
      error = ReadPosition(L, -1, method, "index", entry - 1, selection->view.shape()[dim],
                           &position);
      if (error.empty()) error = SelectPosition(method, dim, position, selection);
    } else if (lua_type(L, -1) == LUA_TTABLE) {
      error = NarrowByRange(L, method, dim, selection);
      ++dim;
    } else {
      lua_pop(L, 1);
      break;
    }
    lua_pop(L, 1);
    if (!error.empty()) return error;
  }
  return {};
}

// What the number or table key at stack 2 selects from `self`.
std::string Select(lua_State* L, const char* method, const Tensor& self, Selection* selection) {
  selection->view = self;
  if (self.rank() == 0) return ArgumentError(method, 1, "indexing a tensor with no dimension");
  if (lua_type(L, 2) == LUA_TTABLE) return SelectByTable(L, method, selection);
  Index position;
  if (std::string e = ReadPosition(L, 2, method, "index", 0, self.shape()[0], &position);
      !e.empty()) {
    return e;
  }
  return SelectPosition(method, 0, position, selection);
}

// The ByteTensor mask at stack 2, or null if the key is no tensor.
std::string ReadMask(lua_State* L, const char* method, LuaTensor** mask) {
  *mask = LuaTensor::Read(L, 2);
  if (*mask == nullptr) return {};
  if (std::string e = ReadTensorArgument(L, 2, method, mask); !e.empty()) return e;
  if ((*mask)->tensor().dtype() != tensor::DType::kUInt8) {
    return ArgumentError(method, 1,
                         absl::StrCat("a mask must be a ByteTensor, not a ",
                                      TorchName((*mask)->tensor().dtype())));
  }
  return {};
}

double ReadElement(const Tensor& element, std::byte* data) {
  return tensor::DispatchDType(element.dtype(), [data](auto tag) -> double {
    using T = typename decltype(tag)::type;
    return static_cast<double>(static_cast<tensor::ComputeType<T>>(*reinterpret_cast<T*>(data)));
  });
}

// [-0, +0, e] Stores the number or tensor at stack 3 into `destination`.
NResultsOr Assign(lua_State* L, const char* method, const Tensor& destination) {
  if (lua_type(L, 3) == LUA_TNUMBER) {
    double value;
    if (std::string why = TorchValue(lua_tonumber(L, 3), destination.dtype(), &value);
        !why.empty()) {
      return ArgumentError(method, 2, why);
    }
    const double values[] = {value};
    absl::Status s = tensor::ApplyScalars(destination, tensor::ElementOp::kAssign, values);
    if (!s.ok()) return StatusError(method, s);
    return 0;
  }
  LuaTensor* source;
  if (std::string e = ReadTensorArgument(L, 3, method, &source); !e.empty()) {
    return ArgumentError(method, 2, Expected(L, 3, "number or tensor"));
  }
  if (source->tensor().num_elements() != destination.num_elements()) {
    return ArgumentError(method, 2,
                         absl::StrCat("the tensor has ", source->tensor().num_elements(),
                                      " elements, the indexed part ",
                                      destination.num_elements()));
  }
  absl::Status s =
      tensor::ApplyComponents(destination, tensor::ElementOp::kAssign, source->tensor());
  if (!s.ok()) return StatusError(method, s);
  return 0;
}

// [-0, +0, e]
NResultsOr MaskedAssign(lua_State* L, const char* method, const Tensor& self, const Tensor& mask) {
  absl::Status s;
  if (lua_type(L, 3) == LUA_TNUMBER) {
    double value;
    if (std::string why = TorchValue(lua_tonumber(L, 3), self.dtype(), &value); !why.empty()) {
      return ArgumentError(method, 2, why);
    }
    s = tensor::MaskedFill(self, mask, value);
  } else {
    LuaTensor* source;
    if (std::string e = ReadTensorArgument(L, 3, method, &source); !e.empty()) {
      return ArgumentError(method, 2, Expected(L, 3, "number or tensor"));
    }
    s = tensor::MaskedCopy(self, mask, source->tensor());
  }
  if (!s.ok()) return StatusError(method, s);
  return 0;
}

}  // namespace

std::string TorchValue(double value, tensor::DType dtype, double* stored) {
  if (tensor::IsFloating(dtype)) {
    *stored = value;
    return {};
  }
  const double whole = std::trunc(value);
  if (!CheckValue(whole, dtype).empty()) {
    char number[32];
    std::snprintf(number, sizeof(number), "%.17g", value);
    return absl::StrCat(TorchName(dtype), " cannot hold ", number);
  }
  *stored = whole;
  return {};
}

NResultsOr TorchIndexGet(LuaTensor& self, lua_State* L) {
  constexpr char kMethod[] = "__index";
  if (std::string e = self.CheckSelf(kMethod); !e.empty()) return e;
  LuaTensor* mask;
  if (std::string e = ReadMask(L, kMethod, &mask); !e.empty()) return e;
  if (mask != nullptr) {
    return PushTorchResult(L, kMethod,
                           tensor::MaskedSelect(self.tensor(), mask->tensor(), TensorAllocator(L)));
  }
  if (lua_type(L, 2) != LUA_TNUMBER && lua_type(L, 2) != LUA_TTABLE) {
    lua_pushnil(L);
    return 1;
  }
  Selection selection;
  if (std::string e = Select(L, kMethod, self.tensor(), &selection); !e.empty()) return e;
  if (!selection.element) return PushTorchResult(L, kMethod, std::move(selection.view));
  absl::StatusOr<std::byte*> data = selection.view.data();
  if (!data.ok()) return StatusError(kMethod, data.status());
  lua_pushnumber(L, ReadElement(selection.view, *data));
  return 1;
}

NResultsOr TorchElement(LuaTensor& self, lua_State* L, const char* method) {
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  Selection selection;
  if (std::string e = Select(L, method, self.tensor(), &selection); !e.empty()) return e;
  absl::StatusOr<std::byte*> data = selection.view.data();
  if (!data.ok()) return StatusError(method, data.status());
  lua_pushnumber(L, ReadElement(selection.view, *data));
  return 1;
}

NResultsOr TorchIndexSet(LuaTensor& self, lua_State* L) {
  constexpr char kMethod[] = "__newindex";
  if (std::string e = self.CheckSelf(kMethod); !e.empty()) return e;
  LuaTensor* mask;
  if (std::string e = ReadMask(L, kMethod, &mask); !e.empty()) return e;
  if (mask != nullptr) return MaskedAssign(L, kMethod, self.tensor(), mask->tensor());
  if (lua_type(L, 2) != LUA_TNUMBER && lua_type(L, 2) != LUA_TTABLE) {
    return ArgumentError(kMethod, 1,
                         Expected(L, 2, "index (number, table or ByteTensor mask); tensors "
                                        "take no fields"));
  }
  Selection selection;
  if (std::string e = Select(L, kMethod, self.tensor(), &selection); !e.empty()) return e;
  return Assign(L, kMethod, selection.view);
}

}  // namespace lua_api
