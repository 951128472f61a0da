"""torch_diff_test's operations: scalar and component arithmetic,
conversions, whole-tensor reductions, element-wise functions, comparisons.
"""

import torch

from torch_diff_ops import (ALL, BINARY, DTYPES, FLOATS, INTS, SCALAR, SIGNED_SCALAR,
                            TERNARY, UNARY, by_type, module_forms, op)


def _abs_sum(*inputs, **_):
    return float(sum(t.double().abs().sum() for t in inputs[:1]))


def _abs_dot(a, b, **_):
    return float((a.double().flatten().abs() * b.double().flatten().abs()).sum())


def _int_div(a, b):
    """Torch7 divides integers truncating toward zero."""
    if a.is_floating_point():
        return a / b
    return torch.div(a, b, rounding_mode="trunc")


def _round_half_away(a):
    """Torch7 rounds halves away from zero; torch.round to even."""
    if not a.is_floating_point():
        return a.clone()
    whole = torch.trunc(a)
    ties = (a - whole).abs() == 0.5
    return torch.where(ties, whole + torch.sign(a), torch.round(a))


def _last_range(a):
    return torch.arange(1, a.shape[-1] + 1).to(a.dtype)


def _exact_mm(a, b):
    """Integer products accumulate in 64 bits and wrap to the type."""
    if a.is_floating_point():
        return a @ b
    return (a.long() @ b.long()).to(a.dtype)


# --- The base module: scalar and component operations --------------------


op("fill", "return a:fill($s)", lambda a, s: torch.full_like(a, s), UNARY, ALL,
   params={"s": SCALAR})
# dmlab.system.tensor computes a number and an integer tensor in double, as
# DeepMind Lab does, and a result out of range is an error where PyTorch
# wraps: these cases keep to values whose results fit; the *_extremes cases
# below check the wrapping through the Torch flavour, whose arithmetic is
# the type's (Torch7's).
op("add", "return a:add($s)", lambda a, s: a + s, UNARY, ALL, kinds="real",
   params={"s": SCALAR})
op("sub", "return a:sub($s)", lambda a, s: a - s, UNARY, ALL, kinds="real",
   params={"s": by_type(7, 2.5, byte=-7)})
module_forms("mul", "$s", lambda a, s: a * s, UNARY, ALL, kinds="real",
             params={"s": SIGNED_SCALAR})
module_forms("div", "$s", lambda a, s: _int_div(a, s), UNARY, ALL, kinds="wide",
             params={"s": SIGNED_SCALAR})

_TABLE = ("local shape = a:shape() local t = {} "
          "for i = 1, shape[#shape] do t[i] = i end ")
op("add_table", _TABLE + "return a:add(t)", lambda a: a + _last_range(a), UNARY, ALL,
   kinds="real")
op("sub_table", _TABLE + "return a:sub(t)", lambda a: a - _last_range(a), UNARY,
   tuple(t for t in ALL if t != "ByteTensor"), kinds="real")
op("mul_table", _TABLE + "return a:mul(t)", lambda a: a * _last_range(a), UNARY, ALL,
   kinds="real")
op("div_table", _TABLE + "return a:div(t)", lambda a: _int_div(a, _last_range(a)),
   UNARY, ALL, kinds="wide")
op("fill_table", _TABLE + "return a:fill(t)",
   lambda a: _last_range(a).expand(a.shape).clone(), UNARY, ALL)

op("cadd", "return a:cadd(b)", lambda a, b: a + b, BINARY, ALL, kinds="wide")
op("csub", "return a:csub(b)", lambda a, b: a - b, BINARY, ALL, kinds="wide")
module_forms("cmul", "b", lambda a, b: a * b, BINARY, ALL, kinds="wide")
module_forms("cdiv", "b", _int_div, BINARY, ALL, kinds=("wide", "nonzero"))
# Shapes are ignored: only the element counts must agree.
op("cadd_reshaped", "return a:cadd(b)", lambda a, b: a + b.reshape(a.shape),
   [((3, 4), (12,)), ((2, 3, 4), (4, 6))], ALL)

for _name in ("floor", "ceil"):
    module_forms(_name, "", getattr(torch, _name), UNARY, ALL, kinds="halves")
module_forms("round", "", _round_half_away, UNARY, ALL, kinds="halves")

_LOW, _HIGH = by_type(-5, -1.5, byte=3), by_type(5, 2.0, byte=7)
module_forms("clamp", "$lo, $hi", lambda a, lo, hi: a.clamp(lo, hi), UNARY, ALL,
             params={"lo": _LOW, "hi": _HIGH})
op("clamp_max", "return a:clamp(nil, $hi)", lambda a, hi: a.clamp(max=hi), UNARY, ALL,
   params={"hi": _HIGH})
op("clamp_min", "return a:clamp($lo)", lambda a, lo: a.clamp(min=lo), UNARY, ALL,
   params={"lo": _LOW})

# --- Copies and conversions ---------------------------------------------

op("clone", "return a:clone()", lambda a: a.clone(), UNARY, ALL, kinds="wide")
for _method, _type in (("byte", "ByteTensor"), ("char", "CharTensor"),
                       ("int16", "Int16Tensor"), ("int32", "Int32Tensor"),
                       ("int64", "Int64Tensor"), ("float", "FloatTensor"),
                       ("double", "DoubleTensor")):
    # Conversions to integers truncate toward zero, as torch's do.
    op("to_" + _method, "return a:%s()" % _method,
       lambda a, dtype=DTYPES[_type]: a.to(dtype), UNARY, ALL, kinds="conv")
_COPY_SHAPES = [((7,), (7,)), ((3, 4), (3, 4)), ((2, 3, 4), (4, 6))]
op("copy_from_double", "return a:copy(b)",
   lambda a, b: b.reshape(a.shape).to(a.dtype), _COPY_SHAPES, ALL, kinds="conv",
   input_types={1: "DoubleTensor"})
op("copy_to_double", "return a:copy(b)",
   lambda a, b: b.reshape(a.shape).to(a.dtype), _COPY_SHAPES, ALL, kinds="conv",
   input_types={0: "DoubleTensor"})

# --- Reductions to a number and matrix products ---------------------------

op("sum", "return a:sum()", lambda a: a.double().sum().item() if a.is_floating_point()
   else a.long().sum().item(), UNARY, ALL, kinds="wide", scale=_abs_sum)
op("product", "return a:product()",
   lambda a: a.double().prod().item() if a.is_floating_point() else a.long().prod().item(),
   UNARY, ALL, kinds="tiny", scale=lambda a: 0.0)
op("lengthSquared", "return a:lengthSquared()",
   lambda a: (a.double() ** 2).sum().item() if a.is_floating_point()
   else (a.long() ** 2).sum().item(), UNARY, ALL, scale=lambda a: 0.0)
_DOT_SHAPES = BINARY + [((3, 4), (12,)), ((2, 3, 4), (4, 6))]
op("dot", "return a:dot(b)",
   lambda a, b: (a.double().flatten() * b.double().flatten()).sum().item()
   if a.is_floating_point() else (a.long().flatten() * b.long().flatten()).sum().item(),
   _DOT_SHAPES, ALL, scale=_abs_dot)
op("dot.module", "return T.dot(a, b)",
   lambda a, b: (a.double().flatten() * b.double().flatten()).sum().item()
   if a.is_floating_point() else (a.long().flatten() * b.long().flatten()).sum().item(),
   _DOT_SHAPES, ALL, scale=_abs_dot)
_MM_SHAPES = [((3, 4), (4, 5)), ((1, 6), (6, 1)), ((5, 1), (1, 4)), ((7, 7), (7, 7))]
op("mmul", "return a:mmul(b)", _exact_mm, _MM_SHAPES, ALL, kinds="wide",
   scale=lambda a, b: a.double().abs() @ b.double().abs())

# --- Element-wise functions -----------------------------------------------

SIGNED = tuple(t for t in ALL if t != "ByteTensor")

for _name, _kind in (("acos", "unit"), ("asin", "unit"), ("atan", "real"),
                     ("cos", "real"), ("cosh", "real"), ("sin", "real"),
                     ("sinh", "real"), ("tan", "unit"), ("tanh", "real"),
                     ("exp", "real"), ("log", "pos"), ("log1p", "pos"),
                     ("sqrt", "pos"), ("rsqrt", "pos"), ("sigmoid", "real")):
    module_forms(_name, "", getattr(torch, _name), UNARY, FLOATS, kinds=_kind)
module_forms("cinv", "", torch.reciprocal, UNARY, FLOATS, kinds="nonzero")
module_forms("abs", "", torch.abs, UNARY, ALL, kinds="wide")
module_forms("sign", "", torch.sign, UNARY, ALL, kinds="ties")
module_forms("neg", "", torch.neg, UNARY, SIGNED, kinds="wide")
# torch.trunc and torch.frac take no integer tensors; integers are whole.
module_forms("trunc", "", lambda a: torch.trunc(a) if a.is_floating_point() else a.clone(),
             UNARY, ALL, kinds="halves")
module_forms("frac", "", lambda a: torch.frac(a) if a.is_floating_point()
             else torch.zeros_like(a), UNARY, ALL, kinds="halves")

module_forms("pow", "$s", lambda a, s: torch.pow(a, s), UNARY, ALL, kinds="pos",
             params={"s": by_type(3, 2.5)})
op("pow_negative", "return a:pow(-1.5)", lambda a: torch.pow(a, -1.5), UNARY, FLOATS,
   kinds="pos")
op("pow_integer", "return a:pow(3)", lambda a: torch.pow(a, 3), UNARY, FLOATS)
# fmod takes the sign of the dividend (C's fmod); remainder that of the
# divisor (x - v * floor(x / v)), in Torch7 and torch alike.
for _name in ("fmod", "remainder"):
    module_forms(_name, "$s", lambda a, s, f=getattr(torch, _name): f(a, s), UNARY, ALL,
                 kinds="wide", params={"s": by_type(-7, -1.5, byte=7)})
    op(_name + "_positive", "return a:%s($s)" % _name,
       lambda a, s, f=getattr(torch, _name): f(a, s), UNARY, ALL, kinds="wide",
       params={"s": by_type(7, 2.5)})
module_forms("cpow", "b", torch.pow, BINARY, ALL, kinds=("pos", "exponent"))
op("cpow_real_exponent", "return a:cpow(b)", torch.pow, BINARY, FLOATS, kinds=("pos", "real"))
module_forms("cfmod", "b", torch.fmod, BINARY, ALL, kinds=("wide", "nonzero"))
module_forms("cremainder", "b", torch.remainder, BINARY, ALL, kinds=("wide", "nonzero"))
module_forms("atan2", "b", torch.atan2, BINARY, FLOATS)
module_forms("cmax", "b", torch.maximum, BINARY, ALL, kinds="ties")
module_forms("cmin", "b", torch.minimum, BINARY, ALL, kinds="ties")
op("cmax_number", "return a:cmax($s)", lambda a, s: a.clamp(min=s), UNARY, ALL,
   kinds="ties", params={"s": by_type(1, 0.5)})
op("cmin_number", "return a:cmin($s)", lambda a, s: a.clamp(max=s), UNARY, ALL,
   kinds="ties", params={"s": by_type(1, 0.5)})

module_forms("lerp", "b, 0.25", lambda a, b: torch.lerp(a, b, 0.25), BINARY, FLOATS)
module_forms("add", "$s, b", lambda a, b, s: torch.add(a, b, alpha=s), BINARY, ALL,
             label="add_scaled", kinds="wide", params={"s": SIGNED_SCALAR})
# Torch7's x:add(y) and torch.add([res,] x, y), y a tensor: the base's
# add(x) defines only numbers and tables.
module_forms("add", "b", torch.add, BINARY, ALL, label="add_tensor", kinds="wide")
module_forms("addcmul", "$s, b, c", lambda a, b, c, s: torch.addcmul(a, b, c, value=s),
             TERNARY, ALL, kinds="small", params={"s": SIGNED_SCALAR})
op("addcmul_no_value", "return a:addcmul(b, c)", torch.addcmul, TERNARY, ALL, kinds="small")


def _integer_addcdiv(x, a, b, value):
    """Torch7's C for integers: x + value * a / b, the division last and
    truncating, in C's int arithmetic: 8- and 16-bit operands are promoted
    to int, so value * a does not wrap there; it wraps in 32 and 64 bits."""
    product = value * a.long()
    if x.dtype in (torch.int32, torch.int64):
        product = product.to(x.dtype).long()
    return (x.long() + _int_div(product, b.long())).to(x.dtype)


# torch.addcdiv refuses integers.
module_forms("addcdiv", "$s, b, c",
             lambda x, a, b, s: torch.addcdiv(x, a, b, value=s) if x.is_floating_point()
             else _integer_addcdiv(x, a, b, s),
             TERNARY, ALL, kinds=("small", "wide", "nonzero"), params={"s": SIGNED_SCALAR})

# --- Comparisons: ByteTensor masks -----------------------------------------

for _name in ("lt", "le", "gt", "ge", "eq", "ne"):
    _f = getattr(torch, _name)
    op(_name, "return a:%s(b), a" % _name, lambda a, b, f=_f: (f(a, b), a), BINARY, ALL,
       kinds="ties")
    op(_name + "_number", "return a:%s($s)" % _name, lambda a, s, f=_f: f(a, s), UNARY, ALL,
       kinds="ties", params={"s": by_type(1, 0.5)})
    op(_name + ".module", "return T.%s(a, b)" % _name, _f, BINARY, ALL, kinds="ties")
    # A res of another shape is resized to the mask's.
    op(_name + ".res", "local r = T.ByteTensor(2) local out = T.%s(r, a, $s) return r, out"
       % _name, lambda a, s, f=_f: (f(a, s),) * 2, UNARY, ALL, kinds="ties",
       params={"s": by_type(1, 0.5)})

# NaN: cmax and cmin give NaN where either is (torch.maximum, minimum);
# comparisons with NaN are false, except ne.
op("cmax_nan", "return a:cmax(b)", torch.maximum, BINARY, FLOATS, kinds="nans")
op("cmin_nan", "return a:cmin(b)", torch.minimum, BINARY, FLOATS, kinds="nans")
for _name in ("lt", "eq", "ne"):
    op(_name + "_nan", "return a:%s(b)" % _name, getattr(torch, _name), BINARY, FLOATS,
       kinds="nans")

# Lua functions over elements, paired in layout (row-major) order.
op("apply", "return a:apply(function(x) return 3 * x - 1 end)", lambda a: 3 * a - 1, UNARY,
   SIGNED, kinds="small")
op("map", "return a:map(b, function(x, y) return 2 * x + y end)", lambda a, b: 2 * a + b,
   BINARY, SIGNED, kinds="small")
op("map2", "return a:map2(b, c, function(x, y, z) return x + y * z end)",
   lambda a, b, c: a + b * c, TERNARY, SIGNED, kinds="small")

# Edge values: for floats 0, -0, infinities, NaN, huge and subnormal
# numbers, where IEEE arithmetic decides (exp(inf) = inf, log(0) = -inf,
# sqrt(-2.5) = NaN, frac(inf) = NaN, ...); for integers the ends of the
# type's range, where arithmetic wraps. Integer references compute in
# int64 and wrap, as the smaller types' extremes cannot overflow it.
for _name in ("exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh", "atan", "sin", "floor",
              "ceil", "trunc", "frac", "abs", "sign", "neg"):
    op(_name + "_edge", "return a:%s()" % _name, getattr(torch, _name), UNARY, FLOATS,
       kinds="extremes")
op("cinv_edge", "return a:cinv()", torch.reciprocal, UNARY, FLOATS, kinds="extremes")
op("round_edge", "return a:round()", _round_half_away, UNARY, FLOATS, kinds="extremes")
op("clamp_edge", "return a:clamp(-1, 1)", lambda a: a.clamp(-1, 1), UNARY, FLOATS,
   kinds="extremes")
op("add_edge", "return a:add(1.5)", lambda a: a + 1.5, UNARY, FLOATS, kinds="extremes")
op("cmul_edge", "return a:cmul(b)", torch.mul, BINARY, FLOATS, kinds="extremes")
op("cdiv_edge", "return a:cdiv(b)", torch.div, BINARY, FLOATS, kinds="extremes")


def _wrapped(f):
    return lambda a, *rest: f(a.long(), *(t.long() for t in rest)).to(a.dtype)


_NARROW_INTS = ("ByteTensor", "CharTensor", "Int16Tensor", "Int32Tensor")
_NARROW_SIGNED = ("CharTensor", "Int16Tensor", "Int32Tensor")
op("abs_extremes", "return a:abs()", _wrapped(torch.abs), UNARY, _NARROW_INTS,
   kinds="extremes")
op("neg_extremes", "return a:neg()", _wrapped(torch.neg), UNARY, _NARROW_SIGNED,
   kinds="extremes")
op("sign_extremes", "return a:sign()", torch.sign, UNARY, INTS, kinds="extremes")
op("add_extremes", "require 'dmlab.system.torch' return a:torch():add(1):dmlab()", _wrapped(lambda a: a + 1), UNARY,
   _NARROW_INTS, kinds="extremes")
op("mul_extremes", "require 'dmlab.system.torch' return a:torch():mul(3):dmlab()", _wrapped(lambda a: a * 3), UNARY,
   _NARROW_INTS, kinds="extremes")
op("div_minus_one", "require 'dmlab.system.torch' return a:torch():div(-1):dmlab()", _wrapped(lambda a: _int_div(a, -1)),
   UNARY, _NARROW_SIGNED, kinds="extremes")
op("cdiv_extremes", "return a:cdiv(b)", _wrapped(_int_div), BINARY, _NARROW_SIGNED,
   kinds=("extremes", "nonzero"))
op("fmod_extremes", "return a:fmod(-1)", _wrapped(lambda a: torch.fmod(a, -1)), UNARY,
   _NARROW_SIGNED, kinds="extremes")
op("remainder_extremes", "return a:remainder(7)", _wrapped(lambda a: torch.remainder(a, 7)),
   UNARY, _NARROW_INTS, kinds="extremes")
op("cmax_extremes", "return a:cmax(b)", torch.maximum, BINARY, INTS, kinds="extremes")
op("lt_extremes", "return a:lt(b)", torch.lt, BINARY, INTS, kinds="extremes")
op("sum_extremes", "return a:sum()", lambda a: a.long().sum().item(), UNARY, _NARROW_INTS,
   kinds="extremes")
op("to_double_extremes", "return a:double()", lambda a: a.double(), UNARY, INTS,
   kinds="extremes")
