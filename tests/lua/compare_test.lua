-- Element-wise comparisons lt, le, gt, ge, eq, ne: ByteTensor masks, as
-- methods and as module functions with an optional ByteTensor res.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains

local OPS = {
  lt = function(a, b) return a < b end,
  le = function(a, b) return a <= b end,
  gt = function(a, b) return a > b end,
  ge = function(a, b) return a >= b end,
  eq = function(a, b) return a == b end,
  ne = function(a, b) return a ~= b end,
}
local TYPES = {'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor', 'Int64Tensor',
               'FloatTensor', 'DoubleTensor'}

-- Every element of t, row-major, as a flat table.
local function flat(t)
  local out = {}
  t:clone():apply(function(v) out[#out + 1] = v end)
  return out
end

-- A 3x4 tensor of `typeName` holding 1 .. 12 and some of its views.
local function views(typeName)
  local t = tensor[typeName]{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
  return {
    contiguous = t,
    transposed = t:transpose(1, 2),
    narrowed = t:narrow(2, 2, 2),
    reversed = t:reverse(1):reverse(2),
    column = t:select(2, 3),
  }
end

testing.case('comparisons with a number give ByteTensor masks on every view and type', function()
  for _, typeName in ipairs(TYPES) do
    for viewName, x in pairs(views(typeName)) do
      for name, op in pairs(OPS) do
        local before = flat(x)
        local mask = x[name](x, 6)
        testing.assertEqual(mask:type(), 'dmlab.system.tensor.ByteTensor')
        testing.assertEqual(mask:shape(), x:shape())
        local expected = {}
        for i, v in ipairs(before) do expected[i] = op(v, 6) and 1 or 0 end
        testing.assertEqual(flat(mask), expected, typeName .. ' ' .. viewName .. ' ' .. name)
        testing.assertEqual(flat(x), before, 'x is unchanged')
      end
    end
  end
end)

testing.case('comparisons with a tensor pair elements in layout order', function()
  for _, typeName in ipairs(TYPES) do
    for viewName, x in pairs(views(typeName)) do
      local xs = flat(x)
      -- Another shape and a reversed layout: values 12, 11, ... in order.
      local n = #xs
      local ys = tensor[typeName](n):apply(function() return 0 end)
      local i = 0
      ys:reverse(1):apply(function() i = i + 1 return i end)   -- ys[k] = n + 1 - k
      local operand = ys:reverse(1):reverse(1)
      for name, op in pairs(OPS) do
        local mask = x[name](x, operand)
        local expected = {}
        for k, v in ipairs(xs) do expected[k] = op(v, n + 1 - k) and 1 or 0 end
        testing.assertEqual(flat(mask), expected, typeName .. ' ' .. viewName .. ' ' .. name)
      end
    end
  end
end)

testing.case('module functions return a mask or write into a ByteTensor res', function()
  local x = tensor.DoubleTensor{{1, 5}, {3, 2}}
  testing.assertEqual(tensor.gt(x, 2):val(), {{0, 1}, {1, 0}})
  testing.assertEqual(tensor.eq(x, x:transpose(1, 2)):val(), {{1, 0}, {0, 1}})
  local res = tensor.ByteTensor(2, 2)
  testing.assertTrue(rawequal(tensor.le(res, x, 3), res))
  testing.assertEqual(res:val(), {{1, 0}, {1, 1}})
  -- An owning res of another shape is resized.
  local other = tensor.ByteTensor(7)
  tensor.ne(other, x, 1)
  testing.assertEqual(other:val(), {{0, 1}, {1, 1}})
  expectError(function() tensor.lt(tensor.DoubleTensor(2, 2), x, 3) end,
              "bad argument #1 to 'lt'", 'ByteTensor')
  expectError(function() tensor.lt(x, 'a') end, "bad argument #2 to 'lt'",
              'number or tensor expected, got string')
  expectError(function() tensor.lt(1, x) end, "bad argument #1 to 'lt'", 'tensor expected')
end)

testing.case('integers compare exactly with fractions, big numbers and NaN', function()
  local t = tensor.Int32Tensor{-2, 2, 3}
  testing.assertEqual(t:lt(2.5):val(), {1, 1, 0})
  testing.assertEqual(t:ge(2.5):val(), {0, 0, 1})
  testing.assertEqual(t:eq(2.5):val(), {0, 0, 0})
  testing.assertEqual(t:lt(1e30):val(), {1, 1, 1})
  testing.assertEqual(t:gt(-1e30):val(), {1, 1, 1})
  testing.assertEqual(t:eq(0 / 0):val(), {0, 0, 0})
  testing.assertEqual(t:ne(0 / 0):val(), {1, 1, 1})
  testing.assertEqual(tensor.ByteTensor{0, 255}:gt(-1):val(), {1, 1})
  -- 2^53 + 1 is no double, but an int64 holds it.
  local big = tensor.Int64Tensor{2 ^ 53, 0}:cadd(tensor.Int64Tensor{1, 0})
  testing.assertEqual(big:eq(2 ^ 53):val(), {0, 0})
  testing.assertEqual(big:gt(2 ^ 53):val(), {1, 0})
  local nan = tensor.DoubleTensor{0 / 0, 1}
  testing.assertEqual(nan:eq(nan):val(), {0, 1})
  testing.assertEqual(tensor.FloatTensor{0.1, 1}:gt(0.1):val(), {1, 1})  -- 0.1f > 0.1
end)

testing.case('errors name the method and the argument', function()
  local x = tensor.DoubleTensor{1, 2}
  expectError(function() x:lt() end, "bad argument #1 to 'lt' (number or tensor expected, got no value)")
  expectError(function() x:eq({1, 2}) end, "bad argument #1 to 'eq' (number or tensor expected, got table)")
  expectError(function() x:ge(tensor.FloatTensor{1, 2}) end, "'ge':", 'same type')
  expectError(function() x:ne(tensor.DoubleTensor{1, 2, 3}) end, "'ne':", 'same number')
  expectError(function() x.gt(1, 2) end, "calling 'gt' on bad self")
end)

testing.case('empty tensors give empty masks', function()
  local e = tensor.DoubleTensor()
  testing.assertEqual(e:lt(1):size(), 0)
  testing.assertEqual(e:eq(e):size(), 0)
end)

testing.case('an invalid tensor is an error as self and as an argument', function()
  local stash
  host_test.lend('DoubleTensor', {2, 2}, 0, function(t) stash = t end)
  local good = tensor.DoubleTensor(2, 2)
  for name in pairs(OPS) do
    expectError(function() stash[name](stash, 1) end, 'invalid', 'DoubleTensor', name, 'host_test.lend')
    expectError(function() good[name](good, stash) end, 'bad argument #1 to \'' .. name .. '\'',
                'invalid', 'host_test.lend')
    expectError(function() tensor[name](stash, good) end, 'invalid', name)
  end
end)

testing.run()
