local tensor = require 'dmlab.system.tensor'

local a = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
assert(a:mmul(a:transpose(1, 2)) == tensor.DoubleTensor{{14, 32}, {32, 77}})

local ok, err = pcall(function() return a:mmul(a) end)      -- 2x3 . 2x3
assert(not ok and err:find('incompatible', 1, true))
ok, err = pcall(function() return a:mmul(tensor.DoubleTensor{1, 2, 3}) end)
assert(not ok and err:find('right', 1, true))
