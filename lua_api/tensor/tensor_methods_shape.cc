// Tensor methods after Torch7: the views (t, permute, view, expand,
// unfold, squeeze, sub, split, ...) and the copies derived from one tensor
// (repeatTensor, diag, tril, triu).
//
// Dimensions and indices are 1-based here and checked here, so that
// messages count from 1; the core (tensor.h, create.h) counts from 0.
// Views share storage and validity with self, as select and narrow do.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/lua_memory.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/extents_argument.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/module_functions.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/create.h"
#include "tensor/tensor.h"
#include "tensor/work_meter.h"

namespace lua_api {
namespace {

using tensor::Index;
using tensor::Tensor;

// Reads an optional integer (absent or nil: `fallback`).
std::string ReadOptionalInteger(lua_State* L, int index, const char* method, Index fallback,
                                Index* out) {
  *out = fallback;
  if (lua_isnoneornil(L, index)) return {};
  std::int64_t value;
  if (std::string why = ReadInteger(L, index, &value); !why.empty()) {
    return ArgumentAt(method, index, why);
  }
  *out = value;
  return {};
}

// [-1, +1, m] The transpose of a matrix.
NResultsOr T(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("t"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  if (t.rank() != 2) {
    return absl::StrCat("'t': the tensor must have rank 2, got shape ", t.layout().ShapeString());
  }
  return PushResult(L, "t", t.Transpose(0, 1));
}

// [-(k+1), +1, m] permute(d1, ..., dk): result dimension i is dimension di.
NResultsOr Permute(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("permute"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  const int given = lua_gettop(L) - 1;
  if (given != t.rank()) {
    return absl::StrCat("'permute': ", given, " dimensions given for shape ",
                        t.layout().ShapeString(), "; give each of its ", t.rank(), " once");
  }
  std::vector<int> order(given);
  std::vector<bool> seen(given, false);
  for (int i = 0; i < given; ++i) {
    if (std::string e = ReadDim(L, i + 2, t, "permute", &order[i]); !e.empty()) return e;
    if (seen[order[i]]) {
      return ArgumentAt("permute", i + 2, absl::StrCat("dimension ", order[i] + 1, " given twice"));
    }
    seen[order[i]] = true;
  }
  return PushResult(L, "permute", t.Permute(order));
}

// [-(k+1), +1, m] view(d1, ..., dk) or view{...}: the same elements in
// row-major order under a new shape, without a copy; one extent may be -1.
NResultsOr View(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("view"); !e.empty()) return e;
  std::vector<Index> shape;
  if (std::string e = ReadExtents(L, 2, 1, "view", ExtentsAllow::kInferred, &shape); !e.empty()) {
    return e;
  }
  absl::StatusOr<Tensor> view = self.tensor().Reshape(shape);
  if (!view.ok()) {
    return absl::StrCat("'view': ", absl::StripPrefix(view.status().message(), "reshape: "));
  }
  return PushResult(L, "view", *std::move(view));
}

// [-2, +1, m] viewAs(u): view(u's shape).
NResultsOr ViewAs(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("viewAs"); !e.empty()) return e;
  LuaTensor* other = nullptr;
  if (std::string e = ReadTensorArgument(L, 2, "viewAs", &other); !e.empty()) return e;
  absl::StatusOr<Tensor> view = self.tensor().Reshape(other->tensor().shape());
  if (!view.ok()) {
    return absl::StrCat("'viewAs': ", absl::StripPrefix(view.status().message(), "reshape: "));
  }
  return PushResult(L, "viewAs", *std::move(view));
}

// [-(k+1), +1, m] expand(d1, ..., dk) or expand{...}: extent-1 dimensions
// repeated with stride 0, and new leading ones; -1 keeps an extent.
NResultsOr Expand(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("expand"); !e.empty()) return e;
  std::vector<Index> shape;
  if (std::string e = ReadExtents(L, 2, 1, "expand", ExtentsAllow::kKeep, &shape); !e.empty()) {
    return e;
  }
  return PushResult(L, "expand", self.tensor().Expand(shape));
}

// [-2, +1, m] expandAs(u): expand(u's shape).
NResultsOr ExpandAs(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("expandAs"); !e.empty()) return e;
  LuaTensor* other = nullptr;
  if (std::string e = ReadTensorArgument(L, 2, "expandAs", &other); !e.empty()) return e;
  return PushResult(L, "expandAs", self.tensor().Expand(other->tensor().shape()));
}

// [-4, +1, m] unfold(dim, size, step): every window of `size` entries of
// `dim`, `step` apart, along a new last dimension.
NResultsOr Unfold(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("unfold"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  int dim;
  Index size, step;
  if (std::string e = ReadDim(L, 2, t, "unfold", &dim); !e.empty()) return e;
  if (std::string e = ReadBounded(L, 3, "unfold", "size", 1, t.shape()[dim], &size); !e.empty()) {
    return e;
  }
  if (std::string e = ReadBounded(L, 4, "unfold", "step", 1, INT64_MAX, &step); !e.empty()) {
    return e;
  }
  return PushResult(L, "unfold", t.Unfold(dim, size, step));
}

// [-(1|2), +1, m] squeeze(): without its extent-1 dimensions (shape {1}
// if all are); squeeze(dim): without `dim` if its extent is 1, else the
// same shape, as Torch7.
NResultsOr Squeeze(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("squeeze"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  if (lua_gettop(L) == 1) return PushResult(L, "squeeze", t.Squeeze());
  int dim;
  if (std::string e = ReadDim(L, 2, t, "squeeze", &dim); !e.empty()) return e;
  if (t.shape()[dim] != 1 || t.rank() == 1) return PushResult(L, "squeeze", t.WithLayout(t.layout()));
  return PushResult(L, "squeeze", t.Squeeze(dim));
}

// [-2, +1, m] unsqueeze(dim): a new extent-1 dimension at position `dim`
// (1 to rank + 1).
NResultsOr Unsqueeze(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("unsqueeze"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  int dim;
  if (std::string e = ReadDim(L, 2, t, "unsqueeze", &dim, 1); !e.empty()) return e;
  return PushResult(L, "unsqueeze", t.Unsqueeze(dim));
}

// Reads index `index` of a dimension of `extent` for sub: 1 .. extent, or
// -extent .. -1 counting from the end (-1 the last). Sets the 0-based *out.
std::string ReadSubIndex(lua_State* L, int index, Index extent, Index* out) {
  std::int64_t value;
  if (std::string why = ReadInteger(L, index, &value); !why.empty()) {
    return ArgumentAt("sub", index, why);
  }
  if (value == 0 || value > extent || value < -extent) {
    return ArgumentAt("sub", index,
                      absl::StrCat("index ", value, " out of range [1, ", extent, "] (or [-",
                                   extent, ", -1] from the end)"));
  }
  *out = value > 0 ? value - 1 : extent + value;
  return {};
}

}  // namespace

// [-(2k+1), +1, m] sub(d1s, d1e [, d2s, d2e, ...]): entries ds to de
// (inclusive) of each dimension d given.
NResultsOr SubView(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("sub"); !e.empty()) return e;
  Tensor view = self.tensor();
  const int given = lua_gettop(L) - 1;
  if ((given + 1) / 2 > view.rank()) {
    return ArgumentAt("sub", 2 * view.rank() + 2,
                      absl::StrCat("too many indices: ", given, " for a tensor of rank ",
                                   view.rank()));
  }
  for (int dim = 0; 2 * dim < given; ++dim) {
    const int index = 2 * dim + 2;
    Index start, end;
    const Index extent = view.shape()[dim];
    if (std::string e = ReadSubIndex(L, index, extent, &start); !e.empty()) return e;
    if (std::string e = ReadSubIndex(L, index + 1, extent, &end); !e.empty()) return e;
    if (end < start) {
      return ArgumentAt("sub", index + 1,
                        absl::StrCat("end ", end + 1, " is before start ", start + 1));
    }
    absl::StatusOr<Tensor> narrowed = view.Narrow(dim, start, end - start + 1);
    if (!narrowed.ok()) return StatusError("sub", narrowed.status());
    view = *std::move(narrowed);
  }
  return PushResult(L, "sub", std::move(view));
}

namespace {

// [-0, +1, m] A table of views of `t`, narrowed to `size` entries of `dim`
// each (the last may be shorter).
NResultsOr PushPieces(lua_State* L, const char* method, const Tensor& t, int dim, Index size) {
  const Index extent = t.shape()[dim];
  const Index count = extent / size + (extent % size != 0);  // no overflow for huge sizes
  // A tensor without elements may have a dimension of 2^62 entries.
  if (count > std::numeric_limits<int>::max()) {
    return ArgumentError(method, 1, absl::StrCat(count, " pieces are more than a table holds"));
  }
  // Each piece is a tensor object: check that they fit (lua_memory.h).
  constexpr std::size_t kBytesPerPiece = 64;
  if (std::string e = CheckLuaMemory(
          L, static_cast<std::size_t>(count) * (kBytesPerPiece + LuaTensor::NativeBytesOfRank(t.rank())),
          method);
      !e.empty()) {
    return e;
  }
  // Each piece is a view and a userdata made in C++, about 2 us: work the
  // watchdog sees (work_meter.h), some 256 Lua instructions' worth.
  constexpr Index kWorkPerPiece = 256;
  if (absl::Status charged = tensor::ChargeWork(kWorkPerPiece * count); !charged.ok()) {
    return StatusError(method, charged);
  }
  lua_createtable(L, static_cast<int>(count), 0);
  for (Index i = 0; i < count; ++i) {
    absl::StatusOr<Tensor> piece = t.Narrow(dim, i * size, std::min(size, extent - i * size));
    if (!piece.ok()) return StatusError(method, piece.status());
    LuaTensor::Push(L, *std::move(piece));
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
  return 1;
}

// [-(2|3), +1, m] split(size [, dim = 1]): views of `size` entries of
// `dim` each, the last one shorter if need be.
NResultsOr Split(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("split"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  Index size;
  int dim = 0;
  if (std::string e = ReadBounded(L, 2, "split", "size", 1, INT64_MAX, &size); !e.empty()) return e;
  if (t.rank() == 0) return "'split': the tensor is empty";
  if (!lua_isnoneornil(L, 3)) {
    if (std::string e = ReadDim(L, 3, t, "split", &dim); !e.empty()) return e;
  }
  return PushPieces(L, "split", t, dim, size);
}

// [-(2|3), +1, m] chunk(n [, dim = 1]): split into at most n views of
// ceil(extent / n) entries each.
NResultsOr Chunk(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("chunk"); !e.empty()) return e;
  const Tensor& t = self.tensor();
  Index n;
  int dim = 0;
  if (std::string e = ReadBounded(L, 2, "chunk", "count", 1, INT64_MAX, &n); !e.empty()) return e;
  if (t.rank() == 0) return "'chunk': the tensor is empty";
  if (!lua_isnoneornil(L, 3)) {
    if (std::string e = ReadDim(L, 3, t, "chunk", &dim); !e.empty()) return e;
  }
  const Index extent = t.shape()[dim];
  // An empty dimension gives no pieces, as split does (not a size of 0).
  return PushPieces(L, "chunk", t, dim, std::max<Index>(1, extent / n + (extent % n != 0)));
}

// [-(k+1), +1, m] repeatTensor(r1, ..., rk) or repeatTensor{...}: a new
// tensor of self tiled ri times along dimension i.
NResultsOr RepeatTensor(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("repeatTensor"); !e.empty()) return e;
  std::vector<Index> repeats;
  if (std::string e = ReadExtents(L, 2, 1, "repeatTensor", ExtentsAllow::kPositive, &repeats);
      !e.empty()) {
    return e;
  }
  return PushResult(L, "repeatTensor",
                    tensor::RepeatTensor(self.tensor(), repeats, TensorAllocator(L)));
}

using Derive = absl::StatusOr<Tensor> (*)(const Tensor&, Index, tensor::Allocator&);

// [-(1|2), +1, m] diag([k]), tril([k]), triu([k]): a new tensor.
template <Derive kDerive, const char* kName>
NResultsOr DiagonalOp(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf(kName); !e.empty()) return e;
  Index k;
  if (std::string e = ReadOptionalInteger(L, 2, kName, 0, &k); !e.empty()) return e;
  return PushResult(L, kName, kDerive(self.tensor(), k, TensorAllocator(L)));
}
constexpr char kDiag[] = "diag";
constexpr char kTril[] = "tril";
constexpr char kTriu[] = "triu";

}  // namespace

void RegisterShapeMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"t", &C::Member<&T>},
                  {"permute", &C::Member<&Permute>},
                  {"view", &C::Member<&View>},
                  {"viewAs", &C::Member<&ViewAs>},
                  {"expand", &C::Member<&Expand>},
                  {"expandAs", &C::Member<&ExpandAs>},
                  {"unfold", &C::Member<&Unfold>},
                  {"squeeze", &C::Member<&Squeeze>},
                  {"unsqueeze", &C::Member<&Unsqueeze>},
                  {"split", &C::Member<&Split>},
                  {"chunk", &C::Member<&Chunk>},
                  {"repeatTensor", &C::Member<&RepeatTensor>},
                  {"diag", &C::Member<&DiagonalOp<&tensor::Diag, kDiag>>},
                  {"tril", &C::Member<&DiagonalOp<&tensor::Tril, kTril>>},
                  {"triu", &C::Member<&DiagonalOp<&tensor::Triu, kTriu>>},
              });
}

void RegisterShapeFunctions(lua_State* L, int module_index) {
  SetModuleFunctions(L, module_index,
                     {
                         {"diag", ModuleForm::kResult, 1},
                         {"tril", ModuleForm::kResult, 1},
                         {"triu", ModuleForm::kResult, 1},
                         {"repeatTensor", ModuleForm::kResult, 2},
                         {"t", ModuleForm::kSame, 1},
                         {"permute", ModuleForm::kSame, 1},
                         {"view", ModuleForm::kSame, 2},
                         {"viewAs", ModuleForm::kSame, 2},
                         {"expand", ModuleForm::kSame, 2},
                         {"expandAs", ModuleForm::kSame, 2},
                         {"unfold", ModuleForm::kSame, 4},
                         {"squeeze", ModuleForm::kSame, 1},
                         {"unsqueeze", ModuleForm::kSame, 2},
                         {"split", ModuleForm::kSame, 2},
                         {"chunk", ModuleForm::kSame, 2},
                     });
}

}  // namespace lua_api
