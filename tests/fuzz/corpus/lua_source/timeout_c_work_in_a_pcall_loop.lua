local tensor = require 'dmlab.system.tensor'
local t = {}
while true do
  pcall(function() t[#t + 1] = tensor.ByteTensor(64):fill(1) .. string.rep('x', 5383) end)
end
