local tensor = require 'dmlab.system.tensor'

local my_api = {}

function my_api.call_me_with_a_tensor(z)
  my_api._valid_tensor = z:ownsStorage() and z or z:clone()
end

my_api.call_me_with_a_tensor(tensor.DoubleTensor{1, 2})
assert(my_api._valid_tensor == tensor.DoubleTensor{1, 2})

-- For debugging only: validity is seen through pcall.
local function isUsable(t) return (pcall(function() return t:type() end)) end
assert(isUsable(my_api._valid_tensor))
