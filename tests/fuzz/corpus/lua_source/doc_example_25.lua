local random = require 'dmlab.system.random'

random:seed(42)
local a = {random:uniformInt(1, 6), random:uniformReal(0, 1),
           random:normalDistribution(0, 1), random:discreteDistribution{1, 2, 3}}
random:seed(42)
local b = {random:uniformInt(1, 6), random:uniformReal(0, 1),
           random:normalDistribution(0, 1), random:discreteDistribution{1, 2, 3}}
for i = 1, 4 do assert(a[i] == b[i]) end

local gen = random.Generator(7)
local x = gen:uniformInt(1, 6)
assert(x >= 1 and x <= 6 and x == math.floor(x))
assert(random.Generator(7):uniformInt(1, 6) == x)
assert(gen:discreteDistribution{0, 1, 0} == 2)
assert(not pcall(function() random:uniformInt(6, 1) end))
