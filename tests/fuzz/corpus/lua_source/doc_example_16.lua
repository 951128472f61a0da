local tensor = require 'dmlab.system.tensor'

local n = 0
local z = tensor.DoubleTensor(2, 3):apply(function() n = n + 1 return n end)
assert(z == tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}})

z:applyIndexed(function(value, index) return 10 * index[1] + index[2] end)
assert(z == tensor.DoubleTensor{{11, 12, 13}, {21, 22, 23}})

-- Stop early: negate elements up to and including the first one above 12.
z:apply(function(value) return -value, value <= 12 end)
assert(z == tensor.DoubleTensor{{-11, -12, -13}, {21, 22, 23}})

-- An error stops at once and propagates; later elements are unchanged.
local ok, err = pcall(function()
  z:apply(function(value)
    if value == 21 then error('no 21s') end
    return 0
  end)
end)
assert(not ok and err:find('no 21s', 1, true))
assert(z == tensor.DoubleTensor{{0, 0, 0}, {21, 22, 23}})
