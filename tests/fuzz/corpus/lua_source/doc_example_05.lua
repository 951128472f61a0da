local tensor = require 'dmlab.system.tensor'

assert(not pcall(tensor.DoubleTensor, {{1, 2}, {3}}))        -- ragged
assert(not pcall(tensor.DoubleTensor, {{1, 2}, {3, 'x'}}))   -- not a number
