-- dmlab.system.torch: Storages, storage views and set (seed-torch7-tensor.md,
-- "Storage" and "set").
local testing = require 'testing'
local torch = require 'dmlab.system.torch'

local expectError = testing.assertErrorContains

testing.case('Storages', function()
  local s = torch.DoubleStorage(3)
  testing.assertEqual(s:size(), 3)
  testing.assertEqual(#s, 3)
  s[2] = 5
  testing.assertEqual(s:totable(), {0, 5, 0})
  s:fill(1)
  testing.assertEqual(s[3], 1)
  testing.assertEqual(torch.LongStorage({4, 5}):totable(), {4, 5})
  testing.assertEqual(torch.LongStorage():size(), 0)
  testing.assertEqual(torch.FloatStorage(torch.LongStorage({1, 2})):totable(), {1, 2})
  testing.assertEqual(torch.isStorage(s), true)
  testing.assertEqual(torch.isStorage(torch.Tensor(1)), false)
  testing.assertEqual(torch.type(s), 'torch.DoubleStorage')
  testing.assertEqual(s:elementSize(), 8)
  s:resize(5)
  testing.assertEqual(s:size(), 5)
  expectError(function() s.x = 1 end, 'a storage has no field x')
end)

testing.case('x:storage() is the whole storage, shared', function()
  local x = torch.Tensor({{1, 2, 3}, {4, 5, 6}})
  local column = x:select(2, 2)
  local s = column:storage()
  testing.assertEqual(s:size(), 6)
  testing.assertEqual(column:storageOffset(), 2)
  s[5] = 50
  testing.assertEqual(x[{2, 2}], 50)
end)

testing.case('Tensor(storage, offset, sizes, strides) and x:set', function()
  local s = torch.DoubleStorage({1, 2, 3, 4, 5, 6})
  local x = torch.DoubleTensor(s, 2, torch.LongStorage({2, 2}), torch.LongStorage({3, 1}))
  testing.assertEqual(x:totable(), {{2, 3}, {5, 6}})
  x[{1, 1}] = 20
  testing.assertEqual(s[2], 20)
  local y = torch.DoubleTensor():set(s, 4)
  testing.assertEqual(y:totable(), {4, 5, 6})
  local z = torch.DoubleTensor():set(x)
  testing.assertEqual(z:isSetTo(x), true)
  testing.assertEqual(x:isSetTo(x:clone()), false)
  testing.assertEqual(z:set() == z, true)
  testing.assertEqual(z:dim(), 0)
  expectError(function() return torch.DoubleTensor(s, 5, torch.LongStorage({2, 2})) end,
              "'set'")
end)

testing.run()
