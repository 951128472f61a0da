local tensor = require 'dmlab.system.tensor'

local z = tensor.DoubleTensor{{1, 2}, {3, 4}}
assert(z:val()[2][1] == 3)
assert(z(2, 1):val() == 3)          -- shape {1}: a number

z(2, 1):val(30)
z:select(1, 1):val{10, 20}
assert(z == tensor.DoubleTensor{{10, 20}, {30, 4}})

assert(not pcall(function() z:val{1, 2, 3, 4} end))   -- shape {4} is not {2, 2}
