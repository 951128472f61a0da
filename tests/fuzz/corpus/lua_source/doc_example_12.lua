local tensor = require 'dmlab.system.tensor'

local z = tensor.DoubleTensor{{1.5, -2.5}, {3, 4}}
local c = z:transpose(1, 2):clone()
c:fill(0)
assert(z:val()[1][1] == 1.5)                       -- the source is untouched
assert(z:int32() == tensor.Int32Tensor{{1, -2}, {3, 4}})
assert(z:float():type() == 'dmlab.system.tensor.FloatTensor')
assert(not pcall(function() return z:byte() end))  -- -2.5 is no uint8
