-- Metadata, val, the layout operations (views), copies, printing and ==.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'

-- fn must raise an error containing every given substring.
local expectError = testing.assertErrorContains

-- {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
local function m34()
  return tensor.DoubleTensor{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
end

testing.case('type, size, shape, ownsStorage', function()
  local t = tensor.Int16Tensor(2, 3, 4)
  testing.assertEqual(t:type(), 'dmlab.system.tensor.Int16Tensor')
  testing.assertEqual(t:size(), 24)
  testing.assertEqual(t:shape(), {2, 3, 4})
  testing.assertEqual(t:ownsStorage(), true)
  local v = t:select(2, 1)
  testing.assertEqual(v:shape(), {2, 4})
  testing.assertEqual(v:size(), 8)
  testing.assertEqual(v:ownsStorage(), true, 'a view of owned storage shares ownership')
  -- shape() returns a fresh table.
  local s = t:shape()
  s[1] = 99
  testing.assertEqual(t:shape(), {2, 3, 4})
end)

testing.case('val(): a number for shape {1}, a nested table otherwise', function()
  testing.assertEqual(tensor.DoubleTensor{5}:val(), 5)
  testing.assertEqual(type(tensor.DoubleTensor{5}:val()), 'number')
  testing.assertEqual(tensor.DoubleTensor{5, 6}:val(), {5, 6})
  testing.assertEqual(m34():val(), {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}})
  testing.assertEqual(m34():transpose(1, 2):val(),
                      {{1, 5, 9}, {2, 6, 10}, {3, 7, 11}, {4, 8, 12}})
  testing.assertEqual(tensor.Int64Tensor{{-3}, {4}}:val(), {{-3}, {4}})
end)

testing.case('val(x): sets the single element', function()
  local z = m34()
  local e = z(2, 3)
  e:val(70)
  testing.assertEqual(e:val(), 70)
  testing.assertEqual(z:val(), {{1, 2, 3, 4}, {5, 6, 70, 8}, {9, 10, 11, 12}})
  local b = tensor.ByteTensor{1}
  b:val(255)
  testing.assertEqual(b:val(), 255)
end)

testing.case('val(table): sets all elements', function()
  local z = tensor.DoubleTensor(2, 2)
  z:val{{1, 2}, {3, 4}}
  testing.assertEqual(z:val(), {{1, 2}, {3, 4}})
  -- Through a non-contiguous view.
  local m = m34()
  m:transpose(1, 2):narrow(1, 2, 2):val{{20, 60, 100}, {30, 70, 110}}
  testing.assertEqual(m:val(), {{1, 20, 30, 4}, {5, 60, 70, 8}, {9, 100, 110, 12}})
  local v = tensor.Int32Tensor(3)
  v:val{7, 8, 9}
  testing.assertEqual(v:val(), {7, 8, 9})
end)

testing.case('val(table): the shape must match', function()
  local z = tensor.DoubleTensor(2, 2)
  expectError(function() z:val{1, 2, 3, 4} end)
  expectError(function() z:val{{1, 2}, {3, 4}, {5, 6}} end)
  expectError(function() z:val{{1, 2, 3}, {4, 5, 6}} end)
  expectError(function() z:val{{1, 2}, {3}} end)
  expectError(function() z:val{{1, 2}, {3, 'x'}} end)
  testing.assertEqual(z:val(), {{0, 0}, {0, 0}}, 'a failed val leaves the tensor as it was')
end)

testing.case('select(dim, i)', function()
  local z = m34()
  testing.assertEqual(z:select(1, 1):val(), {1, 2, 3, 4})
  testing.assertEqual(z:select(1, 3):val(), {9, 10, 11, 12})
  testing.assertEqual(z:select(2, 1):val(), {1, 5, 9})
  testing.assertEqual(z:select(2, 4):val(), {4, 8, 12})
  testing.assertEqual(z:select(2, 4):shape(), {3})
  -- Rank 1 keeps one dimension of extent 1.
  local e = z:select(1, 2):select(1, 3)
  testing.assertEqual(e:shape(), {1})
  testing.assertEqual(e:val(), 7)
  local c = tensor.DoubleTensor(2, 3, 4)
  testing.assertEqual(c:select(3, 2):shape(), {2, 3})
end)

testing.case('select shares storage', function()
  local z = m34()
  z:select(2, 2):fill(0)
  testing.assertEqual(z:val(), {{1, 0, 3, 4}, {5, 0, 7, 8}, {9, 0, 11, 12}})
  z:fill(1)
  testing.assertEqual(z:select(1, 3):val(), {1, 1, 1, 1})
end)

testing.case('__call(i1, i2, ...) is repeated select(1, i)', function()
  local z = m34()
  testing.assertTrue(z(2) == z:select(1, 2))
  testing.assertEqual(z(2):val(), {5, 6, 7, 8})
  testing.assertEqual(z(3, 4):val(), 12)
  testing.assertEqual(z(3, 4):shape(), {1})
  local c = tensor.DoubleTensor(2, 3, 4)
  local n = 0
  c:apply(function() n = n + 1 return n end)
  testing.assertEqual(c(2, 3):val(), {21, 22, 23, 24})
  testing.assertEqual(c(2, 3, 4):val(), 24)
  testing.assertEqual(c(1, 1, 1):val(), 1)
  z(1, 1):val(100)
  testing.assertEqual(z:val()[1][1], 100, '__call shares storage')
end)

testing.case('narrow(dim, i, n): entries i .. i + n - 1', function()
  local z = m34()
  testing.assertEqual(z:narrow(1, 1, 1):val(), {{1, 2, 3, 4}})
  testing.assertEqual(z:narrow(1, 2, 2):val(), {{5, 6, 7, 8}, {9, 10, 11, 12}})
  testing.assertEqual(z:narrow(2, 1, 3):val(), {{1, 2, 3}, {5, 6, 7}, {9, 10, 11}})
  testing.assertEqual(z:narrow(2, 2, 3):val(), {{2, 3, 4}, {6, 7, 8}, {10, 11, 12}})
  testing.assertEqual(z:narrow(2, 4, 1):val(), {{4}, {8}, {12}})
  testing.assertEqual(z:narrow(2, 1, 4):val(), z:val())
  testing.assertEqual(z:narrow(2, 2, 2):shape(), {3, 2})
  local v = tensor.DoubleTensor{range = {10}}
  testing.assertEqual(v:narrow(1, 3, 4):val(), {3, 4, 5, 6})
  testing.assertEqual(v:narrow(1, 10, 1):val(), 10)
end)

testing.case('narrow shares storage', function()
  local z = m34()
  z:narrow(2, 2, 2):narrow(1, 2, 2):fill(0)
  testing.assertEqual(z:val(), {{1, 2, 3, 4}, {5, 0, 0, 8}, {9, 0, 0, 12}})
end)

testing.case('transpose(d1, d2)', function()
  local z = m34()
  local t = z:transpose(1, 2)
  testing.assertEqual(t:shape(), {4, 3})
  testing.assertEqual(t:val(), {{1, 5, 9}, {2, 6, 10}, {3, 7, 11}, {4, 8, 12}})
  testing.assertTrue(z:transpose(2, 1) == t)
  testing.assertTrue(z:transpose(1, 1) == z)
  testing.assertTrue(t:transpose(1, 2) == z)
  local c = tensor.DoubleTensor(2, 3, 4)
  testing.assertEqual(c:transpose(1, 3):shape(), {4, 3, 2})
  t:select(1, 1):fill(0)
  testing.assertEqual(z:select(2, 1):val(), {0, 0, 0}, 'transpose shares storage')
end)

testing.case('reverse(dim)', function()
  local z = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  testing.assertEqual(z:reverse(1):val(), {{4, 5, 6}, {1, 2, 3}})
  testing.assertEqual(z:reverse(2):val(), {{3, 2, 1}, {6, 5, 4}})
  testing.assertEqual(z:reverse(1):reverse(2):val(), {{6, 5, 4}, {3, 2, 1}})
  testing.assertTrue(z:reverse(1):reverse(1) == z)
  testing.assertEqual(tensor.DoubleTensor{range = {4}}:reverse(1):val(), {4, 3, 2, 1})
  z:reverse(2):select(2, 1):fill(0)
  testing.assertEqual(z:val(), {{1, 2, 0}, {4, 5, 0}}, 'reverse shares storage')
end)

testing.case('reshape{...}: a view where the layout allows it', function()
  local z = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  local r = z:reshape{3, 2}
  testing.assertEqual(r:shape(), {3, 2})
  testing.assertEqual(r:val(), {{1, 2}, {3, 4}, {5, 6}})
  testing.assertEqual(z:reshape{6}:val(), {1, 2, 3, 4, 5, 6})
  testing.assertEqual(z:reshape{1, 6}:val(), {{1, 2, 3, 4, 5, 6}})
  testing.assertEqual(z:reshape{2, 1, 3}:shape(), {2, 1, 3})
  testing.assertEqual(z:reshape{2, 3}:val(), z:val())
  r:select(1, 3):fill(0)
  testing.assertEqual(z:val(), {{1, 2, 3}, {4, 0, 0}}, 'reshape shares storage')
  -- A row of a matrix is contiguous, and so is a narrowed range of rows.
  local m = m34()
  testing.assertEqual(m:narrow(1, 2, 2):reshape{8}:val(), {5, 6, 7, 8, 9, 10, 11, 12})
  testing.assertEqual(m:select(1, 2):reshape{2, 2}:val(), {{5, 6}, {7, 8}})
end)

testing.case('reshape{...}: an error where a copy would be needed', function()
  local z = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  expectError(function() return z:transpose(1, 2):reshape{6} end, 'reshape')
  expectError(function() return z:reverse(2):reshape{6} end, 'reshape')
  expectError(function() return z:narrow(2, 1, 2):reshape{4} end, 'reshape')
  -- A clone is contiguous and can be reshaped.
  testing.assertEqual(z:transpose(1, 2):clone():reshape{6}:val(), {1, 4, 2, 5, 3, 6})
end)

testing.case('views of views keep working', function()
  local c = tensor.DoubleTensor(3, 4, 5)
  local n = 0
  c:apply(function() n = n + 1 return n end)
  local v = c:transpose(1, 3):narrow(2, 2, 2):select(3, 3):reverse(1)
  testing.assertEqual(v:shape(), {5, 2})
  -- v(i, j) = c(3, 1 + j, 6 - i).
  for i = 1, 5 do
    for j = 1, 2 do
      testing.assertEqual(v(i, j):val(), c(3, 1 + j, 6 - i):val())
    end
  end
end)

testing.case('clone(): a new contiguous owning copy', function()
  local z = m34()
  local view = z:transpose(1, 2):narrow(1, 2, 2)
  local c = view:clone()
  testing.assertEqual(c:type(), view:type())
  testing.assertEqual(c:shape(), {2, 3})
  testing.assertEqual(c:val(), {{2, 6, 10}, {3, 7, 11}})
  testing.assertTrue(c:ownsStorage())
  testing.assertEqual(c:reshape{6}:val(), {2, 6, 10, 3, 7, 11}, 'contiguous')
  c:fill(0)
  testing.assertEqual(z:val(), m34():val(), 'the source is untouched')
end)

testing.case('conversions: values converted, new owning storage', function()
  local d = tensor.DoubleTensor{{-2, 0}, {100, 127}}
  testing.assertEqual(d:char():val(), {{-2, 0}, {100, 127}})
  testing.assertEqual(d:int16():type(), 'dmlab.system.tensor.Int16Tensor')
  testing.assertEqual(d:int64():val(), {{-2, 0}, {100, 127}})
  testing.assertEqual(tensor.ByteTensor{200, 3}:double():val(), {200, 3})
  testing.assertEqual(tensor.DoubleTensor{0.5, 0.25}:float():val(), {0.5, 0.25})
  testing.assertEqual(tensor.FloatTensor{0.1}:double():val(), tensor.FloatTensor{0.1}:val())
  local f = d:float()
  f:fill(1)
  testing.assertEqual(d:val(), {{-2, 0}, {100, 127}})
  -- Of a view: only the view's elements, in its layout order.
  testing.assertEqual(d:transpose(1, 2):int32():val(), {{-2, 100}, {0, 127}})
end)

testing.case('tostring: header, shape, rows, right-aligned values', function()
  testing.assertEqual(tostring(tensor.DoubleTensor{{1, -20}, {300, 4}}),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [2, 2]\n' ..
                      '[[  1, -20],\n [300,   4]]')
  testing.assertEqual(tostring(tensor.Int32Tensor{7}),
                      '[dmlab.system.tensor.Int32Tensor]\nShape: [1]\n[7]')
  testing.assertEqual(tostring(tensor.DoubleTensor(1, 1, 2)),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [1, 1, 2]\n[[[0, 0]]]')
  testing.assertEqual(tostring(tensor.ByteTensor{{{1, 2}}, {{3, 4}}}),
                      '[dmlab.system.tensor.ByteTensor]\nShape: [2, 1, 2]\n' ..
                      '[[[1, 2]],\n [[3, 4]]]')
  testing.assertEqual(tostring(tensor.Int64Tensor{-9007199254740992, 1}),
                      '[dmlab.system.tensor.Int64Tensor]\nShape: [2]\n' ..
                      '[-9007199254740992,                 1]')
end)

testing.case('tostring: 6 significant digits for floating types', function()
  testing.assertEqual(tostring(tensor.DoubleTensor{1 / 3, 2.5}),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [2]\n[0.333333,      2.5]')
  testing.assertEqual(tostring(tensor.FloatTensor{1234567, 0.5}),
                      '[dmlab.system.tensor.FloatTensor]\nShape: [2]\n[1.23457e+06,         0.5]')
  testing.assertEqual(tostring(tensor.DoubleTensor{1e-7}),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [1]\n[1e-07]')
  testing.assertEqual(tostring(tensor.DoubleTensor{123456, -0.125}),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [2]\n[123456, -0.125]')
end)

testing.case('tostring: views print their own elements', function()
  local z = m34()
  testing.assertEqual(tostring(z:select(2, 4)),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [3]\n[ 4,  8, 12]')
  testing.assertEqual(tostring(z:reverse(1):narrow(1, 1, 1)),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [1, 4]\n[[ 9, 10, 11, 12]]')
end)

testing.case('t:tostring() is tostring(t)', function()
  local z = m34()
  testing.assertEqual(z:tostring(), tostring(z))
  testing.assertEqual(z:tostring(12), tostring(z), 'not elided at the limit')
end)

testing.case('t:tostring(maxElements) elides long dimensions', function()
  local v = tensor.DoubleTensor{range = {10}}
  testing.assertEqual(v:tostring(9),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [10]\n' ..
                      '[ 1,  2,  3, ...,  8,  9, 10]')
  testing.assertEqual(v:tostring(10),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [10]\n' ..
                      '[ 1,  2,  3,  4,  5,  6,  7,  8,  9, 10]')
  local m = tensor.Int32Tensor(8, 2)
  local n = 0
  m:apply(function() n = n + 1 return n end)
  testing.assertEqual(m:tostring(4),
                      '[dmlab.system.tensor.Int32Tensor]\nShape: [8, 2]\n' ..
                      '[[ 1,  2],\n [ 3,  4],\n [ 5,  6],\n ...,\n' ..
                      ' [11, 12],\n [13, 14],\n [15, 16]]')
end)

testing.case('tostring: the default limit is 1024 elements', function()
  local at = tensor.DoubleTensor(1024)
  testing.assertTrue(not tostring(at):find('...', 1, true), '1024 elements are all printed')
  local over = tensor.DoubleTensor(1025)
  local text = tostring(over)
  testing.assertTrue(text:find('...', 1, true) ~= nil, '1025 elements are elided')
  testing.assertEqual(text, '[dmlab.system.tensor.DoubleTensor]\nShape: [1025]\n' ..
                            '[0, 0, 0, ..., 0, 0, 0]')
  testing.assertEqual(over:tostring(), text)
  testing.assertEqual(over:tostring(2000):find('...', 1, true), nil)
end)

testing.case('==: type, shape and values', function()
  local a = tensor.DoubleTensor{{1, 2}, {3, 4}}
  testing.assertTrue(a == tensor.DoubleTensor{{1, 2}, {3, 4}})
  testing.assertTrue(a == a)
  testing.assertTrue(a ~= tensor.DoubleTensor{{1, 2}, {3, 5}})
  testing.assertTrue(a ~= tensor.DoubleTensor{1, 2, 3, 4})
  testing.assertTrue(a ~= tensor.DoubleTensor{{1, 2, 3, 4}})
  testing.assertTrue(a ~= tensor.FloatTensor{{1, 2}, {3, 4}})
  testing.assertTrue(a ~= tensor.Int64Tensor{{1, 2}, {3, 4}})
  testing.assertTrue(tensor.DoubleTensor{0 / 0} ~= tensor.DoubleTensor{0 / 0}, 'NaN equals nothing')
  testing.assertTrue(tensor.DoubleTensor{0} == tensor.DoubleTensor{-0})
  testing.assertTrue(a ~= 1 and a ~= 'a' and a ~= nil and a ~= {}, 'never equal to a non-tensor')
end)

testing.case('==: any layouts, including two non-contiguous views', function()
  local z = m34()
  local zt = tensor.DoubleTensor{{1, 5, 9}, {2, 6, 10}, {3, 7, 11}, {4, 8, 12}}
  testing.assertTrue(z:transpose(1, 2) == zt)
  testing.assertTrue(zt == z:transpose(1, 2))
  testing.assertTrue(zt:transpose(1, 2) == z)
  -- Two non-contiguous views over different storage.
  testing.assertTrue(z:select(2, 3) == zt:select(1, 3))
  testing.assertTrue(z:transpose(1, 2):narrow(2, 2, 2) == zt:narrow(2, 2, 2))
  testing.assertTrue(z:select(2, 1) == zt:transpose(1, 2):select(2, 1))
  local a = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  local b = tensor.DoubleTensor{{3, 2, 1}, {6, 5, 4}}
  testing.assertTrue(a:reverse(2) == b)
  testing.assertTrue(a:select(2, 1) == b:select(2, 3), 'two strided columns')
  testing.assertTrue(a:select(2, 1) ~= b:select(2, 1))
  testing.assertTrue(a:transpose(1, 2):reverse(1) == b:transpose(1, 2))
  -- Same storage, different views.
  local s = tensor.DoubleTensor{{1, 1}, {1, 1}}
  testing.assertTrue(s:select(2, 1) == s:select(2, 2))
  testing.assertTrue(s:select(2, 1) == s:select(1, 2))
  -- Same elements, different shapes.
  testing.assertTrue(z:select(2, 1) ~= z:narrow(2, 1, 1))
end)

testing.case('views keep their storage alive after the source is collected', function()
  local v = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}:transpose(1, 2):select(1, 3)
  collectgarbage()
  collectgarbage()
  testing.assertEqual(v:val(), {3, 6})
  local views = {}
  for i = 1, 50 do views[i] = tensor.DoubleTensor(10):fill(i):narrow(1, 5, 2) end
  collectgarbage()
  for i = 1, 50 do testing.assertEqual(views[i]:val(), {i, i}) end
end)

testing.case('edge values: int64 limits, the empty tensor, no-index call', function()
  testing.assertEqual(tensor.Int64Tensor{-2 ^ 63}:val(), -2 ^ 63)
  testing.assertEqual(tensor.Int64Tensor{2 ^ 53}:tostring(),
                      '[dmlab.system.tensor.Int64Tensor]\nShape: [1]\n[9007199254740992]')
  testing.assertEqual(tensor.DoubleTensor():val(), {})
  local z = tensor.DoubleTensor{{1, 2}, {3, 4}}
  testing.assertTrue(z() == z, 'no indices: the whole tensor')
  testing.assertEqual(tostring(tensor.FloatTensor{0.1, 1 / 3}),
                      '[dmlab.system.tensor.FloatTensor]\nShape: [2]\n[     0.1, 0.333333]')
end)

testing.run()
