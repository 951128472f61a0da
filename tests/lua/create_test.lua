-- The module's constructors after Torch7: tensor.zeros, ones, eye, range,
-- linspace, logspace, rand, randn, randperm and cat, with and without a
-- leading res tensor, and the random ones with and without a generator.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local random = require 'dmlab.system.random'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains

local DOUBLE = 'dmlab.system.tensor.DoubleTensor'

-- A DoubleTensor {2, 2} whose loan has ended.
local function revoked()
  local kept
  host_test.lend('DoubleTensor', {2, 2}, 0, function(t) kept = t end)
  return kept
end

testing.case('zeros and ones: DoubleTensor, extents as numbers or a table', function()
  local z = tensor.zeros(2, 3)
  testing.assertEqual(z:type(), DOUBLE)
  testing.assertEqual(z:val(), {{0, 0, 0}, {0, 0, 0}})
  testing.assertEqual(tensor.ones{3}:val(), {1, 1, 1})
  testing.assertEqual(tensor.ones(1, 1, 2):shape(), {1, 1, 2})
  testing.assertTrue(z:ownsStorage())
end)

testing.case('a res of the right shape is written in place, even a view', function()
  local m = tensor.Int32Tensor(2, 3):fill(7)
  local row = m:select(1, 2)
  testing.assertTrue(rawequal(tensor.zeros(row, 3), row))
  testing.assertEqual(m:val(), {{7, 7, 7}, {0, 0, 0}})
  local column = m:select(2, 1)
  tensor.ones(column, {2})
  testing.assertEqual(m:val(), {{1, 7, 7}, {1, 0, 0}})
  -- A transposed res is filled in its own row-major order.
  local backing = tensor.DoubleTensor(2, 3)
  tensor.eye(backing:t(), 3, 2)
  testing.assertEqual(backing:val(), {{1, 0, 0}, {0, 1, 0}})
end)

testing.case('an owning res of another shape is resized; a lent one is an error', function()
  local res = tensor.ByteTensor()
  testing.assertTrue(rawequal(tensor.ones(res, 2, 2), res))
  testing.assertEqual(res, tensor.ByteTensor{{1, 1}, {1, 1}})
  local view = res:select(1, 1)
  tensor.zeros(res, 3)
  testing.assertEqual(res:val(), {0, 0, 0})
  testing.assertEqual(view:val(), {1, 1}, 'old views keep the old storage')
  host_test.lend('DoubleTensor', {2}, 5, function(lent)
    expectError(function() tensor.zeros(lent, 3) end, "bad argument #1 to 'zeros'",
                'res has shape [2], the result [3]', 'lent')
    tensor.ones(lent, 2)
    testing.assertEqual(lent:val(), {1, 1}, 'a lent res of the right shape is fine')
  end)
end)

testing.case('zeros and ones errors', function()
  expectError(function() tensor.zeros() end, "bad argument #1 to 'zeros'", 'extents')
  expectError(function() tensor.zeros(2, 0) end, "bad argument #2 to 'zeros'", 'at least 1')
  expectError(function() tensor.ones(2, -1) end, "bad argument #2 to 'ones'", 'at least 1, got -1')
  expectError(function() tensor.ones('a') end, "bad argument #1 to 'ones'", 'integer expected')
  expectError(function() tensor.zeros(tensor.DoubleTensor(), 0/0) end, "bad argument #2 to 'zeros'")
  expectError(function() tensor.zeros{2, 'x'} end, "bad argument #1 to 'zeros'", '[2]')
  expectError(function() tensor.ones(tensor.DoubleTensor(1, 2):expand(3, 2), 3, 2):add(1) end,
              "'add'", 'share memory')
end)

testing.case('zeros and ones fill an expanded result: one value, in any order', function()
  local base = tensor.DoubleTensor{{5, 6}}
  local res = tensor.zeros(base:expand(3, 2), 3, 2)
  testing.assertEqual(res:val(), {{0, 0}, {0, 0}, {0, 0}})
  testing.assertEqual(base:val(), {{0, 0}})
end)

testing.case('eye', function()
  testing.assertEqual(tensor.eye(3), tensor.DoubleTensor{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}})
  testing.assertEqual(tensor.eye(2, 3):val(), {{1, 0, 0}, {0, 1, 0}})
  testing.assertEqual(tensor.eye(3, 1):val(), {{1}, {0}, {0}})
  local res = tensor.CharTensor(2, 2):fill(5)
  tensor.eye(res, 2)
  testing.assertEqual(res, tensor.CharTensor{{1, 0}, {0, 1}})
  expectError(function() tensor.eye() end, "bad argument #1 to 'eye'", 'integer expected')
  expectError(function() tensor.eye(0) end, "bad argument #1 to 'eye'", 'at least 1')
  expectError(function() tensor.eye(2, 0) end, "bad argument #2 to 'eye'")
  expectError(function() tensor.eye(2, 2, 2) end, "bad argument #3 to 'eye'", 'no value')
  expectError(function() tensor.eye(res, 2, 'a') end, "bad argument #3 to 'eye'")
end)

testing.case('range: inclusive, with a step, any type', function()
  testing.assertEqual(tensor.range(2, 5), tensor.DoubleTensor{2, 3, 4, 5})
  local r = tensor.range(2, 5, 1.2)
  testing.assertEqual(r:shape(), {3})
  testing.assertTrue(math.abs(r:val()[3] - 4.4) < 1e-12)
  testing.assertEqual(tensor.range(5, 1, -2):val(), {5, 3, 1})
  testing.assertEqual(tensor.range(3, 3):val(), 3)
  local res = tensor.Int64Tensor()
  tensor.range(res, -2, 2)
  testing.assertEqual(res, tensor.Int64Tensor{-2, -1, 0, 1, 2})
end)

testing.case('range errors', function()
  expectError(function() tensor.range(1, 2, 0) end, "'range'", 'nonzero')
  expectError(function() tensor.range(2, 1) end, "'range'", 'never goes from 2 to 1')
  expectError(function() tensor.range(1) end, "bad argument #2 to 'range'", 'number expected')
  expectError(function() tensor.range(1, 'a') end, "bad argument #2 to 'range'")
  expectError(function() tensor.range(1, 2, 1, 4) end, "bad argument #4 to 'range'")
  expectError(function() tensor.range(1, math.huge) end, "'range'", 'finite')
  expectError(function() tensor.range(tensor.ByteTensor(), 250, 260) end, "'range'",
              'ByteTensor cannot hold 260')
  expectError(function() tensor.range(tensor.Int32Tensor(), 1, 2, 0.5) end, "'range'", 'whole step')
end)

testing.case('linspace and logspace', function()
  testing.assertEqual(tensor.linspace(0, 1, 5):val(), {0, 0.25, 0.5, 0.75, 1})
  local hundred = tensor.linspace(-1, 1)
  testing.assertEqual(hundred:shape(), {100})
  testing.assertEqual({hundred:val()[1], hundred:val()[100]}, {-1, 1})
  testing.assertEqual(tensor.linspace(2, 2, 1):val(), 2)
  testing.assertEqual(tensor.logspace(0, 2, 3):val(), {1, 10, 100})
  testing.assertEqual(tensor.logspace(0, 1):shape(), {100})
  local res = tensor.FloatTensor(3)
  tensor.linspace(res:reverse(1), 1, 3, 3)
  testing.assertEqual(res:val(), {3, 2, 1})
  expectError(function() tensor.linspace(0, 1, 1) end, "'linspace'", 'one point')
  expectError(function() tensor.linspace(0, 1, 0) end, "bad argument #3 to 'linspace'")
  expectError(function() tensor.linspace(0) end, "bad argument #2 to 'linspace'")
  expectError(function() tensor.logspace(0, 1, 1/0) end, "bad argument #3 to 'logspace'")
  expectError(function() tensor.linspace(tensor.Int32Tensor(), 0, 1) end, "'linspace'",
              'not defined for Int32Tensor')
  expectError(function() tensor.logspace(0, 1 / 0) end, "'logspace'", 'finite')
end)

testing.case('rand and randn: shapes, ranges, generators', function()
  local u = tensor.rand(10, 10)
  testing.assertEqual(u:type(), DOUBLE)
  testing.assertEqual(u:shape(), {10, 10})
  testing.assertEqual(u:ge(0):sum() + u:lt(1):sum(), 200)
  testing.assertEqual(tensor.randn{4}:shape(), {4})
  testing.assertEqual(tensor.rand(random.Generator(3), 2, 2), tensor.rand(random.Generator(3), 2, 2))
  testing.assertEqual(tensor.rand(random.Generator(3), 2, 2),
                      tensor.DoubleTensor(2, 2):uniform(random.Generator(3)))
  testing.assertEqual(tensor.randn(random.Generator(4), {3}),
                      tensor.DoubleTensor(3):normal(random.Generator(4)))
  random:seed(21)
  local a = tensor.randn(5)
  random:seed(21)
  testing.assertEqual(tensor.randn(5), a, 'the default generator is the random module')
  local res = tensor.FloatTensor(2, 3)
  testing.assertTrue(rawequal(tensor.rand(res, random.Generator(1), 2, 3), res))
  testing.assertEqual(res:lt(1):sum(), 6)
  local backing = tensor.DoubleTensor(3, 2)
  tensor.rand(backing:t(), random.Generator(3), 2, 3)
  testing.assertEqual(backing:t(), tensor.rand(random.Generator(3), 2, 3),
                      'a view draws in its own row-major order')
end)

testing.case('rand, randn errors', function()
  expectError(function() tensor.rand() end, "bad argument #1 to 'rand'", 'extents')
  expectError(function() tensor.rand(random.Generator(1)) end, "bad argument #2 to 'rand'")
  expectError(function() tensor.randn(2, 0) end, "bad argument #2 to 'randn'")
  expectError(function() tensor.rand(tensor.Int32Tensor(), 2) end, "'rand'",
              'not defined for Int32Tensor')
  expectError(function() tensor.randn(tensor.ByteTensor(2), 2) end, "'randn'",
              'not defined for ByteTensor')
  expectError(function() tensor.rand(2, random.Generator(1)) end, "bad argument #2 to 'rand'")
end)

testing.case('randperm: a permutation of 1 .. n, as shuffle draws it', function()
  local p = tensor.randperm(10)
  testing.assertEqual(p:type(), DOUBLE)
  local sorted = p:val()
  table.sort(sorted)
  testing.assertEqual(sorted, tensor.range(1, 10):val())
  testing.assertEqual(tensor.randperm(random.Generator(8), 7),
                      tensor.range(1, 7):shuffle(random.Generator(8)))
  local res = tensor.Int64Tensor()
  tensor.randperm(res, random.Generator(8), 7)
  testing.assertEqual(res:double(), tensor.randperm(random.Generator(8), 7))
  testing.assertEqual(tensor.randperm(1):val(), 1)
  expectError(function() tensor.randperm(0) end, "bad argument #1 to 'randperm'", 'at least 1')
  expectError(function() tensor.randperm(3, 4) end, "bad argument #2 to 'randperm'", 'no value')
  expectError(function() tensor.randperm(tensor.ByteTensor(), 256) end, "'randperm'",
              'ByteTensor cannot hold 256')
  expectError(function() tensor.randperm(random.Generator(1), 'x') end,
              "bad argument #2 to 'randperm'")
end)

testing.case('cat: tensors or a table, along the last or a given dimension', function()
  testing.assertEqual(tensor.cat(tensor.ones(3), tensor.zeros(2)), tensor.DoubleTensor{1, 1, 1, 0, 0})
  testing.assertEqual(tensor.cat(tensor.ones(3, 2), tensor.zeros(2, 2), 1):shape(), {5, 2})
  testing.assertEqual(tensor.cat(tensor.ones(2, 2), tensor.zeros(2, 2), 2):val(),
                      {{1, 1, 0, 0}, {1, 1, 0, 0}})
  testing.assertEqual(tensor.cat({tensor.ones(2, 2), tensor.zeros(2, 2), tensor.ones(3, 2)}, 1)
                      :shape(), {7, 2})
  testing.assertEqual(tensor.cat(tensor.ones(1), tensor.zeros(1), tensor.ones(1)):val(), {1, 0, 1})
  testing.assertEqual(tensor.cat({tensor.DoubleTensor(), tensor.ones(3, 2)}, 1):shape(), {3, 2},
                      'empty tensors are skipped')
  testing.assertEqual(tensor.cat({tensor.DoubleTensor()}):dim(), 0)
  testing.assertEqual(tensor.cat({tensor.ones(2, 2), tensor.zeros(2, 2)}, -1):shape(), {2, 4})
  local m = tensor.Int16Tensor{{1, 2}, {3, 4}}
  testing.assertEqual(tensor.cat(m, m:t(), 1):val(), {{1, 2}, {3, 4}, {1, 3}, {2, 4}})
  testing.assertEqual(tensor.cat(m:reverse(2), m:narrow(2, 1, 1)):val(), {{2, 1, 1}, {4, 3, 3}})
end)

testing.case('cat with res: the table form', function()
  local res = tensor.DoubleTensor()
  testing.assertTrue(rawequal(tensor.cat(res, {tensor.ones(2), tensor.zeros(1)}), res))
  testing.assertEqual(res:val(), {1, 1, 0})
  local backing = tensor.DoubleTensor(2, 3):zero()
  tensor.cat(backing:select(1, 2), {tensor.ones(1), tensor.ones(2)})
  testing.assertEqual(backing:val(), {{0, 0, 0}, {1, 1, 1}})
  expectError(function() tensor.cat(tensor.Int32Tensor(3), {tensor.ones(2), tensor.ones(1)}) end,
              "bad argument #1 to 'cat'", 'res must be a DoubleTensor')
  host_test.lend('DoubleTensor', {2}, 0, function(lent)
    expectError(function() tensor.cat(lent, {tensor.ones(2), tensor.ones(1)}) end,
                "bad argument #1 to 'cat'", 'cannot be resized')
  end)
end)

testing.case('cat errors', function()
  local a, b = tensor.ones(2, 2), tensor.ones(3, 3)
  expectError(function() tensor.cat(a, b) end, "'cat'", 'cannot join shapes [2, 2] and [3, 3]')
  expectError(function() tensor.cat(a, tensor.ones(2)) end, "'cat'", 'ranks differ')
  expectError(function() tensor.cat(a, tensor.Int32Tensor(2, 2)) end, "'cat'",
              'DoubleTensor and Int32Tensor')
  expectError(function() tensor.cat(a, a, 3) end, "bad argument #3 to 'cat'", 'dimension 3 out of range')
  expectError(function() tensor.cat(a, a, 0) end, "bad argument #3 to 'cat'")
  expectError(function() tensor.cat(a, a, 'x') end, "bad argument #3 to 'cat'",
              'tensor or dimension expected')
  expectError(function() tensor.cat(a, a, 1, 2) end, "bad argument #4 to 'cat'", 'no value')
  expectError(function() tensor.cat() end, "bad argument #1 to 'cat'", 'tensor or table expected')
  expectError(function() tensor.cat({}) end, "bad argument #1 to 'cat'", 'no tensors')
  expectError(function() tensor.cat({a, 5}) end, "bad argument #1 to 'cat'", '[2]: tensor expected')
  expectError(function() tensor.cat({a}, 1, 2) end, "bad argument #3 to 'cat'")
end)

testing.case('invalid tensors as res and as arguments', function()
  local t = revoked()
  local a = tensor.ones(2, 2)
  local function expectInvalid(fn, function_name)
    expectError(fn, 'invalid', "'" .. function_name .. "'", 'host_test.lend buffer')
  end
  expectInvalid(function() tensor.zeros(t, 2, 2) end, 'zeros')
  expectInvalid(function() tensor.ones(t, 2, 2) end, 'ones')
  expectInvalid(function() tensor.eye(t, 2) end, 'eye')
  expectInvalid(function() tensor.range(t, 1, 4) end, 'range')
  expectInvalid(function() tensor.linspace(t, 1, 4, 4) end, 'linspace')
  expectInvalid(function() tensor.logspace(t, 1, 4, 4) end, 'logspace')
  expectInvalid(function() tensor.rand(t, 2, 2) end, 'rand')
  expectInvalid(function() tensor.randn(t, 2, 2) end, 'randn')
  expectInvalid(function() tensor.randperm(t, 4) end, 'randperm')
  expectInvalid(function() tensor.cat(t, a) end, 'cat')
  expectInvalid(function() tensor.cat(a, t) end, 'cat')
  expectInvalid(function() tensor.cat({a, t}) end, 'cat')
  expectInvalid(function() tensor.cat(t, {a}) end, 'cat')
end)

testing.run()
