-- BLAS products: mm, mv, ger, bmm, addmm, addmv, addr, addbmm, baddbmm, as
-- methods (writing into self) and module functions ([res,] forms).
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains
local LENDER = 'host_test.lend buffer'

local TYPES = {'DoubleTensor', 'FloatTensor', 'Int32Tensor', 'Int64Tensor', 'Int16Tensor',
               'CharTensor', 'ByteTensor'}

-- A rows x cols table of small values (0..3, so every type holds them).
local function values(rows, cols, seed)
  local t = {}
  for i = 1, rows do
    t[i] = {}
    for j = 1, cols do t[i][j] = ((i * 5 + j * 3 + seed) % 7) % 4 end
  end
  return t
end

-- The same matrix stored transposed, narrowed out of a larger one, and
-- with its rows reversed: views the products must read as they are.
local function layouts(T, rows, cols, seed)
  local m = values(rows, cols, seed)
  local transposedStorage = tensor[T](cols, rows)
  local big = tensor[T](rows + 2, cols + 3):fill(3)
  local reversedStorage = tensor[T](rows, cols)
  local transposed = transposedStorage:transpose(1, 2):copy(tensor[T](m))
  local narrowed = big:narrow(1, 2, rows):narrow(2, 3, cols):copy(tensor[T](m))
  local reversed = reversedStorage:reverse(1):copy(tensor[T](m))
  return {contiguous = tensor[T](m), transposed = transposed, narrowed = narrowed,
          reversed = reversed}, m
end

local function product(a, b)
  local c = {}
  for i = 1, #a do
    c[i] = {}
    for j = 1, #b[1] do
      local s = 0
      for k = 1, #b do s = s + a[i][k] * b[k][j] end
      c[i][j] = s
    end
  end
  return c
end

testing.case('mm matches the naive product for every type and layout, both forms', function()
  for _, T in ipairs(TYPES) do
    local lhs, a = layouts(T, 3, 4, 1)
    local rhs, b = layouts(T, 4, 2, 2)
    local expected = product(a, b)
    for lname, l in pairs(lhs) do
      for rname, r in pairs(rhs) do
        local what = T .. ' ' .. lname .. ' . ' .. rname
        testing.assertEqual(tensor.mm(l, r):val(), expected, what)
        local res = tensor[T]()
        testing.assertTrue(rawequal(res:mm(l, r), res), what)
        testing.assertEqual(res:val(), expected, what)
        local out = tensor[T](2, 3):t()  -- a transposed destination
        testing.assertTrue(rawequal(tensor.mm(out, l, r), out), what)
        testing.assertEqual(out:val(), expected, what)
      end
    end
  end
end)

testing.case('mv, ger and bmm, both forms', function()
  for _, T in ipairs({'DoubleTensor', 'FloatTensor', 'Int32Tensor', 'ByteTensor'}) do
    local m = tensor[T]{{1, 2, 3}, {3, 2, 1}}
    local v = tensor[T]{1, 0, 2}
    testing.assertEqual(tensor.mv(m, v):val(), {7, 5}, T)
    testing.assertEqual(tensor.mv(m:t():t(), v:reverse(1)):val(), {5, 7}, T)
    local y = tensor[T](2)
    testing.assertTrue(rawequal(y:mv(m, v), y))
    testing.assertEqual(y:val(), {7, 5}, T)
    testing.assertEqual(tensor.ger(tensor[T]{1, 2}, v):val(), {{1, 0, 2}, {2, 0, 4}}, T)
    local outer = tensor[T](3, 2)
    tensor.ger(outer, v, tensor[T]{1, 2})
    testing.assertEqual(outer:val(), {{1, 2}, {0, 0}, {2, 4}}, T)
    local b1 = tensor[T]{{{1, 2}, {3, 0}}, {{0, 1}, {1, 0}}}
    local b2 = tensor[T]{{{1, 0}, {0, 1}}, {{2, 3}, {1, 1}}}
    local bmm = {{{1, 2}, {3, 0}}, {{1, 1}, {2, 3}}}
    testing.assertEqual(tensor.bmm(b1, b2):val(), bmm, T)
    local r = tensor[T](1)
    testing.assertTrue(rawequal(r:bmm(b1, b2), r))
    testing.assertEqual(r:val(), bmm, T)
    -- Each matrix of a batch transposed in storage.
    testing.assertEqual(tensor.bmm(b1, b2:transpose(2, 3):clone():transpose(2, 3)):val(), bmm)
  end
end)

testing.case('addmm: every argument form of Torch7', function()
  local a = tensor.DoubleTensor{{1, 2}, {3, 4}}
  local b = tensor.DoubleTensor{{1, 0}, {1, 1}}   -- a . b = {{3, 2}, {7, 4}}
  local function M() return tensor.DoubleTensor{{1, 1}, {1, 1}} end
  local m = M()
  testing.assertTrue(rawequal(m:addmm(a, b), m))                       -- M = M + a.b
  testing.assertEqual(m:val(), {{4, 3}, {8, 5}})
  local r = tensor.DoubleTensor()
  testing.assertTrue(rawequal(r:addmm(M(), a, b), r))                  -- r = M + a.b
  testing.assertEqual(r:val(), {{4, 3}, {8, 5}})
  r:addmm(2, M(), 3, a, b)                                             -- r = 2M + 3a.b
  testing.assertEqual(r:val(), {{11, 8}, {23, 14}})
  m = M():addmm(2, 3, a, b)                                            -- M = 2M + 3a.b
  testing.assertEqual(m:val(), {{11, 8}, {23, 14}})
  m = M():addmm(3, a, b)                                               -- M = M + 3a.b
  testing.assertEqual(m:val(), {{10, 7}, {22, 13}})
  m = M():addmm(M(), 3, a, b)                                          -- M = M2 + 3a.b
  testing.assertEqual(m:val(), {{10, 7}, {22, 13}})
  m = M():addmm(0.5, M(), a, b)                                        -- M = 0.5 M2 + a.b
  testing.assertEqual(m:val(), {{3.5, 2.5}, {7.5, 4.5}})
  -- Module forms.
  local source = M()
  local new = tensor.addmm(source, a, b)
  testing.assertEqual(new:val(), {{4, 3}, {8, 5}})
  testing.assertEqual(source:val(), {{1, 1}, {1, 1}}, 'M is not changed')
  testing.assertEqual(tensor.addmm(2, M(), 3, a, b):val(), {{11, 8}, {23, 14}})
  testing.assertEqual(tensor.addmm(M(), 3, a, b):val(), {{10, 7}, {22, 13}})
  testing.assertEqual(tensor.addmm(0, M(), a, b):val(), {{3, 2}, {7, 4}})
  r = tensor.DoubleTensor(5)
  testing.assertTrue(rawequal(tensor.addmm(r, M(), a, b), r))
  testing.assertEqual(r:val(), {{4, 3}, {8, 5}})
  tensor.addmm(r, 2, M(), 3, a, b)
  testing.assertEqual(r:val(), {{11, 8}, {23, 14}})
  -- Transposed operands and destination.
  local mt = M()
  mt:t():addmm(a:t(), b:t())
  testing.assertEqual(mt:val(), {{2, 3}, {5, 7}})
end)

testing.case('addmv and addr: the reference examples', function()
  local x = tensor.DoubleTensor(3):fill(0)
  local M = tensor.DoubleTensor(3, 2):fill(3)
  local y = tensor.DoubleTensor(2):fill(2)
  x:addmv(M, y)
  testing.assertEqual(x:val(), {12, 12, 12})
  testing.assertEqual(tensor.addmv(x, M, y):val(), {24, 24, 24})
  testing.assertEqual(x:val(), {12, 12, 12})
  x:addmv(0.5, M, y)                                     -- x = x + 0.5 M.y
  testing.assertEqual(x:val(), {18, 18, 18})
  x:addmv(0.5, 2, M, y)                                  -- x = 0.5 x + 2 M.y
  testing.assertEqual(x:val(), {33, 33, 33})
  local r = tensor.DoubleTensor()
  r:addmv(tensor.DoubleTensor{1, 2, 3}, 2, M, y)
  testing.assertEqual(r:val(), {25, 26, 27})
  tensor.addmv(r, 0, r, 1, M, y)
  testing.assertEqual(r:val(), {12, 12, 12})

  local v1 = tensor.DoubleTensor{1, 2, 3}
  local v2 = tensor.DoubleTensor{1, 2}
  local m = tensor.DoubleTensor(3, 2):zero()
  m:addr(v1, v2)
  testing.assertEqual(m:val(), {{1, 2}, {2, 4}, {3, 6}})
  m:addr(2, 1, v1, v2)
  testing.assertEqual(m:val(), {{3, 6}, {6, 12}, {9, 18}})
  local A = tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}
  m:addr(2, A, 1, v1, v2)
  testing.assertEqual(m:val(), {{3, 6}, {8, 12}, {13, 18}})
  testing.assertEqual(tensor.addr(A, v1, v2):val(), {{2, 4}, {5, 8}, {8, 12}})
  testing.assertEqual(tensor.addr(A:t(), 2, v2, v1):val(), {{3, 7, 11}, {6, 12, 18}})
end)

testing.case('addbmm sums the batch; baddbmm adds per matrix', function()
  local b1 = tensor.DoubleTensor{{{1, 2}, {3, 0}}, {{0, 1}, {1, 0}}}
  local b2 = tensor.DoubleTensor{{{1, 0}, {0, 1}}, {{2, 3}, {1, 1}}}
  local m = tensor.DoubleTensor{{1, 1}, {1, 1}}
  testing.assertEqual(tensor.addbmm(m, b1, b2):val(), {{3, 4}, {6, 4}})
  testing.assertEqual(tensor.addbmm(2, m, 0.5, b1, b2):val(), {{3, 3.5}, {4.5, 3.5}})
  local r = tensor.DoubleTensor()
  r:addbmm(m, b1, b2)
  testing.assertEqual(r:val(), {{3, 4}, {6, 4}})
  local mb = tensor.DoubleTensor(2, 2, 2):fill(1)
  testing.assertEqual(tensor.baddbmm(mb, b1, b2):val(),
                      {{{2, 3}, {4, 1}}, {{2, 2}, {3, 4}}})
  mb:baddbmm(0, 2, b1, b2)
  testing.assertEqual(mb:val(), {{{2, 4}, {6, 0}}, {{2, 2}, {4, 6}}})
  local ib = tensor.Int32Tensor(2, 2, 2):fill(1)
  ib:baddbmm(2, b1:int32(), b2:int32())
  testing.assertEqual(ib:val(), {{{3, 5}, {7, 1}}, {{3, 3}, {5, 7}}})
end)

testing.case('a destination that is also an operand gets the right result', function()
  local a = tensor.DoubleTensor{{1, 2}, {3, 4}}
  a:mm(a, a)
  testing.assertEqual(a:val(), {{7, 10}, {15, 22}})
  local b = tensor.Int32Tensor{{1, 2}, {3, 4}}
  b:addmm(b, b:t())
  testing.assertEqual(b:val(), {{6, 13}, {14, 29}})
  local v = tensor.FloatTensor{1, 2}
  v:mv(tensor.FloatTensor{{0, 1}, {1, 0}}, v)
  testing.assertEqual(v:val(), {2, 1})
  local f = tensor.FloatTensor{{1, 2}, {3, 4}}
  tensor.addr(f, f, f:select(1, 1), f:select(2, 2))
  testing.assertEqual(f:val(), {{3, 6}, {7, 12}})
end)

testing.case('empty inner dimensions give beta times M; empty results are empty', function()
  local m = tensor.DoubleTensor{{1, 2}, {3, 4}}
  local function empty(...) return tensor.DoubleTensor(1):resize(...) end
  m:addmm(2, 1, empty(2, 0), empty(0, 2))
  testing.assertEqual(m:val(), {{2, 4}, {6, 8}})
  testing.assertEqual(tensor.mm(empty(2, 0), empty(0, 2)):val(), {{0, 0}, {0, 0}})
  testing.assertEqual(tensor.mv(empty(2, 0), empty(0)):val(), {0, 0})
  testing.assertEqual(tensor.addbmm(m, empty(0, 2, 3), empty(0, 3, 2)):val(), {{2, 4}, {6, 8}})
  testing.assertEqual(tensor.mm(empty(0, 3), tensor.DoubleTensor(3, 2)):shape(), {0, 2})
  testing.assertEqual(tensor.ger(empty(0), tensor.DoubleTensor(2)):shape(), {0, 2})
end)

testing.case('integer types: whole scalars that fit; sums wrap', function()
  local i = tensor.Int32Tensor{{1, 2}, {3, 4}}
  testing.assertEqual(tensor.addmm(2, i, -1, i, i):val(), {{-5, -6}, {-9, -14}})
  expectError(function() i:addmm(0.5, i, i) end, "'addmm': alpha 0.5 is not a value of int32")
  expectError(function() tensor.addmm(0.5, i, i, i) end,
              "'addmm': beta 0.5 is not a value of int32")
  local bytes = tensor.ByteTensor{{200, 100}}
  testing.assertEqual(tensor.mm(bytes, tensor.ByteTensor{{2}, {1}}):val(), {{244}})
  local one = tensor.ByteTensor{1}
  expectError(function() one:addmv(-1, tensor.ByteTensor{{1}}, one) end,
              "'addmv': alpha -1 is not a value of uint8")
  testing.assertEqual(tensor.FloatTensor{{1, 2}}:addmm(0.5, tensor.FloatTensor{{1}},
                                                       tensor.FloatTensor{{1, 1}}):val(),
                      {{1.5, 2.5}})
end)

testing.case('a lent destination is written in place, never resized', function()
  host_test.lend('DoubleTensor', {2, 2}, 0, function(t)
    local eye = tensor.DoubleTensor{{1, 0}, {0, 1}}
    testing.assertTrue(rawequal(t:mm(tensor.DoubleTensor{{1, 2}, {3, 4}}, eye), t))
    testing.assertEqual(t:val(), {{1, 2}, {3, 4}})
    tensor.ger(t, tensor.DoubleTensor{1, 2}, tensor.DoubleTensor{1, 1})
    testing.assertEqual(t:val(), {{1, 1}, {2, 2}})
    expectError(function() t:mv(tensor.DoubleTensor{{1}}, tensor.DoubleTensor{1}) end,
                "'mv': self has shape [2, 2], the result [1], and it cannot be resized: " ..
                "its memory is lent")
    expectError(function() tensor.mm(t, tensor.DoubleTensor{{1}}, tensor.DoubleTensor{{1}}) end,
                "bad argument #1 to 'mm' (res has shape [2, 2], the result [1, 1], " ..
                "and it cannot be resized")
    testing.assertEqual(t:val(), {{1, 1}, {2, 2}})
  end)
end)

testing.case('shape, rank and type errors name the function and the operands', function()
  local m23 = tensor.DoubleTensor(2, 3)
  local v2 = tensor.DoubleTensor(2)
  expectError(function() tensor.mm(m23, m23) end,
              "'mm': mat1 [2, 3] and mat2 [2, 3] do not fit: mat1 has 3 columns, mat2 2 rows")
  expectError(function() m23:mm(v2, m23) end, "'mm': mat1 must be a matrix (rank 2), got shape [2]")
  expectError(function() tensor.mv(m23, v2) end,
              "'mv': mat [2, 3] and vec [2] do not fit: mat has 3 columns, vec 2 entries")
  expectError(function() tensor.ger(m23, v2) end,
              "'ger': vec1 must be a vector (rank 1), got shape [2, 3]")
  expectError(function() tensor.bmm(tensor.DoubleTensor(2, 2, 2), tensor.DoubleTensor(3, 2, 2)) end,
              "'bmm': batch1 [2, 2, 2] and batch2 [3, 2, 2] hold 2 and 3 matrices")
  expectError(function() tensor.addbmm(m23, m23, m23) end,
              "'addbmm': batch1 must be a batch of matrices (rank 3), got shape [2, 3]")
  expectError(function() tensor.addmm(v2, m23, m23:t()) end,
              "'addmm': M [2] does not match the product's shape [2, 2]")
  expectError(function() m23:addmm(m23, m23:t()) end,
              "'addmm': M [2, 3] does not match the product's shape [2, 2]")
  expectError(function() tensor.mm(m23, tensor.FloatTensor(3, 2)) end,
              "'mm': the tensors are float64 and float32; they must have the same type")
  expectError(function() tensor.FloatTensor(2, 2):mm(m23, m23:t()) end,
              "'mm': the tensors are float32 and float64")
  expectError(function() tensor.addmm(tensor.FloatTensor(2, 2), m23, m23:t()) end,
              "'addmm': the tensors are float32 and float64")
  expectError(function() tensor.DoubleTensor(1, 2):expand(2, 2):mm(m23, m23:t()) end,
              "'mm': several elements of the destination share memory")
end)

testing.case('argument errors are numbered as each form counts', function()
  local m = tensor.DoubleTensor(2, 2)
  expectError(function() m:mm(m) end, "bad argument #2 to 'mm' (tensor expected, got no value)")
  expectError(function() m:mm(1, m) end, "bad argument #1 to 'mm' (tensor expected, got number")
  expectError(function() m:mm(m, m, m) end, "bad argument #3 to 'mm' (no value expected, got ")
  expectError(function() tensor.mm(m, 'x') end,
              "bad argument #2 to 'mm' (tensor expected, got string")
  expectError(function() tensor.mm(m, m, 2) end,
              "bad argument #3 to 'mm' (tensor expected, got number")
  expectError(function() tensor.mv(m, m, m, m) end, "bad argument #4 to 'mv' (no value expected")
  expectError(function() m:addmm(m, 2) end,
              "bad argument #2 to 'addmm' (tensor expected, got number")
  expectError(function() m:addmm(1, 2, 3, m, m) end,
              "bad argument #3 to 'addmm' (unexpected number; the arguments are " ..
              "self:addmm([v1,] [M,] [v2,] mat1, mat2))")
  expectError(function() m:addmm('a', m, m) end, "bad argument #1 to 'addmm' (unexpected string")
  expectError(function() tensor.addmm(1, m, m) end,
              "bad argument #2 to 'addmm' (M expected; the arguments are " ..
              "tensor.addmm([res,] [v1,] M, [v2,] mat1, mat2))")
  expectError(function() tensor.addr(m, 2, 3, m, m) end,
              "bad argument #3 to 'addr' (unexpected number; the arguments are " ..
              "tensor.addr([res,] [v1,] mat, [v2,] vec1, vec2))")
  expectError(function() tensor.addmv(m, m, m, m, m) end, "bad argument #3 to 'addmv' (unexpected")
  expectError(function() m.mm(1, m) end, "calling 'mm' on bad self")
end)

testing.case('an invalid tensor as self, operand, add term or res is an error', function()
  local stash
  host_test.lend('DoubleTensor', {2, 2}, 0, function(t) stash = t end)
  local m = tensor.DoubleTensor{{1, 2}, {3, 4}}
  local before = m:val()
  local names = {'mm', 'mv', 'ger', 'bmm', 'addmm', 'addmv', 'addr', 'addbmm', 'baddbmm'}
  for _, name in ipairs(names) do
    expectError(function() stash[name](stash, m, m) end,
                'DoubleTensor:' .. name .. "'", 'invalid', LENDER)
  end
  expectError(function() m:mm(stash, m) end, "bad argument #1 to 'mm'", 'invalid', LENDER)
  expectError(function() m:mm(m, stash) end, "bad argument #2 to 'mm'", 'invalid', LENDER)
  expectError(function() m:addmm(stash, m, m) end, "bad argument #1 to 'addmm'", 'invalid', LENDER)
  expectError(function() tensor.mm(stash, m, m) end, "bad argument #1 to 'mm'", 'invalid', LENDER)
  expectError(function() tensor.mm(m, stash) end, "bad argument #2 to 'mm'", 'invalid', LENDER)
  expectError(function() tensor.addmm(stash, m, m, m) end, "bad argument #1 to 'addmm'", 'invalid')
  expectError(function() tensor.addmm(m, 2, stash, m, m) end,
              "bad argument #3 to 'addmm'", 'invalid')
  expectError(function() tensor.addr(2, stash, 3, m, m) end, "bad argument #2 to 'addr'", 'invalid')
  testing.assertEqual(m:val(), before)
end)

testing.run()
