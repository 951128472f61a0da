local tensor = require 'dmlab.system.tensor'

local e = tensor.DoubleTensor()
assert(e:size() == 0 and #e:shape() == 0)
assert(e == tensor.DoubleTensor{})
assert(e:sum() == 0 and e:product() == 1)
assert(tostring(e) == '[dmlab.system.tensor.DoubleTensor]\nShape: [] Empty')
