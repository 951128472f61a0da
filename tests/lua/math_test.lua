-- Scalar ops, component ops, rounding, clamp, reductions and mmul.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'

-- fn must raise an error containing every given substring.
local expectError = testing.assertErrorContains

local function near(a, b, eps)
  return math.abs(a - b) <= (eps or 1e-12) * math.max(1, math.abs(a), math.abs(b))
end

testing.case('fill, add, sub, mul, div with a number', function()
  local z = tensor.DoubleTensor(2, 3)
  z:fill(3)
  testing.assertEqual(z:val(), {{3, 3, 3}, {3, 3, 3}})
  z:add(2)
  testing.assertEqual(z:val(), {{5, 5, 5}, {5, 5, 5}})
  z:sub(1.5)
  testing.assertEqual(z:val(), {{3.5, 3.5, 3.5}, {3.5, 3.5, 3.5}})
  z:mul(-2)
  testing.assertEqual(z:val(), {{-7, -7, -7}, {-7, -7, -7}})
  z:div(4)
  testing.assertEqual(z:val(), {{-1.75, -1.75, -1.75}, {-1.75, -1.75, -1.75}})
end)

testing.case('mutating methods return self', function()
  local z = tensor.DoubleTensor(2, 2)
  testing.assertTrue(rawequal(z:fill(1), z))
  testing.assertTrue(rawequal(z:add(1), z))
  testing.assertTrue(rawequal(z:sub(1), z))
  testing.assertTrue(rawequal(z:mul(1), z))
  testing.assertTrue(rawequal(z:div(1), z))
  testing.assertTrue(rawequal(z:copy(z), z))
  testing.assertTrue(rawequal(z:cadd(z), z))
  testing.assertTrue(rawequal(z:csub(z), z))
  testing.assertTrue(rawequal(z:cmul(z), z))
  testing.assertTrue(rawequal(z:fill(2):cdiv(z), z))
  testing.assertTrue(rawequal(z:floor(), z))
  testing.assertTrue(rawequal(z:ceil(), z))
  testing.assertTrue(rawequal(z:round(), z))
  testing.assertTrue(rawequal(z:clamp(0, 1), z))
  testing.assertTrue(rawequal(z:apply(function() end), z))
  testing.assertTrue(rawequal(z:applyIndexed(function() end), z))
  testing.assertEqual(tensor.DoubleTensor(3):fill(1):add(2):mul(3):sub(1):div(2):val(), {4, 4, 4})
end)

testing.case('scalar ops with a table along the last dimension', function()
  local z = tensor.DoubleTensor(2, 3)
  z:fill{1, 2, 3}
  testing.assertEqual(z:val(), {{1, 2, 3}, {1, 2, 3}})
  z:add{10, 20, 30}
  testing.assertEqual(z:val(), {{11, 22, 33}, {11, 22, 33}})
  z:sub{1, 2, 3}
  testing.assertEqual(z:val(), {{10, 20, 30}, {10, 20, 30}})
  z:mul{1, 0.5, 2}
  testing.assertEqual(z:val(), {{10, 10, 60}, {10, 10, 60}})
  z:div{10, 5, -60}
  testing.assertEqual(z:val(), {{1, 2, -1}, {1, 2, -1}})
  -- Per channel of an image (height 2, width 2, 3 channels).
  local image = tensor.FloatTensor(2, 2, 3):fill(1):mul{0.5, 1, 2}
  testing.assertEqual(image(2, 1):val(), {0.5, 1, 2})
  -- Rank 1: the table covers every element.
  testing.assertEqual(tensor.Int32Tensor(3):fill{7, 8, 9}:val(), {7, 8, 9})
  -- Of a transposed view: its own last dimension.
  local m = tensor.DoubleTensor(2, 3)
  m:transpose(1, 2):fill{1, 2}
  testing.assertEqual(m:val(), {{1, 1, 1}, {2, 2, 2}})
end)

testing.case('scalar ops on non-contiguous views touch only the view', function()
  local z = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  z:select(2, 2):mul(10)
  testing.assertEqual(z:val(), {{1, 20, 3}, {4, 50, 6}})
  z:reverse(1):narrow(1, 1, 1):add(1)
  testing.assertEqual(z:val(), {{1, 20, 3}, {5, 51, 7}})
end)

testing.case('a number meets an integer tensor in double, as in DeepMind Lab', function()
  testing.assertEqual(tensor.ByteTensor{2, 7}:mul(1.5):val(), {3, 10})
  testing.assertEqual(tensor.Int32Tensor{7, -7}:div(0.5):val(), {14, -14})
  testing.assertEqual(tensor.Int32Tensor{2, -2}:add(0.5):val(), {2, -1})
  testing.assertEqual(tensor.Int32Tensor{2, 2}:sub{0.5, 2.5}:val(), {1, 0})
  testing.assertEqual(tensor.ByteTensor(2):fill(51.7):val(), {51, 51})
  testing.assertEqual(tensor.Int64Tensor{2 ^ 40}:mul(3):val(), 3 * 2 ^ 40)
  -- A result the type cannot hold is an error, and nothing changes.
  for _, c in ipairs{
    {tensor.ByteTensor{255, 0}, 'add', 1, "'add': 255 + 1 gives 256, which uint8 cannot hold"},
    {tensor.ByteTensor{0, 1}, 'sub', 1, "'sub': 0 - 1 gives -1, which uint8 cannot hold"},
    {tensor.CharTensor{127}, 'add', 1, 'int8 cannot hold'},
    {tensor.Int32Tensor{2147483647}, 'add', 1, 'int32 cannot hold'},
    {tensor.Int32Tensor{-2147483648}, 'div', -1, 'int32 cannot hold'},
    {tensor.Int32Tensor{1}, 'fill', 0 / 0, 'int32 cannot hold nan'},
  } do
    local t, method, value, message = unpack(c)
    local before = t:val()
    testing.assertError(function() t[method](t, value) end, message)
    testing.assertEqual(t:val(), before, method .. ': nothing changed')
  end
end)

testing.case('integer component arithmetic wraps', function()
  testing.assertEqual(tensor.ByteTensor{200}:cadd(tensor.ByteTensor{100}):val(), 44)
  testing.assertEqual(tensor.Int32Tensor{2147483647}:cadd(tensor.Int32Tensor{1}):val(), -2147483648)
end)

testing.case('integer division truncates toward zero', function()
  testing.assertEqual(tensor.Int32Tensor{7, -7, 6, 1}:div(2):val(), {3, -3, 3, 0})
  testing.assertEqual(tensor.Int32Tensor{7, -7}:div(-2):val(), {-3, 3})
  testing.assertEqual(tensor.Int64Tensor{7, -7}:cdiv(tensor.Int64Tensor{2, 2}):val(), {3, -3})
  testing.assertEqual(tensor.DoubleTensor{7}:div(2):val(), 3.5)
end)

testing.case('floating division by zero follows IEEE', function()
  local v = tensor.DoubleTensor{1, -1, 0}:div(0):val()
  testing.assertEqual(v[1], math.huge)
  testing.assertEqual(v[2], -math.huge)
  testing.assertTrue(v[3] ~= v[3], '0/0 is NaN')
  local w = tensor.FloatTensor{2}:cdiv(tensor.FloatTensor{0}):val()
  testing.assertEqual(w, math.huge)
end)

testing.case('copy, cadd, csub, cmul, cdiv: same count, shapes ignored', function()
  local a = tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}
  local b = tensor.DoubleTensor{{6, 5, 4}, {3, 2, 1}}
  testing.assertEqual(a:clone():cadd(b):val(), {{7, 7}, {7, 7}, {7, 7}})
  testing.assertEqual(a:clone():csub(b):val(), {{-5, -3}, {-1, 1}, {3, 5}})
  testing.assertEqual(a:clone():cmul(b):val(), {{6, 10}, {12, 12}, {10, 6}})
  testing.assertEqual(a:clone():cdiv(b):val(), {{1 / 6, 2 / 5}, {3 / 4, 4 / 3}, {5 / 2, 6}})
  testing.assertEqual(a:clone():copy(b):val(), {{6, 5}, {4, 3}, {2, 1}})
  testing.assertEqual(b:val(), {{6, 5, 4}, {3, 2, 1}}, 'the argument is unchanged')
  testing.assertEqual(tensor.DoubleTensor(6):copy(a):val(), {1, 2, 3, 4, 5, 6})
end)

testing.case('component ops pair elements in layout order', function()
  local a = tensor.DoubleTensor{{1, 2}, {3, 4}}
  local d = tensor.DoubleTensor(4):copy(a:transpose(1, 2))
  testing.assertEqual(d:val(), {1, 3, 2, 4})
  local z = tensor.DoubleTensor(2, 2)
  z:transpose(1, 2):copy(tensor.DoubleTensor{1, 2, 3, 4})
  testing.assertEqual(z:val(), {{1, 3}, {2, 4}})
  local m = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  m:select(2, 2):cmul(tensor.DoubleTensor{10, 100})
  testing.assertEqual(m:val(), {{1, 20, 3}, {4, 500, 6}})
  m:select(2, 1):cadd(m:select(2, 3))
  testing.assertEqual(m:val(), {{4, 20, 3}, {10, 500, 6}})
end)

testing.case('copy converts between types', function()
  local d = tensor.DoubleTensor(3):copy(tensor.Int32Tensor{1, -2, 3})
  testing.assertEqual(d:val(), {1, -2, 3})
  testing.assertEqual(tensor.ByteTensor(2):copy(tensor.Int64Tensor{0, 255}):val(), {0, 255})
  testing.assertEqual(tensor.FloatTensor(2):copy(tensor.CharTensor{-1, 1}):val(), {-1, 1})
  -- Floating to integer truncates toward zero.
  testing.assertEqual(tensor.Int32Tensor(4):copy(tensor.DoubleTensor{1.7, -1.7, 0.5, -0.5}):val(),
                      {1, -1, 0, 0})
  testing.assertEqual(tensor.Int16Tensor(2, 2):copy(tensor.DoubleTensor{{1, 2}, {3, 4}})
                          :type(), 'dmlab.system.tensor.Int16Tensor')
end)

testing.case('copy: a value the destination cannot hold is an error', function()
  local b = tensor.ByteTensor{1, 2}
  expectError(function() b:copy(tensor.Int32Tensor{1, 256}) end, 'copy')
  expectError(function() b:copy(tensor.DoubleTensor{-1, 0}) end, 'copy')
  expectError(function() tensor.Int32Tensor(1):copy(tensor.DoubleTensor{0 / 0}) end, 'copy')
  testing.assertEqual(b:val(), {1, 2}, 'a failed copy changes nothing')
end)

testing.case('overlapping operands: the right-hand side is read first', function()
  local z = tensor.DoubleTensor{1, 2, 3, 4}
  z:narrow(1, 2, 3):copy(z:narrow(1, 1, 3))
  testing.assertEqual(z:val(), {1, 1, 2, 3})
  z = tensor.DoubleTensor{1, 2, 3, 4}
  z:narrow(1, 1, 3):copy(z:narrow(1, 2, 3))
  testing.assertEqual(z:val(), {2, 3, 4, 4})
  z = tensor.DoubleTensor{1, 2, 3, 4}
  z:copy(z:reverse(1))
  testing.assertEqual(z:val(), {4, 3, 2, 1})
  z = tensor.DoubleTensor{1, 2, 3, 4}
  z:cadd(z:reverse(1))
  testing.assertEqual(z:val(), {5, 5, 5, 5})
  z = tensor.DoubleTensor{{1, 2}, {3, 4}}
  z:copy(z:transpose(1, 2))
  testing.assertEqual(z:val(), {{1, 3}, {2, 4}})
  z = tensor.DoubleTensor{1, 2, 3}
  z:cmul(z)
  testing.assertEqual(z:val(), {1, 4, 9})
  z = tensor.Int32Tensor{1, 2, 3, 4}
  z:narrow(1, 2, 3):csub(z:narrow(1, 1, 3))
  testing.assertEqual(z:val(), {1, 1, 1, 1})
end)

testing.case('floor, ceil, round (halves away from zero)', function()
  local values = {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.4, -2.6, 3}
  testing.assertEqual(tensor.DoubleTensor(values):floor():val(),
                      {-3, -2, -1, 0, 1, 2, 2, -3, 3})
  testing.assertEqual(tensor.DoubleTensor(values):ceil():val(),
                      {-2, -1, 0, 1, 2, 3, 3, -2, 3})
  testing.assertEqual(tensor.DoubleTensor(values):round():val(),
                      {-3, -2, -1, 1, 2, 3, 2, -3, 3})
  testing.assertEqual(tensor.FloatTensor{0.5, -0.5, 1.25}:round():val(), {1, -1, 1})
  -- Integer tensors are left as they are.
  testing.assertEqual(tensor.Int32Tensor{-3, 4}:floor():ceil():round():val(), {-3, 4})
  -- On a view.
  local m = tensor.DoubleTensor{{0.5, 0.5}, {0.5, 0.5}}
  m:select(2, 1):floor()
  testing.assertEqual(m:val(), {{0, 0.5}, {0, 0.5}})
end)

testing.case('clamp([min], [max])', function()
  local function c(...) return tensor.DoubleTensor{-2, -1, 0, 1, 2}:clamp(...):val() end
  testing.assertEqual(c(-1, 1), {-1, -1, 0, 1, 1})
  testing.assertEqual(c(nil, 0), {-2, -1, 0, 0, 0})
  testing.assertEqual(c(0), {0, 0, 0, 1, 2})
  testing.assertEqual(c(0, nil), {0, 0, 0, 1, 2})
  testing.assertEqual(c(), {-2, -1, 0, 1, 2})
  testing.assertEqual(c(nil, nil), {-2, -1, 0, 1, 2})
  testing.assertEqual(c(1, 1), {1, 1, 1, 1, 1})
  testing.assertEqual(c(-0.5, 0.5), {-0.5, -0.5, 0, 0.5, 0.5})
  -- Integer tensors use the whole numbers inside the bounds.
  testing.assertEqual(tensor.Int32Tensor{1, 2, 3}:clamp(1.5, 2.5):val(), {2, 2, 2})
  -- A bound the type cannot hold is an error, with DeepMind Lab's word.
  expectError(function() tensor.ByteTensor{0, 255}:clamp(-10, 100) end,
              "bad argument #1 to 'clamp' (TypeMismatch: ByteTensor cannot hold -10)")
  expectError(function() tensor.ByteTensor{0, 255}:clamp(0, 1000) end,
              "bad argument #2 to 'clamp' (TypeMismatch")
  testing.assertEqual(tensor.ByteTensor{0, 255}:clamp(10):val(), {10, 255})
  testing.assertEqual(tensor.ByteTensor{0, 255}:clamp(0.5, 254.9):val(), {1, 254}, 'fractions')
  expectError(function() tensor.DoubleTensor{1}:clamp(2, 1) end, 'must not exceed')
end)

testing.case('sum, product, lengthSquared, dot return numbers', function()
  local a = tensor.DoubleTensor{{1, 2}, {3, 4}}
  testing.assertEqual(a:sum(), 10)
  testing.assertEqual(a:product(), 24)
  testing.assertEqual(a:lengthSquared(), 30)
  testing.assertEqual(a:dot(tensor.DoubleTensor{1, 1, 1, 1}), 10)
  testing.assertEqual(a:dot(a), 30)
  testing.assertEqual(type(a:sum()), 'number')
  testing.assertEqual(tensor.Int32Tensor{100000, 100000}:product(), 1e10, 'no wrap in the result')
  testing.assertEqual(tensor.ByteTensor{200, 200}:sum(), 400)
  testing.assertEqual(tensor.CharTensor{-3, 4}:lengthSquared(), 25)
  testing.assertEqual(tensor.Int64Tensor{1, 2}:dot(tensor.Int64Tensor{3, 4}), 11)
  testing.assertTrue(near(tensor.FloatTensor{0.5, 0.25}:sum(), 0.75))
end)

testing.case('reductions of views and of the empty tensor', function()
  local m = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  testing.assertEqual(m:select(2, 2):sum(), 7)
  testing.assertEqual(m:select(2, 3):product(), 18)
  testing.assertEqual(m:transpose(1, 2):lengthSquared(), 91)
  -- dot pairs elements in layout order; shapes are ignored.
  testing.assertEqual(m:transpose(1, 2):dot(tensor.DoubleTensor{1, 0, 0, 0, 0, 0}), 1)
  testing.assertEqual(m:transpose(1, 2):dot(tensor.DoubleTensor{0, 1, 0, 0, 0, 0}), 4)
  testing.assertEqual(m:dot(m:transpose(1, 2)), 1 * 1 + 2 * 4 + 3 * 2 + 4 * 5 + 5 * 3 + 6 * 6)
  testing.assertEqual(tensor.DoubleTensor():sum(), 0)
  testing.assertEqual(tensor.DoubleTensor():product(), 1)
  testing.assertEqual(tensor.DoubleTensor():lengthSquared(), 0)
  testing.assertEqual(tensor.DoubleTensor():dot(tensor.DoubleTensor()), 0)
end)

testing.case('mmul: (m x k) . (k x n) is a new owning m x n tensor', function()
  local a = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  local b = tensor.DoubleTensor{{7, 8}, {9, 10}, {11, 12}}
  local c = a:mmul(b)
  testing.assertEqual(c:type(), 'dmlab.system.tensor.DoubleTensor')
  testing.assertEqual(c:shape(), {2, 2})
  testing.assertEqual(c:val(), {{58, 64}, {139, 154}})
  testing.assertTrue(c:ownsStorage())
  c:fill(0)
  testing.assertEqual(a:val(), {{1, 2, 3}, {4, 5, 6}}, 'operands unchanged')
  testing.assertEqual(b:mmul(a):val(), {{39, 54, 69}, {49, 68, 87}, {59, 82, 105}})
end)

testing.case('mmul: views and every type', function()
  local a = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  testing.assertEqual(a:mmul(a:transpose(1, 2)):val(), {{14, 32}, {32, 77}})
  testing.assertEqual(a:transpose(1, 2):mmul(a):val(),
                      {{17, 22, 27}, {22, 29, 36}, {27, 36, 45}})
  testing.assertEqual(a:narrow(2, 2, 2):mmul(tensor.DoubleTensor{{1}, {1}}):val(), {{5}, {11}})
  for _, name in ipairs({'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
                         'Int64Tensor', 'FloatTensor', 'DoubleTensor'}) do
    local x = tensor[name]{{1, 2}, {3, 4}}
    local y = x:mmul(tensor[name]{{1, 0}, {1, 1}})
    testing.assertEqual(y:type(), 'dmlab.system.tensor.' .. name)
    testing.assertEqual(y:val(), {{3, 2}, {7, 4}})
  end
  -- 1 x 1 results and vectors as matrices.
  local row = tensor.DoubleTensor{{1, 2, 3}}
  testing.assertEqual(row:mmul(row:transpose(1, 2)):val(), {{14}})
  testing.assertEqual(row:transpose(1, 2):mmul(row):shape(), {3, 3})
end)

testing.run()
