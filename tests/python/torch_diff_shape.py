"""torch_diff_test's operations: views, shapes, indexing and masks,
creation, the metadata of views.
"""

import torch

from torch_diff_ops import (ALL, BINARY, DTYPES, FLOATS, LAYOUTS, SCALAR, TERNARY,
                            UNARY, op, same_module_forms)

# --- Views ---------------------------------------------------------------

op("transpose", "return a:transpose(1, 3)", lambda a: a.transpose(0, 2),
   [(2, 3, 4)], ALL)
op("narrow", "return a:narrow(2, 2, 2)", lambda a: a.narrow(1, 1, 2),
   [(3, 4), (2, 3, 4)], ALL)
op("select", "return a:select(2, 3)", lambda a: a.select(1, 2), [(3, 4), (2, 3, 4)], ALL)
op("call", "return a(2)", lambda a: a[1], [(3, 4), (2, 3, 4)], ALL)
op("reverse", "return a:reverse(2)", lambda a: a.flip(1), [(3, 4), (2, 3, 4)], ALL)
_RESHAPE_LAYOUTS = ("contiguous", "strided")
op("reshape_merge",
   "local s = a:shape() local new = {s[1] * s[2]} "
   "for i = 3, #s do new[#new + 1] = s[i] end return a:reshape(new)",
   lambda a: a.reshape((-1,) + tuple(a.shape[2:])), [(3, 4), (2, 3, 4)], ALL,
   layouts=_RESHAPE_LAYOUTS)
op("reshape_split",
   "local s = a:shape() local n = s[#s] s[#s] = 2 s[#s + 1] = n / 2 "
   "return a:reshape(s)",
   lambda a: a.reshape(tuple(a.shape[:-1]) + (2, a.shape[-1] // 2)),
   [(8,), (3, 4), (2, 3, 4)], ALL, layouts=_RESHAPE_LAYOUTS)

# --- Shape views and derived tensors ---------------------------------------

op("t", "return a:t()", lambda a: a.t(), [(3, 4), (1, 5)], ALL)
op("t.module", "return T.t(a)", lambda a: a.t(), [(3, 4)], ALL)
op("permute", "return a:permute(3, 1, 2)", lambda a: a.permute(2, 0, 1), [(2, 3, 4)], ALL)
op("view", "return a:view(-1, 2)", lambda a: a.reshape(-1, 2), [(3, 4), (2, 3, 4)], ALL,
   layouts=_RESHAPE_LAYOUTS)
op("view_table", "local s = a:shape() return a:view{s[1] * s[2]}",
   lambda a: a.reshape(-1), [(3, 4)], ALL, layouts=_RESHAPE_LAYOUTS)
op("viewAs", "return a:viewAs(b)", lambda a, b: a.reshape(b.shape),
   [((3, 4), (6, 2)), ((2, 3, 4), (4, 6))], ALL, layouts=_RESHAPE_LAYOUTS)
op("expand", "return a:expand(3, 4)", lambda a: a.expand(3, 4), [(1, 4), (3, 1)], ALL)
op("expand_leading", "return a:expand(2, 3, 4)", lambda a: a.expand(2, 3, 4), [(4,)], ALL)
op("expandAs", "return a:expandAs(b)", lambda a, b: a.expand_as(b), [((1, 4), (3, 4))], ALL)
# Torch7's unfold(dim, size, step) is torch's.
op("unfold", "return a:unfold(2, 2, 1)", lambda a: a.unfold(1, 2, 1), [(3, 4), (2, 5, 2)],
   ALL)
op("unfold_step", "return a:unfold(1, 2, 2)", lambda a: a.unfold(0, 2, 2), [(7,), (5, 3)],
   ALL)
op("squeeze", "return a:squeeze()", lambda a: a.squeeze(), [(3, 1, 4), (1, 5), (1, 1, 2)],
   ALL)
op("squeeze_dim", "return a:squeeze(2)", lambda a: a.squeeze(1), [(3, 1, 4), (3, 2)], ALL)
op("unsqueeze", "return a:unsqueeze(2)", lambda a: a.unsqueeze(1), [(3, 4), (5,)], ALL)
op("sub_view", "return a:sub(2, 3, 1, 2)", lambda a: a[1:3, 0:2], [(3, 4), (4, 3, 2)], ALL)
# Torch7's split and chunk default to dimension 1 and give tables.
op("split", "return unpack(a:split(2))", lambda a: torch.split(a, 2, 0), [(5, 3), (4,)],
   ALL)
op("split_dim", "return unpack(a:split(3, 2))", lambda a: torch.split(a, 3, 1), [(2, 7)],
   ALL)
op("chunk", "return unpack(a:chunk(3))", lambda a: torch.chunk(a, 3, 0), [(7, 2), (6,)],
   ALL)
op("chunk_dim", "return unpack(a:chunk(2, 2))", lambda a: torch.chunk(a, 2, 1), [(2, 5)],
   ALL)
op("contiguous", "return a:contiguous()", lambda a: a.contiguous(), UNARY, ALL)
op("repeatTensor", "return a:repeatTensor(2, 3)", lambda a: a.repeat(2, 3), [(3, 4), (2,)],
   ALL)
op("repeatTensor.module", "return T.repeatTensor(a, 1, 2, 2)", lambda a: a.repeat(1, 2, 2),
   [(3, 4)], ALL)
# diag of a vector is a matrix, of a matrix its diagonal; k above (> 0)
# or below it.
for _k in (0, 1, -2):
    _arg = "" if _k == 0 else str(_k)
    op("diag%+d" % _k, "return a:diag(%s)" % _arg, lambda a, k=_k: torch.diag(a, k),
       [(4,), (3, 5), (5, 3), (4, 4)], ALL)
    op("tril%+d" % _k, "return a:tril(%s)" % _arg, lambda a, k=_k: torch.tril(a, k),
       [(3, 5), (5, 3), (4, 4)], ALL)
    op("triu%+d" % _k, "return a:triu(%s)" % _arg, lambda a, k=_k: torch.triu(a, k),
       [(3, 5), (5, 3), (4, 4)], ALL)
for _name, _f in (("diag", torch.diag), ("tril", torch.tril), ("triu", torch.triu)):
    op(_name + ".module", "return T.%s(a, 1)" % _name, lambda a, f=_f: f(a, 1),
       [(4, 4)], ALL)
    op(_name + ".res", "local r = a:clone() T.%s(r, a) return r" % _name, _f,
       [(3, 5)], ALL)

# --- Indexing and masks -----------------------------------------------------
#
# Index tensors are Int64Tensor and count from 1 (torch's from 0); masks
# are ByteTensor 0/1 (torch's bool).

_INDEX = {1: "Int64Tensor"}
_MASK = {1: "ByteTensor"}

op("index_dim1", "return a:index(1, b)", lambda a, i: a.index_select(0, i - 1),
   [((3, 4), (5,)), ((3, 2, 5), (2,))], ALL, kinds=("wide", "index3"), input_types=_INDEX)
op("index_dimlast", "return a:index(#a:shape(), b)", lambda a, i: a.index_select(-1, i - 1),
   [((3, 4), (6,)), ((2, 3, 4), (3,))], ALL, kinds=("wide", "index4"), input_types=_INDEX)
op("index.module", "return T.index(a, 1, b)", lambda a, i: a.index_select(0, i - 1),
   [((3, 4), (5,))], ALL, kinds=("wide", "index3"), input_types=_INDEX)
op("index.res", "local r = a:clone() T.index(r, a, 1, b) return r",
   lambda a, i: a.index_select(0, i - 1), [((3, 4), (5,))], ALL, kinds=("wide", "index3"),
   input_types=_INDEX)
op("indexCopy", "return a:indexCopy(1, b, c)",
   lambda a, i, src: a.index_copy(0, i - 1, src),
   [((3, 4), (2,), (2, 4)), ((3, 2, 5), (3,), (3, 2, 5))], ALL,
   kinds=("wide", "perm3", "wide"), input_types={1: "Int64Tensor"}, contiguous_inputs=(1,))
op("indexAdd", "return a:indexAdd(#a:shape(), b, c)",
   lambda a, i, src: a.index_add(-1, i - 1, src),
   [((3, 4), (6,), (3, 6)), ((2, 3, 4), (2,), (2, 3, 2))], ALL,
   kinds=("wide", "index4", "wide"), input_types={1: "Int64Tensor"})
op("indexFill", "return a:indexFill(1, b, $s)", lambda a, i, s: a.index_fill(0, i - 1, s),
   [((3, 4), (2,)), ((3, 2, 5), (4,))], ALL, kinds=("wide", "index3"), input_types=_INDEX,
   params={"s": SCALAR})
op("gather_dim1", "return a:gather(1, b)", lambda a, i: torch.gather(a, 0, i - 1),
   [((3, 4), (5, 4)), ((3, 4), (1, 4)), ((3, 2, 4), (4, 2, 4))], ALL,
   kinds=("wide", "index3"), input_types=_INDEX)
op("gather_dimlast", "return a:gather(#a:shape(), b)", lambda a, i: torch.gather(a, -1, i - 1),
   [((3, 4), (3, 6)), ((2, 4), (2, 2))], ALL, kinds=("wide", "index4"), input_types=_INDEX)
op("gather.module", "return T.gather(a, 1, b)", lambda a, i: torch.gather(a, 0, i - 1),
   [((3, 4), (5, 4))], ALL, kinds=("wide", "index3"), input_types=_INDEX)
# As in Torch7, gather's indices and scatter's indices and source have the
# input's extents in every other dimension (torch allows smaller ones).
# Indices distinct along the dimension: with repeats the order of the
# writes would decide, which torch leaves unspecified.
op("scatter_dim1", "return a:scatter(1, b, c)",
   lambda a, i, src: a.scatter(0, i - 1, src), [((3, 4), (2, 4), (2, 4)),
                                                ((4, 3), (2, 3), (5, 3))], ALL,
   kinds=("wide", "colperm3", "wide"), input_types={1: "Int64Tensor"},
   contiguous_inputs=(1,))
op("scatter_dimlast", "return a:scatter(2, b, c)",
   lambda a, i, src: a.scatter(1, i - 1, src), [((3, 4), (3, 2), (3, 2)),
                                                ((2, 4), (2, 4), (2, 5))], ALL,
   kinds=("wide", "rowperm4", "wide"), input_types={1: "Int64Tensor"},
   contiguous_inputs=(1,))
op("scatter_value", "return a:scatter(1, b, $s)", lambda a, i, s: a.scatter(0, i - 1, s),
   [((3, 4), (2, 4))], ALL, kinds=("wide", "colperm3"), input_types=_INDEX,
   contiguous_inputs=(1,), params={"s": SCALAR})
op("maskedSelect", "return a:maskedSelect(b)", lambda a, m: a.masked_select(m.bool()),
   BINARY, ALL, kinds=("wide", "mask"), input_types=_MASK)
op("maskedSelect.module", "return T.maskedSelect(a, b)",
   lambda a, m: a.masked_select(m.bool()), BINARY, ALL, kinds=("wide", "mask"),
   input_types=_MASK)
op("maskedCopy", "return a:maskedCopy(b, c)",
   lambda a, m, src: a.masked_scatter(m.bool(), src), TERNARY, ALL,
   kinds=("wide", "mask", "wide"), input_types=_MASK)
op("maskedFill", "return a:maskedFill(b, $s)", lambda a, m, s: a.masked_fill(m.bool(), s),
   BINARY, ALL, kinds=("wide", "mask"), input_types=_MASK, params={"s": SCALAR})
op("nonzero", "return a:nonzero()", lambda a: torch.nonzero(a) + 1, UNARY, ALL,
   kinds="ties")
op("nonzero.module", "return T.nonzero(a)", lambda a: torch.nonzero(a) + 1, UNARY, ALL,
   kinds="ties")
op("zero", "return a:zero()", torch.zeros_like, UNARY, ALL, kinds="wide")

# --- Creation ---------------------------------------------------------------
#
# New tensors are DoubleTensor; with res, res's type. Torch7's range is
# inclusive: x, x + step, ... up to y.

_NONE = [()]
_RES = "local r = T.$type(1) local out = T.%s(r, %s) return r, out"
_CREATE = (
    ("zeros", "3, 4", lambda dtype: torch.zeros(3, 4, dtype=dtype)),
    ("ones", "2, 3, 2", lambda dtype: torch.ones(2, 3, 2, dtype=dtype)),
    ("eye", "3", lambda dtype: torch.eye(3, dtype=dtype)),
    ("eye_rectangular", "3, 5", lambda dtype: torch.eye(3, 5, dtype=dtype)),
    ("range", "2, 11, 3", lambda dtype: torch.arange(2, 12, 3, dtype=dtype)),
    ("range_default_step", "1, 6", lambda dtype: torch.arange(1, 7, dtype=dtype)),
    ("range_down", "10, 1, -3", lambda dtype: torch.arange(10, 0, -3, dtype=dtype)),
    ("linspace", "-1, 2, 5", lambda dtype: torch.linspace(-1, 2, 5, dtype=dtype)),
    ("linspace_default", "0, 1",
     lambda dtype: torch.linspace(0, 1, 100, dtype=torch.float64).to(dtype)),
    ("logspace", "-1, 2, 4", lambda dtype: torch.logspace(-1, 2, 4, dtype=dtype)),
)
for _name, _args, _f in _CREATE:
    _function = _name.split("_")[0]
    op(_name, "return T.%s(%s)" % (_function, _args), lambda f=_f: f(torch.float64), _NONE,
       ("DoubleTensor",), layouts=("contiguous",))
    _types = FLOATS if _function in ("linspace", "logspace") else ALL
    op(_name + ".res", _RES % (_function, _args),
       lambda type, f=_f: (f(DTYPES[type]),) * 2, _NONE, _types, layouts=("contiguous",),
       params={"type": lambda t: t})
op("range_fractional", "return T.range(0, 1, 0.1)",
   lambda: torch.arange(11, dtype=torch.float64) * 0.1, _NONE, ("DoubleTensor",),
   layouts=("contiguous",))

# cat: the other extents equal; the dimension defaults to the last.
_CAT_SHAPES = [((3, 4), (2, 4)), ((2, 3), (5, 3)), ((1, 2, 3), (2, 2, 3))]
op("cat_dim1", "return T.cat(a, b, 1)", lambda a, b: torch.cat([a, b], 0), _CAT_SHAPES, ALL)
op("cat_default", "return T.cat(a, b)", lambda a, b: torch.cat([a, b], -1),
   [((3, 4), (3, 2)), ((5,), (2,))], ALL)
op("cat_table", "return T.cat({a, b, c}, 2)", lambda a, b, c: torch.cat([a, b, c], 1),
   [((2, 1), (2, 3), (2, 2)), ((1, 2, 3), (1, 1, 3), (1, 4, 3))], ALL)
op("cat.res", "local r = a:clone() T.cat(r, {a, b}, 1) return r",
   lambda a, b: torch.cat([a, b], 0), _CAT_SHAPES, ALL)

# --- Metadata of views --------------------------------------------------------
#
# Strides count elements in both; Torch7's storage offset counts from 1.

_VIEW_LAYOUTS = tuple(l for l in LAYOUTS if l != "reversed")
_META_SHAPES = [(7,), (3, 4), (2, 3, 4), (3, 1)]
op("nElement", "return a:nElement()", lambda a: a.numel(), _META_SHAPES, ALL,
   layouts=_VIEW_LAYOUTS, on_views=True)
op("dim", "return a:dim(), a:nDimension()", lambda a: (a.dim(), a.dim()), _META_SHAPES, ALL,
   layouts=_VIEW_LAYOUTS, on_views=True)
op("stride", "local s = {} for d = 1, a:dim() do s[d] = a:stride(d) end return unpack(s)",
   lambda a: a.stride(), _META_SHAPES, ALL, layouts=_VIEW_LAYOUTS, on_views=True)
op("storageOffset", "return a:storageOffset()", lambda a: a.storage_offset() + 1,
   _META_SHAPES, ALL, layouts=_VIEW_LAYOUTS, on_views=True)
op("isContiguous", "return a:isContiguous()", lambda a: a.is_contiguous(), _META_SHAPES, ALL,
   layouts=_VIEW_LAYOUTS, on_views=True)
op("add_number.module", "return T.add(a, $s), a", lambda a, s: (a + s, a), UNARY, ALL,
   kinds="real", params={"s": SCALAR})
op("size_shape", "return a:size(), unpack(a:shape())", lambda a: (a.numel(),) + tuple(a.shape),
   _META_SHAPES, ALL)
op("isSameSizeAs", "return a:isSameSizeAs(b), a:isSameSizeAs(c)",
   lambda a, b, c: (a.shape == b.shape, a.shape == c.shape),
   [((3, 4), (3, 4), (4, 3)), ((2, 3, 4), (2, 3, 4), (24,))], ALL)
# Shrinking keeps the first elements, in row-major order, in both.
op("resize", "local c = a:clone() c:resize(2, 3) return c",
   lambda a: a.clone().resize_(2, 3), [(3, 4), (2, 3, 4)], ALL)
op("resizeAs", "local c = a:clone() c:resizeAs(b) return c",
   lambda a, b: a.clone().resize_as_(b), [((3, 4), (5,)), ((2, 3, 4), (2, 2))], ALL,
   input_types={1: "DoubleTensor"})

same_module_forms("chunk", "contiguous", "expand", "expandAs", "indexAdd", "indexCopy",
                  "indexFill", "maskedCopy", "maskedFill", "permute", "scatter_dim1", "split",
                  "squeeze", "unfold", "unsqueeze", "view", "viewAs", "zero")
