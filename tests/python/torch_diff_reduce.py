"""torch_diff_test's operations: reductions along a dimension, sorting,
whole-tensor statistics.
"""

import torch

from torch_diff_ops import ALL, BINARY, FLOATS, UNARY, op, same_module_forms

# --- Reductions along a dimension, sorting ----------------------------------
#
# Torch7 keeps the reduced dimension (extent 1): keepdim=True. Its indices
# count from 1, torch's from 0. Integer sums and products along a dimension
# keep the type and wrap (torch promotes them to int64: cast back).

_LAST = "#a:shape()"


def _dims(lua_dim):
    """The torch dimension of a Lua dimension expression: 1 or the last."""
    return 0 if lua_dim == "1" else -1


def _keep_type(f):
    return lambda a, *rest, **p: f(a, *rest, **p).to(a.dtype)


def _abs_sum_along(dim):
    return lambda a: a.double().abs().sum(dim, keepdim=True)


def _values_indices(result):
    return result.values, result.indices + 1


for _d in ("1", _LAST):
    _dim = _dims(_d)
    _tag = "_dim1" if _d == "1" else "_dimlast"
    op("sum" + _tag, "return a:sum(%s)" % _d,
       _keep_type(lambda a, d=_dim: a.sum(d, keepdim=True)), UNARY, ALL, kinds="wide",
       scale=_abs_sum_along(_dim))
    op("sum" + _tag + ".module", "return T.sum(a, %s), a" % _d,
       lambda a, d=_dim: (a.sum(d, keepdim=True).to(a.dtype), a), UNARY, ALL,
       scale=lambda a, d=_dim: (_abs_sum_along(d)(a), 0.0))
    # res of another shape: resized.
    op("sum" + _tag + ".res",
       "local r = a:clone() local out = T.sum(r, a, %s) return r, out" % _d,
       lambda a, d=_dim: (a.sum(d, keepdim=True).to(a.dtype),) * 2, UNARY, ALL,
       scale=_abs_sum_along(_dim))
    op("prod" + _tag, "return a:prod(%s)" % _d,
       _keep_type(lambda a, d=_dim: a.prod(d, keepdim=True)), UNARY, ALL, kinds="tiny",
       scale=lambda a: 0.0)
    op("prod" + _tag + ".module", "return T.prod(a, %s)" % _d,
       _keep_type(lambda a, d=_dim: a.prod(d, keepdim=True)), UNARY, ALL, kinds="tiny",
       scale=lambda a: 0.0)
    op("mean" + _tag, "return a:mean(%s)" % _d,
       lambda a, d=_dim: a.mean(d, keepdim=True), UNARY, FLOATS,
       scale=lambda a, d=_dim: _abs_sum_along(d)(a) / a.shape[d])
    op("mean" + _tag + ".module", "return T.mean(a, %s)" % _d,
       lambda a, d=_dim: a.mean(d, keepdim=True), UNARY, FLOATS,
       scale=lambda a, d=_dim: _abs_sum_along(d)(a) / a.shape[d])
    for _name in ("var", "std"):
        _f = getattr(torch, _name)
        # Torch7's flag is `biased` (divide by n); torch's is `unbiased`.
        op(_name + _tag, "return a:%s(%s)" % (_name, _d),
           lambda a, d=_dim, f=_f: f(a, d, unbiased=True, keepdim=True), UNARY, FLOATS)
        op(_name + _tag + "_biased", "return a:%s(%s, true)" % (_name, _d),
           lambda a, d=_dim, f=_f: f(a, d, unbiased=False, keepdim=True), UNARY, FLOATS)
        op(_name + _tag + ".module", "return T.%s(a, %s, false)" % (_name, _d),
           lambda a, d=_dim, f=_f: f(a, d, unbiased=True, keepdim=True), UNARY, FLOATS)
    for _name in ("max", "min"):
        # The first of equal extremes, in both.
        op(_name + _tag, "return a:%s(%s)" % (_name, _d),
           lambda a, d=_dim, f=getattr(torch, _name): _values_indices(f(a, d, keepdim=True)),
           UNARY, ALL, kinds="ties")
        op(_name + _tag + ".module", "return T.%s(a, %s)" % (_name, _d),
           lambda a, d=_dim, f=getattr(torch, _name): _values_indices(f(a, d, keepdim=True)),
           UNARY, ALL, kinds="ties")
    # Which of equal values median, kthvalue and topk point to is not
    # specified (by either): distinct values test the indices, ties the
    # values and that the indices point at them (gathered).
    for _name, _args, _ref in (
            ("median", "", lambda a, d: torch.median(a, d, keepdim=True)),
            ("kthvalue", "2, ", lambda a, d: torch.kthvalue(a, 2, d, keepdim=True)),
            ("topk", "3, ", lambda a, d: torch.topk(a, min(3, a.shape[d]), d,
                                                   largest=False)),
            ("topk_largest", "3, ", lambda a, d: torch.topk(a, min(3, a.shape[d]), d,
                                                           largest=True))):
        _method = _name.split("_")[0]
        _k = "math.min(3, a:shape()[%s]), " % _d if _method == "topk" else _args
        _extra = ", true, true" if _name == "topk_largest" else ""
        op(_name + _tag, "return a:%s(%s%s%s)" % (_method, _k, _d, _extra),
           lambda a, d=_dim, f=_ref: _values_indices(f(a, d)), UNARY, ALL, kinds="distinct")
        op(_name + _tag + "_ties",
           "local v, i = a:%s(%s%s%s) return v, a:gather(%s, i)" % (
               _method, _k, _d, _extra, _d),
           lambda a, d=_dim, f=_ref: (f(a, d).values,) * 2, UNARY, ALL, kinds="ties")
    op("mode" + _tag, "local v, i = a:mode(%s) return v, a:gather(%s, i)" % (_d, _d),
       lambda a, d=_dim: (torch.mode(a, d, keepdim=True).values,) * 2, UNARY, ALL,
       kinds="ties")
    # A stable sort, in both (torch's with stable=True).
    op("sort" + _tag, "return a:sort(%s)" % _d,
       lambda a, d=_dim: _values_indices(torch.sort(a, dim=d, stable=True)), UNARY, ALL,
       kinds="ties")
    op("sort" + _tag + "_descending", "return a:sort(%s, true)" % _d,
       lambda a, d=_dim: _values_indices(torch.sort(a, dim=d, descending=True, stable=True)),
       UNARY, ALL, kinds="ties")
    op("sort" + _tag + ".module", "return T.sort(a, %s)" % _d,
       lambda a, d=_dim: _values_indices(torch.sort(a, dim=d, stable=True)), UNARY, ALL,
       kinds="ties")
    op("cumsum" + _tag, "return a:cumsum(%s)" % _d,
       _keep_type(lambda a, d=_dim: torch.cumsum(a, d)), UNARY, ALL, kinds="wide",
       scale=lambda a, d=_dim: torch.cumsum(a.double().abs(), d))
    op("cumsum" + _tag + ".module", "return T.cumsum(a, %s)" % _d,
       _keep_type(lambda a, d=_dim: torch.cumsum(a, d)), UNARY, ALL, kinds="wide",
       scale=lambda a, d=_dim: torch.cumsum(a.double().abs(), d))
    op("cumprod" + _tag, "return a:cumprod(%s)" % _d,
       _keep_type(lambda a, d=_dim: torch.cumprod(a, d)), UNARY, ALL, kinds="tiny",
       scale=lambda a: 0.0)
    for _p in (1, 2, 3):
        op("norm%d%s" % (_p, _tag), "return a:norm(%d, %s)" % (_p, _d),
           lambda a, d=_dim, p=_p: torch.linalg.vector_norm(a, p, d, keepdim=True),
           UNARY, FLOATS)
    op("norm" + _tag + ".module", "return T.norm(a, 2, %s)" % _d,
       lambda a, d=_dim: torch.linalg.vector_norm(a, 2, d, keepdim=True), UNARY, FLOATS)
    # Slices along the dimension: Torch7's renorm(p, dim, maxnorm) is
    # torch.renorm(p, dim, maxnorm), both scaling by maxnorm / (norm + 1e-7).
    op("renorm" + _tag, "return a:renorm(2, %s, 2.5)" % _d,
       lambda a, d=_dim: torch.renorm(a, 2, d if d >= 0 else a.dim() - 1, 2.5),
       [(3, 4), (2, 3, 4)], FLOATS)

op("cumsum_default", "return a:cumsum()", _keep_type(lambda a: torch.cumsum(a, 0)),
   UNARY, ALL, kinds="wide", scale=lambda a: torch.cumsum(a.double().abs(), 0))
op("sort_default", "return a:sort()",
   lambda a: _values_indices(torch.sort(a, dim=-1, stable=True)), UNARY, ALL, kinds="ties")
op("median_default", "return a:median()",
   lambda a: _values_indices(torch.median(a, -1, keepdim=True)), UNARY, ALL, kinds="distinct")

# Whole-tensor statistics: numbers.


def _as_double(a):
    return a.double() if a.is_floating_point() else a.long()


for _name, _ref in (("max", torch.max), ("min", torch.min)):
    op(_name + "_all", "return a:%s()" % _name, lambda a, f=_ref: f(a).item(), UNARY, ALL,
       kinds="wide")
op("prod_all", "return a:prod()", lambda a: _as_double(a).prod().item(), UNARY, ALL,
   kinds="tiny", scale=lambda a: 0.0)
op("mean_all", "return a:mean()", lambda a: a.double().mean().item(), UNARY, FLOATS,
   scale=lambda a: float(a.double().abs().mean()))
for _name in ("var", "std"):
    op(_name + "_all", "return a:%s()" % _name,
       lambda a, f=getattr(torch, _name): f(a.double()).item(), UNARY, FLOATS)
    op(_name + "_all_biased", "return a:%s(true)" % _name,
       lambda a, f=getattr(torch, _name): f(a.double(), unbiased=False).item(), UNARY, FLOATS)
for _p in (1, 2, 3):
    op("norm%d_all" % _p, "return a:norm(%d)" % _p,
       lambda a, p=_p: torch.linalg.vector_norm(a.double(), p).item(), UNARY, FLOATS)
op("norm_default", "return a:norm()",
   lambda a: torch.linalg.vector_norm(a.double()).item(), UNARY, FLOATS)
op("dist", "return a:dist(b)", lambda a, b: torch.dist(a.double(), b.double()).item(),
   BINARY, FLOATS)
op("dist3", "return a:dist(b, 3)", lambda a, b: torch.dist(a.double(), b.double(), 3).item(),
   BINARY, FLOATS)
op("dist.module", "return T.dist(a, b)",
   lambda a, b: torch.dist(a.double(), b.double()).item(), BINARY, FLOATS)
op("trace", "return a:trace()", lambda a: torch.trace(_as_double(a)).item(),
   [(4, 4), (3, 5), (5, 2)], ALL, kinds="wide",
   scale=lambda a: float(torch.diagonal(a.double()).abs().sum()))
op("trace.module", "return T.trace(a)", lambda a: torch.trace(_as_double(a)).item(),
   [(4, 4)], ALL, kinds="wide",
   scale=lambda a: float(torch.diagonal(a.double()).abs().sum()))
for _name in ("all", "any"):
    op(_name, "return a:%s()" % _name, lambda a, f=getattr(torch, _name): bool(f(a.bool())),
       UNARY, ("ByteTensor",), kinds="mask")

# NaN: a maximum or minimum with a NaN is NaN, at the first NaN's index, in
# both; so are sums. torch's sort puts NaN after every number (before, in
# descending order).
for _name in ("max", "min"):
    op(_name + "_nan_dimlast", "return a:%s(#a:shape())" % _name,
       lambda a, f=getattr(torch, _name): _values_indices(f(a, -1, keepdim=True)),
       UNARY, FLOATS, kinds="nans")
    op(_name + "_nan_all", "return a:%s()" % _name,
       lambda a, f=getattr(torch, _name): f(a).item(), UNARY, FLOATS, kinds="nans")
op("sum_nan", "return a:sum()", lambda a: a.double().sum().item(), UNARY, FLOATS,
   kinds="nans")
op("sort_nan", "return a:sort()",
   lambda a: _values_indices(torch.sort(a, dim=-1, stable=True)), UNARY, FLOATS,
   kinds="nans")
op("sort_nan_descending", "return a:sort(true)",
   lambda a: _values_indices(torch.sort(a, dim=-1, descending=True, stable=True)), UNARY,
   FLOATS, kinds="nans")

# Edge values (infinities, NaN, -0, huge and subnormal numbers; see
# torch_diff_math.py). Float sums accumulate in double, as Torch7's accreal
# does (torch's float32 accumulator overflows where double does not: 3e38 +
# 3e38 - inf is NaN in float32 and -inf in double).
op("max_edge_dimlast", "return a:max(#a:shape())",
   lambda a: _values_indices(torch.max(a, -1, keepdim=True)), UNARY, FLOATS,
   kinds="extremes")
op("sum_edge_dimlast", "return a:sum(#a:shape())",
   lambda a: a.double().sum(-1, keepdim=True).to(a.dtype), UNARY, FLOATS, kinds="extremes")
op("cumsum_edge", "return a:cumsum(1)", lambda a: torch.cumsum(a, 0), UNARY, FLOATS,
   kinds="extremes")
op("sort_edge", "return a:sort()",
   lambda a: _values_indices(torch.sort(a, dim=-1, stable=True)), UNARY, FLOATS,
   kinds="extremes")

same_module_forms("all", "any", "cumprod_dim1", "kthvalue_dim1", "median_dim1", "mode_dim1",
                  "topk_dimlast", "renorm_dim1")
