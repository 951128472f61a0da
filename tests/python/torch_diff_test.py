"""Differential test: dmlab.system.tensor against PyTorch.

Every operation that PyTorch also has runs on the same random inputs
(fixed seeds) in both, for several shapes, every type it is defined for and
five layouts: contiguous, transposed, narrowed (an offset view inside a
larger tensor), reversed (negative strides) and strided (every other
element). The Lua side is one `lua_run` process over torch_diff_driver.lua,
which reads the inputs from a raw file and writes its results as text
(%.17g, so doubles round-trip); the torch side builds the same views.

One pytest case per operation x type x layout; a failure names the shape
and shows the inputs. Results must agree:
- integer types: exactly;
- DoubleTensor: within 1e-12 relative;
- FloatTensor: within 2^-17 (about 7.6e-6, 64 ulp of float32) relative:
  torch computes float32 functions with its own vectorised kernels, and
  reductions in float32 while ours may accumulate in double.
"Relative" is to max(|torch's value|, scale), where the scale is 1 for
element-wise functions of inputs of order 1 (so results that cancel to
near zero are held to an absolute bound), and the sum of the absolute
terms for sums and products of matrices.

The framework of the operations is torch_diff_ops.py; the operations
themselves are in torch_diff_math.py, torch_diff_reduce.py,
torch_diff_linalg.py, torch_diff_shape.py and (dmlab.system.torch's)
torch_diff_torch.py.
"""

import os
import subprocess
import zlib

import numpy as np
import pytest
import torch

import torch_diff_linalg  # noqa: F401 (each group registers its ops)
import torch_diff_math  # noqa: F401
import torch_diff_ops
import torch_diff_reduce  # noqa: F401
import torch_diff_shape  # noqa: F401
import torch_diff_torch  # noqa: F401
from torch_diff_ops import TYPES

HERE = os.path.dirname(os.path.abspath(__file__))

RTOL = {"FloatTensor": 2.0**-17, "DoubleTensor": 1e-12}


def _lua_run():
    runfiles = os.environ.get("TEST_SRCDIR")
    if runfiles:
        workspace = os.environ.get("TEST_WORKSPACE", "dmlab_tensor")
        return os.path.join(runfiles, workspace, "lua_api", "lua_run")
    return os.path.join(HERE, "..", "..", "bazel-bin", "lua_api", "lua_run")


def _layout_views(shape, layout):
    """The base shape and the views (1-based, as in Lua) that give `shape`."""
    rank = len(shape)
    if layout == "contiguous":
        return shape, []
    if layout == "transposed":
        if rank == 1:  # a column of a matrix
            return (shape[0], 3), [("select", 2, 2)]
        base = list(shape)
        base[0], base[-1] = base[-1], base[0]
        return tuple(base), [("transpose", 1, rank)]
    if layout == "narrowed":
        return (tuple(extent + 2 for extent in shape),
                [("narrow", d + 1, 2, extent) for d, extent in enumerate(shape)])
    if layout == "reversed":
        return shape, [("reverse", d + 1) for d in range(rank)]
    if layout == "strided":
        return shape + (2,), [("select", rank + 1, 2)]
    raise ValueError(layout)


def _numpy_view(a, views):
    """The view of numpy array `a` that the views give (basic indexing only,
    so that writing to it writes to `a`)."""
    for view in views:
        name, args = view[0], view[1:]
        if name == "transpose":
            a = np.swapaxes(a, args[0] - 1, args[1] - 1)
        elif name == "reverse":
            a = np.flip(a, args[0] - 1)
        else:
            index = [slice(None)] * a.ndim
            index[args[0] - 1] = (slice(args[1] - 1, args[1] - 1 + args[2])
                                  if name == "narrow" else args[1] - 1)
            a = a[tuple(index)]
    return a


def _torch_view(t, views):
    for view in views:
        name, args = view[0], view[1:]
        if name == "transpose":
            t = t.transpose(args[0] - 1, args[1] - 1)
        elif name == "narrow":
            t = t.narrow(args[0] - 1, args[1] - 1, args[2])
        elif name == "reverse":
            t = t.flip(args[0] - 1)
        elif name == "select":
            t = t.select(args[0] - 1, args[1] - 1)
        else:
            raise ValueError(name)
    return t


class _Run:
    """One shape of one case: its inputs, as Lua reads them and as torch."""

    def __init__(self, op, type_name, layout, shapes):
        self.op = op
        self.type_name = type_name
        self.layout = layout
        self.shapes = shapes
        self.id = "%s-%s-%s-%s" % (op.name, type_name, layout,
                                   ";".join("x".join(map(str, s)) for s in shapes))
        self.params = op.params(type_name)

    def make_inputs(self, data, rng):
        """Appends the raw inputs to `data`, a bytearray; returns the specs."""
        specs, self.torch_inputs, self.torch_views = [], [], []
        for index, shape in enumerate(self.shapes):
            input_type = self.op.input_type(index, self.type_name)
            layout = self.layout if self.op.input_viewed(index) else "contiguous"
            base_shape, views = _layout_views(shape, layout)
            kind = self.op.kind(index)
            matrix = torch_diff_ops.matrix_values(kind, input_type, shape, rng)
            base = torch_diff_ops.values("real" if matrix is not None else kind,
                                         input_type, base_shape, rng)
            if matrix is not None:  # written through the view into the base
                _numpy_view(base, views)[...] = matrix
            offset = len(data)
            data += base.tobytes()
            specs.append("%s:%d:%d:%s:%s" % (
                input_type, offset, base.size, ",".join(map(str, base_shape)),
                ";".join("/".join(map(str, v)) for v in views)))
            view = _torch_view(torch.from_numpy(base.copy()), views)
            self.torch_views.append(view)
            self.torch_inputs.append(view.clone(memory_format=torch.contiguous_format))
        return specs

    def describe(self):
        """The run's id and its inputs (their first 12 values), for failures."""
        shown = []
        for t in self.torch_inputs:
            values = t.flatten()[:12].tolist()
            more = " ..." if t.numel() > 12 else ""
            shown.append("%s %s" % (list(t.shape), values) + more)
        return "%s (inputs: %s)" % (self.id, "; ".join(shown))


def _runs(op, type_name, layout):
    return [_Run(op, type_name, layout, shapes) for shapes in op.shapes]


CASES = [(op, type_name, layout)
         for op in torch_diff_ops.OPS
         for type_name in op.types
         for layout in op.layouts]


@pytest.fixture(scope="module")
def lua_results(tmp_path_factory):
    """Runs every case through lua_run once.

    Returns a dict: each run's id -> (the run, with its torch inputs, and
    the driver's fields: "ok" and the results, or "error" and why)."""
    directory = tmp_path_factory.mktemp("torch_diff")
    ops_source, op_index = torch_diff_ops.LUA_HELPERS + ["return {"], {}
    data, lines, runs = bytearray(), [], {}
    for op, type_name, layout in CASES:
        # One seed per case: adding a case changes no other's inputs.
        case_id = "%s-%s-%s" % (op.name, type_name, layout)
        rng = np.random.default_rng(zlib.crc32(case_id.encode()))
        for run in _runs(op, type_name, layout):
            assert run.id not in runs, "two runs are named " + run.id
            runs[run.id] = run
            source = op.lua_source(run.params)
            if source not in op_index:
                op_index[source] = len(op_index) + 1
                ops_source.append("  [%d] = function(T, a, b, c, d) %s end," %
                                  (op_index[source], source))
            lines.append("\t".join([run.id, str(op_index[source])] +
                                   run.make_inputs(data, rng)))
    ops_source.append("}")
    files = {name: str(directory / name) for name in
             ("ops.lua", "cases.txt", "inputs.bin", "results.txt")}
    with open(files["ops.lua"], "w") as f:
        f.write("\n".join(ops_source) + "\n")
    with open(files["cases.txt"], "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(files["inputs.bin"], "wb") as f:
        f.write(data)
    # A crash loses the results from the crashing case on (the driver
    # writes line by line): those cases fail with its exit status and stderr.
    driver = subprocess.run(
        [_lua_run(), os.path.join(HERE, "torch_diff_driver.lua"), files["ops.lua"],
         files["cases.txt"], files["inputs.bin"], files["results.txt"]],
        capture_output=True, text=True, timeout=120)
    results = {}
    with open(files["results.txt"]) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            results[fields[0]] = (runs[fields[0]], fields[1:])
    for run_id, run in runs.items():
        if run_id not in results:
            results[run_id] = (run, ["error", "the driver wrote no result (exit status %d): %s"
                                     % (driver.returncode, driver.stderr[-2000:])])
    return results


def _parse(item):
    kind, _, rest = item.partition(" ")
    if kind == "T":
        type_name, shape, values = rest.split(" ")
        shape = tuple(int(e) for e in shape.split(",")) if shape else ()
        values = np.array([float(v) for v in values.split(",")] if values else [])
        return ("T", type_name, shape, values)
    if kind == "N":
        return ("N", float(rest))
    if kind == "B":
        return ("B", rest == "true")
    return ("nil",)


def _close(ours, expected, rtol, scale):
    """Element-wise agreement; NaNs and infinities must match exactly."""
    ours = np.asarray(ours, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if rtol == 0:
        same = (ours == expected) | (np.isnan(ours) & np.isnan(expected))
        return same, np.zeros_like(expected)
    bound = rtol * np.maximum(np.abs(expected), scale)
    with np.errstate(invalid="ignore"):  # inf - inf where ours is infinite
        near = np.abs(ours - expected) <= bound
    same = np.where(np.isfinite(expected), near,
                    (ours == expected) | (np.isnan(ours) & np.isnan(expected)))
    return same, bound


def _compare(item, expected, rtol_type, scale):
    """None if `item` (ours, parsed) matches `expected` (torch's), else why."""
    if isinstance(expected, torch.Tensor):
        want_type = TYPES[expected.dtype] if expected.dtype != torch.bool else "ByteTensor"
        if item[0] != "T":
            return "ours is %s, torch's a %s" % (item, want_type)
        _, type_name, shape, values = item
        if type_name != want_type or shape != tuple(expected.shape):
            return "ours is a %s of shape %s, torch's a %s of shape %s" % (
                type_name, list(shape), want_type, list(expected.shape))
        want = expected.to(torch.float64).flatten().numpy()
        scale = (torch.as_tensor(scale, dtype=torch.float64)
                 .expand(expected.shape).flatten().numpy())
        same, bound = _close(values, want, RTOL.get(type_name, 0), scale)
        if not same.all():
            bad = np.flatnonzero(~same)
            return "%d of %d elements differ, first at flat index %d: " \
                   "ours %r, torch %r (bound %.3g)" % (
                       len(bad), len(want), bad[0], values[bad[0]], want[bad[0]],
                       bound[bad[0]])
        return None
    if isinstance(expected, bool):
        return None if item == ("B", expected) else "ours %s, torch %r" % (item, expected)
    if expected is None:
        return None if item == ("nil",) else "ours %s, torch nil" % (item,)
    if item[0] != "N":
        return "ours %s, torch the number %r" % (item, expected)
    rtol = 0 if isinstance(expected, int) else RTOL.get(rtol_type, RTOL["DoubleTensor"])
    same, bound = _close([item[1]], [expected], rtol, float(scale))
    if not same.all():
        return "ours %r, torch %r (bound %.3g)" % (item[1], expected, bound[0])
    return None


@pytest.mark.parametrize(
    "op,type_name,layout", CASES,
    ids=["%s-%s-%s" % (op.name, type_name, layout) for op, type_name, layout in CASES])
def test_agrees_with_torch(lua_results, op, type_name, layout):
    failures = []
    for shapes_run in _runs(op, type_name, layout):
        run, ours = lua_results[shapes_run.id]
        if ours[0] != "ok":
            failures.append("%s: ours raised: %s" % (run.describe(), ours[1]))
            continue
        expected = op.ref(*(run.torch_views if op.on_views else run.torch_inputs),
                          **run.params)
        if not isinstance(expected, tuple):
            expected = (expected,)
        scales = op.scale(*run.torch_inputs, **run.params)
        if not isinstance(scales, tuple):
            scales = (scales,) * len(expected)
        items = [_parse(item) for item in ours[1:]]
        if len(items) != len(expected):
            failures.append("%s: ours gave %d results, torch %d" % (
                run.describe(), len(items), len(expected)))
            continue
        for number, (item, want, scale) in enumerate(zip(items, expected, scales)):
            why = _compare(item, want, type_name, scale)
            if why:
                failures.append("%s: result %d: %s" % (run.describe(), number + 1, why))
    assert not failures, "\n".join(failures)
