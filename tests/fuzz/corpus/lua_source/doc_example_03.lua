local tensor = require 'dmlab.system.tensor'

assert(tensor.Tensor(2):type() == 'dmlab.system.tensor.DoubleTensor')
assert(tensor.ByteTensor(2):type() == 'dmlab.system.tensor.ByteTensor')
assert(not pcall(tensor.ByteTensor, {256}))    -- not a uint8
assert(not pcall(tensor.Int32Tensor, {0.5}))   -- not an integer
