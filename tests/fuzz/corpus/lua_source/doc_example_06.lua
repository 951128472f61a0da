local tensor = require 'dmlab.system.tensor'

assert(tensor.DoubleTensor{range = {5}} == tensor.DoubleTensor{1, 2, 3, 4, 5})
assert(tensor.DoubleTensor{range = {2, 4}} == tensor.DoubleTensor{2, 3, 4})
assert(tensor.DoubleTensor{range = {0, 1, 0.25}} ==
       tensor.DoubleTensor{0, 0.25, 0.5, 0.75, 1})
assert(tensor.Int32Tensor{range = {10, 1, -3}} == tensor.Int32Tensor{10, 7, 4, 1})

local ok, err = pcall(tensor.DoubleTensor, {range = {1, 5, 0}})
assert(not ok and err:find('Step size must not be zero', 1, true))
assert(not pcall(tensor.DoubleTensor, {range = {5, 1}}))       -- empty
