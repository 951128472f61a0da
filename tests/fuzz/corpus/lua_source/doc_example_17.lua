local tensor = require 'dmlab.system.tensor'
local random = require 'dmlab.system.random'

random:seed(1)
local a = tensor.Int32Tensor{range = {10}}:shuffle(random)
random:seed(1)
local b = tensor.Int32Tensor{range = {10}}:shuffle(random)
assert(a == b)                            -- the same seed, the same permutation
assert(a:sum() == 55)                     -- the same elements
assert(not pcall(function() tensor.DoubleTensor(2, 2):shuffle(random) end))
