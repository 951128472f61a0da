-- dmlab.system.torch: the Torch flavour beside dmlab.system.tensor's, over
-- the same core tensors (docs/torch.md, "Two flavours").
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local torch = require 'dmlab.system.torch'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains

testing.case('t:torch() and t:dmlab() share the elements, without a copy', function()
  local d = tensor.DoubleTensor{{1, 2}, {3, 4}}
  local t = d:torch()
  testing.assertEqual(torch.type(t), 'torch.DoubleTensor')
  testing.assertEqual(torch.isTensor(t), true)
  testing.assertEqual(torch.isTensor(d), false, 'a dmlab tensor is not a Torch one')
  t[{1, 2}] = 20
  testing.assertEqual(d:val(), {{1, 20}, {3, 4}})
  local back = t:dmlab()
  back:val({{5, 6}, {7, 8}})
  testing.assertEqual(t:totable(), {{5, 6}, {7, 8}})
  testing.assertEqual(back:type(), 'dmlab.system.tensor.DoubleTensor')
  testing.assertEqual(t:torch() == t, true, 'a Torch tensor is its own t:torch()')
  testing.assertEqual(torch.fromDmlab(d):storageOffset(), 1)
end)

testing.case('clashing methods follow each anchor', function()
  local d = tensor.DoubleTensor(4, 5)
  local t = d:torch()
  -- size(): DeepMind Lab's element count, Torch7's LongStorage.
  testing.assertEqual(d:size(), 20)
  testing.assertEqual(torch.type(t:size()), 'torch.LongStorage')
  testing.assertEqual(t:size():totable(), {4, 5})
  testing.assertEqual(t:size(2), 5)
  testing.assertEqual(#t:size(), 2)
  -- type() and the printed header.
  testing.assertEqual(d:type(), 'dmlab.system.tensor.DoubleTensor')
  testing.assertEqual(t:type(), 'torch.DoubleTensor')
  testing.assertEqual(tostring(d):match('^[^\n]*'), '[dmlab.system.tensor.DoubleTensor]')
  testing.assertEqual(tostring(t):match('[^\n]*\n$'), '[torch.DoubleTensor of size 4x5]\n')
  -- select on a vector: a rank-0 tensor in DeepMind Lab, the number in Torch7.
  local v = tensor.DoubleTensor{7, 8}
  testing.assertEqual(torch.isTensor(v:select(1, 2)), false)
  testing.assertEqual(v:torch():select(1, 2), 8)
  -- Operators: Torch7's only.
  testing.assertEqual((t + 1):sum(), 20)
  expectError(function() return d + 1 end, 'arithmetic')
end)

testing.case('a number meets an integer tensor as Torch7 casts it', function()
  local i = torch.IntTensor({1, 2})
  testing.assertEqual(i:add(2.9):totable(), {3, 4})
  testing.assertEqual(i:fill(-1.5):totable(), {-1, -1})
  testing.assertEqual(i:mul(2.5):totable(), {-2, -2})
  testing.assertEqual(tensor.Int32Tensor{1}:torch():div(2.9):totable(), {0})
  expectError(function() torch.ByteTensor(1):fill(-1) end, 'ByteTensor cannot hold -1')
  -- Torch7's arithmetic is the type's: a byte wraps.
  testing.assertEqual(torch.ByteTensor{250}:add(10):totable(), {4})
  -- dmlab.system.tensor keeps DeepMind Lab's rule: in double, truncated,
  -- and a result out of range is an error.
  testing.assertEqual(tensor.Int32Tensor{1}:add(2.5):val(), 3)
  expectError(function() tensor.ByteTensor{250}:add(10) end, 'uint8 cannot hold')
end)

testing.case('methods of either flavour return their own flavour', function()
  local t = torch.DoubleTensor{{1, 2}, {3, 4}}
  testing.assertEqual(torch.type(t:narrow(1, 1, 1)), 'torch.DoubleTensor')
  testing.assertEqual(torch.type(t:t()), 'torch.DoubleTensor')
  testing.assertEqual(torch.type(t:gt(2)), 'torch.ByteTensor')
  for _, piece in ipairs(t:split(1, 1)) do
    testing.assertEqual(torch.type(piece), 'torch.DoubleTensor')
  end
  testing.assertEqual(torch.type(torch.cat(t, t, 1)), 'torch.DoubleTensor')
  testing.assertEqual(t:add(1) == t, true, 'in-place methods return self')
  local d = tensor.DoubleTensor{1, 2}
  testing.assertEqual(d:narrow(1, 1, 1):type(), 'dmlab.system.tensor.DoubleTensor')
end)

testing.case('a lent tensor is refused in either flavour once the loan ends', function()
  local kept, keptStorage
  host_test.lend('DoubleTensor', {2, 2}, 3, function(lent)
    kept = lent:torch()
    keptStorage = kept:storage()
    testing.assertEqual(kept[{1, 1}], 3)
    testing.assertEqual(keptStorage[4], 3)
  end)
  for _, f in ipairs({
      function() return kept[1] end,
      function() kept[1] = 1 end,
      function() return kept + 1 end,
      function() return kept:sum() end,
      function() return tostring(kept) end,
      function() return kept:dmlab() end,
      function() return keptStorage[1] end,
      function() return torch.DoubleTensor():set(keptStorage) end,
  }) do
    expectError(f, 'invalid')
  end
end)

testing.case('metatables stay hidden', function()
  local t = torch.DoubleTensor(2)
  testing.assertEqual(getmetatable(t), 'torch.DoubleTensor')
  testing.assertEqual(getmetatable(t:storage()), 'torch.DoubleStorage')
  testing.assertEqual(torch.getmetatable('torch.DoubleTensor'), torch.DoubleTensor)
  testing.assertEqual(rawget(torch.DoubleTensor, '__gc'), nil)
end)

testing.run()
