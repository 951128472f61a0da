local tensor = require 'dmlab.system.tensor'

local a = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
local b = tensor.DoubleTensor{{3, 2, 1}, {6, 5, 4}}
assert(a:select(2, 1) == b:select(2, 3))             -- two strided columns
assert(a:reverse(2) == b)
assert(a ~= a:int32())                               -- types differ
assert(a:select(2, 1) ~= a:narrow(2, 1, 1))          -- shapes [2] and [2, 1]
