-- Indexing, masks and resizing: index, indexCopy, indexAdd, indexFill,
-- gather, scatter, maskedSelect, maskedCopy, maskedFill, nonzero, resize,
-- resizeAs and zero, as methods and as module functions.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains
local LENDER = 'host_test.lend buffer'
local TYPES = {'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor', 'Int64Tensor',
               'FloatTensor', 'DoubleTensor'}

local function long(values) return tensor.Int64Tensor(values) end
local function byte(values) return tensor.ByteTensor(values) end

-- The 3 x 4 matrix 1 .. 12 of type `name`.
local function matrix(name)
  return tensor[name or 'DoubleTensor']{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
end

-- A DoubleTensor {2, 2} lent by host_test and already revoked.
local function revoked(name)
  local kept
  host_test.lend(name or 'DoubleTensor', {2, 2}, 1, function(t) kept = t end)
  return kept
end

testing.case('index picks entries in index order, for every type', function()
  for _, name in ipairs(TYPES) do
    local x = matrix(name)
    testing.assertEqual(x:index(1, long{3, 1, 3}):val(),
                        {{9, 10, 11, 12}, {1, 2, 3, 4}, {9, 10, 11, 12}}, name)
    local columns = x:index(2, long{4, 1})
    testing.assertEqual(columns:val(), {{4, 1}, {8, 5}, {12, 9}}, name)
    testing.assertEqual(columns:type(), x:type())
    testing.assertTrue(columns:ownsStorage())
    columns:fill(0)
    testing.assertEqual(x, matrix(name), 'a copy, not a view')
  end
end)

testing.case('index of non-contiguous tensors and with non-contiguous indices', function()
  local t = matrix():transpose(1, 2)
  testing.assertEqual(t:index(1, long{4, 2}):val(), {{4, 8, 12}, {2, 6, 10}})
  local indices = long{{3, 9}, {1, 9}}:select(2, 1)  -- {3, 1}, stride 2
  testing.assertEqual(matrix():narrow(2, 2, 3):index(2, indices):val(),
                      {{4, 2}, {8, 6}, {12, 10}})
  testing.assertEqual(matrix():index(2, long{2, 1}:reverse(1)):val(), {{1, 2}, {5, 6}, {9, 10}})
  testing.assertEqual(long{5, 6, 7}:index(1, long{3, 3, 1}):val(), {7, 7, 5})
  testing.assertEqual(matrix():index(1, tensor.Int64Tensor():resize(0)):shape(), {0, 4})
end)

testing.case('tensor.index([res,] x, dim, indices)', function()
  local x = matrix()
  testing.assertEqual(tensor.index(x, 1, long{2}):val(), {{5, 6, 7, 8}})
  local res = tensor.DoubleTensor()
  testing.assertTrue(rawequal(tensor.index(res, x, 2, long{1}), res))
  testing.assertEqual(res:val(), {{1}, {5}, {9}})
  expectError(function() tensor.index(x, 3, long{1}) end, "bad argument #2 to 'index'")
  expectError(function() tensor.index(res, x, 1, long{4}) end, "bad argument #4 to 'index'",
              'index 4 at [1] of the indices is out of range [1, 3]')
end)

testing.case('index errors name the argument', function()
  local x = matrix()
  expectError(function() x:index(0, long{1}) end, "bad argument #1 to 'index'",
              'dimension 0 out of range [1, 2]')
  expectError(function() x:index(1/0, long{1}) end, "bad argument #1 to 'index'")
  expectError(function() tensor.DoubleTensor():index(1, long{1}) end,
              'out of range: the tensor is empty')
  expectError(function() x:index(1, tensor.Int32Tensor{1}) end, "bad argument #2 to 'index'",
              'Int64Tensor expected, got dmlab.system.tensor.Int32Tensor')
  expectError(function() x:index(1, {1}) end, "bad argument #2 to 'index'", 'tensor expected')
  expectError(function() x:index(1, long{{1}}) end, "'index'", 'vector (rank 1)')
  expectError(function() x:index(1, long{0}) end, "bad argument #2 to 'index'", '[1, 3]')
  expectError(function() x:index(1, long{1, 2, 4}) end, 'index 4 at [3]')
  expectError(function() x.index(1, long{1}) end, "calling 'index' on bad self")
end)

testing.case('indexCopy and indexAdd write rows or columns in index order', function()
  for _, name in ipairs(TYPES) do
    local x = matrix(name)
    local z = tensor[name]{{0, 100}, {0, 100}, {0, 100}}
    testing.assertTrue(rawequal(x:indexCopy(2, long{4, 1}, z), x))
    testing.assertEqual(x:val(), {{100, 2, 3, 0}, {100, 6, 7, 0}, {100, 10, 11, 0}}, name)
    local a = tensor[name]{1, 2, 3, 4, 5}
    testing.assertTrue(rawequal(a:indexAdd(1, long{1, 1, 3, 3}, tensor[name]{1, 2, 3, 4}), a))
    testing.assertEqual(a:val(), {4, 2, 10, 4, 5}, name)
  end
  -- The last of repeated indices wins in indexCopy; integer sums wrap.
  testing.assertEqual(long{0, 0}:indexCopy(1, long{2, 2}, long{7, 8}):val(), {0, 8})
  testing.assertEqual(byte{250}:indexAdd(1, long{1, 1}, byte{5, 5}), byte{4})
end)

testing.case('indexCopy into views and from a source sharing the destination', function()
  local x = matrix()
  x:transpose(1, 2):indexCopy(1, long{2}, tensor.DoubleTensor{{-1, -2, -3}})
  testing.assertEqual(x:val(), {{1, -1, 3, 4}, {5, -2, 7, 8}, {9, -3, 11, 12}})
  local y = matrix()
  y:indexCopy(1, long{2, 3}, y:narrow(1, 1, 2))  -- read in full first
  testing.assertEqual(y:val(), {{1, 2, 3, 4}, {1, 2, 3, 4}, {5, 6, 7, 8}})
  local v = long{2, 3, 4, 1}
  v:indexCopy(1, v, long{9, 9, 9, 9})  -- the indices are read in full first
  testing.assertEqual(v:val(), {9, 9, 9, 9})
  local w = tensor.DoubleTensor{1, 2, 3}
  w:reverse(1):indexAdd(1, long{1}, tensor.DoubleTensor{10})
  testing.assertEqual(w:val(), {1, 2, 13})
end)

testing.case('indexCopy and indexAdd errors change nothing', function()
  for _, method in ipairs({'indexCopy', 'indexAdd'}) do
    local x = matrix()
    local z = tensor.DoubleTensor(3, 2)
    expectError(function() x[method](x, 3, long{1, 2}, z) end, "bad argument #1 to '" .. method)
    expectError(function() x[method](x, 2, tensor.DoubleTensor{1, 2}, z) end,
                "bad argument #2 to '" .. method, 'Int64Tensor expected')
    expectError(function() x[method](x, 2, long{1, 2}, tensor.FloatTensor(3, 2)) end,
                "bad argument #3 to '" .. method,
                'DoubleTensor expected, got dmlab.system.tensor.FloatTensor')
    expectError(function() x[method](x, 2, long{1, 2}, 5) end, "bad argument #3 to '" .. method)
    expectError(function() x[method](x, 2, long{1, 2}, tensor.DoubleTensor(2, 2)) end,
                "'" .. method .. "'", 'expected [3, 2]')
    expectError(function() x[method](x, 2, long{1, 5}, z) end, "bad argument #2 to '" .. method,
                'index 5 at [2] of the indices is out of range [1, 4]')
    expectError(function() x[method](x, 2, long{{1, 2}}, z) end, 'vector')
    local expanded = x:expand(2, 3, 4)
    expectError(function() expanded[method](expanded, 1, long{1}, matrix():reshape{1, 3, 4}) end,
                'share memory')
    testing.assertEqual(x, matrix())
  end
end)

testing.case('indexFill and its errors', function()
  for _, name in ipairs(TYPES) do
    local x = matrix(name)
    testing.assertTrue(rawequal(x:indexFill(2, long{4, 2}, 0), x))
    testing.assertEqual(x:val(), {{1, 0, 3, 0}, {5, 0, 7, 0}, {9, 0, 11, 0}}, name)
  end
  local x = matrix():transpose(1, 2)
  x:indexFill(2, long{3}, -1)
  testing.assertEqual(x:transpose(1, 2):val(), {{1, 2, 3, 4}, {5, 6, 7, 8}, {-1, -1, -1, -1}})
  local y = matrix('Int32Tensor')
  expectError(function() y:indexFill(2, long{1}, 0.5) end, "bad argument #3 to 'indexFill'",
              'Int32Tensor cannot hold 0.5')
  expectError(function() y:indexFill(2, long{1}, 'x') end, "bad argument #3 to 'indexFill'")
  expectError(function() y:indexFill(2, long{5}, 0) end, "bad argument #2 to 'indexFill'", '[1, 4]')
  expectError(function() y:indexFill(0, long{1}, 0) end, "bad argument #1 to 'indexFill'")
  expectError(function() byte{1}:indexFill(1, long{1}, -1) end, 'ByteTensor cannot hold -1')
  testing.assertEqual(y, matrix('Int32Tensor'))
end)

-- Torch7's gather example: 5 x 5, element (r, c) = 10 r + c.
local function grid()
  local g = tensor.DoubleTensor(5, 5)
  g:applyIndexed(function(_, i) return 10 * i[1] + i[2] end)
  return g
end

testing.case('gather along either dimension', function()
  testing.assertEqual(grid():gather(1, long{{1, 2, 3, 4, 5}, {2, 3, 4, 5, 1}}):val(),
                      {{11, 22, 33, 44, 55}, {21, 32, 43, 54, 15}})
  testing.assertEqual(grid():gather(2, long{{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 1}}):val(),
                      {{11, 12}, {22, 23}, {33, 34}, {44, 45}, {55, 51}})
  local indices = long{{1, 2, 3, 4, 5}, {5, 4, 3, 2, 1}}:transpose(1, 2)
  testing.assertEqual(grid():transpose(1, 2):gather(2, indices):val(),
                      {{11, 51}, {22, 42}, {33, 33}, {44, 24}, {55, 15}})
  testing.assertEqual(matrix('Int16Tensor'):gather(2, long{{4}, {3}, {2}}):val(), {{4}, {7}, {10}})
  testing.assertEqual(tensor.gather(grid(), 1, long{{5, 5, 5, 5, 5}}):val(), {{51, 52, 53, 54, 55}})
  local res = tensor.DoubleTensor(7)
  testing.assertTrue(rawequal(tensor.gather(res, grid(), 2, long{{1}, {1}, {1}, {1}, {1}}), res))
  testing.assertEqual(res:val(), {{11}, {21}, {31}, {41}, {51}})
end)

testing.case('gather errors', function()
  local g = grid()
  expectError(function() g:gather(3, long{{1}}) end, "bad argument #1 to 'gather'")
  expectError(function() g:gather(1, {1}) end, "bad argument #2 to 'gather'", 'tensor expected')
  expectError(function() g:gather(1, tensor.DoubleTensor{{1}}) end, "bad argument #2 to 'gather'")
  expectError(function() g:gather(1, long{1, 2, 3, 4, 5}) end, "'gather'", 'rank')
  expectError(function() g:gather(1, long{{1, 2, 3, 4}}) end, "'gather'", 'has shape [1, 4]')
  expectError(function() g:gather(2, long{{1}, {1}, {6}, {1}, {1}}) end,
              "bad argument #2 to 'gather'", 'index 6 at [3, 1]', '[1, 5]')
  expectError(function() tensor.gather(g, 1, long{{0, 1, 1, 1, 1}}) end,
              "bad argument #3 to 'gather'")
end)

testing.case('scatter a tensor or a value', function()
  local x = tensor.DoubleTensor{{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}}
  local y = tensor.DoubleTensor(3, 5)
  testing.assertTrue(rawequal(y:scatter(1, long{{1, 2, 3, 1, 1}, {3, 1, 1, 2, 3}}, x), y))
  testing.assertEqual(y:val(), {{1, 7, 8, 4, 5}, {0, 2, 0, 9, 0}, {6, 0, 3, 0, 10}})
  local z = tensor.Int32Tensor(2, 4):scatter(2, long{{3}, {4}}, 7)
  testing.assertEqual(z:val(), {{0, 0, 7, 0}, {0, 0, 0, 7}})
  local base = tensor.FloatTensor(3, 2)
  base:transpose(1, 2):scatter(2, long{{3}, {1}}, tensor.FloatTensor{{1, 2, 3}, {4, 5, 6}})
  testing.assertEqual(base:val(), {{0, 4}, {0, 0}, {1, 0}})
  local r = tensor.DoubleTensor{{1, 2, 3}}
  r:scatter(2, long{{2, 3, 1}}, r)  -- read in full first: a rotation
  testing.assertEqual(r:val(), {{3, 1, 2}})
  local m = tensor.DoubleTensor(2, 2)
  testing.assertTrue(rawequal(tensor.scatter(m, 1, long{{2, 1}}, 5), m))
  testing.assertEqual(m:val(), {{0, 5}, {5, 0}})
end)

testing.case('scatter errors change nothing', function()
  local y = tensor.Int32Tensor(3, 5)
  local idx = long{{1, 2, 3, 1, 1}, {3, 1, 1, 2, 3}}
  expectError(function() y:scatter(1, idx, tensor.Int32Tensor(1, 5)) end, "'scatter'", 'fewer')
  expectError(function() y:scatter(1, idx, tensor.Int32Tensor(2, 4)) end, "'scatter'",
              'the source has shape [2, 4]')
  expectError(function() y:scatter(1, idx, tensor.DoubleTensor(2, 5)) end,
              "bad argument #3 to 'scatter'", 'Int32Tensor expected')
  expectError(function() y:scatter(1, idx, 0.5) end, "bad argument #3 to 'scatter'",
              'cannot hold 0.5')
  expectError(function() y:scatter(1, idx, nil) end, "bad argument #3 to 'scatter'",
              'tensor or number expected, got nil')
  expectError(function() y:scatter(1, long{{4, 1, 1, 1, 1}}, 1) end, "bad argument #2 to 'scatter'",
              'index 4 at [1, 1]')
  expectError(function() y:scatter(1, long{1, 1}, 1) end, "'scatter'", 'rank')
  expectError(function() y:scatter(3, idx, 1) end, "bad argument #1 to 'scatter'")
  testing.assertEqual(y:sum(), 0)
end)

testing.case('maskedSelect pairs elements in row-major order', function()
  for _, name in ipairs(TYPES) do
    local x = matrix(name)
    local mask = byte{{1, 0, 1, 0, 0, 0}, {1, 1, 0, 0, 0, 1}}
    local y = x:maskedSelect(mask)
    testing.assertEqual(y:val(), {1, 3, 7, 8, 12}, name)
    testing.assertEqual(y:type(), x:type())
  end
  local t = matrix():transpose(1, 2)  -- 1 5 9 2 6 10 ...
  local mask = byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1}:reverse(1)
  testing.assertEqual(t:maskedSelect(mask):val(), {1, 5, 9})
  testing.assertEqual(matrix():maskedSelect(byte(12)):shape(), {0})
  testing.assertEqual(tensor.maskedSelect(matrix(), byte(12):fill(1)), matrix():reshape{12})
  local res = tensor.DoubleTensor()
  testing.assertTrue(rawequal(tensor.maskedSelect(res, matrix(), byte(12):fill(1)), res))
  testing.assertEqual(res:size(), 12)
end)

testing.case('mask errors: type, count, values', function()
  local x = matrix()
  for _, method in ipairs({'maskedSelect', 'maskedCopy', 'maskedFill'}) do
    local third = method == 'maskedCopy' and matrix() or 0
    local call = function(mask) return x[method](x, mask, third) end
    expectError(function() call(tensor.Int32Tensor(12)) end, "bad argument #1 to '" .. method,
                'ByteTensor expected, got dmlab.system.tensor.Int32Tensor')
    expectError(function() call(byte(11)) end, "'" .. method .. "'", 'same number')
    expectError(function() call(byte(12):fill(2)) end, "bad argument #1 to '" .. method,
                'the mask holds 2; a mask holds only 0 and 1')
    expectError(function() call('mask') end, "bad argument #1 to '" .. method, 'tensor expected')
  end
  testing.assertEqual(x, matrix())
end)

testing.case('maskedCopy and maskedFill', function()
  local y = tensor.DoubleTensor(2, 4):fill(-1)
  local mask = byte{{0, 0, 1, 1, 1, 0, 1, 0}}
  testing.assertTrue(rawequal(y:maskedCopy(mask, tensor.DoubleTensor{{1, 3, 5}, {2, 4, 6}}:t()), y))
  testing.assertEqual(y:val(), {{-1, -1, 1, 2}, {3, -1, 4, -1}})
  expectError(function() y:maskedCopy(byte(8):fill(1), tensor.DoubleTensor(3)) end,
              "'maskedCopy'", 'selects 8 elements, but the source has only 3')
  expectError(function() y:maskedCopy(mask, tensor.Int32Tensor(8)) end,
              "bad argument #2 to 'maskedCopy'", 'DoubleTensor expected')
  testing.assertEqual(y:val(), {{-1, -1, 1, 2}, {3, -1, 4, -1}})
  local b = byte{1, 0, 1, 1}
  b:maskedCopy(b:reverse(1), byte{7, 8, 9})  -- the mask is read in full first
  testing.assertEqual(b:val(), {7, 8, 1, 9})
  local x = tensor.Int16Tensor{{1, 2, 3, 4}}
  testing.assertTrue(rawequal(x:maskedFill(byte{{0, 0}, {1, 1}}, -1), x))
  testing.assertEqual(x:val(), {{1, 2, -1, -1}})
  x:t():maskedFill(byte{1, 0, 0, 0}, 9)
  testing.assertEqual(x:val(), {{9, 2, -1, -1}})
  expectError(function() x:maskedFill(byte(4), 0.5) end, "bad argument #2 to 'maskedFill'",
              'Int16Tensor cannot hold 0.5')
  local m = tensor.DoubleTensor(2)
  testing.assertTrue(rawequal(tensor.maskedFill(m, byte{0, 1}, 3), m))
  testing.assertEqual(m:val(), {0, 3})
  testing.assertEqual(tensor.maskedCopy(m, byte{1, 0}, tensor.DoubleTensor{5}):val(), {5, 3})
end)

testing.case('nonzero gives 1-based subscripts in row-major order', function()
  local x = tensor.Int32Tensor{{2, 0, 2}, {0, 0, 1}, {0, 2, 0}}
  local where = x:nonzero()
  testing.assertEqual(where:type(), 'dmlab.system.tensor.Int64Tensor')
  testing.assertEqual(where:val(), {{1, 1}, {1, 3}, {2, 3}, {3, 2}})
  testing.assertEqual(x:t():nonzero():val(), {{1, 1}, {2, 3}, {3, 1}, {3, 2}})
  testing.assertEqual(tensor.DoubleTensor{0, 0/0, 3}:nonzero():val(), {{2}, {3}})
  testing.assertEqual(tensor.FloatTensor(2, 3):nonzero():shape(), {0, 2})
  testing.assertEqual(tensor.nonzero(x):val(), where:val())
  local res = tensor.Int64Tensor()
  testing.assertTrue(rawequal(tensor.nonzero(res, x), res))
  testing.assertEqual(res:val(), where:val())
  expectError(function() tensor.nonzero(tensor.DoubleTensor(), x) end,
              "bad argument #1 to 'nonzero'",
              'res must be a Int64Tensor')
end)

testing.case('resize keeps the row-major values and zero-fills the rest', function()
  local x = matrix()
  testing.assertTrue(rawequal(x:resize(2, 7), x))
  testing.assertEqual(x:val(), {{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 0, 0}})
  x:resize{5}
  testing.assertEqual(x:val(), {1, 2, 3, 4, 5})
  x:resize(0)
  testing.assertEqual(x:shape(), {0})
  x:resize{}
  testing.assertEqual(x:shape(), {})
  local t = matrix():t()
  t:resize(12)
  testing.assertEqual(t:val(), {1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12})
  local same = matrix():t()
  same:resize(4, 3)
  testing.assertEqual(same:val(), matrix():t():val(), 'the same shape keeps the layout')
  local ints = tensor.ByteTensor{1, 2}:resizeAs(tensor.DoubleTensor(2, 2))
  testing.assertEqual(ints:val(), {{1, 2}, {0, 0}})
end)

testing.case('resize never changes what views see', function()
  local x = matrix()
  local row = x:select(1, 1)
  x:resize(2, 2)
  testing.assertEqual(x:val(), {{1, 2}, {3, 4}})
  x:fill(0)
  testing.assertEqual(row:val(), {1, 2, 3, 4}, 'the view keeps the old storage')
  local y = tensor.DoubleTensor{1, 2, 3}
  y:resize(2)
  local view = y:narrow(1, 2, 1)
  y:resize(3)
  testing.assertEqual(y:val(), {1, 2, 0})
  testing.assertEqual(view, tensor.DoubleTensor{2})
end)

testing.case('resize errors', function()
  local x = matrix()
  expectError(function() x:resize() end, "bad argument #1 to 'resize'",
              'extents or a table of extents')
  expectError(function() x:resize(-1) end, "bad argument #1 to 'resize'", 'at least 0')
  expectError(function() x:resize(2, 1/0) end, "bad argument #2 to 'resize'")
  expectError(function() x:resize{2, 'a'} end, "bad argument #1 to 'resize'", '[2]: ')
  expectError(function() x:resize({2}, 3) end, "bad argument #2 to 'resize'")
  expectError(function() x:resize(2 ^ 40, 2 ^ 40) end, "'resize'")
  expectError(function() x:resizeAs(5) end, "bad argument #1 to 'resizeAs'", 'tensor expected')
  testing.assertEqual(x, matrix())
end)

testing.case('resizing lent memory is an error naming the lender', function()
  host_test.lend('DoubleTensor', {2, 2}, 3, function(t)
    expectError(function() t:resize(4) end, "'resize'", LENDER, 'resize a clone instead')
    expectError(function() t:resizeAs(tensor.DoubleTensor(3)) end, "'resizeAs'", LENDER)
    testing.assertTrue(rawequal(t:resize(2, 2), t), 'the same shape is fine')
    testing.assertEqual(t:val(), {{3, 3}, {3, 3}})
  end)
end)

testing.case('zero, as a method and a module function', function()
  for _, name in ipairs(TYPES) do
    local x = matrix(name)
    testing.assertTrue(rawequal(x:zero(), x))
    testing.assertEqual(x:sum(), 0, name)
  end
  local x = matrix()
  x:t():narrow(1, 1, 2):zero()
  testing.assertEqual(x:val(), {{0, 0, 3, 4}, {0, 0, 7, 8}, {0, 0, 11, 12}})
  testing.assertTrue(rawequal(tensor.zero(x), x))
  testing.assertEqual(x:sum(), 0)
  local row = matrix():narrow(1, 1, 1)
  testing.assertEqual(row:expand(2, 4):zero():sum(), 0, 'an expanded view takes one value')
  testing.assertEqual(row:sum(), 0)
end)

testing.case('empty inputs', function()
  local empty = tensor.DoubleTensor()
  local noIndices = tensor.Int64Tensor():resize(0)
  testing.assertEqual(empty:maskedSelect(tensor.ByteTensor()):shape(), {0})
  testing.assertEqual(empty:nonzero():shape(), {0, 0})
  testing.assertTrue(rawequal(empty:maskedFill(tensor.ByteTensor(), 1), empty))
  testing.assertEqual(empty:zero():shape(), {})
  expectError(function() empty:index(1, noIndices) end, "bad argument #1 to 'index'",
              'the tensor is empty')
  expectError(function() empty:scatter(1, noIndices, 0) end, "bad argument #1 to 'scatter'")
  expectError(function() matrix():index(1, tensor.Int64Tensor()) end, "'index'", 'got shape []')
  local x = matrix()
  testing.assertTrue(rawequal(x:indexFill(1, noIndices, 7), x))
  testing.assertTrue(rawequal(x:indexCopy(2, noIndices, tensor.DoubleTensor(3, 1):resize(3, 0)), x))
  testing.assertEqual(x:gather(2, tensor.Int64Tensor():resize(3, 0)):shape(), {3, 0})
  testing.assertEqual(x, matrix())
  local zeroRows = tensor.DoubleTensor():resize(0, 3)
  testing.assertEqual(zeroRows:index(2, long{3, 1}):shape(), {0, 2})
  expectError(function() zeroRows:index(1, long{1}) end, 'the indexed dimension is empty')
end)

testing.case('an invalid tensor as self or argument is an error naming it', function()
  local bad = revoked()
  local badLong = revoked('Int64Tensor')
  local badByte = revoked('ByteTensor')
  local x = tensor.DoubleTensor(2, 2)
  local calls = {
    index = {function() bad:index(1, long{1}) end, function() x:index(1, badLong) end},
    indexCopy = {function() bad:indexCopy(1, long{1}, x:narrow(1, 1, 1)) end,
                 function() x:indexCopy(1, long{1, 2}, bad) end},
    indexAdd = {function() bad:indexAdd(1, long{1}, x:narrow(1, 1, 1)) end,
                function() x:indexAdd(1, badLong, x) end},
    indexFill = {function() bad:indexFill(1, long{1}, 0) end,
                 function() x:indexFill(1, badLong, 0) end},
    gather = {function() bad:gather(1, long{{1, 1}}) end, function() x:gather(1, badLong) end},
    scatter = {function() bad:scatter(1, long{{1, 1}}, 0) end,
               function() x:scatter(1, long{{1, 1}}, bad) end},
    maskedSelect = {function() bad:maskedSelect(byte(4)) end,
                    function() x:maskedSelect(badByte) end},
    maskedCopy = {function() bad:maskedCopy(byte(4), x) end,
                  function() x:maskedCopy(byte(4), bad) end},
    maskedFill = {function() bad:maskedFill(byte(4), 0) end,
                  function() x:maskedFill(badByte, 0) end},
    nonzero = {function() bad:nonzero() end},
    resize = {function() bad:resize(4) end},
    resizeAs = {function() bad:resizeAs(x) end, function() x:resizeAs(bad) end},
    zero = {function() bad:zero() end},
  }
  local count = 0
  for method, fns in pairs(calls) do
    expectError(fns[1], 'invalid', 'dmlab.system.tensor.DoubleTensor:' .. method, LENDER)
    if fns[2] then
      expectError(fns[2], "bad argument #", "to '" .. method .. "'", 'invalid', LENDER)
    end
    count = count + 1
  end
  testing.assertEqual(count, 13)
  testing.assertEqual(x:val(), {{0, 0}, {0, 0}})
end)

testing.run()
