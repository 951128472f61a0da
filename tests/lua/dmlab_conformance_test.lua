-- dmlab.system.tensor where DeepMind Lab's own tensor tests
-- (deepmind/tensor/lua_tensor_test.cc, run against this module by
-- ../shared/anchors/run_peer_tests.sh: 48 of 48 pass) pin a behaviour:
-- val(x) returns x, narrow to size 0 is an empty view, clamp bounds the
-- type cannot hold are errors, and errors carry DeepMind Lab's phrases.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local torch = require 'dmlab.system.torch'

local expectError = testing.assertErrorContains

testing.case('val(x) returns the value set', function()
  local t = tensor.ByteTensor(3, 3)
  testing.assertEqual(t(2, 2):val(10), 10)
  local rows = {{1, 2}, {3, 4}}
  testing.assertTrue(rawequal(tensor.DoubleTensor(2, 2):val(rows), rows))
  testing.assertEqual(t(2, 2):val(), 10)
end)

testing.case('narrow to size 0 is an empty view; Torch7 refuses it', function()
  local empty = tensor.DoubleTensor{0}:narrow(1, 1, 0)
  testing.assertEqual(empty:shape()[1], 0)
  testing.assertEqual(empty:size(), 0)
  local random = require 'dmlab.system.random'
  testing.assertEqual(empty:shuffle(random):shape()[1], 0)
  expectError(function() tensor.DoubleTensor(2):narrow(1, 1, 3) end, "'narrow'")
  expectError(function() torch.Tensor(3):narrow(1, 1, 0) end,
              "bad argument #3 to 'narrow' (size 0")
end)

testing.case("errors carry DeepMind Lab's phrases", function()
  expectError(function() return tensor.DoubleTensor{range = {1, -5}} end,
              "bad argument #1 to 'DoubleTensor'", 'Invalid Tensor range.')
  local cube = tensor.DoubleTensor(2, 2, 2)
  expectError(function() return cube:mmul(tensor.DoubleTensor(2, 2)) end,
              "'mmul'", 'LHS is not a matrix', 'the left operand has shape [2, 2, 2]')
  expectError(function() return tensor.DoubleTensor(2, 2):mmul(cube) end, 'RHS is not a matrix')
  expectError(function() return tensor.DoubleTensor(2, 3):mmul(tensor.DoubleTensor(2, 2)) end,
              'Incorrect matrix dimensions')
  expectError(function() return tensor.FloatTensor(2, 2):mmul(tensor.ByteTensor(2, 2)) end,
              "bad argument #1 to 'mmul'",
              'Must contain 1 RHS tensor of type dmlab.system.tensor.FloatTensor')
  expectError(function() tensor.DoubleTensor(3, 2):clamp(255, 0) end, 'must not exceed')
  expectError(function() tensor.ByteTensor(3, 2):clamp(-10, 100) end, 'TypeMismatch')
end)

testing.run()
