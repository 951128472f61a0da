local tensor = require 'dmlab.system.tensor'

local t = tensor.DoubleTensor(2, 3):fill(1):mul{1, 2, 3}:add(1)
assert(t == tensor.DoubleTensor{{2, 3, 4}, {2, 3, 4}})

local ok, err = pcall(function() return t:narrow(2, 1.5, 2) end)
assert(not ok and err:find("bad argument #2 to 'narrow'", 1, true))

ok, err = pcall(function() return t.narrow(2, 1, 2) end)
assert(not ok and err:find("calling 'narrow' on bad self", 1, true))
assert(err:find("call methods with ':'", 1, true))
