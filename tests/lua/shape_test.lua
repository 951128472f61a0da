-- Metadata, shape views and the copies derived from one tensor (Torch7
-- names): size(dim), nElement, dim, stride, isContiguous, contiguous,
-- storageOffset, isSameSizeAs, isSize, t, permute, view, viewAs, expand,
-- expandAs, unfold, squeeze, unsqueeze, sub, split, chunk, repeatTensor,
-- diag, tril, triu; and the random fills uniform, normal, bernoulli.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local random = require 'dmlab.system.random'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains

-- {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
local function m34(typeName)
  return tensor[typeName or 'DoubleTensor']{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
end

-- A DoubleTensor {2, 2} whose loan has ended.
local function revoked()
  local kept
  host_test.lend('DoubleTensor', {2, 2}, 0, function(t) kept = t end)
  return kept
end

testing.case('size(dim), nElement, dim, nDimension', function()
  local x = tensor.Int16Tensor(4, 5)
  testing.assertEqual(x:size(), 20, 'size() stays the element count')
  testing.assertEqual({x:size(1), x:size(2)}, {4, 5})
  testing.assertEqual(x:nElement(), 20)
  testing.assertEqual({x:dim(), x:nDimension()}, {2, 2})
  local v = x:transpose(1, 2):narrow(1, 2, 3)
  testing.assertEqual({v:size(1), v:size(2), v:nElement(), v:dim()}, {3, 4, 12, 2})
  local e = tensor.DoubleTensor()
  testing.assertEqual({e:nElement(), e:dim(), e:nDimension()}, {0, 0, 0})
end)

testing.case('stride, storageOffset, isContiguous', function()
  local x = m34()
  testing.assertEqual(x:stride(), {4, 1})
  testing.assertEqual({x:stride(1), x:stride(2)}, {4, 1})
  testing.assertEqual(x:storageOffset(), 1)
  testing.assertTrue(x:isContiguous())
  local column = x:select(2, 3)
  testing.assertEqual(column:stride(), {4})
  testing.assertEqual(column:storageOffset(), 3)
  testing.assertEqual(column:isContiguous(), false)
  testing.assertEqual(x:t():stride(), {1, 4})
  testing.assertEqual(x:reverse(1):stride(), {-4, 1})
  testing.assertEqual(x:reverse(1):storageOffset(), 9)
  testing.assertTrue(x:narrow(1, 2, 2):isContiguous(), 'whole rows are contiguous')
  testing.assertEqual(x:narrow(2, 2, 2):isContiguous(), false)
  testing.assertEqual(tensor.FloatTensor():stride(), {})
  testing.assertTrue(tensor.FloatTensor():isContiguous())
end)

testing.case('isSameSizeAs and isSize', function()
  local x = tensor.DoubleTensor(4, 5)
  testing.assertTrue(x:isSameSizeAs(tensor.ByteTensor(4, 5)), 'types do not matter')
  testing.assertEqual(x:isSameSizeAs(tensor.DoubleTensor(5, 4)), false)
  testing.assertTrue(x:t():isSameSizeAs(tensor.DoubleTensor(5, 4)))
  testing.assertTrue(x:isSize{4, 5})
  testing.assertEqual(x:isSize{5, 4, 1}, false)
  testing.assertEqual(x:isSize{4}, false)
  testing.assertTrue(x:isSize(x:shape()))
  testing.assertTrue(tensor.DoubleTensor():isSize{})
end)

testing.case('metadata errors', function()
  local x = m34()
  expectError(function() return x:size(0) end, "bad argument #1 to 'size'", 'out of range [1, 2]')
  expectError(function() return x:size(3) end, "bad argument #1 to 'size'", 'dimension 3')
  expectError(function() return x:size(1/0) end, "'size'", 'integer expected, got number inf')
  expectError(function() return x:size('1') end, "'size'", 'integer expected, got string')
  expectError(function() return x:size(nil) end, "'size'", 'integer expected, got nil')
  expectError(function() return tensor.DoubleTensor():size(1) end, "'size'", 'the tensor is empty')
  expectError(function() return x:stride(3) end, "bad argument #1 to 'stride'")
  expectError(function() return x:isSameSizeAs(5) end,
              "bad argument #1 to 'isSameSizeAs'", 'tensor expected, got number')
  expectError(function() return x:isSize(5) end, "bad argument #1 to 'isSize'", 'table expected')
  expectError(function() return x:isSize{3, 'a'} end, "'isSize'", '[2]: integer expected')
end)

testing.case('contiguous: self when contiguous, else a copy', function()
  local x = tensor.DoubleTensor(2, 3):fill(1)
  testing.assertTrue(rawequal(x:contiguous(), x))
  x:contiguous():fill(2)
  testing.assertEqual(x:val(), {{2, 2, 2}, {2, 2, 2}})
  local z = x:t():contiguous()
  testing.assertTrue(z:isContiguous())
  testing.assertEqual(z:shape(), {3, 2})
  z:fill(3.5)
  testing.assertEqual(x:val(), {{2, 2, 2}, {2, 2, 2}}, 'the copy does not write back')
  local r = m34('Int32Tensor'):reverse(2):contiguous()
  testing.assertEqual(r, tensor.Int32Tensor{{4, 3, 2, 1}, {8, 7, 6, 5}, {12, 11, 10, 9}})
  testing.assertTrue(rawequal(tensor.contiguous(x), x), 'module form')
end)

testing.case('t and permute', function()
  local x = tensor.DoubleTensor(3, 4):zero()
  x:select(2, 3):fill(7)
  local y = x:t()
  testing.assertEqual(y:shape(), {4, 3})
  testing.assertEqual(y(3):val(), {7, 7, 7})
  y:select(2, 3):fill(8)
  testing.assertEqual(x(3):val(), {8, 8, 8, 8}, 'the view writes through')
  local p = tensor.FloatTensor(3, 4, 2, 5):permute(2, 3, 1, 4)
  testing.assertEqual(p:shape(), {4, 2, 3, 5})
  local m = m34('CharTensor')
  testing.assertEqual(m:permute(2, 1), m:t())
  testing.assertEqual(m:t():permute(2, 1), m)
  testing.assertEqual(tensor.t(m), m:t(), 'module form')
  testing.assertEqual(tensor.permute(m, 2, 1), m:t(), 'module form')
end)

testing.case('t and permute errors', function()
  expectError(function() return tensor.DoubleTensor(3):t() end, "'t'", 'rank 2', '[3]')
  expectError(function() return tensor.DoubleTensor(2, 2, 2):t() end, "'t'", 'rank 2')
  local x = tensor.DoubleTensor(2, 3, 4)
  expectError(function() return x:permute(1, 2) end, "'permute'", '2 dimensions given')
  expectError(function() return x:permute(1, 2, 2) end,
              "bad argument #3 to 'permute'", 'dimension 2 given twice')
  expectError(function() return x:permute(1, 2, 4) end,
              "bad argument #3 to 'permute'", 'out of range [1, 3]')
  expectError(function() return x:permute(1, 'a', 3) end, "bad argument #2 to 'permute'")
  expectError(function() return tensor.permute(x, 1, 2, 2) end,
              "bad argument #4 to 'permute'")  -- renumbered for the module form
end)

testing.case('view and viewAs', function()
  local x = tensor.DoubleTensor{1, 2, 3, 4, 5, 6}
  testing.assertEqual(x:view(2, 3), tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}})
  testing.assertEqual(x:view{3, 2}, tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}})
  testing.assertEqual(x:view(3, -1):shape(), {3, 2})
  testing.assertEqual(x:viewAs(tensor.ByteTensor(2, 3)):shape(), {2, 3})
  x:view(2, 3)(2):fill(0)
  testing.assertEqual(x:val(), {1, 2, 3, 0, 0, 0}, 'views share storage')
  -- A non-contiguous layout views where its strides allow it.
  local rows = m34():select(2, 1)   -- stride 4
  testing.assertEqual(rows:view(3, 1):val(), {{1}, {5}, {9}})
  testing.assertEqual(m34():narrow(1, 2, 2):view(8):val(), {5, 6, 7, 8, 9, 10, 11, 12})
  testing.assertEqual(tensor.view(x, 6):shape(), {6}, 'module form')
  testing.assertEqual(tensor.viewAs(x, tensor.DoubleTensor(6, 1)):shape(), {6, 1})
end)

testing.case('view errors', function()
  local x = tensor.DoubleTensor(6)
  expectError(function() return x:view(4) end, "'view'", 'has 4 elements')
  expectError(function() return x:view(0, 6) end, "bad argument #1 to 'view'", 'at least 1')
  expectError(function() return x:view(-1, -1) end, "'view'", 'only one extent may be -1')
  expectError(function() return x:view(2, 'a') end, "bad argument #2 to 'view'")
  expectError(function() return x:view{2, 1/0} end, "'view'", '[2]: integer expected')
  expectError(function() return x:view({2, 3}, 1) end, "bad argument #2 to 'view'")
  expectError(function() return x:view({}) end, "'view'", 'no extents')
  expectError(function() return x:view() end, "'view'", 'extents or a table of extents expected')
  expectError(function() return m34():t():view(12) end, "'view'", 'without a copy')
  expectError(function() return x:viewAs(tensor.DoubleTensor(5)) end, "'viewAs'")
  expectError(function() return x:viewAs({6}) end, "bad argument #1 to 'viewAs'", 'tensor expected')
end)

testing.case('expand and expandAs', function()
  local x = tensor.DoubleTensor{{1}, {2}, {3}}
  local y = x:expand(3, 2)
  testing.assertEqual(y:val(), {{1, 1}, {2, 2}, {3, 3}})
  testing.assertEqual(y:stride(), {1, 0})
  testing.assertEqual(x:expand{2, 3, 4}:shape(), {2, 3, 4}, 'new leading dimensions')
  testing.assertEqual(x:expand(-1, 4):shape(), {3, 4}, '-1 keeps an extent')
  testing.assertEqual(x:expandAs(tensor.ByteTensor(3, 5)):shape(), {3, 5})
  x:fill(9)
  testing.assertEqual(y:val(), {{9, 9}, {9, 9}, {9, 9}}, 'a view of x')
  testing.assertEqual(tensor.expand(x, 3, 2), y, 'module form')
  testing.assertEqual(tensor.expandAs(x, y), y, 'module form')
  -- Of a transposed row.
  local row = tensor.Int32Tensor{{1, 2}}:t()
  testing.assertEqual(row:expand(2, 3):val(), {{1, 1, 1}, {2, 2, 2}})
end)

testing.case('expanded and unfolded views refuse writes but a fill with one value', function()
  local y = tensor.DoubleTensor(3, 1):expand(3, 3)
  testing.assertEqual(y:fill(1):sum(), 9, 'one value: the order of writes cannot matter')
  expectError(function() y:fill{1, 2, 3} end, "'fill'", 'share memory')
  expectError(function() y:uniform() end, "'uniform'", 'share memory')
  expectError(function() y:bernoulli() end, "'bernoulli'", 'share memory')
  expectError(function() y:copy(tensor.DoubleTensor(3, 3)) end, "'copy'", 'share memory')
  local u = tensor.DoubleTensor(5):unfold(1, 2, 1)
  expectError(function() u:add(1) end, "'add'", 'share memory')
  testing.assertEqual(y:clone():fill(1):sum(), 9, 'a clone can be written')
end)

testing.case('expand errors', function()
  local x = tensor.DoubleTensor(3, 1)
  expectError(function() return x:expand(2, 2) end, "'expand'", 'not 1')
  expectError(function() return x:expand(3) end, "'expand'", 'fewer dimensions')
  expectError(function() return x:expand(3, 0) end, "bad argument #2 to 'expand'", '(or -1)')
  expectError(function() return x:expand(3, 'a') end, "bad argument #2 to 'expand'")
  expectError(function() return x:expandAs(3) end, "bad argument #1 to 'expandAs'")
  expectError(function() return tensor.DoubleTensor():expand(2) end, "'expand'")
end)

testing.case('unfold', function()
  local x = tensor.DoubleTensor{1, 2, 3, 4, 5, 6, 7}
  testing.assertEqual(x:unfold(1, 2, 1):shape(), {6, 2})
  testing.assertEqual(x:unfold(1, 2, 2):val(), {{1, 2}, {3, 4}, {5, 6}})
  testing.assertEqual(x:reverse(1):unfold(1, 3, 3):val(), {{7, 6, 5}, {4, 3, 2}})
  local m = m34('Int64Tensor')
  testing.assertEqual(m:unfold(2, 2, 2):shape(), {3, 2, 2})
  testing.assertEqual(m:unfold(2, 2, 2)(2, 2):val(), {7, 8})
  testing.assertEqual(tensor.unfold(x, 1, 7, 1):val(), {{1, 2, 3, 4, 5, 6, 7}}, 'module form')
  expectError(function() return x:unfold(1, 8, 1) end, "bad argument #2 to 'unfold'", 'size 8')
  expectError(function() return x:unfold(1, 0, 1) end, "bad argument #2 to 'unfold'")
  expectError(function() return x:unfold(1, 2, 0) end, "bad argument #3 to 'unfold'", 'step 0')
  expectError(function() return x:unfold(2, 2, 1) end, "bad argument #1 to 'unfold'")
  expectError(function() return x:unfold(1, 2) end, "bad argument #3 to 'unfold'", 'got no value')
end)

testing.case('squeeze and unsqueeze', function()
  local x = tensor.DoubleTensor(2, 1, 2, 1, 2)
  testing.assertEqual(x:squeeze():shape(), {2, 2, 2})
  testing.assertEqual(x:squeeze(2):shape(), {2, 2, 1, 2})
  testing.assertEqual(x:squeeze(1):shape(), {2, 1, 2, 1, 2}, 'not extent 1: unchanged')
  testing.assertEqual(tensor.DoubleTensor(1, 1):squeeze():shape(), {1}, 'one element stays')
  testing.assertEqual(tensor.DoubleTensor(1):squeeze(1):shape(), {1})
  local m = m34()
  testing.assertEqual(m:unsqueeze(1):shape(), {1, 3, 4})
  testing.assertEqual(m:unsqueeze(2):shape(), {3, 1, 4})
  testing.assertEqual(m:unsqueeze(3):shape(), {3, 4, 1})
  testing.assertEqual(m:t():unsqueeze(2):squeeze(), m:t())
  local s = m:narrow(2, 2, 1):squeeze()
  s:fill(0)
  testing.assertEqual(m:select(2, 2):val(), {0, 0, 0}, 'views write through')
  testing.assertEqual(tensor.squeeze(x):shape(), {2, 2, 2}, 'module form')
  testing.assertEqual(tensor.unsqueeze(m, 1):shape(), {1, 3, 4}, 'module form')
  expectError(function() return x:squeeze(6) end, "bad argument #1 to 'squeeze'")
  expectError(function() return m:unsqueeze(4) end, "bad argument #1 to 'unsqueeze'", '[1, 3]')
  expectError(function() return m:unsqueeze(0) end, "bad argument #1 to 'unsqueeze'")
  expectError(function() return tensor.DoubleTensor():unsqueeze(1) end, "'unsqueeze'", 'empty')
end)

testing.case('sub: a view by inclusive index ranges', function()
  local x = tensor.DoubleTensor(5, 6):zero()
  local y = x:sub(2, 4):fill(1)
  testing.assertEqual(y:shape(), {3, 6})
  local z = x:sub(2, 4, 3, 4):fill(2)
  testing.assertEqual(z:shape(), {3, 2})
  testing.assertEqual(x:val(), {{0, 0, 0, 0, 0, 0}, {1, 1, 2, 2, 1, 1}, {1, 1, 2, 2, 1, 1},
                                {1, 1, 2, 2, 1, 1}, {0, 0, 0, 0, 0, 0}})
  testing.assertEqual(y:sub(-1, -1, 3, 4):val(), {{2, 2}})
  testing.assertEqual(m34():t():sub(2, 3, -2, -1):val(), {{6, 10}, {7, 11}})
  testing.assertEqual(m34('ByteTensor'):reverse(2):sub(1, 1, 1, 2):val(), {{4, 3}})
end)

testing.case('sub with one number or table is still subtraction', function()
  local x = tensor.DoubleTensor{5, 6, 7}
  testing.assertTrue(rawequal(x:sub(1), x))
  testing.assertEqual(x:val(), {4, 5, 6})
  x:sub{1, 2, 3}
  testing.assertEqual(x:val(), {3, 3, 3})
end)

testing.case('sub errors', function()
  local x = tensor.DoubleTensor(5, 6)
  expectError(function() return x:sub(4, 2) end, "bad argument #2 to 'sub'", 'end 2 is before start 4')
  expectError(function() return x:sub(0, 2) end, "bad argument #1 to 'sub'", 'index 0 out of range')
  expectError(function() return x:sub(1, 6) end, "bad argument #2 to 'sub'", '[1, 5]')
  expectError(function() return x:sub(-6, 2) end, "bad argument #1 to 'sub'", '[-5, -1]')
  expectError(function() return x:sub(1, 2, 3) end, "bad argument #4 to 'sub'", 'got no value')
  expectError(function() return x:sub(1, 2, 1, 2, 1, 1) end, "bad argument #5 to 'sub'",
              'too many indices')
  expectError(function() return x:sub(1, 1/0) end, "bad argument #2 to 'sub'", 'integer expected')
end)

testing.case('split and chunk', function()
  local x = tensor.DoubleTensor(3, 4, 5)
  local function shapes(pieces)
    local out = {}
    for i, p in ipairs(pieces) do out[i] = p:shape() end
    return out
  end
  testing.assertEqual(shapes(x:split(2, 1)), {{2, 4, 5}, {1, 4, 5}})
  testing.assertEqual(shapes(x:split(2)), {{2, 4, 5}, {1, 4, 5}}, 'dim defaults to 1')
  testing.assertEqual(shapes(x:split(3, 2)), {{3, 3, 5}, {3, 1, 5}})
  testing.assertEqual(shapes(x:split(2, 3)), {{3, 4, 2}, {3, 4, 2}, {3, 4, 1}})
  testing.assertEqual(shapes(x:chunk(2, 1)), {{2, 4, 5}, {1, 4, 5}})
  testing.assertEqual(shapes(x:chunk(2, 2)), {{3, 2, 5}, {3, 2, 5}})
  testing.assertEqual(shapes(x:chunk(2, 3)), {{3, 4, 3}, {3, 4, 2}})
  testing.assertEqual(shapes(x:chunk(10, 1)), {{1, 4, 5}, {1, 4, 5}, {1, 4, 5}})
  testing.assertEqual(shapes(x:split(2 ^ 62, 2)), {{3, 4, 5}}, 'a size beyond the extent')
  local m = m34()
  local columns = m:t():split(3)
  testing.assertEqual(columns[2]:val(), {{4, 8, 12}})
  columns[1]:fill(0)
  testing.assertEqual(m:select(2, 1):val(), {0, 0, 0}, 'pieces are views')
  testing.assertEqual(shapes(tensor.split(x, 2)), {{2, 4, 5}, {1, 4, 5}}, 'module form')
  testing.assertEqual(shapes(tensor.chunk(x, 2, 3)), {{3, 4, 3}, {3, 4, 2}}, 'module form')
  expectError(function() return x:split(0) end, "bad argument #1 to 'split'", 'size 0')
  expectError(function() return x:split(2, 4) end, "bad argument #2 to 'split'")
  expectError(function() return x:chunk(0) end, "bad argument #1 to 'chunk'", 'count 0')
  expectError(function() return x:chunk(2, 'a') end, "bad argument #2 to 'chunk'")
  expectError(function() return tensor.DoubleTensor():split(1) end, "'split'", 'empty')
end)

testing.case('repeatTensor', function()
  local x = tensor.DoubleTensor{1, 2, 3}
  testing.assertEqual(x:repeatTensor(3, 2):val(),
                      {{1, 2, 3, 1, 2, 3}, {1, 2, 3, 1, 2, 3}, {1, 2, 3, 1, 2, 3}})
  testing.assertEqual(x:repeatTensor{3, 2, 1}:shape(), {3, 2, 3})
  local m = tensor.Int32Tensor{{1, 2}, {3, 4}}
  testing.assertEqual(m:t():repeatTensor(1, 2):val(), {{1, 3, 1, 3}, {2, 4, 2, 4}})
  local r = m:repeatTensor(1, 1)
  r:fill(0)
  testing.assertEqual(m:val(), {{1, 2}, {3, 4}}, 'a new tensor')
  testing.assertEqual(tensor.repeatTensor(x, 2), tensor.DoubleTensor{1, 2, 3, 1, 2, 3},
                      'module form')
  local res = tensor.DoubleTensor()
  testing.assertTrue(rawequal(tensor.repeatTensor(res, x, 2), res), 'with res')
  testing.assertEqual(res, tensor.DoubleTensor{1, 2, 3, 1, 2, 3})
  expectError(function() return m:repeatTensor(2) end, "'repeatTensor'", 'one per dimension')
  expectError(function() return m:repeatTensor(2, 0) end, "bad argument #2 to 'repeatTensor'")
  expectError(function() return m:repeatTensor() end, "bad argument #1 to 'repeatTensor'")
end)

testing.case('diag, tril, triu', function()
  local v = tensor.Int32Tensor{1, 2}
  testing.assertEqual(v:diag(), tensor.Int32Tensor{{1, 0}, {0, 2}})
  testing.assertEqual(v:diag(1):val(), {{0, 1, 0}, {0, 0, 2}, {0, 0, 0}})
  testing.assertEqual(v:diag(-1):val(), {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}})
  local m = m34()
  testing.assertEqual(m:diag():val(), {1, 6, 11})
  testing.assertEqual(m:diag(1):val(), {2, 7, 12})
  testing.assertEqual(m:diag(-2):val(), 9)
  testing.assertEqual(m:t():diag(-1):val(), {2, 7, 12})
  testing.assertEqual(m:tril():val(), {{1, 0, 0, 0}, {5, 6, 0, 0}, {9, 10, 11, 0}})
  testing.assertEqual(m:tril(-1):val(), {{0, 0, 0, 0}, {5, 0, 0, 0}, {9, 10, 0, 0}})
  testing.assertEqual(m:triu(2):val(), {{0, 0, 3, 4}, {0, 0, 0, 8}, {0, 0, 0, 0}})
  testing.assertEqual(m:t():triu():val(), {{1, 5, 9}, {0, 6, 10}, {0, 0, 11}, {0, 0, 0}})
  testing.assertEqual(m:val()[1][2], 2, 'the source is untouched')
end)

testing.case('diag, tril, triu module forms with res', function()
  local m = m34('FloatTensor')
  testing.assertEqual(tensor.diag(m), m:diag())
  testing.assertEqual(tensor.tril(m, 1), m:tril(1))
  local res = tensor.FloatTensor(3, 4)
  testing.assertTrue(rawequal(tensor.triu(res, m), res))
  testing.assertEqual(res, m:triu())
  local row = tensor.FloatTensor(2, 3):zero()
  tensor.diag(row:select(1, 2), m:narrow(2, 1, 3))  -- a view as res
  testing.assertEqual(row:val(), {{0, 0, 0}, {1, 6, 11}})
  expectError(function() tensor.diag(tensor.DoubleTensor(3), m) end,
              "bad argument #1 to 'diag'", 'res must be a FloatTensor')
  host_test.lend('FloatTensor', {2}, 0, function(lent)
    expectError(function() tensor.diag(lent, m) end, "bad argument #1 to 'diag'",
                'cannot be resized')
  end)
  expectError(function() tensor.diag(m, 'a') end, "bad argument #2 to 'diag'", 'integer expected')
end)

testing.case('diag, tril, triu errors', function()
  local m = m34()
  expectError(function() return m:diag(4) end, "'diag'", 'empty')
  expectError(function() return m:diag(-3) end, "'diag'", 'empty')
  expectError(function() return m:diag(1/0) end, "bad argument #1 to 'diag'")
  expectError(function() return tensor.DoubleTensor(2, 2, 2):diag() end, "'diag'",
              'vector or a matrix')
  expectError(function() return tensor.DoubleTensor():diag() end, "'diag'")
  expectError(function() return tensor.DoubleTensor(3):tril() end, "'tril'", 'rank 2')
  expectError(function() return m:triu('x') end, "bad argument #1 to 'triu'")
end)

testing.case('uniform, normal, bernoulli fill in place and return self', function()
  local x = tensor.DoubleTensor(50)
  testing.assertTrue(rawequal(x:uniform(), x))
  testing.assertTrue(x:ge(0):sum() == 50 and x:lt(1):sum() == 50)
  x:uniform(-3, -2)
  testing.assertTrue(x:ge(-3):sum() == 50 and x:lt(-2):sum() == 50)
  testing.assertTrue(rawequal(x:normal(10, 0.001), x))
  testing.assertTrue(math.abs(x:sum() / 50 - 10) < 0.01)
  local b = tensor.ByteTensor(40)
  testing.assertTrue(rawequal(b:bernoulli(), b))
  testing.assertEqual(b:eq(0):sum() + b:eq(1):sum(), 40)
  testing.assertEqual(b:bernoulli(1):sum(), 40)
  testing.assertEqual(b:bernoulli(0):sum(), 0)
  testing.assertEqual(tensor.Int64Tensor(3):bernoulli(1):val(), {1, 1, 1})
  testing.assertEqual(tensor.FloatTensor(4):uniform(2, 2):val(), {2, 2, 2, 2})
end)

testing.case('random fills are deterministic for a seed, in either generator position', function()
  local a = tensor.DoubleTensor(3, 2):uniform(random.Generator(5), 0, 1)
  local b = tensor.DoubleTensor(3, 2):uniform(random.Generator(5))
  testing.assertEqual(a, b)
  random:seed(11)
  local c = tensor.DoubleTensor(3, 2):normal()
  random:seed(11)
  testing.assertEqual(tensor.DoubleTensor(3, 2):normal(), c, 'the default generator')
  -- A transposed view draws in its own row-major order.
  local backing = tensor.DoubleTensor(2, 3)
  backing:t():uniform(random.Generator(5))
  testing.assertEqual(backing:t(), a)
  -- One draw per element, as gen:uniformReal draws.
  local gen = random.Generator(9)
  local first = gen:uniformReal(0, 1)
  testing.assertEqual(tensor.DoubleTensor(1):uniform(random.Generator(9)):val(), first)
end)

testing.case('random fill errors', function()
  local x = tensor.DoubleTensor(3)
  expectError(function() x:uniform(1, 0) end, "'uniform'", 'a <= b')
  expectError(function() x:uniform('a') end, "bad argument #1 to 'uniform'", 'number expected')
  expectError(function() x:uniform(random.Generator(1), 0, 'b') end, "bad argument #3 to 'uniform'")
  expectError(function() x:uniform(0, 1, 2) end, "bad argument #3 to 'uniform'", 'no value expected')
  expectError(function() x:normal(0, 0) end, "'normal'", 'strictly positive')
  expectError(function() x:normal(0, -1) end, "'normal'", 'strictly positive')
  expectError(function() x:bernoulli(1.5) end, "'bernoulli'", '[0, 1]')
  expectError(function() x:bernoulli(0.5, 1) end, "bad argument #2 to 'bernoulli'")
  expectError(function() x:bernoulli(random.Generator(1), {}) end, "bad argument #2 to 'bernoulli'")
  expectError(function() tensor.Int32Tensor(2):uniform() end, "'uniform'",
              'not defined for Int32Tensor')
  expectError(function() tensor.ByteTensor(2):normal() end, "'normal'", 'not defined for ByteTensor')
  local before = x:clone()
  pcall(function() x:uniform(1, 0) end)
  testing.assertEqual(x, before, 'a failed call changes nothing')
end)

testing.case('an invalid tensor as self', function()
  local t = revoked()
  local calls = {
    size = function() return t:size(1) end,
    nElement = function() return t:nElement() end,
    dim = function() return t:dim() end,
    nDimension = function() return t:nDimension() end,
    stride = function() return t:stride() end,
    isContiguous = function() return t:isContiguous() end,
    contiguous = function() return t:contiguous() end,
    storageOffset = function() return t:storageOffset() end,
    isSameSizeAs = function() return t:isSameSizeAs(t) end,
    isSize = function() return t:isSize{2, 2} end,
    t = function() return t:t() end,
    permute = function() return t:permute(2, 1) end,
    view = function() return t:view(4) end,
    viewAs = function() return t:viewAs(tensor.DoubleTensor(4)) end,
    expand = function() return t:expand(2, 2) end,
    expandAs = function() return t:expandAs(tensor.DoubleTensor(2, 2)) end,
    unfold = function() return t:unfold(1, 1, 1) end,
    squeeze = function() return t:squeeze() end,
    unsqueeze = function() return t:unsqueeze(1) end,
    sub = function() return t:sub(1, 1) end,
    split = function() return t:split(1) end,
    chunk = function() return t:chunk(1) end,
    repeatTensor = function() return t:repeatTensor(1, 1) end,
    diag = function() return t:diag() end,
    tril = function() return t:tril() end,
    triu = function() return t:triu() end,
    uniform = function() return t:uniform() end,
    normal = function() return t:normal() end,
    bernoulli = function() return t:bernoulli() end,
  }
  for method, call in pairs(calls) do
    expectError(call, 'invalid', 'dmlab.system.tensor.DoubleTensor:' .. method, 'host_test.lend')
  end
end)

testing.case('an invalid tensor as argument', function()
  local t = revoked()
  local x = tensor.DoubleTensor(2, 2)
  expectError(function() return x:isSameSizeAs(t) end, "bad argument #1 to 'isSameSizeAs'", 'invalid')
  expectError(function() return x:viewAs(t) end, "bad argument #1 to 'viewAs'", 'invalid')
  expectError(function() return x:expandAs(t) end, "bad argument #1 to 'expandAs'", 'invalid')
  expectError(function() return tensor.diag(t) end, ":diag'", 'invalid')
  expectError(function() return tensor.diag(x, t) end, ":diag'", 'invalid')  -- x is res
  expectError(function() return tensor.diag(t, tensor.DoubleTensor{1, 2}) end, "'diag'", 'invalid')
  expectError(function() return tensor.view(t, 4) end, ":view'", 'invalid')
end)

testing.run()
