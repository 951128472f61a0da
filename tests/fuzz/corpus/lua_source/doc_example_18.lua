local tensor = require 'dmlab.system.tensor'

local t = tensor.DoubleTensor{{1, 2}, {3, 4}}
assert(t:sum() == 10 and t:product() == 24 and t:lengthSquared() == 30)
assert(t:dot(tensor.DoubleTensor{1, 0, 0, 1}) == 5)
assert(t:transpose(1, 2):dot(tensor.DoubleTensor{0, 1, 0, 0}) == 3)   -- layout order
assert(tensor.ByteTensor{200, 200}:sum() == 400)                      -- no wrap
