-- A short tour of dmlab.system.tensor: what `./lab run` shows first.
-- Run it yourself with: bazel run //lua_api:lua_run -- docs/demo.lua
local tensor = require 'dmlab.system.tensor'
local random = require 'dmlab.system.random'
local host_test = require 'dmlab.system.host_test'

local function section(title) print('\n-- ' .. title) end

section('Creation')
local z = tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}
print(z)
print(tensor.Int32Tensor{range = {10, 1, -3}})

section('Views share storage')
local column = z:select(2, 2)
column:mul(10)
print(z)
print(z:transpose(1, 2))

section('Operations')
local counter = 0
local m = tensor.DoubleTensor(4, 4):apply(function() counter = counter + 1; return counter end)
print(m:narrow(1, 2, 2))
print('sum', m:sum(), 'dot', m:dot(m), 'mmul', m:mmul(m)(4, 4):val())
print(tensor.ByteTensor{100, 7}:mul(1.5))  -- in double, truncated: 150, 10

section('Bad input is a clear error')
print(select(2, pcall(function() return tensor.Int32Tensor{4, 2}:div(0) end)))
print(select(2, pcall(function() return z:narrow(1, 3, 2) end)))

section('Lent memory')
local kept
host_test.lend('ByteTensor', {2, 3}, 7, function(frame)
  print('owns its storage:', frame:ownsStorage())
  kept = frame
end)
print(select(2, pcall(function() return kept:sum() end)))

section('Deterministic randomness')
random:seed(1)
print(tensor.DoubleTensor{range = {6}}:shuffle(random))
