-- dmlab.system.torch: constructors, type names, conversions, the default
-- type (seed-torch7-tensor.md, "Tensor constructors" and "type").
local testing = require 'testing'
local torch = require 'dmlab.system.torch'

local expectError = testing.assertErrorContains

testing.case('the eight types', function()
  for name, size in pairs({Byte = 1, Char = 1, Short = 2, Int = 4, Long = 8, Half = 2, Float = 4,
                           Double = 8}) do
    local t = torch[name .. 'Tensor'](2, 3)
    testing.assertEqual(torch.typename(t), 'torch.' .. name .. 'Tensor')
    testing.assertEqual(t:type(), 'torch.' .. name .. 'Tensor')
    testing.assertEqual(t:elementSize(), size)
    testing.assertEqual(t:dim(), 2)
    testing.assertEqual(t:nElement(), 6)
    testing.assertEqual(t:sum(), 0, name .. ': zero-filled')
  end
end)

testing.case('constructors', function()
  testing.assertEqual(torch.Tensor():dim(), 0)
  testing.assertEqual(torch.Tensor(2, 3, 4):size():totable(), {2, 3, 4})
  testing.assertEqual(torch.Tensor({{1, 2}, {3, 4}}):totable(), {{1, 2}, {3, 4}})
  testing.assertEqual(torch.Tensor(torch.LongStorage({3, 2})):size():totable(), {3, 2})
  local x = torch.Tensor({1, 2, 3})
  local y = torch.Tensor(x)
  y[1] = 10
  testing.assertEqual(x[1], 10, 'Tensor(tensor) shares the elements')
  testing.assertEqual(torch.isequal(x, y), false, 'but is another object')
  testing.assertEqual(x:new():totable(), {10, 2, 3}, 'x:new() is Tensor(x)')
  testing.assertEqual(torch.Tensor.new():dim(), 0)
  expectError(function() return torch.DoubleTensor(torch.FloatTensor(2)) end,
              "bad argument #1 to 'DoubleTensor'", 'torch.DoubleTensor expected')
  expectError(function() return torch.Tensor('x') end, "bad argument #1 to 'DoubleTensor'")
end)

testing.case('constructors from storages, in Torch7\'s order', function()
  -- Sizes and strides: zero-filled over the fewest elements they reach.
  local repeated = torch.DoubleTensor(torch.LongStorage({4}), torch.LongStorage({0}))
  testing.assertEqual({repeated:size(1), repeated:stride(1), repeated:storage():size()}, {4, 0, 1})
  testing.assertEqual(repeated:totable(), {0, 0, 0, 0})
  local strided = torch.DoubleTensor(torch.LongStorage({2, 2}), torch.LongStorage({1, 2}))
  testing.assertEqual(strided:stride():totable(), {1, 2})
  testing.assertEqual(strided:storage():size(), 4)
  testing.assertEqual(torch.type(strided:stride()), 'torch.LongStorage', 'stride() as size()')
  -- The tensor's own storage type is a view of the storage, even for Long.
  local view = torch.LongTensor(torch.LongStorage({4, 5}))
  testing.assertEqual(view:totable(), {4, 5})
  view[1] = 7
  testing.assertEqual(view:storage()[1], 7)
  expectError(function() return torch.DoubleTensor(torch.FloatStorage(3)) end,
              "bad argument #1 to 'DoubleTensor' (torch.DoubleStorage or LongStorage of sizes")
  expectError(function() return torch.Tensor(torch.LongStorage({2}), {1}) end,
              "bad argument #2 to 'DoubleTensor' (LongStorage of strides expected")
  expectError(function() return torch.Tensor(torch.LongStorage({2}), torch.LongStorage({1, 1})) end,
              '1 strides expected, got 2')
end)

testing.case('type(name), typeAs and the conversions', function()
  local x = torch.DoubleTensor({1.5, -2.5, 3})
  testing.assertEqual(x:type('torch.DoubleTensor') == x, true, 'its own type: self')
  testing.assertEqual(x:type('torch.IntTensor'):totable(), {1, -2, 3}, 'toward zero')
  testing.assertEqual(x:int():type(), 'torch.IntTensor')
  testing.assertEqual(x:long():type(), 'torch.LongTensor')
  testing.assertEqual(x:short():type(), 'torch.ShortTensor')
  testing.assertEqual(x:float():type(), 'torch.FloatTensor')
  testing.assertEqual(x:half():float():totable(), {1.5, -2.5, 3})
  testing.assertEqual(x:typeAs(torch.CharTensor()):type(), 'torch.CharTensor')
  testing.assertEqual(x:real():type(), torch.getdefaulttensortype())
  -- Torch7 leaves an out-of-range conversion undefined; here it is an error.
  expectError(function() return x:byte() end, 'cannot be held by uint8')
  expectError(function() return x:type('torch.NoTensor') end, "bad argument #1 to 'type'")
end)

testing.case('type functions', function()
  local t = torch.LongTensor()
  testing.assertEqual(torch.type(t), 'torch.LongTensor')
  testing.assertEqual(torch.type({}), 'table')
  testing.assertEqual(torch.type(2), 'number')
  testing.assertEqual(torch.typename(2), nil)
  testing.assertEqual(torch.isTypeOf(t, torch.LongTensor), true)
  testing.assertEqual(torch.isTypeOf(t, 'torch.LongTensor'), true)
  testing.assertEqual(torch.isTypeOf(t, 'torch.Long'), false, 'a literal must match whole')
  testing.assertEqual(torch.isTypeOf(t, 'torch.*Tensor'), true, 'a pattern may match part')
  testing.assertEqual(torch.isTypeOf(t, torch.IntTensor), false)
  testing.assertEqual(torch.Tensor.isTensor(t), true)
end)

testing.case('module forms of repeatTensor, totable and numel; a storage type\'s methods', function()
  testing.assertEqual(torch.repeatTensor(torch.Tensor({1, 2}), 2, 2):totable(),
                      {{1, 2, 1, 2}, {1, 2, 1, 2}})
  local result = torch.Tensor()
  torch.repeatTensor(result, torch.Tensor({3}), 2)
  testing.assertEqual(result:totable(), {3, 3}, 'into a result')
  testing.assertEqual(torch.totable(torch.Tensor({{1, 2}})), {{1, 2}})
  testing.assertEqual(torch.totable(torch.LongStorage({4, 5})), {4, 5})
  testing.assertEqual(torch.numel(torch.Tensor(3, 4)), 12)
  expectError(function() torch.numel({}) end, "bad argument #1 to 'numel' (tensor expected)")
  local methods = torch.getmetatable('torch.CharStorage')
  testing.assertEqual(type(methods.size), 'function')
  methods.twice = function(self) return 2 * self:size() end
  testing.assertEqual(torch.CharStorage(3):twice(), 6, 'a method added to the type')
  testing.assertEqual(torch.ByteStorage(3).twice, nil, 'and to no other')
  methods.twice = nil
end)

testing.case('pointer names an object while it lives', function()
  local t, u, tbl = torch.Tensor(4), torch.Tensor(4), {}
  testing.assertEqual(type(torch.pointer(t)), 'number')
  testing.assertEqual(torch.pointer(t), torch.pointer(t))
  testing.assertTrue(torch.pointer(t) ~= torch.pointer(u), 'two tensors')
  testing.assertTrue(torch.pointer(t) ~= torch.pointer(t:view(2, 2)), 'a view is another tensor')
  testing.assertEqual(torch.pointer(t:storage()), torch.pointer(t:storage()), 'one storage')
  testing.assertEqual(torch.pointer(t:view(2, 2):storage()), torch.pointer(t:storage()),
                      "a view's storage is its base's")
  testing.assertTrue(torch.pointer(t:storage()) ~= torch.pointer(u:storage()), 'two storages')
  testing.assertEqual(torch.pointer(tbl), torch.pointer(tbl))
  testing.assertTrue(torch.pointer(tbl) ~= torch.pointer({}), 'two tables')
  testing.assertEqual(type(torch.pointer(print)), 'number')
  testing.assertEqual(type(torch.pointer(coroutine.create(function() end))), 'number')
  testing.assertEqual(torch.type(torch.Generator()), 'torch.Generator')
  testing.assertEqual(type(torch.pointer(torch.Generator())), 'number')
  testing.assertErrorContains(function() torch.pointer(3) end,
                              "bad argument #1 to 'pointer' (Torch object, table")
  testing.assertErrorContains(function() torch.pointer(io.stdout) end,
                              "bad argument #1 to 'pointer' (Torch object expected)")
end)

testing.case('setdefaulttensortype moves torch.Tensor only', function()
  testing.assertEqual(torch.getdefaulttensortype(), 'torch.DoubleTensor')
  torch.setdefaulttensortype('torch.FloatTensor')
  testing.assertEqual(torch.Tensor(2):type(), 'torch.FloatTensor')
  testing.assertEqual(torch.Storage(2):size(), 2)
  testing.assertEqual(torch.type(torch.Storage(2)), 'torch.FloatStorage')
  testing.assertEqual(torch.DoubleTensor(2):type(), 'torch.DoubleTensor')
  testing.assertEqual(torch.DoubleTensor(2):real():type(), 'torch.FloatTensor')
  torch.setdefaulttensortype('torch.DoubleTensor')
  testing.assertEqual(torch.Tensor(2):type(), 'torch.DoubleTensor')
  expectError(function() torch.setdefaulttensortype('double') end,
              "bad argument #1 to 'setdefaulttensortype'")
end)

testing.run()
