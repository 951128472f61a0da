-- 2-D convolution and cross-correlation: tensor.conv2 and tensor.xcorr2.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains
local LENDER = 'host_test.lend buffer'

local X = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
local K = {{1, 0}, {0, 2}}
-- By hand: xcorr2 valid is x[i][j] + 2 x[i+1][j+1]; conv2 turns K by 180
-- degrees, so it is 2 x[i][j] + x[i+1][j+1].
local XCORR_V = {{11, 14}, {20, 23}}
local CONV_V = {{7, 10}, {16, 19}}
local CONV_F = {{1, 2, 3, 0}, {4, 7, 10, 6}, {7, 16, 19, 12}, {0, 14, 16, 18}}
local XCORR_F = {{2, 4, 6, 0}, {8, 11, 14, 3}, {14, 20, 23, 6}, {0, 7, 8, 9}}

testing.case('known values, valid by default, for every type', function()
  for _, T in ipairs({'DoubleTensor', 'FloatTensor', 'Int64Tensor', 'Int32Tensor', 'Int16Tensor',
                      'CharTensor', 'ByteTensor'}) do
    local x, k = tensor[T](X), tensor[T](K)
    testing.assertEqual(tensor.conv2(x, k):val(), CONV_V, T)
    testing.assertEqual(tensor.conv2(x, k, 'V'):val(), CONV_V, T)
    testing.assertEqual(tensor.xcorr2(x, k):val(), XCORR_V, T)
    testing.assertEqual(tensor.conv2(x, k, 'F'):val(), CONV_F, T)
    testing.assertEqual(tensor.xcorr2(x, k, 'F'):val(), XCORR_F, T)
    testing.assertEqual(tensor.conv2(x, k):type(), 'dmlab.system.tensor.' .. T)
  end
end)

testing.case('the reference example shapes', function()
  local x = tensor.DoubleTensor(100, 100)
  local k = tensor.DoubleTensor(10, 10)
  testing.assertEqual(tensor.conv2(x, k):shape(), {91, 91})
  testing.assertEqual(tensor.conv2(x, k, 'F'):shape(), {109, 109})
  testing.assertEqual(tensor.xcorr2(x, tensor.DoubleTensor(3, 7), 'F'):shape(), {102, 106})
end)

testing.case('transposed, narrowed and reversed inputs and kernels', function()
  local xt = tensor.DoubleTensor(3, 3):t():copy(tensor.DoubleTensor(X))
  local big = tensor.DoubleTensor(5, 6):fill(99)
  local xn = big:narrow(1, 2, 3):narrow(2, 2, 3):copy(tensor.DoubleTensor(X))
  local kr = tensor.DoubleTensor(2, 2):reverse(1):copy(tensor.DoubleTensor(K))
  local kt = tensor.Int32Tensor(2, 2):t():copy(tensor.Int32Tensor(K))
  testing.assertEqual(tensor.conv2(xt, kr):val(), CONV_V)
  testing.assertEqual(tensor.xcorr2(xn, kr, 'F'):val(), XCORR_F)
  testing.assertEqual(tensor.conv2(tensor.Int32Tensor(X):t():t(), kt, 'F'):val(), CONV_F)
  -- Transposing both transposes the result.
  testing.assertEqual(tensor.xcorr2(tensor.DoubleTensor(X):t(), tensor.DoubleTensor(K):t()):val(),
                      {{11, 20}, {14, 23}})
end)

testing.case('3-D forms: plane by plane, or summed over the planes', function()
  local x = tensor.DoubleTensor{X, {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}}
  local k = tensor.DoubleTensor{K, {{1, 1}, {1, 1}}}
  testing.assertEqual(tensor.conv2(x, k):val(), {CONV_V, {{4, 4}, {4, 4}}})
  testing.assertEqual(tensor.xcorr2(x, k, 'F'):shape(), {2, 4, 4})
  -- Kernel (2 outputs x 2 planes x 2 x 2): output o sums kernel (o, i) over plane i.
  local k4 = tensor.DoubleTensor{{K, {{1, 1}, {1, 1}}}, {{{0, 0}, {0, 0}}, {{1, 0}, {0, 0}}}}
  testing.assertEqual(tensor.conv2(x, k4):val(), {{{11, 14}, {20, 23}}, {{1, 1}, {1, 1}}})
  testing.assertEqual(tensor.xcorr2(x, k4, 'F'):shape(), {2, 4, 4})
end)

testing.case('res is written in place, resized, or may be an input', function()
  local x, k = tensor.DoubleTensor(X), tensor.DoubleTensor(K)
  local res = tensor.DoubleTensor(2, 2)
  testing.assertTrue(rawequal(tensor.conv2(res, x, k), res))
  testing.assertEqual(res:val(), CONV_V)
  testing.assertTrue(rawequal(tensor.xcorr2(res, x, k, 'F'), res))
  testing.assertEqual(res:val(), XCORR_F)
  local t = tensor.DoubleTensor(2, 2):t()
  tensor.conv2(t, x, k)
  testing.assertEqual(t:val(), CONV_V)
  -- A 1x1 kernel writes over its own input.
  tensor.conv2(x, x, tensor.DoubleTensor{{2}})
  testing.assertEqual(x:val(), {{2, 4, 6}, {8, 10, 12}, {14, 16, 18}})
  host_test.lend('DoubleTensor', {2, 2}, 0, function(lent)
    tensor.xcorr2(lent, tensor.DoubleTensor(X), k)
    testing.assertEqual(lent:val(), XCORR_V)
    expectError(function() tensor.conv2(lent, x, k, 'F') end,
                "bad argument #1 to 'conv2' (res has shape [2, 2], the result [4, 4], and it " ..
                "cannot be resized: its memory is lent)")
  end)
end)

testing.case('errors name the function and the argument', function()
  local x, k = tensor.DoubleTensor(X), tensor.DoubleTensor(K)
  expectError(function() tensor.conv2(x, k, 'X') end,
              "bad argument #3 to 'conv2' ('V' or 'F' expected, got 'X')")
  expectError(function() tensor.conv2(x, k, 'full') end, "('V' or 'F' expected, got 'full')")
  expectError(function() tensor.xcorr2(x, k, 1) end,
              "bad argument #3 to 'xcorr2' ('V' or 'F' expected, got number")
  expectError(function() tensor.conv2(x, x, k, 'F', 1) end,
              "bad argument #5 to 'conv2' (no value expected, got number")
  expectError(function() tensor.conv2(x) end,
              "bad argument #2 to 'conv2' (tensor expected, got no value)")
  expectError(function() tensor.conv2(1, k) end,
              "bad argument #1 to 'conv2' (tensor expected, got number")
  expectError(function() tensor.conv2(k, x) end,
              "'conv2': the kernel 3x3 is larger than the input 2x2; " ..
              "a valid convolution needs it to fit")
  expectError(function() tensor.xcorr2(x, tensor.DoubleTensor(2)) end,
              "'xcorr2': input [3, 3] and kernel [2] make no form")
  local planes2, kernels3 = tensor.DoubleTensor(2, 3, 3), tensor.DoubleTensor(3, 2, 2)
  expectError(function() tensor.conv2(planes2, kernels3) end,
              "'conv2': input [2, 3, 3] has 2 planes, kernel [3, 2, 2] is for 3")
  expectError(function() tensor.conv2(x, tensor.FloatTensor(K)) end,
              "'conv2': the tensors are float64 and float32")
  expectError(function() tensor.conv2(tensor.FloatTensor(2, 2), x, k) end,
              "'conv2': the tensors are float32 and float64")
  expectError(function() tensor.conv2(x, tensor.DoubleTensor(1):resize(2, 0), 'F') end,
              "'conv2': the kernel [2, 0] is empty")
  expectError(function() tensor.conv2(tensor.DoubleTensor(1):resize(0, 3), k, 'F') end,
              "'conv2': the input [0, 3] is empty")
  testing.assertEqual(x:val(), X)
end)

testing.case('an invalid tensor as input, kernel or res is an error', function()
  local stash
  host_test.lend('DoubleTensor', {2, 2}, 0, function(t) stash = t end)
  local x, k = tensor.DoubleTensor(X), tensor.DoubleTensor(K)
  expectError(function() tensor.conv2(stash, k) end,
              "bad argument #1 to 'conv2'", 'invalid', LENDER)
  expectError(function() tensor.conv2(x, stash) end,
              "bad argument #2 to 'conv2'", 'invalid', LENDER)
  expectError(function() tensor.xcorr2(stash, x, k) end, "bad argument #1 to 'xcorr2'", 'invalid')
  expectError(function() tensor.xcorr2(x, x, stash, 'F') end,
              "bad argument #3 to 'xcorr2'", 'invalid')
end)

testing.run()
