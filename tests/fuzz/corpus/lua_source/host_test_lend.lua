local host_test = require 'dmlab.system.host_test'
local kept
host_test.lend('FloatTensor', {2, 2}, 1.5, function(t)
  kept = t:narrow(1, 1, 1)
  t:applyIndexed(function(v, i) return i[1] + i[2] end)
end)
print(pcall(tostring, kept))
print(pcall(function() return kept == kept end))
