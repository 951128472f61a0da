local tensor = require 'dmlab.system.tensor'

local image = tensor.DoubleTensor(2, 2, 3):fill(1)
image:mul{0.5, 1, 2}                         -- per channel
assert(image(2, 2) == tensor.DoubleTensor{0.5, 1, 2})

local b = tensor.ByteTensor{250, 7}
b:add(10)
assert(b == tensor.ByteTensor{4, 17})        -- 260 wraps to 4
assert(tensor.Int32Tensor{7, -7}:div(2) == tensor.Int32Tensor{3, -3})

local ok, err = pcall(function() b:div(0) end)
assert(not ok and err:find('division by zero', 1, true))
assert(b == tensor.ByteTensor{4, 17})        -- unchanged
assert(not pcall(function() b:add(0.5) end))
