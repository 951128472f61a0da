-- Devices: t:device(), t:cpu(), t:cuda([device]). This build has no CUDA
-- backend (it needs --config=cuda), so t:cuda() must say so; every copy
-- made here is CPU to CPU.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'

local expectError = testing.assertErrorContains

testing.case('device() names the CPU for every tensor type and view', function()
  testing.assertEqual(tensor.DoubleTensor{1, 2}:device(), 'cpu')
  testing.assertEqual(tensor.ByteTensor(2, 2):select(1, 2):device(), 'cpu')
  testing.assertEqual(tensor.FloatTensor():device(), 'cpu')
  expectError(function() tensor.DoubleTensor{1}:device(0) end,
              "bad argument #1 to 'device'", 'no value expected, got number')
end)

testing.case('cpu() is an owned copy with its own storage', function()
  local t = tensor.Int32Tensor{{1, 2, 3}, {4, 5, 6}}
  local view = t:transpose(1, 2)
  local copy = view:cpu()
  testing.assertEqual(copy:type(), 'dmlab.system.tensor.Int32Tensor')
  testing.assertEqual(copy:val(), {{1, 4}, {2, 5}, {3, 6}})
  testing.assertEqual(copy:ownsStorage(), true)
  testing.assertEqual(copy:isContiguous(), true)
  testing.assertEqual(copy:device(), 'cpu')
  testing.assertTrue(rawequal(copy, view) == false, 'a new userdata')
  copy:fill(0)
  testing.assertEqual(t:val(), {{1, 2, 3}, {4, 5, 6}})
  t:fill(9)
  testing.assertEqual(copy:val(), {{0, 0}, {0, 0}, {0, 0}})
  expectError(function() t:cpu(1) end, "bad argument #1 to 'cpu'", 'no value expected')
end)

testing.case('cuda() without a backend says how to get one', function()
  local t = tensor.FloatTensor{1, 2}
  for _, call in ipairs{function() return t:cuda() end,
                        function() return t:cuda(0) end,
                        function() return t:cuda(nil) end,
                        function() return t:cuda(3) end} do
    expectError(call, "'cuda'", 'the tensor is on cuda:',
                'this build has no backend for that device (build with --config=cuda)')
  end
end)

testing.case('cuda() checks its device argument', function()
  local t = tensor.FloatTensor{1, 2}
  expectError(function() t:cuda('x') end,
              "bad argument #1 to 'cuda' (integer expected, got string)")
  expectError(function() t:cuda(-1) end,
              "bad argument #1 to 'cuda' (device -1 out of range [0, 2147483647])")
  expectError(function() t:cuda(1/0) end, "bad argument #1 to 'cuda' (integer expected")
  expectError(function() t:cuda(0, 1) end, "bad argument #2 to 'cuda' (no value expected")
  expectError(function() t.cuda(1) end, "'cuda'")
end)

testing.case('printing a CPU tensor names no device', function()
  testing.assertEqual(tostring(tensor.DoubleTensor{{1, -20}, {300, 4}}),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [2, 2]\n' ..
                      '[[  1, -20],\n [300,   4]]')
  testing.assertEqual(tensor.Int32Tensor{7}:tostring(),
                      '[dmlab.system.tensor.Int32Tensor]\nShape: [1]\n[7]')
  testing.assertEqual(tostring(tensor.FloatTensor()),
                      '[dmlab.system.tensor.FloatTensor]\nShape: [] Empty')
end)

testing.run()
