local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local lent, view, kept
host_test.lend('DoubleTensor', {2, 2}, 7, function(t)
  assert(not t:ownsStorage())
  lent, view, kept = t, t:select(1, 1), t:clone()   -- keep a clone, not t
end)

assert(kept:ownsStorage() and kept == tensor.DoubleTensor{{7, 7}, {7, 7}})

local ok, err = pcall(function() return lent:sum() end)
assert(not ok)
assert(err:find('invalid', 1, true))
assert(err:find('dmlab.system.tensor.DoubleTensor', 1, true))
assert(err:find('sum', 1, true))
assert(err:find('host_test.lend buffer', 1, true))     -- the lender

assert(not pcall(function() return view:val() end))    -- views too
assert(not pcall(function() return tostring(lent) end))
ok, err = pcall(function() return kept:cadd(lent) end) -- as an argument
assert(not ok and err:find("bad argument #1 to 'cadd'", 1, true))
assert(err:find('invalid', 1, true))
