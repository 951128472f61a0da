local tensor = require 'dmlab.system.tensor'

local z = tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}
assert(tostring(z) == [==[
[dmlab.system.tensor.DoubleTensor]
Shape: [3, 2]
[[1, 2],
 [3, 4],
 [5, 6]]]==])

-- Views share storage: writing through one is seen by all.
z:select(2, 1):fill(0)          -- the first column
assert(z == tensor.DoubleTensor{{0, 2}, {0, 4}, {0, 6}})
