"""How torch_diff_test.py describes an operation, and its random inputs.

An Op pairs `lua`, the body of `function(T, a, b, c, d)` (T is
dmlab.system.tensor, a, b, ... the inputs; $names are filled in from
`params`), with `ref`, a function of the torch inputs that returns what
torch gives: a tensor, a number, a bool, or a tuple of them, one per value
the Lua body returns. Where Torch7 (which our module follows) and PyTorch
differ, `ref` maps one onto the other, and says so. The operations are
registered by torch_diff_math.py, torch_diff_reduce.py,
torch_diff_linalg.py and torch_diff_shape.py.
"""

import re
import string

import numpy as np
import torch

TYPES = {
    torch.uint8: "ByteTensor",
    torch.int8: "CharTensor",
    torch.int16: "Int16Tensor",
    torch.int32: "Int32Tensor",
    torch.int64: "Int64Tensor",
    torch.float32: "FloatTensor",
    torch.float64: "DoubleTensor",
}
DTYPES = {name: dtype for dtype, name in TYPES.items()}
INTS = ("ByteTensor", "CharTensor", "Int16Tensor", "Int32Tensor", "Int64Tensor")
FLOATS = ("FloatTensor", "DoubleTensor")
ALL = INTS + FLOATS
LAYOUTS = ("contiguous", "transposed", "narrowed", "reversed", "strided")

# Every value of the type, except Int64: its values come back to Python as
# Lua numbers (doubles), so they, and their products, stay below 2^53.
_WIDE = {
    "ByteTensor": (0, 255),
    "CharTensor": (-128, 127),
    "Int16Tensor": (-32768, 32767),
    "Int32Tensor": (-2**31, 2**31 - 1),
    "Int64Tensor": (-2**24, 2**24),
}


def values(kind, type_name, shape, rng):
    """Random values of `kind` for a tensor of `type_name`, a numpy array:
    "real" (order 1; integers -9..9), "wide" (integers: the whole range),
    "small", "pos" (> 0), "nonzero", "unit" (|x| < 1), "tiny" (magnitudes
    near 1, so that products stay small), "halves" (many exact halves),
    "ties" (few distinct values), "distinct", "conv" (0 to 100, which every
    type holds), "exponent" (>= 0 for integers), "mask" (0 or 1),
    "extremes", "nans", and the index kinds of _indices."""
    if kind.startswith(("index", "perm", "colperm", "rowperm")):
        return _indices(kind, shape, rng)
    n = int(np.prod(shape))
    if type_name in INTS:
        numpy_type = torch.empty((), dtype=DTYPES[type_name]).numpy().dtype
        return _integers(kind, type_name, n, rng).astype(numpy_type).reshape(shape)
    x = _reals(kind, type_name, n, rng)
    return x.astype(np.float32 if type_name == "FloatTensor" else np.float64).reshape(shape)


def _integers(kind, type_name, n, rng):
    unsigned = type_name == "ByteTensor"
    if kind == "wide":
        low, high = _WIDE[type_name]
        x = rng.integers(low, high, n, endpoint=True)
    elif kind in ("real", "small", "halves", "ties", "conv", "unit", "exponent"):
        bound = {"conv": 100, "ties": 3, "exponent": 3}.get(kind, 9)
        nonnegative = unsigned or kind in ("conv", "exponent")
        x = rng.integers(0 if nonnegative else -bound, bound, n, endpoint=True)
    elif kind in ("pos", "nonzero", "tiny"):
        x = rng.integers(1, 3 if kind == "tiny" else 9, n, endpoint=True)
        if kind != "pos" and not unsigned:
            x *= rng.choice([-1, 1], n)
    elif kind == "distinct":
        x = rng.permutation(n) - (0 if unsigned else n // 2)
    elif kind == "extremes":  # the ends of the type's range, and around 0
        info = np.iinfo(torch.empty((), dtype=DTYPES[type_name]).numpy().dtype)
        x = rng.choice([info.min, info.min + 1, -1, 0, 1, info.max - 1, info.max], n)
        x = np.where(x < 0, 0, x) if unsigned else x
    elif kind == "mask":  # mostly ones, so that all() is sometimes true
        x = (rng.random(n) < 0.85).astype(np.int64)
    else:
        raise ValueError(kind)
    return x


def _reals(kind, type_name, n, rng):
    if kind in ("real", "wide"):
        x = rng.uniform(-4, 4, n)
    elif kind in ("small", "exponent"):
        x = rng.uniform(-3, 3, n)
    elif kind == "pos":
        x = rng.uniform(0.1, 5, n)
    elif kind == "conv":
        x = rng.uniform(0, 100, n)
    elif kind == "unit":
        x = rng.uniform(-0.95, 0.95, n)
    elif kind == "nonzero":
        x = rng.uniform(0.5, 4, n) * rng.choice([-1, 1], n)
    elif kind == "tiny":
        x = rng.uniform(0.7, 1.4, n) * rng.choice([-1, 1], n)
    elif kind == "distinct":
        x = rng.permutation(n) / 4.0 - n / 8.0
    elif kind == "halves":  # many exact halves, for rounding
        x = np.where(rng.random(n) < 0.5, rng.integers(-8, 8, n) + 0.5,
                     rng.uniform(-4, 4, n))
    elif kind == "ties":  # few distinct values, for ties in sorts and maxima
        x = rng.integers(-3, 3, n, endpoint=True).astype(np.float64)
    elif kind == "extremes":  # IEEE's special values, huge and subnormal ones
        special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, -1e300, 1e-310, -2.5, 0.5]
        if type_name == "FloatTensor":
            special[5:8] = [3e38, -3e38, 1e-40]
        x = rng.choice(special, n)
    elif kind == "nans":  # ties, and NaN in about one element of five
        x = np.where(rng.random(n) < 0.2, np.nan,
                     rng.integers(-3, 3, n, endpoint=True).astype(np.float64))
    else:
        raise ValueError(kind)
    return x


def _indices(kind, shape, rng):
    """1-based Int64 indices: "index4", any of 1..4; "perm4", distinct ones;
    "colperm4" ("rowperm4"), distinct down each column (along each row)."""
    name = kind.rstrip("0123456789")
    bound = int(kind[len(name):])
    if name == "index":
        x = rng.integers(1, bound, int(np.prod(shape)), endpoint=True).reshape(shape)
    elif name == "perm":
        x = rng.permutation(bound)[:int(np.prod(shape))].reshape(shape) + 1
    elif name == "colperm":
        x = np.stack([rng.permutation(bound)[:shape[0]] for _ in range(shape[1])], 1) + 1
    elif name == "rowperm":
        x = np.stack([rng.permutation(bound)[:shape[1]] for _ in range(shape[0])]) + 1
    else:
        raise ValueError(kind)
    return x.astype(np.int64)


def matrix_values(kind, type_name, shape, rng):
    """The values of a matrix kind (for LAPACK), or None for other kinds.

    These are properties of the whole matrix, so the test writes them
    through the case's view into the base tensor:
    - "wellcond": random, plus max(m, n) on the diagonal (well conditioned,
      and both triangles are valid Cholesky or triangular factors);
    - "spd": symmetric positive definite, R R^T + n I;
    - "symmetric": (S + S^T) / 2."""
    if kind not in ("wellcond", "spd", "symmetric"):
        return None
    if kind == "wellcond":
        x = rng.uniform(-1, 1, shape)
        x[np.diag_indices(min(shape))] += max(shape)
    elif kind == "spd":
        r = rng.uniform(-1, 1, shape)
        x = r @ r.T + shape[0] * np.eye(shape[0])
    else:
        x = rng.uniform(-2, 2, shape)
        x = (x + x.T) / 2
    return x.astype(np.float32 if type_name == "FloatTensor" else np.float64)


def by_type(ints, floats, byte=None):
    """A parameter whose value depends on the case's type."""
    def choose(type_name):
        if type_name == "ByteTensor" and byte is not None:
            return byte
        return ints if type_name in INTS else floats
    return choose


class Op:
    def __init__(self, name, lua, ref, shapes, types, kinds="real",
                 layouts=LAYOUTS, params=None, scale=None, input_types=None,
                 contiguous_inputs=(), on_views=False):
        self.name = name
        self.lua = lua
        self.ref = ref
        # One tuple of input shapes per run; a bare shape means one input,
        # and () none.
        self.shapes = [s if not s or isinstance(s[0], tuple) else (s,) for s in shapes]
        self.types = types
        self.kinds = kinds
        self.layouts = layouts
        self._params = params or {}
        self._scale = scale
        self._input_types = input_types or {}
        # Inputs that keep the contiguous layout whatever the case's layout:
        # index tensors whose values must be distinct along a dimension.
        self._contiguous_inputs = contiguous_inputs
        # Whether ref gets torch's views themselves (for their strides), not
        # copies; torch has no negative strides, so no reversed layout then.
        self.on_views = on_views

    def params(self, type_name):
        return {key: value(type_name) if callable(value) else value
                for key, value in self._params.items()}

    def lua_source(self, params):
        return string.Template(self.lua).substitute(
            {key: _lua_literal(value) for key, value in params.items()})

    def kind(self, index):
        return self.kinds if isinstance(self.kinds, str) else self.kinds[index]

    def input_type(self, index, type_name):
        return self._input_types.get(index, type_name)

    def input_viewed(self, index):
        return index not in self._contiguous_inputs

    def scale(self, *inputs, **params):
        return self._scale(*inputs, **params) if self._scale else 1.0


def _lua_literal(value):
    if value is None:
        return "nil"
    if isinstance(value, float):
        return repr(value)
    return str(value)


OPS = []
# Lua source put before the op bodies: helpers they may call.
LUA_HELPERS = []


# The module forms (name.module, name.res) share the method's kernels, so
# two layouts suffice for them.
FORM_LAYOUTS = ("contiguous", "transposed")


def op(name, lua, ref, shapes, types, **kwargs):
    if "." in name:
        kwargs.setdefault("layouts", FORM_LAYOUTS)
    _add(Op(name, lua, ref, shapes, types, **kwargs))


def _add(new_op):
    # Names make the cases' ids, which must be unique.
    assert all(o.name != new_op.name for o in OPS), new_op.name
    OPS.append(new_op)


def module_forms(name, lua_args, ref, shapes, types, label=None, **kwargs):
    """x:name(args) in place, tensor.name(x, args) and tensor.name(res, x, args),
    as the ops label, label.module and label.res (label defaults to name).

    The module forms must leave x as it was; res starts as zeros."""
    label = label or name
    args = (", " + lua_args) if lua_args else ""
    op(label, "return a:%s(%s)" % (name, lua_args), ref, shapes, types, **kwargs)
    op(label + ".module", "return T.%s(a%s), a" % (name, args),
       lambda a, *rest, **p: (ref(a, *rest, **p), a), shapes, types, **kwargs)
    op(label + ".res",
       "local r = a:clone():fill(0) local out = T.%s(r, a%s) return r, out" % (name, args),
       lambda a, *rest, **p: (ref(a, *rest, **p),) * 2, shapes, types, **kwargs)


def same_module_forms(*names):
    """Adds name.module for each op named: its case with the call a:f(...)
    written tensor.f(a, ...), which must give what the method gives (the
    module functions of forms kSame and kResult without res)."""
    by_name = {o.name: o for o in OPS}
    for name in names:
        method = by_name[name]
        lua = re.sub(r"\ba:(\w+)\(", r"T.\1(a, ", method.lua, count=1).replace("(a, )", "(a)")
        _add(Op(name + ".module", lua, method.ref, method.shapes, method.types,
                kinds=method.kinds, layouts=method.layouts[:2], params=method._params,
                scale=method._scale, input_types=method._input_types,
                contiguous_inputs=method._contiguous_inputs))


UNARY = [(7,), (3, 4), (2, 3, 4)]
BINARY = [((7,), (7,)), ((3, 4), (3, 4)), ((2, 3, 4), (2, 3, 4))]
TERNARY = [((7,), (7,), (7,)), ((3, 4), (3, 4), (3, 4)),
           ((2, 3, 4), (2, 3, 4), (2, 3, 4))]
SCALAR = by_type(7, 2.5)
SIGNED_SCALAR = by_type(-3, -1.5, byte=3)
