local tensor = require 'dmlab.system.tensor'

local z = tensor.Int32Tensor(2, 3)
assert(z:val()[2][3] == 0 and z:ownsStorage())

local c = tensor.DoubleTensor{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}
assert(#c:shape() == 3 and c:size() == 8)
