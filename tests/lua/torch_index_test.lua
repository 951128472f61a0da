-- dmlab.system.torch: Torch7's indexing and assignment (seed-torch7-tensor.md,
-- "[{ dim1,dim2,... }] or [{ {dim1s,dim1e}, ... }]" and "[mask]").
local testing = require 'testing'
local torch = require 'dmlab.system.torch'

local expectError = testing.assertErrorContains

-- {{1, 2, 3}, {4, 5, 6}}
local function m23()
  return torch.Tensor({{1, 2, 3}, {4, 5, 6}})
end

testing.case('x[i]: the number of a vector, a select otherwise', function()
  local v = torch.Tensor({7, 8, 9})
  testing.assertEqual(v[2], 8)
  testing.assertEqual(v[-1], 9, 'negative from the end')
  local row = m23()[2]
  testing.assertEqual(torch.type(row), 'torch.DoubleTensor')
  testing.assertEqual(row:totable(), {4, 5, 6})
  testing.assertEqual(m23()[2][3], 6)
  testing.assertEqual(v.nonexistent, nil, 'a string key that is no method')
end)

testing.case('x[{...}]: numbers select, ranges narrow', function()
  local x = m23()
  testing.assertEqual(x[{2, 3}], 6)
  testing.assertEqual(x[{-1, -1}], 6)
  testing.assertEqual(x[{{}, 2}]:totable(), {2, 5})
  testing.assertEqual(x[{1, {2, 3}}]:totable(), {2, 3})
  testing.assertEqual(x[{{2}, {}}]:totable(), {{4, 5, 6}})
  testing.assertEqual(x[{{1, -2}, {-2, -1}}]:totable(), {{2, 3}})
  testing.assertEqual(x[{2}]:totable(), {4, 5, 6})
  -- The seed's example: a view, so writing through it writes x.
  local z = torch.Tensor(3, 4):zero()
  z[{{}, 2}] = 1
  testing.assertEqual(z:sum(), 3)
  testing.assertEqual(z[{2, 2}], 1)
end)

testing.case('x[mask]', function()
  local x = m23()
  local mask = x:gt(3)
  testing.assertEqual(x[mask]:totable(), {4, 5, 6})
  x[mask] = 0
  testing.assertEqual(x:totable(), {{1, 2, 3}, {0, 0, 0}})
  x[x:eq(0)] = torch.Tensor({7, 8, 9})
  testing.assertEqual(x:totable(), {{1, 2, 3}, {7, 8, 9}})
  expectError(function() return x[x:gt(3):double()] end, 'a mask must be a ByteTensor')
end)

testing.case('assignment: numbers fill, tensors copy', function()
  local x = m23()
  x[1] = 0
  testing.assertEqual(x:totable(), {{0, 0, 0}, {4, 5, 6}})
  x[2] = torch.Tensor({1, 2, 3})
  testing.assertEqual(x[2]:totable(), {1, 2, 3})
  x[{1, 2}] = 9
  testing.assertEqual(x[1]:totable(), {0, 9, 0})
  x[{{}, {1, 2}}] = torch.Tensor({{1, 1}, {1, 1}})
  testing.assertEqual(x:totable(), {{1, 1, 0}, {1, 1, 3}})
  -- Numbers meet integer types as Torch7 casts them: toward zero.
  local i = torch.IntTensor(2)
  i[1] = 2.7
  i[2] = -2.7
  testing.assertEqual(i:totable(), {2, -2})
  expectError(function() torch.ByteTensor(1)[1] = 300 end, 'ByteTensor cannot hold 300')
end)

testing.case('bad keys name the dimension', function()
  local x = m23()
  expectError(function() return x[3] end, "'__index'", 'index 3 out of range for dimension 1 of size 2')
  expectError(function() return x[{1, 4}] end, 'index 4 out of range for dimension 2 of size 3')
  expectError(function() return x[{1, 2, 3}] end, 'too many indices (3) for a tensor of rank 2')
  expectError(function() return x[{{3, 1}}] end, 'out of range for dimension 1')
  expectError(function() return x[{{2, 1}}] end, 'end index 1 is before start index 2')
  expectError(function() return x[1/0] end, 'integer expected')
  expectError(function() return torch.Tensor()[1] end, 'indexing a tensor with no dimension')
  expectError(function() x[1] = 'a' end, "'__newindex'", 'number or tensor expected')
  expectError(function() x.field = 1 end, 'tensors take no fields')
  expectError(function() x[1] = torch.Tensor(4) end, 'the tensor has 4 elements, the indexed part 3')
end)

testing.run()
