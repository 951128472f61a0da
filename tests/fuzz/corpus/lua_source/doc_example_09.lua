local tensor = require 'dmlab.system.tensor'

local t = tensor.FloatTensor(3, 2)
assert(t:type() == 'dmlab.system.tensor.FloatTensor')
assert(t:size() == 6)
local shape = t:shape()
assert(#shape == 2 and shape[1] == 3 and shape[2] == 2)
assert(t:ownsStorage())
assert(t:select(2, 1):ownsStorage())   -- a view of owned storage
