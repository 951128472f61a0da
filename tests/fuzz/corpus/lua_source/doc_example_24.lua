local tensor = require 'dmlab.system.tensor'

local function message(fn) local ok, err = pcall(fn) assert(not ok) return err end

local z = tensor.DoubleTensor(2, 3)
assert(message(function() z:select(3, 1) end):find('select', 1, true))
assert(message(function() z:narrow(1.5, 1, 1) end)
           :find("bad argument #1 to 'narrow'", 1, true))
assert(message(function() tensor.Int32Tensor{1}:cdiv(tensor.Int32Tensor{0}) end)
           :find('division by zero', 1, true))
assert(message(function() z:clamp(2, 1) end):find('clamp', 1, true))
assert(message(function() tensor.DoubleTensor{1, 2}:mmul(z) end)
           :find('left', 1, true))
