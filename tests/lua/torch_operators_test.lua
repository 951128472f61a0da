-- dmlab.system.torch: operators and printing (seed-torch7-tensor.md,
-- "Tensor operators"; Torch7's printing).
local testing = require 'testing'
local torch = require 'dmlab.system.torch'

local expectError = testing.assertErrorContains

testing.case('+ - / % and unary -: new tensors of the left shape', function()
  local x = torch.Tensor({1, 2, 3})
  local y = torch.Tensor({10, 20, 30})
  testing.assertEqual((x + y):totable(), {11, 22, 33})
  testing.assertEqual((x + 1):totable(), {2, 3, 4})
  testing.assertEqual((1 + x):totable(), {2, 3, 4})
  testing.assertEqual((y - x):totable(), {9, 18, 27})
  testing.assertEqual((10 - x):totable(), {9, 8, 7})
  testing.assertEqual((x - 1):totable(), {0, 1, 2})
  testing.assertEqual((y / 10):totable(), {1, 2, 3})
  testing.assertEqual((y % 7):totable(), {3, 6, 2})
  testing.assertEqual((-x):totable(), {-1, -2, -3})
  testing.assertEqual(x:totable(), {1, 2, 3}, 'operands are unchanged')
  -- An integer tensor meets a number as Torch7 casts it.
  testing.assertEqual((torch.IntTensor({1, 2}) + 2.9):totable(), {3, 4})
  expectError(function() return x / y end, "bad argument #2 to '__div'", 'number expected')
end)

testing.case('*: scaling, dot, mv and mm by sizes', function()
  local v = torch.Tensor({1, 2})
  local m = torch.Tensor({{1, 2}, {3, 4}})
  testing.assertEqual((v * 2):totable(), {2, 4})
  testing.assertEqual((2 * v):totable(), {2, 4})
  testing.assertEqual(v * v, 5)
  testing.assertEqual((m * v):totable(), {5, 11})
  testing.assertEqual((m * m):totable(), {{7, 10}, {15, 22}})
  expectError(function() return v * m end, 'multiplication between 1D and 2D tensors')
end)

testing.case('class tables define operators, as in Torch7', function()
  local old = torch.ShortTensor.__add
  torch.ShortTensor.__add = function() return 'mine' end
  testing.assertEqual(torch.ShortTensor(1) + 1, 'mine')
  torch.ShortTensor.__add = old
  testing.assertEqual((torch.ShortTensor(1) + 1)[1], 1)
end)

testing.case('printing in Torch7 layout', function()
  testing.assertEqual(tostring(torch.Tensor({1, 2, 3})), ' 1\n 2\n 3\n[torch.DoubleTensor of size 3]\n')
  testing.assertEqual(tostring(torch.IntTensor({{1, -20}, {3, 4}})),
                      '  1 -20\n  3   4\n[torch.IntTensor of size 2x2]\n')  -- Torch7's widths
  testing.assertEqual(tostring(torch.Tensor({0.5, 1.25})),
                      ' 0.5000\n 1.2500\n[torch.DoubleTensor of size 2]\n')
  testing.assertEqual(tostring(torch.Tensor()), '[torch.DoubleTensor with no dimension]\n')
  testing.assertEqual(tostring(torch.Tensor(2, 1, 2):fill(1)),
                      '(1,.,.) = \n  1  1\n\n(2,.,.) = \n  1  1\n[torch.DoubleTensor of size 2x1x2]\n')
  testing.assertEqual(tostring(torch.Tensor({1e-5, 1e5})),
                      ' 1.0000e-05\n 1.0000e+05\n[torch.DoubleTensor of size 2]\n')
  testing.assertEqual(tostring(torch.LongStorage({2, 3})), ' 2\n 3\n[torch.LongStorage of size 2]\n')
  -- Wide matrices break into column blocks of at most 80 characters.
  local wide = tostring(torch.Tensor(1, 30):fill(1e6))
  testing.assertTrue(wide:find('Columns 1 to ') ~= nil, wide)
end)

testing.run()
