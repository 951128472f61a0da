local tensor = require 'dmlab.system.tensor'
local t = fuzz_host.lend(1, 'DoubleTensor', {3, 2}, 0)
local v = t:transpose(1, 2)
print(pcall(function()
  t:apply(function(x) fuzz_host.revoke(1) return 1 end)
end))
print(pcall(function() return v:sum() end))
print(pcall(function() return tensor.DoubleTensor(2, 3):copy(v) end))
