-- Module functions built from methods: tensor.f([res,] x, ...).
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains

local function fractions()
  return tensor.DoubleTensor{{1.5, -2.5}, {3.25, 4.75}}
end

testing.case('without res: a new tensor, x unchanged', function()
  local x = fractions()
  local y = tensor.floor(x)
  testing.assertEqual(y:val(), {{1, -3}, {3, 4}})
  testing.assertEqual(x:val(), {{1.5, -2.5}, {3.25, 4.75}})
  testing.assertTrue(y:ownsStorage())
end)

testing.case('with res: written into res, which is returned', function()
  local x = fractions()
  local res = tensor.DoubleTensor(2, 2)
  testing.assertTrue(rawequal(tensor.ceil(res, x), res))
  testing.assertEqual(res:val(), {{2, -2}, {4, 5}})
  testing.assertEqual(x:val(), {{1.5, -2.5}, {3.25, 4.75}})
end)

testing.case('res may be x itself', function()
  local x = fractions()
  testing.assertTrue(rawequal(tensor.round(x, x), x))
  testing.assertEqual(x:val(), {{2, -3}, {3, 5}})
end)

testing.case('a non-contiguous x and a non-contiguous res', function()
  local x = fractions():transpose(1, 2)
  testing.assertEqual(tensor.floor(x):val(), {{1, 3}, {-3, 4}})
  local backing = tensor.DoubleTensor(2, 4)
  local res = backing:narrow(2, 2, 2)
  tensor.mul(res, x, 2)
  testing.assertEqual(backing:val(), {{0, 3, 6.5, 0}, {0, -5, 9.5, 0}})
end)

testing.case('an owning res of another shape is resized', function()
  local res = tensor.DoubleTensor(5)
  local view = res:narrow(1, 1, 2)
  tensor.floor(res, fractions())
  testing.assertEqual(res:shape(), {2, 2})
  testing.assertEqual(res:val(), {{1, -3}, {3, 4}})
  -- A view of the old res keeps the old storage.
  testing.assertEqual(view:val(), {0, 0})
end)

testing.case('extra arguments go to the method', function()
  local x = fractions()
  testing.assertEqual(tensor.clamp(x, 0, 2):val(), {{1.5, 0}, {2, 2}})
  testing.assertEqual(tensor.mul(x, {1, 2}):val(), {{1.5, -5}, {3.25, 9.5}})
  testing.assertEqual(tensor.cmul(x, x):val(), {{2.25, 6.25}, {10.5625, 22.5625}})
  local res = tensor.DoubleTensor(2, 2)
  tensor.cdiv(res, x, x)
  testing.assertEqual(res:val(), {{1, 1}, {1, 1}})
  testing.assertEqual(tensor.dot(x, x), x:dot(x))
end)

testing.case('argument numbers count the module function arguments', function()
  local x = fractions()
  expectError(function() tensor.mul(x, 'a') end,
              "bad argument #2 to 'mul' (number or table expected, got string)")
  expectError(function() tensor.mul(x:clone(), x, 'a') end,
              "bad argument #3 to 'mul' (number or table expected, got string)")
  expectError(function() tensor.mul('a', 2) end,
              "bad argument #1 to 'mul' (tensor expected, got string)")
  expectError(function() tensor.floor() end,
              "bad argument #1 to 'floor' (tensor expected, got no value)")
  expectError(function() tensor.cmul(x, tensor.DoubleTensor(3)) end,
              "'cmul': the tensors have 4 and 3 elements")
end)

testing.case('after a module function, a method counts from self again', function()
  -- The module function's numbering is set for the method's call only,
  -- also when that call raises.
  local x = fractions()
  expectError(function() tensor.mul(x, 'a') end, "bad argument #2 to 'mul'")
  expectError(function() x:mul('a') end, "bad argument #1 to 'mul'")
  testing.assertEqual(tensor.mul(x, 2):val(), x:clone():mul(2):val())
  expectError(function() x:mul('a') end, "bad argument #1 to 'mul'")
end)

testing.case('res of another type is an error, and changes nothing', function()
  local res = tensor.FloatTensor(2, 2):fill(7)
  expectError(function() tensor.floor(res, fractions()) end,
              "bad argument #1 to 'floor' (res must be a DoubleTensor, got FloatTensor)")
  testing.assertEqual(res:val(), {{7, 7}, {7, 7}})
end)

testing.case('invalid tensors as x and as res', function()
  local stash
  host_test.lend('DoubleTensor', {2, 2}, 0, function(t) stash = t end)
  expectError(function() tensor.floor(stash) end,
              "bad argument #1 to 'floor' (dmlab.system.tensor.DoubleTensor is an invalid tensor",
              'host_test.lend')
  expectError(function() tensor.floor(fractions(), stash) end,
              "bad argument #2 to 'floor' (dmlab.system.tensor.DoubleTensor is an invalid tensor")
  expectError(function() tensor.floor(stash, fractions()) end,
              "bad argument #1 to 'floor' (dmlab.system.tensor.DoubleTensor is an invalid tensor")
  expectError(function() tensor.dot(stash, stash) end, 'invalid', 'dot', 'host_test.lend')
end)

testing.case('a result into an invalid res: the invalid error, whatever its shape', function()
  local stash
  host_test.lend('DoubleTensor', {5}, 0, function(t) stash = t end)
  expectError(function() tensor.sum(stash, fractions(), 1) end,
              "bad argument #1 to 'sum' (dmlab.system.tensor.DoubleTensor is an invalid tensor",
              'host_test.lend')
end)

testing.case('a result into res, which is resized or written in place', function()
  local res = tensor.DoubleTensor(7)
  testing.assertTrue(rawequal(tensor.sum(res, fractions(), 1), res))
  testing.assertEqual(res:val(), {{4.75, 2.25}})
  local mask = tensor.ByteTensor(2, 2)
  tensor.gt(mask, fractions(), 2)
  testing.assertEqual(mask:val(), {{0, 0}, {1, 1}})
  expectError(function() tensor.gt(tensor.DoubleTensor(2, 2), fractions(), 2) end,
              "bad argument #1 to 'gt' (res must be a ByteTensor, got DoubleTensor)")
end)

testing.case('a lent res must already have the shape', function()
  host_test.lend('DoubleTensor', {2, 2}, 0, function(res)
    tensor.floor(res, fractions())
    testing.assertEqual(res:val(), {{1, -3}, {3, 4}})
  end)
  host_test.lend('DoubleTensor', {3}, 0, function(res)
    expectError(function() tensor.floor(res, fractions()) end,
                "bad argument #1 to 'floor' (res has shape [3], the result [2, 2], "
                  .. 'and res cannot be resized: its memory is lent)')
  end)
end)

testing.run()
