local tensor = require 'dmlab.system.tensor'

local z = tensor.DoubleTensor{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
assert(z:select(2, 2) == tensor.DoubleTensor{2, 6, 10})
assert(z(2) == tensor.DoubleTensor{5, 6, 7, 8})
assert(z(2, 3):val() == 7)
assert(z:narrow(2, 1, 3) == tensor.DoubleTensor{{1, 2, 3}, {5, 6, 7}, {9, 10, 11}})
assert(z:narrow(1, 2, 2) == tensor.DoubleTensor{{5, 6, 7, 8}, {9, 10, 11, 12}})
assert(z:transpose(1, 2):select(1, 4) == tensor.DoubleTensor{4, 8, 12})
assert(z:reverse(1)(1) == tensor.DoubleTensor{9, 10, 11, 12})
assert(z:reshape{2, 6}(2) == tensor.DoubleTensor{7, 8, 9, 10, 11, 12})

-- A transposed view is not row-major: reshape it through a copy.
assert(not pcall(function() return z:transpose(1, 2):reshape{12} end))
assert(z:transpose(1, 2):clone():reshape{12}:narrow(1, 1, 3) ==
       tensor.DoubleTensor{1, 5, 9})

-- Views write through.
z:narrow(2, 2, 2):narrow(1, 1, 1):fill(0)
assert(z(1) == tensor.DoubleTensor{1, 0, 0, 4})
