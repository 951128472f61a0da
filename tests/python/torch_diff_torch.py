"""The operations dmlab.system.torch adds to the core's (issue 26), through
the Torch flavour: the inputs go in with a:torch(), the results come back
with :dmlab(). Registered for torch_diff_test.py, as the other groups."""

import torch

from torch_diff_ops import FLOATS, INTS, op

TORCH = "local torch = require 'dmlab.system.torch' "

# cross along dimension 1 (the first of size 3).
op("torch.cross", TORCH + "return torch.cross(a:torch(), b:torch()):dmlab()",
   lambda a, b: torch.linalg.cross(a, b, dim=0), [((3, 4), (3, 4)), ((3,), (3,))], FLOATS)

# The bitwise functions of integer tensors; shifts by 2 bits of small
# values, which no type overflows.
for _name, _ref in (("cbitand", lambda a, b: a & b), ("cbitor", lambda a, b: a | b),
                    ("cbitxor", lambda a, b: a ^ b)):
    op("torch." + _name, TORCH + "return torch.%s(a:torch(), b:torch()):dmlab()" % _name,
       _ref, [((3, 4), (3, 4))], INTS, kinds="conv")
for _name, _ref in (("lshift", lambda a: a * 4),
                    ("rshift", lambda a: torch.div(a, 4, rounding_mode="floor"))):
    op("torch." + _name, TORCH + "return torch.%s(a:torch(), 2):dmlab()" % _name,
       _ref, [((3, 4),)], INTS, kinds="small")

# conv3 and xcorr3 ('V' and 'F') against conv3d; conv3 flips the kernel.
def _conv3(x, k, flip, full):
    if flip:
        k = torch.flip(k, (0, 1, 2))
    padding = tuple(s - 1 for s in k.shape) if full else 0
    return torch.nn.functional.conv3d(x[None, None], k[None, None], padding=padding)[0, 0]


for _name, _flip in (("conv3", True), ("xcorr3", False)):
    for _mode, _full in (("V", False), ("F", True)):
        op("torch.%s_%s" % (_name, _mode),
           TORCH + "return torch.%s(a:torch(), b:torch(), '%s'):dmlab()" % (_name, _mode),
           lambda x, k, f=_flip, full=_full: _conv3(x, k, f, full),
           [((4, 5, 6), (2, 3, 2))], FLOATS)

# histc over the values' own range.
op("torch.histc", TORCH + "return torch.histc(a:torch(), 7):dmlab()",
   lambda a: torch.histc(a, 7), [((30,),)], FLOATS)
