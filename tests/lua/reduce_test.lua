-- Reductions along a dimension, sorting and whole-tensor statistics:
-- sum, prod, mean, var, std, max, min, median, mode, kthvalue, cumsum,
-- cumprod, sort, topk, norm, renorm, dist, trace, all, any.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains
local DOUBLE = 'dmlab.system.tensor.DoubleTensor'
local INT64 = 'dmlab.system.tensor.Int64Tensor'

local function near(a, b, eps)
  return math.abs(a - b) <= (eps or 1e-12) * math.max(1, math.abs(a), math.abs(b))
end

-- {{1, 5, 3}, {4, 2, 6}} and views of other layouts holding the same
-- matrix: transposed twice, and reversed twice.
local function layouts(ctor)
  local m = (ctor or tensor.DoubleTensor){{1, 5, 3}, {4, 2, 6}}
  local t = (ctor or tensor.DoubleTensor){{1, 4}, {5, 2}, {3, 6}}
  local r = (ctor or tensor.DoubleTensor){{6, 2, 4}, {3, 5, 1}}
  return {contiguous = m, transposed = t:transpose(1, 2), reversed = r:reverse(1):reverse(2)}
end

testing.case('sum: a number without dim, a tensor with extent 1 along dim', function()
  for name, x in pairs(layouts()) do
    testing.assertEqual(x:sum(), 21, name)
    testing.assertEqual(x:sum(1):val(), {{5, 7, 9}}, name)
    testing.assertEqual(x:sum(2):val(), {{9}, {12}}, name)
    testing.assertEqual(x:sum(2):type(), DOUBLE, name)
  end
  -- A narrowed view.
  testing.assertEqual(layouts().contiguous:narrow(2, 2, 2):sum(1):val(), {{7, 9}})
end)

testing.case('integer sums along dim keep the type and wrap; the number does not', function()
  local b = tensor.ByteTensor{{200, 100}, {100, 3}}
  testing.assertEqual(b:sum(), 403)
  testing.assertEqual(b:sum(1):val(), {{44, 103}})
  testing.assertEqual(b:sum(1):type(), 'dmlab.system.tensor.ByteTensor')
  testing.assertEqual(tensor.Int32Tensor{{1, 2}, {3, 4}}:prod(1):val(), {{3, 8}})
end)

testing.case('prod, mean, var and std', function()
  for name, x in pairs(layouts()) do
    testing.assertEqual(x:prod(), 720, name)
    testing.assertEqual(x:prod(2):val(), {{15}, {48}}, name)
    testing.assertEqual(x:mean(), 3.5, name)
    testing.assertEqual(x:mean(1):val(), {{2.5, 3.5, 4.5}}, name)
    testing.assertEqual(x:var(), 3.5, name)
    testing.assertEqual(x:var(true), 17.5 / 6, name)
    testing.assertEqual(x:var(1):val(), {{4.5, 4.5, 4.5}}, name)
    testing.assertEqual(x:var(1, true):val(), {{2.25, 2.25, 2.25}}, name)
    testing.assertTrue(near(x:std(), math.sqrt(3.5)), name)
    testing.assertEqual(x:std(1, true):val(), {{1.5, 1.5, 1.5}}, name)
    testing.assertEqual(x:std(2, false):val(), {{2}, {2}}, name)
  end
end)

testing.case('max and min: a number, or values and Int64 indices along dim', function()
  for name, x in pairs(layouts()) do
    testing.assertEqual(x:max(), 6, name)
    testing.assertEqual(x:min(), 1, name)
    local v, i = x:max(1)
    testing.assertEqual(v:val(), {{4, 5, 6}}, name)
    testing.assertEqual(i:val(), {{2, 1, 2}}, name)
    testing.assertEqual(i:type(), INT64, name)
    v, i = x:min(2)
    testing.assertEqual(v:val(), {{1}, {2}}, name)
    testing.assertEqual(i:val(), {{1}, {2}}, name)
  end
  -- Ties give the first; integer types keep their type.
  local v, i = tensor.Int16Tensor{3, 7, 7, 1}:max(1)
  testing.assertEqual(v:shape(), {1})
  testing.assertEqual(v:val(), 7)  -- val() of one element is the number
  testing.assertEqual(i:val(), 2)
  testing.assertEqual(v:type(), 'dmlab.system.tensor.Int16Tensor')
  -- NaN wins.
  local nan = tensor.DoubleTensor{1, 0 / 0, 3}
  testing.assertTrue(nan:max() ~= nan:max())
  v, i = nan:min(1)
  testing.assertEqual(i:val(), 2)
end)

testing.case('median, mode and kthvalue work along the last dimension by default', function()
  for name, x in pairs(layouts()) do
    local v, i = x:median()
    testing.assertEqual(v:val(), {{3}, {4}}, name)
    testing.assertEqual(i:val(), {{3}, {1}}, name)
    v, i = x:median(1)
    testing.assertEqual(v:val(), {{1, 2, 3}}, name)  -- the lower middle of two
    testing.assertEqual(i:val(), {{1, 2, 1}}, name)
    v, i = x:kthvalue(3)
    testing.assertEqual(v:val(), {{5}, {6}}, name)
    testing.assertEqual(i:val(), {{2}, {3}}, name)
    v, i = x:kthvalue(2, 1)
    testing.assertEqual(v:val(), {{4, 5, 6}}, name)
  end
  local v, i = tensor.Int32Tensor{{2, 9, 9, 2, 5}}:mode()
  testing.assertEqual(v:val(), {{2}})  -- the smaller of the two most frequent
  testing.assertEqual(i:val(), {{4}})  -- its last position
  v, i = tensor.Int32Tensor{{2, 9}, {9, 9}}:mode(1)
  testing.assertEqual(v:val(), {{2, 9}})
  testing.assertEqual(i:val(), {{1, 2}})
end)

testing.case('cumsum and cumprod run along the first dimension by default', function()
  for name, x in pairs(layouts()) do
    testing.assertEqual(x:cumsum():val(), {{1, 5, 3}, {5, 7, 9}}, name)
    testing.assertEqual(x:cumsum(2):val(), {{1, 6, 9}, {4, 6, 12}}, name)
    testing.assertEqual(x:cumprod():val(), {{1, 5, 3}, {4, 10, 18}}, name)
    testing.assertEqual(x:cumprod(2):val(), {{1, 5, 15}, {4, 8, 48}}, name)
  end
  testing.assertEqual(tensor.ByteTensor{200, 100}:cumsum():val(), {200, 44})
end)

testing.case('sort is stable, ascending along the last dimension by default', function()
  for name, x in pairs(layouts()) do
    local v, i = x:sort()
    testing.assertEqual(v:val(), {{1, 3, 5}, {2, 4, 6}}, name)
    testing.assertEqual(i:val(), {{1, 3, 2}, {2, 1, 3}}, name)
    v, i = x:sort(1, true)
    testing.assertEqual(v:val(), {{4, 5, 6}, {1, 2, 3}}, name)
    testing.assertEqual(i:val(), {{2, 1, 2}, {1, 2, 1}}, name)
    v = x:sort(true)
    testing.assertEqual(v:val(), {{5, 3, 1}, {6, 4, 2}}, name)
  end
  local v, i = tensor.CharTensor{3, -1, 3, -1}:sort(1, true)
  testing.assertEqual(v:val(), {3, 3, -1, -1})
  testing.assertEqual(i:val(), {1, 3, 2, 4})
  v, i = tensor.DoubleTensor{0 / 0, 2, 1}:sort()
  testing.assertEqual(i:val(), {3, 2, 1})  -- NaN last
end)

testing.case('topk: the k smallest, or largest, sorted', function()
  for name, x in pairs(layouts()) do
    local v, i = x:topk(2)
    testing.assertEqual(v:val(), {{1, 3}, {2, 4}}, name)
    testing.assertEqual(i:val(), {{1, 3}, {2, 1}}, name)
    v, i = x:topk(1, 1, true)
    testing.assertEqual(v:val(), {{4, 5, 6}}, name)
    testing.assertEqual(i:val(), {{2, 1, 2}}, name)
    v = x:topk(2, true, true)
    testing.assertEqual(v:val(), {{5, 3}, {6, 4}}, name)
    v = x:topk(2, 2, false, true)
    testing.assertEqual(v:val(), {{1, 3}, {2, 4}}, name)
  end
end)

testing.case('norm, dist, trace, renorm', function()
  for name, x in pairs(layouts()) do
    testing.assertTrue(near(x:norm(), math.sqrt(91)), name)
    testing.assertEqual(x:norm(1), 21, name)
    testing.assertEqual(x:norm(1, 2):val(), {{9}, {12}}, name)
    testing.assertEqual(x:norm(1 / 0), 6, name)
    testing.assertEqual(x:norm(0, 1):val(), {{2, 2, 2}}, name)
    testing.assertEqual(x:dist(x:clone():add(1)), math.sqrt(6), name)
    testing.assertEqual(x:dist(x:clone():add(1), 1), 6, name)
    testing.assertEqual(x:trace(), 3, name)
  end
  local w = tensor.DoubleTensor{{3, 4}, {0.3, 0.4}}
  testing.assertTrue(rawequal(w:renorm(2, 1, 1), w))
  testing.assertTrue(near(w:val()[1][1], 0.6, 1e-7) and near(w:val()[1][2], 0.8, 1e-7))
  testing.assertEqual(w:val()[2], {0.3, 0.4})
  -- Along columns of a transposed view: the rows of the original.
  local u = tensor.FloatTensor{{3, 4}, {6, 8}}
  u:transpose(1, 2):renorm(1, 2, 7)
  testing.assertEqual(u:val(), {{3, 4}, {3, 4}})
end)

testing.case('all and any on ByteTensor masks', function()
  local mask = tensor.ByteTensor{{1, 2}, {0, 1}}
  testing.assertEqual(mask:all(), false)
  testing.assertEqual(mask:any(), true)
  testing.assertEqual(mask:select(1, 1):all(), true)
  testing.assertEqual(mask:select(2, 1):any(), true)
  testing.assertEqual(tensor.ByteTensor(3):any(), false)
  -- topk(0) makes an empty tensor.
  local empty = tensor.ByteTensor(2, 2):topk(0)
  testing.assertEqual(empty:shape(), {2, 0})
  testing.assertEqual(empty:all(), true)
  testing.assertEqual(empty:any(), false)
end)

testing.case('module functions: [res,] forms and the same as the methods', function()
  local x = layouts().transposed
  testing.assertEqual(tensor.sum(x), 21)
  testing.assertEqual(tensor.sum(x, 2):val(), {{9}, {12}})
  local res = tensor.DoubleTensor(1, 3)
  testing.assertTrue(rawequal(tensor.sum(res, x, 1), res))
  testing.assertEqual(res:val(), {{5, 7, 9}})
  testing.assertEqual(tensor.prod(x, 1):val(), {{4, 10, 18}})
  testing.assertEqual(tensor.mean(x), 3.5)
  testing.assertEqual(tensor.var(x, 1, true):val(), {{2.25, 2.25, 2.25}})
  testing.assertEqual(tensor.std(tensor.DoubleTensor(1, 3), x, 1, true):val(), {{1.5, 1.5, 1.5}})
  testing.assertEqual(tensor.cumsum(x):val(), {{1, 5, 3}, {5, 7, 9}})
  testing.assertEqual(tensor.cumprod(tensor.DoubleTensor(2, 3), x, 2):val(), {{1, 5, 15}, {4, 8, 48}})
  testing.assertEqual(tensor.norm(x, 1), 21)
  testing.assertEqual(tensor.norm(x, 1, 1):val(), {{5, 7, 9}})
  local v, i = tensor.max(x, 1)
  testing.assertEqual(v:val(), {{4, 5, 6}})
  testing.assertEqual(i:val(), {{2, 1, 2}})
  testing.assertEqual(tensor.min(x), 1)
  v, i = tensor.sort(x, 2, true)
  testing.assertEqual(i:val(), {{2, 3, 1}, {3, 1, 2}})
  v = tensor.topk(x, 1, 2, true)
  testing.assertEqual(v:val(), {{5}, {6}})
  testing.assertEqual(tensor.kthvalue(x, 1):val(), {{1}, {2}})
  testing.assertEqual(tensor.median(x, 1):val(), {{1, 2, 3}})
  testing.assertEqual(tensor.mode(x):val(), {{1}, {2}})
  testing.assertEqual(tensor.dist(x, x), 0)
  testing.assertEqual(tensor.trace(x), 3)
  testing.assertEqual(tensor.all(tensor.ByteTensor{1, 1}), true)
  testing.assertEqual(tensor.any(tensor.ByteTensor{0, 0}), false)
  -- renorm: on a clone of x, or in place on res.
  local w = tensor.DoubleTensor{{3, 4}, {0.3, 0.4}}
  local clipped = tensor.renorm(w, 2, 1, 1)
  testing.assertEqual(w:val(), {{3, 4}, {0.3, 0.4}})
  testing.assertTrue(near(clipped:val()[1][1], 0.6, 1e-7))
  res = tensor.DoubleTensor(2, 2)
  testing.assertTrue(rawequal(tensor.renorm(res, w, 2, 1, 1), res))
  testing.assertTrue(near(res:val()[1][2], 0.8, 1e-7))
end)

testing.case('bad dimensions, k and flags are argument errors', function()
  local x = tensor.DoubleTensor{{1, 2}, {3, 4}}
  expectError(function() x:sum(3) end, "bad argument #1 to 'sum'", 'out of range [1, 2]')
  expectError(function() x:sum(0) end, "bad argument #1 to 'sum'")
  expectError(function() x:max(1/0) end, "bad argument #1 to 'max'", 'integer expected')
  expectError(function() x:mean('a') end, "bad argument #1 to 'mean'")
  expectError(function() x:var(1, 'yes') end, "bad argument #2 to 'var'", 'boolean expected')
  expectError(function() x:sort(1, 2) end, "bad argument #2 to 'sort'", 'boolean expected')
  expectError(function() x:sort(-1) end, "bad argument #1 to 'sort'")
  expectError(function() x:cumsum(3) end, "bad argument #1 to 'cumsum'")
  expectError(function() x:kthvalue() end, "bad argument #1 to 'kthvalue'")
  expectError(function() x:kthvalue(3) end, "'kthvalue'", 'k = 3 is out of range [1, 2]')
  expectError(function() x:kthvalue(1, 3) end, "bad argument #2 to 'kthvalue'")
  expectError(function() x:topk(3) end, "'topk'", 'out of range [0, 2]')
  expectError(function() x:topk(1, 1, 'x') end, "bad argument #3 to 'topk'")
  expectError(function() x:topk(1, 1, true, 1) end, "bad argument #4 to 'topk'")
  expectError(function() x:norm('x') end, "bad argument #1 to 'norm'")
  expectError(function() x:norm(-1) end, "'norm'", 'p must be at least 0')
  expectError(function() x:norm(2, 5) end, "bad argument #2 to 'norm'")
  expectError(function() x:renorm(2, 3, 1) end, "bad argument #2 to 'renorm'")
  expectError(function() x:renorm(0, 1, 1) end, "'renorm'", 'greater than 0')
  expectError(function() x:renorm(2, 1) end, "bad argument #3 to 'renorm'")
  expectError(function() x:dist(1) end, "bad argument #1 to 'dist'", 'tensor expected')
  expectError(function() x:dist(tensor.FloatTensor(2, 2)) end, "'dist'", 'same type')
  expectError(function() x:dist(tensor.DoubleTensor(3)) end, "'dist'", 'same number')
  expectError(function() tensor.DoubleTensor(3):trace() end, "'trace'", 'needs a matrix')
  -- Module functions count their own arguments.
  expectError(function() tensor.sum(x, 3) end, "bad argument #2 to 'sum'")
  expectError(function() tensor.sort(x, 1, 2) end, "bad argument #3 to 'sort'")
  expectError(function() tensor.sum(1) end, "bad argument #1 to 'sum'", 'tensor expected')
end)

testing.case('functions defined only for some types name the type', function()
  local i = tensor.Int32Tensor{{1, 2}, {3, 4}}
  for _, method in ipairs{'mean', 'var', 'std', 'norm'} do
    expectError(function() i[method](i) end, "'" .. method .. "'", 'not defined for Int32Tensor')
    expectError(function() i[method](i, 1) end, "'" .. method .. "'", 'Int32Tensor')
  end
  expectError(function() i:dist(i) end, "'dist'", 'not defined for Int32Tensor')
  expectError(function() i:renorm(2, 1, 1) end, "'renorm'", 'not defined for Int32Tensor')
  expectError(function() tensor.DoubleTensor{1}:all() end, "'all'", 'not defined for DoubleTensor')
  expectError(function() i:any() end, "'any'", 'not defined for Int32Tensor')
  -- What integers do have.
  testing.assertEqual(i:max(), 4)
  testing.assertEqual(i:sort(1, true):val(), {{3, 4}, {1, 2}})
  testing.assertEqual(i:trace(), 5)
  testing.assertEqual(tensor.Int64Tensor{5, 1, 3}:median():val(), 3)
end)

testing.case('empty inputs: sums are 0, extremes and means are errors', function()
  local empty = tensor.DoubleTensor(2, 3):topk(0)
  testing.assertEqual(empty:topk(0):shape(), {2, 0})
  testing.assertEqual(empty:sum(), 0)
  testing.assertEqual(empty:sum(2):val(), {{0}, {0}})
  testing.assertEqual(empty:prod(2):val(), {{1}, {1}})
  testing.assertEqual(empty:norm(), 0)
  expectError(function() empty:max() end, "'max'", 'no elements')
  expectError(function() empty:min(2) end, "'min'", 'no elements')
  expectError(function() empty:mean() end, "'mean'", 'no elements')
  expectError(function() empty:var(2) end, "'var'", 'no elements')
  expectError(function() empty:median() end, "'median'", 'no elements')
  expectError(function() empty:mode() end, "'mode'", 'no elements')
  expectError(function() empty:kthvalue(1) end, "'kthvalue'", 'no elements')
  local v, i = empty:sort()
  testing.assertEqual(v:shape(), {2, 0})
  testing.assertEqual(i:shape(), {2, 0})
  -- No dimensions at all.
  local none = tensor.DoubleTensor()
  expectError(function() none:sort() end, "'sort'", 'no dimension')
  expectError(function() none:cumsum() end, "'cumsum'", 'no dimension')
  expectError(function() none:sum(1) end, "bad argument #1 to 'sum'", 'the tensor is empty')
end)

testing.case('an invalid tensor is an error as self and as argument', function()
  local stash
  host_test.lend('DoubleTensor', {2, 2}, 0, function(t) stash = t end)
  local calls = {
    sum = {}, prod = {1}, mean = {}, var = {1}, std = {}, max = {1}, min = {}, median = {},
    mode = {}, kthvalue = {1}, cumsum = {}, cumprod = {2}, sort = {}, topk = {1}, norm = {},
    renorm = {2, 1, 1}, trace = {}, all = {}, any = {},
  }
  for method, args in pairs(calls) do
    expectError(function() stash[method](stash, unpack(args)) end, 'invalid', DOUBLE, method)
  end
  expectError(function() stash:dist(tensor.DoubleTensor(2, 2)) end, 'invalid', 'dist')
  expectError(function() tensor.DoubleTensor(2, 2):dist(stash) end,
              "bad argument #1 to 'dist'", 'invalid')
  expectError(function() tensor.sum(stash, 1) end, 'invalid')
  expectError(function() tensor.sum(tensor.DoubleTensor(1, 2), stash, 1) end, 'invalid')
end)

testing.run()
