local tensor = require 'dmlab.system.tensor'

local t = tensor.DoubleTensor{-1.5, -0.5, 0.5, 2.4}
assert(t:clone():floor() == tensor.DoubleTensor{-2, -1, 0, 2})
assert(t:clone():ceil() == tensor.DoubleTensor{-1, 0, 1, 3})
assert(t:clone():round() == tensor.DoubleTensor{-2, -1, 1, 2})
assert(t:clone():clamp(-1, 1) == tensor.DoubleTensor{-1, -0.5, 0.5, 1})
assert(t:clone():clamp(nil, 0) == tensor.DoubleTensor{-1.5, -0.5, 0, 0})
assert(not pcall(function() t:clamp(1, -1) end))
