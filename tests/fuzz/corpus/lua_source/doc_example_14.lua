local tensor = require 'dmlab.system.tensor'

local bt = tensor.ByteTensor{{1, 2}, {3, 4}, {5, 6}}
local bt2 = tensor.ByteTensor{{1, 2, 3}, {4, 5, 6}}      -- shape [2, 3]
bt:cmul(bt2)
assert(bt == tensor.ByteTensor{{1, 4}, {9, 16}, {25, 36}})

local d = tensor.DoubleTensor(3, 2):copy(bt2)             -- converts
assert(d == tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}})
assert(not pcall(function() d:cadd(bt2) end))             -- types differ
assert(not pcall(function() d:cadd(tensor.DoubleTensor(5)) end))   -- 6 vs 5

local v = tensor.DoubleTensor{1, 2, 3, 4}
v:narrow(1, 2, 3):copy(v:narrow(1, 1, 3))                 -- overlapping
assert(v == tensor.DoubleTensor{1, 1, 2, 3})
