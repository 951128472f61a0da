// The LAPACK methods of dmlab.system.tensor, Torch7's linear algebra:
//   x, lu = b:gesv(a)                  e, v = a:symeig('V' [, 'U'|'L'])
//   x = b:trtrs(a [, uplo] [, trans] [, diag])
//   x, qr = b:gels(a)                  e, v = a:eig('V')
//   inv = a:inverse()                  u, s, v = a:svd(['S'|'A'])
//   chol = a:potrf(['U'|'L'])          q, r = a:qr()
//   u, piv = a:pstrf(['U'|'L'])
//   x = b:potrs(chol [, 'U'|'L'])      inv = chol:potri(['U'|'L'])
// and the module functions tensor.gesv(b, a), ... (see
// RegisterLapackFunctions).
//
// Each reads its Lua arguments and calls one function of tensor/lapack.h,
// which checks everything and never writes to its inputs; every result is
// a new owning row-major tensor. Options are Torch7's one-letter strings,
// in Torch7's order; nil (or leaving it out) takes the default.
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/module_functions.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/lapack.h"

namespace lua_api {
namespace {

using tensor::Tensor;
using tensor::Triangle;

// [-0, +0, -] Reads the option at stack `index` (argument `index - 1` of
// `method`), which must be the string `first` or `second`, or nil (or
// absent) to keep the default. Sets *second_given when it is `second`,
// clears it when it is `first`.
std::string ReadChoice(lua_State* L, int index, const char* method, const char* first,
                       const char* second, bool* second_given) {
  if (lua_isnoneornil(L, index)) return {};
  const std::string expected = absl::StrCat("'", first, "' or '", second, "'");
  if (lua_type(L, index) != LUA_TSTRING) {
    return ArgumentAt(method, index, Expected(L, index, expected));
  }
  std::string value;
  ReadString(L, index, &value);  // cannot fail: the type was just checked
  if (value != first && value != second) {
    return ArgumentAt(method, index, absl::StrCat(expected, " expected, got '", value, "'"));
  }
  *second_given = value == second;
  return {};
}

// [-0, +0, -] 'U' (the default) or 'L' at stack `index`.
std::string ReadTriangle(lua_State* L, int index, const char* method, Triangle* triangle) {
  bool lower = false;
  if (std::string e = ReadChoice(L, index, method, "U", "L", &lower); !e.empty()) return e;
  *triangle = lower ? Triangle::kLower : Triangle::kUpper;
  return {};
}

// [-0, +n, m] Pushes the tensors in order.
template <typename... Tensors>
NResultsOr PushAll(lua_State* L, Tensors&&... tensors) {
  (LuaTensor::Push(L, std::forward<Tensors>(tensors)), ...);
  return static_cast<int>(sizeof...(Tensors));
}

// Reads self and the tensor argument after it, for b:gesv(a) and the like.
std::string ReadSelfAndMatrix(LuaTensor& self, lua_State* L, const char* method,
                              LuaTensor** matrix) {
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  return ReadTensorArgument(L, 2, method, matrix);
}

// [-0, +2, e] b:gesv(a): X with a X = b, and a's LU factors.
NResultsOr Gesv(LuaTensor& self, lua_State* L) {
  LuaTensor* a = nullptr;
  if (std::string e = ReadSelfAndMatrix(self, L, "gesv", &a); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 2, "gesv"); !e.empty()) return e;
  absl::StatusOr<tensor::LuSolution> x = tensor::Gesv(self.tensor(), a->tensor(), TensorAllocator(L));
  if (!x.ok()) return StatusError("gesv", x.status());
  return PushAll(L, std::move(x->solution), std::move(x->lu));
}

// [-0, +1, e] b:trtrs(a [, 'U'|'L'] [, 'N'|'T'] [, 'N'|'U']).
NResultsOr Trtrs(LuaTensor& self, lua_State* L) {
  LuaTensor* a = nullptr;
  if (std::string e = ReadSelfAndMatrix(self, L, "trtrs", &a); !e.empty()) return e;
  tensor::TriangularSystem system;
  if (std::string e = ReadTriangle(L, 3, "trtrs", &system.triangle); !e.empty()) return e;
  if (std::string e = ReadChoice(L, 4, "trtrs", "N", "T", &system.transpose); !e.empty()) {
    return e;
  }
  if (std::string e = ReadChoice(L, 5, "trtrs", "N", "U", &system.unit_diagonal); !e.empty()) {
    return e;
  }
  if (std::string e = CheckNoMore(L, 5, "trtrs"); !e.empty()) return e;
  return PushResult(L, "trtrs", tensor::Trtrs(self.tensor(), a->tensor(), system, TensorAllocator(L)));
}

// [-0, +2, e] b:gels(a): the least squares (or least norm) solution, and
// a's QR (or LQ) factors as LAPACK leaves them.
NResultsOr Gels(LuaTensor& self, lua_State* L) {
  LuaTensor* a = nullptr;
  if (std::string e = ReadSelfAndMatrix(self, L, "gels", &a); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 2, "gels"); !e.empty()) return e;
  absl::StatusOr<tensor::LeastSquares> x = tensor::Gels(self.tensor(), a->tensor(), TensorAllocator(L));
  if (!x.ok()) return StatusError("gels", x.status());
  return PushAll(L, std::move(x->solution), std::move(x->factored));
}

// [-0, +1, e] a:inverse().
NResultsOr Inverse(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("inverse"); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 1, "inverse"); !e.empty()) return e;
  return PushResult(L, "inverse", tensor::Inverse(self.tensor(), TensorAllocator(L)));
}

// [-0, +1, e] a:potrf(['U'|'L']): the Cholesky factor.
NResultsOr Potrf(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("potrf"); !e.empty()) return e;
  Triangle triangle = Triangle::kUpper;
  if (std::string e = ReadTriangle(L, 2, "potrf", &triangle); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 2, "potrf"); !e.empty()) return e;
  return PushResult(L, "potrf", tensor::Potrf(self.tensor(), triangle, TensorAllocator(L)));
}

// [-0, +2, e] a:pstrf(['U'|'L']): the pivoted Cholesky factor, and the
// pivots (an Int32Tensor, 1-based).
NResultsOr Pstrf(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("pstrf"); !e.empty()) return e;
  Triangle triangle = Triangle::kUpper;
  if (std::string e = ReadTriangle(L, 2, "pstrf", &triangle); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 2, "pstrf"); !e.empty()) return e;
  absl::StatusOr<tensor::PivotedCholesky> factored =
      tensor::Pstrf(self.tensor(), triangle, /*tolerance=*/-1, TensorAllocator(L));
  if (!factored.ok()) return StatusError("pstrf", factored.status());
  return PushAll(L, std::move(factored->factor), std::move(factored->pivots));
}

// [-0, +1, e] b:potrs(chol [, 'U'|'L']).
NResultsOr Potrs(LuaTensor& self, lua_State* L) {
  LuaTensor* chol = nullptr;
  if (std::string e = ReadSelfAndMatrix(self, L, "potrs", &chol); !e.empty()) return e;
  Triangle triangle = Triangle::kUpper;
  if (std::string e = ReadTriangle(L, 3, "potrs", &triangle); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 3, "potrs"); !e.empty()) return e;
  return PushResult(L, "potrs",
                    tensor::Potrs(self.tensor(), chol->tensor(), triangle, TensorAllocator(L)));
}

// [-0, +1, e] chol:potri(['U'|'L']).
NResultsOr Potri(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("potri"); !e.empty()) return e;
  Triangle triangle = Triangle::kUpper;
  if (std::string e = ReadTriangle(L, 2, "potri", &triangle); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 2, "potri"); !e.empty()) return e;
  return PushResult(L, "potri", tensor::Potri(self.tensor(), triangle, TensorAllocator(L)));
}

// [-0, +1 or 2, e] Pushes e, and V if it was asked for.
NResultsOr PushEigen(lua_State* L, const char* method, bool vectors,
                     absl::StatusOr<tensor::Eigensystem> eigen) {
  if (!eigen.ok()) return StatusError(method, eigen.status());
  if (!vectors) return PushAll(L, std::move(eigen->values));
  return PushAll(L, std::move(eigen->values), std::move(eigen->vectors));
}

// [-0, +1 or 2, e] a:symeig(['N'|'V'] [, 'U'|'L']): e, and V with 'V'.
NResultsOr Symeig(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("symeig"); !e.empty()) return e;
  bool vectors = false;
  if (std::string e = ReadChoice(L, 2, "symeig", "N", "V", &vectors); !e.empty()) return e;
  Triangle triangle = Triangle::kUpper;
  if (std::string e = ReadTriangle(L, 3, "symeig", &triangle); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 3, "symeig"); !e.empty()) return e;
  return PushEigen(L, "symeig", vectors,
                   tensor::Symeig(self.tensor(), vectors, triangle, TensorAllocator(L)));
}

// [-0, +1 or 2, e] a:eig(['N'|'V']): e (n x 2), and V with 'V'.
NResultsOr Eig(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("eig"); !e.empty()) return e;
  bool vectors = false;
  if (std::string e = ReadChoice(L, 2, "eig", "N", "V", &vectors); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 2, "eig"); !e.empty()) return e;
  return PushEigen(L, "eig", vectors, tensor::Eig(self.tensor(), vectors, TensorAllocator(L)));
}

// [-0, +3, e] a:svd(['S'|'A']): U, S, V with a = U diag(S) V^T.
NResultsOr Svd(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("svd"); !e.empty()) return e;
  bool all = false;
  if (std::string e = ReadChoice(L, 2, "svd", "S", "A", &all); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 2, "svd"); !e.empty()) return e;
  absl::StatusOr<tensor::SvdFactors> svd = tensor::Svd(self.tensor(), all, TensorAllocator(L));
  if (!svd.ok()) return StatusError("svd", svd.status());
  return PushAll(L, std::move(svd->u), std::move(svd->s), std::move(svd->v));
}

// [-0, +2, e] a:qr(): Q, R with a = Q R.
NResultsOr Qr(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("qr"); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 1, "qr"); !e.empty()) return e;
  absl::StatusOr<tensor::QrFactors> qr = tensor::Qr(self.tensor(), TensorAllocator(L));
  if (!qr.ok()) return StatusError("qr", qr.status());
  return PushAll(L, std::move(qr->q), std::move(qr->r));
}

}  // namespace

void RegisterLapackMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"gesv", &C::Member<&Gesv>},
                  {"trtrs", &C::Member<&Trtrs>},
                  {"gels", &C::Member<&Gels>},
                  {"inverse", &C::Member<&Inverse>},
                  {"potrf", &C::Member<&Potrf>},
                  {"pstrf", &C::Member<&Pstrf>},
                  {"potrs", &C::Member<&Potrs>},
                  {"potri", &C::Member<&Potri>},
                  {"symeig", &C::Member<&Symeig>},
                  {"eig", &C::Member<&Eig>},
                  {"svd", &C::Member<&Svd>},
                  {"qr", &C::Member<&Qr>},
              });
}

void RegisterLapackFunctions(lua_State* L, int module_index) {
  SetModuleFunctions(L, module_index,
                     {
                         // tensor.inverse([res,] x) and the like: one
                         // result, which Torch7 lets a res receive.
                         {"inverse", ModuleForm::kResult, 1},
                         {"potrf", ModuleForm::kResult, 1},
                         {"potri", ModuleForm::kResult, 1},
                         // Several results, or a tensor argument after x
                         // that a res could not be told from: the method.
                         {"gesv", ModuleForm::kSame, 2},
                         {"trtrs", ModuleForm::kSame, 2},
                         {"gels", ModuleForm::kSame, 2},
                         {"potrs", ModuleForm::kSame, 2},
                         {"pstrf", ModuleForm::kSame, 1},
                         {"symeig", ModuleForm::kSame, 1},
                         {"eig", ModuleForm::kSame, 1},
                         {"svd", ModuleForm::kSame, 1},
                         {"qr", ModuleForm::kSame, 1},
                     });
}

}  // namespace lua_api
