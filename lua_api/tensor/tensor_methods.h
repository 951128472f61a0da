// The methods of dmlab.system.tensor, in groups, one .cc file each.
//
// Each Register*Methods adds its group to the metatable registered as
// `metatable` (see Class<LuaTensor>::Register). The module registers them
// all once, in LuaTensor::kFamily, which every type in kLuaDTypes shares.
#ifndef LUA_API_TENSOR_TENSOR_METHODS_H_
#define LUA_API_TENSOR_TENSOR_METHODS_H_

#include "lua_api/lua/lua.h"

namespace lua_api {

// type, size, shape, ownsStorage, val, __call, select, narrow, transpose,
// reverse, reshape, clone and the seven conversions, __tostring, tostring,
// __eq.                                               tensor_methods_view.cc
void RegisterViewMethods(lua_State* L, const char* metatable);

// fill, add, sub, mul, div (a number meets an integer tensor in double, as
// in DeepMind Lab), copy, cadd, csub, cmul, cdiv, floor, ceil, round,
// clamp, product, lengthSquared, dot, mmul.
//                                                     tensor_methods_math.cc
void RegisterMathMethods(lua_State* L, const char* metatable);

// The metatable whose methods fill, add, sub, mul and div take a number
// (or table) the tensor's type holds and compute in that type, as Torch7
// does: dmlab.system.torch's, after it truncates the number. The methods
// of RegisterMathMethods compute in double, as DeepMind Lab does.
inline constexpr char kWholeScalarMethods[] = "dmlab.system.tensor (whole scalar methods)";
void RegisterWholeScalarMethods(lua_State* L, const char* metatable);

// apply, applyIndexed, shuffle.               tensor_methods_functional.cc
void RegisterFunctionalMethods(lua_State* L, const char* metatable);

// abs, sign, neg, cinv, acos, asin, atan, cos, cosh, sin, sinh, tan, tanh,
// exp, log, log1p, sqrt, rsqrt, sigmoid, trunc, frac, pow, fmod,
// remainder, cpow, cfmod, cremainder, atan2, cmax, cmin, lerp, addcmul,
// addcdiv.                                       tensor_methods_elementwise.cc
void RegisterElementwiseMethods(lua_State* L, const char* metatable);

// lt, le, gt, ge, eq, ne.                          tensor_methods_compare.cc
void RegisterCompareMethods(lua_State* L, const char* metatable);

// index, indexCopy, indexAdd, indexFill, gather, scatter, maskedSelect,
// maskedCopy, maskedFill, nonzero, resize, resizeAs, zero.
//                                                    tensor_methods_index.cc
void RegisterIndexMethods(lua_State* L, const char* metatable);

// map, map2.                                           tensor_methods_map.cc
void RegisterMapMethods(lua_State* L, const char* metatable);

// nElement, dim, nDimension, stride, isContiguous, contiguous,
// storageOffset, isSameSizeAs, isSize.            tensor_methods_metadata.cc
void RegisterMetadataMethods(lua_State* L, const char* metatable);

// t, permute, view, viewAs, expand, expandAs, unfold, squeeze, unsqueeze,
// split, chunk, repeatTensor, diag, tril, triu.      tensor_methods_shape.cc
void RegisterShapeMethods(lua_State* L, const char* metatable);

// uniform, normal, bernoulli.                       tensor_methods_random.cc
void RegisterRandomMethods(lua_State* L, const char* metatable);

// gesv, trtrs, gels, inverse, potrf, potrs, potri, symeig, eig, svd, qr.
//                                                   tensor_methods_lapack.cc
void RegisterLapackMethods(lua_State* L, const char* metatable);

// sum, prod, mean, var, std, max, min, median, mode, kthvalue, cumsum,
// cumprod, sort, topk, norm, renorm, dist, trace, all, any.
//                                                   tensor_methods_reduce.cc
void RegisterReduceMethods(lua_State* L, const char* metatable);

// mm, mv, ger, bmm, addmm, addmv, addr, addbmm, baddbmm.
//                                                     tensor_methods_blas.cc
void RegisterBlasMethods(lua_State* L, const char* metatable);

// cuda, cpu, device.                                tensor_methods_device.cc
void RegisterDeviceMethods(lua_State* L, const char* metatable);

// Under LuaJIT with its `ffi` module, replaces fill, add, sub, mul and div
// with wrappers that take a compiled fast path for one number. Call it
// after RegisterMathMethods.                           tensor_methods_ffi.cc
void RegisterFfiFastPaths(lua_State* L, const char* metatable);

// Each Register*Functions adds its group's module functions (tensor.floor,
// ...) to the module table at stack `module_index`; see module_functions.h.

// floor, ceil, round, clamp, mul, div, cmul, cdiv, dot.
//                                                     tensor_methods_math.cc
void RegisterMathFunctions(lua_State* L, int module_index);

// The methods of RegisterElementwiseMethods, and add.
//                                                tensor_methods_elementwise.cc
void RegisterElementwiseFunctions(lua_State* L, int module_index);

// lt, le, gt, ge, eq, ne.                          tensor_methods_compare.cc
void RegisterCompareFunctions(lua_State* L, int module_index);

// index, gather, maskedSelect, nonzero ([res,] forms); indexCopy,
// indexAdd, indexFill, scatter, maskedCopy, maskedFill, zero (as the
// methods).                                          tensor_methods_index.cc
void RegisterIndexFunctions(lua_State* L, int module_index);

// contiguous (as the method).                    tensor_methods_metadata.cc
void RegisterMetadataFunctions(lua_State* L, int module_index);

// diag, tril, triu, repeatTensor ([res,] forms); t, permute, view, viewAs,
// expand, expandAs, unfold, squeeze, unsqueeze, split, chunk (as the
// methods).                                          tensor_methods_shape.cc
void RegisterShapeFunctions(lua_State* L, int module_index);

// zeros, ones, eye, range, linspace, logspace, rand, randn, randperm, cat.
//                                                   tensor_module_create.cc
void RegisterCreateFunctions(lua_State* L, int module_index);

// t:sub(d1s, d1e [, d2s, d2e, ...]), Torch7's view by inclusive index
// ranges; the math group's `sub` dispatches here when given more than one
// argument.                                          tensor_methods_shape.cc
class LuaTensor;
class NResultsOr;
NResultsOr SubView(LuaTensor& self, lua_State* L);

// inverse, potrf, potri ([res,] forms); gesv, trtrs, gels, potrs, symeig,
// eig, svd, qr (as the methods).                  tensor_methods_lapack.cc
void RegisterLapackFunctions(lua_State* L, int module_index);

// sum, prod, mean, var, std, cumsum, cumprod, norm ([res,] forms); max,
// min, median, mode, kthvalue, sort, topk, dist, trace, all, any (as the
// methods); renorm (in place on res or a clone).   tensor_methods_reduce.cc
void RegisterReduceFunctions(lua_State* L, int module_index);

// mm, mv, ger, bmm, addmm, addmv, addr, addbmm, baddbmm ([res,] forms,
// parsed for Torch7's optional scalars); conv2, xcorr2.
//                                                     tensor_methods_blas.cc
void RegisterBlasFunctions(lua_State* L, int module_index);

}  // namespace lua_api

#endif  // LUA_API_TENSOR_TENSOR_METHODS_H_
