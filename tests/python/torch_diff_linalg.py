"""torch_diff_test's operations: BLAS products, convolution, LAPACK.
"""

import torch

from torch_diff_ops import ALL, FLOATS, LUA_HELPERS, by_type, op, same_module_forms

# --- BLAS products ----------------------------------------------------------
#
# Integer products accumulate exactly and wrap to the type (int64 here,
# then cast). Torch7's method form: self is the destination, M defaults to
# self, and a lone scalar before the operands is v2.

_V1, _V2 = by_type(2, 0.5), by_type(-3, -1.5, byte=3)


def _exact(f):
    """f on floats as torch computes it; on integers in int64, then wrapped."""
    def run(*tensors, **params):
        if tensors[0].is_floating_point():
            return f(*tensors, **params)
        return f(*(t.long() for t in tensors), **params).to(tensors[0].dtype)
    return run


def _abs_scale(f):
    return lambda *tensors, **params: f(*(t.double().abs() for t in tensors),
                                        **{k: abs(v) for k, v in params.items()})


_PRODUCTS = (
    # name, Lua operands, torch's product, shapes of (M,) lhs, rhs
    ("mm", torch.mm, [((3, 4), (4, 5)), ((1, 6), (6, 1)), ((5, 5), (5, 5))]),
    ("mv", torch.mv, [((3, 4), (4,)), ((1, 5), (5,)), ((6, 2), (2,))]),
    ("ger", torch.outer, [((3,), (4,)), ((1,), (5,))]),
    ("bmm", torch.bmm, [((2, 3, 4), (2, 4, 5)), ((3, 1, 2), (3, 2, 2))]),
)
for _name, _f, _shapes in _PRODUCTS:
    _ref = _exact(_f)
    _scale = _abs_scale(_f)
    op(_name, "local r = a:clone() local out = r:%s(a, b) return r, out" % _name,
       lambda a, b, f=_ref: (f(a, b),) * 2, _shapes, ALL, kinds="wide",
       scale=lambda a, b, s=_scale: (s(a, b),) * 2)
    op(_name + ".module", "return T.%s(a, b), a" % _name,
       lambda a, b, f=_ref: (f(a, b), a), _shapes, ALL, kinds="wide",
       scale=lambda a, b, s=_scale: (s(a, b), 0.0))
    op(_name + ".res", "local r = T.%s(1) local out = T.%s(r, a, b) return r, out" % (
        "$type", _name), lambda a, b, type, f=_ref: (f(a, b),) * 2, _shapes, ALL,
       kinds="wide", params={"type": lambda t: t},
       scale=lambda a, b, type, s=_scale: (s(a, b),) * 2)

_ADD_PRODUCTS = (
    ("addmm", lambda m, a, b, beta, alpha: torch.addmm(m, a, b, beta=beta, alpha=alpha),
     [((3, 5), (3, 4), (4, 5)), ((1, 1), (1, 6), (6, 1))]),
    ("addmv", lambda m, a, b, beta, alpha: torch.addmv(m, a, b, beta=beta, alpha=alpha),
     [((3,), (3, 4), (4,)), ((6,), (6, 2), (2,))]),
    ("addr", lambda m, a, b, beta, alpha: torch.addr(m, a, b, beta=beta, alpha=alpha),
     [((3, 4), (3,), (4,)), ((1, 5), (1,), (5,))]),
    ("addbmm", lambda m, a, b, beta, alpha: torch.addbmm(m, a, b, beta=beta, alpha=alpha),
     [((3, 5), (2, 3, 4), (2, 4, 5))]),
    ("baddbmm", lambda m, a, b, beta, alpha: torch.baddbmm(m, a, b, beta=beta, alpha=alpha),
     [((2, 3, 5), (2, 3, 4), (2, 4, 5))]),
)
for _name, _f, _shapes in _ADD_PRODUCTS:
    _ref = _exact(_f)
    _scale = _abs_scale(_f)
    _common = dict(kinds="wide", params={"v1": _V1, "v2": _V2})
    op(_name, "local out = a:%s(b, c) return a, out" % _name,
       lambda m, a, b, v1, v2, f=_ref: (f(m, a, b, beta=1, alpha=1),) * 2, _shapes, ALL,
       scale=lambda m, a, b, v1, v2, s=_scale: s(m, a, b, beta=1, alpha=1), **_common)
    op(_name + "_v2", "return a:%s($v2, b, c)" % _name,
       lambda m, a, b, v1, v2, f=_ref: f(m, a, b, beta=1, alpha=v2), _shapes, ALL,
       scale=lambda m, a, b, v1, v2, s=_scale: s(m, a, b, beta=1, alpha=v2), **_common)
    op(_name + "_v1_m_v2", "local r = a:clone():fill(0) r:%s($v1, a, $v2, b, c) return r"
       % _name, lambda m, a, b, v1, v2, f=_ref: f(m, a, b, beta=v1, alpha=v2), _shapes, ALL,
       scale=lambda m, a, b, v1, v2, s=_scale: s(m, a, b, beta=v1, alpha=v2), **_common)
    op(_name + ".module", "return T.%s(a, b, c), a" % _name,
       lambda m, a, b, v1, v2, f=_ref: (f(m, a, b, beta=1, alpha=1), m), _shapes, ALL,
       scale=lambda m, a, b, v1, v2, s=_scale: (s(m, a, b, beta=1, alpha=1), 0.0),
       **_common)
    op(_name + ".module_scaled", "return T.%s($v1, a, $v2, b, c)" % _name,
       lambda m, a, b, v1, v2, f=_ref: f(m, a, b, beta=v1, alpha=v2), _shapes, ALL,
       scale=lambda m, a, b, v1, v2, s=_scale: s(m, a, b, beta=v1, alpha=v2), **_common)
    op(_name + ".res", "local r = a:clone():fill(0) T.%s(r, $v1, a, $v2, b, c) return r"
       % _name, lambda m, a, b, v1, v2, f=_ref: f(m, a, b, beta=v1, alpha=v2), _shapes, ALL,
       scale=lambda m, a, b, v1, v2, s=_scale: s(m, a, b, beta=v1, alpha=v2), **_common)

# --- Convolution ------------------------------------------------------------
#
# Torch7's conv2 is a true convolution (the kernel flipped), xcorr2 a
# cross-correlation (torch's conv2d); 'V' valid (the default), 'F' full.
# 3-D x with 3-D k convolves plane by plane; with 4-D k (q x p x ki x kj)
# each output plane sums over the input planes. torch's conv2d takes no
# integers: those are summed here from shifted slices, exactly in int64,
# and wrapped.


def _int_xcorr(x, k, full):
    x, k = x.long(), k.long()
    ki, kj = k.shape[-2:]
    if full:
        x = torch.nn.functional.pad(x, (kj - 1, kj - 1, ki - 1, ki - 1))
    oh, ow = x.shape[-2] - ki + 1, x.shape[-1] - kj + 1
    out = 0
    for i in range(ki):
        for j in range(kj):
            window = x[..., i:i + oh, j:j + ow]
            if k.dim() == 4:
                out = out + (window[None] * k[:, :, i, j, None, None]).sum(1)
            elif k.dim() == 3:
                out = out + window * k[:, i, j, None, None]
            else:
                out = out + window * k[i, j]
    return out


def _conv(x, k, flip, full):
    if flip:
        k = k.flip(-2, -1)
    if not x.is_floating_point():
        return _int_xcorr(x, k, full).to(x.dtype)
    padding = (k.shape[-2] - 1, k.shape[-1] - 1) if full else 0
    conv2d = torch.nn.functional.conv2d
    if x.dim() == 2:
        return conv2d(x[None, None], k[None, None], padding=padding)[0, 0]
    if k.dim() == 3:
        return conv2d(x[None], k[:, None], padding=padding, groups=x.shape[0])[0]
    return conv2d(x[None], k, padding=padding)[0]


_CONV_SHAPES = [((5, 6), (2, 3)), ((4, 4), (4, 4)), ((2, 5, 4), (2, 2, 2)),
                ((2, 5, 4), (3, 2, 3, 2))]
for _name, _flip in (("conv2", True), ("xcorr2", False)):
    for _mode, _full in (("", False), (", 'V'", False), (", 'F'", True)):
        _tag = {"": "", ", 'V'": "_valid", ", 'F'": "_full"}[_mode]
        op(_name + _tag, "return T.%s(a, b%s)" % (_name, _mode),
           lambda x, k, f=_flip, full=_full: _conv(x, k, f, full), _CONV_SHAPES, ALL,
           kinds="wide",
           scale=lambda x, k, f=_flip, full=_full: _conv(x.double().abs(), k.double().abs(),
                                                         f, full))
    op(_name + ".res", "local r = a:clone() local out = T.%s(r, a, b, 'F') return r, out"
       % _name, lambda x, k, f=_flip: (_conv(x, k, f, True),) * 2, _CONV_SHAPES, ALL,
       kinds="wide",
       scale=lambda x, k, f=_flip: (_conv(x.double().abs(), k.double().abs(), f, True),) * 2)

# --- LAPACK -----------------------------------------------------------------
#
# In the Lua bodies the right-hand side B comes first (a), as in Torch7's
# b:gesv(A); the torch references name them b and a.
# Results that are unique only up to signs are brought to one form on both
# sides: eigenvectors and singular vectors with each column's entry of
# largest magnitude positive (u and v of one singular value flipped
# together), QR with R's diagonal positive. Eigenvalues of a general
# matrix (Torch7: n x 2, real and imaginary parts) are compared sorted.

LUA_HELPERS.append("""
-- A copy of t holding `values` (val(table) returns the table).
local function withValues(t, values)
  local copy = t:clone()
  copy:val(values)
  return copy
end

local function columnSigns(V, W)
  local v, w = V:val(), W and W:val()
  for j = 1, #v[1] do
    local best = 0
    for i = 1, #v do
      if math.abs(v[i][j]) > math.abs(best) then best = v[i][j] end
    end
    if best < 0 then
      for i = 1, #v do v[i][j] = -v[i][j] end
      if w then for i = 1, #w do w[i][j] = -w[i][j] end end
    end
  end
  return withValues(V, v), W and withValues(W, w)
end

local function qrSigns(Q, R)
  local q, r = Q:val(), R:val()
  for i = 1, math.min(#r, #r[1]) do
    if r[i][i] < 0 then
      for j = 1, #r[1] do r[i][j] = -r[i][j] end
      for k = 1, #q do q[k][i] = -q[k][i] end
    end
  end
  return withValues(Q, q), withValues(R, r)
end

local function sortedRows(e)
  local rows = e:val()
  table.sort(rows, function(x, y) return x[1] < y[1] or (x[1] == y[1] and x[2] < y[2]) end)
  return withValues(e, rows)
end
""")


def _column_signs(v, w=None):
    picked = v[v.abs().argmax(0), torch.arange(v.shape[1])]
    signs = torch.where(picked < 0, -1.0, 1.0).to(v.dtype)
    return (v * signs,) if w is None else (v * signs, w * signs)


def _qr_signs(q, r):
    k = min(r.shape)
    signs = torch.ones(r.shape[0], dtype=r.dtype)
    signs[:k] = torch.where(torch.diagonal(r)[:k] < 0, -1.0, 1.0).to(r.dtype)
    return q * signs[:q.shape[1]], r * signs[:, None]


def _sorted_eigenvalues(a):
    e = torch.linalg.eigvals(a)
    rows = sorted(zip(e.real.tolist(), e.imag.tolist()))
    return torch.tensor(rows, dtype=a.dtype)


_SOLVE_SHAPES = [((3, 2), (3, 3)), ((5, 1), (5, 5)), ((4, 4), (4, 4))]
_SOLVE_KINDS = ("real", "wellcond")
op("gesv", "return a:gesv(b)",
   lambda b, a: (torch.linalg.solve(a, b), torch.linalg.lu_factor(a).LU),
   _SOLVE_SHAPES, FLOATS, kinds=_SOLVE_KINDS)
op("gesv.module", "return T.gesv(a, b)",
   lambda b, a: (torch.linalg.solve(a, b), torch.linalg.lu_factor(a).LU),
   _SOLVE_SHAPES, FLOATS, kinds=_SOLVE_KINDS)
# Only a's triangle is read, in both.
for _args, _upper, _transpose, _unit in (("", True, False, False), (", 'L'", False, False, False),
                                         (", 'U', 'T'", True, True, False),
                                         (", 'L', 'N', 'U'", False, False, True)):
    op("trtrs" + _args.replace(", ", "_").replace("'", ""), "return a:trtrs(b%s)" % _args,
       lambda b, a, up=_upper, tr=_transpose, unit=_unit: torch.linalg.solve_triangular(
           a.T if tr else a, b, upper=up != tr, unitriangular=unit),
       _SOLVE_SHAPES, FLOATS, kinds=_SOLVE_KINDS)
# gels: for m >= n, Torch7 (LAPACK) leaves the solution in the first n rows
# of an m x k result, and a's QR factors as geqrf does; for m < n, the
# minimum-norm solution, n x k.
op("gels", "local x, f = a:gels(b) return x:narrow(1, 1, b:shape()[2]), f",
   lambda b, a: (torch.linalg.lstsq(a, b).solution, torch.geqrf(a)[0]),
   [((5, 2), (5, 3)), ((4, 1), (4, 4))], FLOATS, kinds=("real", "wellcond"))
op("gels_underdetermined", "return (a:gels(b))",
   lambda b, a: torch.linalg.lstsq(a, b, driver="gelsd").solution,
   [((2, 2), (2, 4))], FLOATS, kinds=("real", "wellcond"))
module_forms_lapack = (
    ("inverse", "", torch.linalg.inv, "wellcond"),
    ("potrf", "", lambda a: torch.linalg.cholesky(a, upper=True), "spd"),
    ("potri", "", lambda a: torch.cholesky_inverse(a, upper=True), "wellcond"),
)
for _name, _args, _ref, _kind in module_forms_lapack:
    op(_name, "return a:%s()" % _name, _ref, [(3, 3), (5, 5), (1, 1)], FLOATS, kinds=_kind)
    op(_name + ".module", "return T.%s(a), a" % _name, lambda a, f=_ref: (f(a), a),
       [(4, 4)], FLOATS, kinds=_kind)
    op(_name + ".res", "local r = a:clone() local out = T.%s(r, a) return r, out" % _name,
       lambda a, f=_ref: (f(a),) * 2, [(4, 4)], FLOATS, kinds=_kind)
op("potrf_lower", "return a:potrf('L')", torch.linalg.cholesky, [(3, 3), (5, 5)], FLOATS,
   kinds="spd")
op("potri_lower", "return a:potri('L')", lambda a: torch.cholesky_inverse(a, upper=False),
   [(3, 3), (5, 5)], FLOATS, kinds="wellcond")
op("potrs", "return a:potrs(b)", lambda b, a: torch.cholesky_solve(b, a, upper=True),
   _SOLVE_SHAPES, FLOATS, kinds=_SOLVE_KINDS)
op("potrs_lower", "return a:potrs(b, 'L')",
   lambda b, a: torch.cholesky_solve(b, a, upper=False), _SOLVE_SHAPES, FLOATS,
   kinds=_SOLVE_KINDS)
# symeig reads one triangle ('U' by default), as eigh's UPLO does; a
# non-symmetric input shows which.
_EIGEN_SHAPES = [(3, 3), (5, 5), (1, 1)]
op("symeig", "return a:symeig()", lambda a: torch.linalg.eigvalsh(a, UPLO="U"),
   _EIGEN_SHAPES, FLOATS)
op("symeig_lower", "return a:symeig('N', 'L')", lambda a: torch.linalg.eigvalsh(a, UPLO="L"),
   _EIGEN_SHAPES, FLOATS)
op("symeig_vectors", "local e, v = a:symeig('V') return e, (columnSigns(v))",
   lambda a: (torch.linalg.eigvalsh(a),) + _column_signs(torch.linalg.eigh(a).eigenvectors),
   _EIGEN_SHAPES, FLOATS, kinds="symmetric")
op("symeig.module", "local e, v = T.symeig(a, 'V', 'L') return e, (columnSigns(v))",
   lambda a: (torch.linalg.eigvalsh(a, UPLO="L"),)
   + _column_signs(torch.linalg.eigh(a, UPLO="L").eigenvectors),
   [(4, 4)], FLOATS, kinds="symmetric")
op("eig", "return sortedRows(a:eig())", _sorted_eigenvalues, _EIGEN_SHAPES, FLOATS,
   kinds="wellcond")
op("eig_unsymmetric", "return sortedRows(a:eig('N'))", _sorted_eigenvalues, [(4, 4)], FLOATS)


def _svd(a, full):
    u, s, vh = torch.linalg.svd(a, full_matrices=full)
    u, v = _column_signs(u, vh.T)
    return u, s, v


op("svd", "local u, s, v = a:svd() u, v = columnSigns(u, v) return u, s, v",
   lambda a: _svd(a, False), [(4, 3), (3, 5), (4, 4), (1, 3)], FLOATS)
op("svd_all", "local u, s, v = a:svd('A') u, v = columnSigns(u, v) return u, s, v",
   lambda a: _svd(a, True), [(4, 4), (2, 2)], FLOATS)
op("svd.module", "local u, s, v = T.svd(a) u, v = columnSigns(u, v) return u, s, v",
   lambda a: _svd(a, False), [(4, 3)], FLOATS)
op("qr", "return qrSigns(a:qr())", lambda a: _qr_signs(*torch.linalg.qr(a)),
   [(4, 3), (3, 3), (3, 5)], FLOATS)
op("qr.module", "return qrSigns(T.qr(a))", lambda a: _qr_signs(*torch.linalg.qr(a)),
   [(4, 3)], FLOATS)

same_module_forms("eig", "gels", "potrs", "trtrs")
