-- LAPACK: gesv, trtrs, gels, inverse, potrf, pstrf, potrs, potri, symeig, eig,
-- svd, qr. Results are checked by their defining identities on random
-- well-conditioned matrices, in contiguous, transposed and reversed
-- layouts, as methods and as module functions.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains
local FLOATING = {'FloatTensor', 'DoubleTensor'}
local INTEGER = {'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor', 'Int64Tensor'}

-- A deterministic rows x cols table of values in [-1, 1], plus `diagonal`
-- on the diagonal.
local seed = 12345
local function randomTable(rows, cols, diagonal)
  local t = {}
  for i = 1, rows do
    t[i] = {}
    for j = 1, cols do
      seed = (seed * 1103515245 + 12345) % 2147483648
      t[i][j] = seed / 1073741824 - 1 + (i == j and (diagonal or 0) or 0)
    end
  end
  return t
end

-- The values of `t` in three layouts: contiguous, a transposed view of
-- column-major storage, and rows reversed (a negative stride).
local function layouts(typeName, values)
  local rows, cols = #values, #values[1]
  local transposed, reversed = {}, {}
  for j = 1, cols do
    transposed[j] = {}
    for i = 1, rows do transposed[j][i] = values[i][j] end
  end
  for i = 1, rows do reversed[i] = values[rows + 1 - i] end
  local T = tensor[typeName]
  return {
    contiguous = T(values),
    transposed = T(transposed):transpose(1, 2),
    reversed = T(reversed):reverse(1),
  }
end

local function maxDifference(a, b)
  local va, vb = a:val(), b:val()
  testing.assertEqual(a:shape(), b:shape(), 'shapes')
  local worst = 0
  for i = 1, #va do
    for j = 1, #va[i] do worst = math.max(worst, math.abs(va[i][j] - vb[i][j])) end
  end
  return worst
end

local function assertNear(a, b, typeName, message)
  local tolerance = typeName == 'FloatTensor' and 2e-3 or 1e-9
  local difference = maxDifference(a, b)
  if difference > tolerance then
    error((message or 'values') .. ': differ by ' .. difference, 2)
  end
end

local function identity(typeName, n)
  local t = tensor[typeName](n, n)
  for i = 1, n do t(i, i):fill(1) end
  return t
end

-- Column j of v scaled by e[j]: v diag(e).
local function scaleColumns(v, e)
  local scaled = v:clone()
  for j = 1, v:shape()[2] do scaled:narrow(2, j, 1):mul(e[j]) end
  return scaled
end

local function forEachCase(fn)
  for _, typeName in ipairs(FLOATING) do
    for layoutName in pairs({contiguous = 1, transposed = 1, reversed = 1}) do
      fn(typeName, layoutName)
    end
  end
end

testing.case('gesv solves A X = B and leaves its inputs', function()
  forEachCase(function(typeName, layout)
    local aValues, bValues = randomTable(4, 4, 3), randomTable(4, 2)
    local a, b = layouts(typeName, aValues)[layout], layouts(typeName, bValues)[layout]
    local x, lu = b:gesv(a)
    assertNear(a:mmul(x), b, typeName, typeName .. ' ' .. layout)
    testing.assertEqual(lu:shape(), {4, 4})
    local x2, lu2 = tensor.gesv(b, a)
    testing.assertEqual(x2, x)
    testing.assertEqual(lu2, lu)
    testing.assertEqual(a:val(), tensor[typeName](aValues):val(), 'a unchanged')
    testing.assertEqual(b:val(), tensor[typeName](bValues):val(), 'b unchanged')
  end)
  local x = tensor.DoubleTensor{2, 3}:gesv(tensor.DoubleTensor{{2, 0}, {0, 3}})
  testing.assertEqual(x:val(), {{1}, {1}}, 'a vector B is one column')
end)

testing.case('trtrs reads one triangle, transposes, unit diagonal', function()
  forEachCase(function(typeName, layout)
    local a = layouts(typeName, randomTable(4, 4, 3))[layout]
    local b = layouts(typeName, randomTable(4, 3))[layout]
    local upper, lower = a:clone(), a:clone()
    for i = 1, 4 do
      for j = 1, 4 do
        if i > j then upper(i, j):fill(0) end
        if i < j then lower(i, j):fill(0) end
      end
    end
    assertNear(upper:mmul(b:trtrs(a)), b, typeName, 'U N')
    assertNear(upper:mmul(tensor.trtrs(b, a, 'U', 'N', 'N')), b, typeName, 'U N N')
    assertNear(lower:mmul(b:trtrs(a, 'L')), b, typeName, 'L')
    assertNear(upper:transpose(1, 2):mmul(b:trtrs(a, nil, 'T')), b, typeName, 'U T')
    local unit = upper:clone()
    for i = 1, 4 do unit(i, i):fill(1) end
    assertNear(unit:mmul(tensor.trtrs(b, a, 'U', 'N', 'U')), b, typeName, 'unit')
  end)
end)

testing.case('gels: least squares and least norm', function()
  forEachCase(function(typeName, layout)
    local tall = layouts(typeName, randomTable(6, 3, 2))[layout]
    local b = layouts(typeName, randomTable(6, 2))[layout]
    local x, factored = b:gels(tall)
    testing.assertEqual(x:shape(), {6, 2})
    testing.assertEqual(factored:shape(), {6, 3})
    local residual = tall:mmul(x:narrow(1, 1, 3)):csub(b)
    assertNear(tall:transpose(1, 2):mmul(residual), tensor[typeName](3, 2), typeName,
               'the residual is orthogonal to the columns')
    local wide = layouts(typeName, randomTable(2, 4, 2))[layout]
    local c = layouts(typeName, randomTable(2, 3))[layout]
    local y = tensor.gels(c, wide)
    testing.assertEqual(y:shape(), {4, 3})
    assertNear(wide:mmul(y), c, typeName, 'least norm solves')
  end)
end)

testing.case('inverse: method, module function and res', function()
  forEachCase(function(typeName, layout)
    local a = layouts(typeName, randomTable(5, 5, 3))[layout]
    assertNear(a:mmul(a:inverse()), identity(typeName, 5), typeName, layout)
    assertNear(tensor.inverse(a):mmul(a), identity(typeName, 5), typeName, layout)
    local res = tensor[typeName](1)
    testing.assertTrue(rawequal(tensor.inverse(res, a), res))
    testing.assertEqual(res, a:inverse())
  end)
end)

testing.case('potrf, potrs, potri: Cholesky factor, solve and inverse', function()
  forEachCase(function(typeName, layout)
    local r = tensor[typeName](randomTable(4, 4))
    local a = r:transpose(1, 2):mmul(r):add(0):cadd(identity(typeName, 4):mul(4))
    a = layouts(typeName, a:val())[layout]
    local b = layouts(typeName, randomTable(4, 2))[layout]
    local u = a:potrf()
    assertNear(u:transpose(1, 2):mmul(u), a, typeName, 'U^T U')
    testing.assertEqual(u(2, 1):val(), 0)
    local l = tensor.potrf(a, 'L')
    assertNear(l:mmul(l:transpose(1, 2)), a, typeName, 'L L^T')
    testing.assertEqual(l(1, 2):val(), 0)
    assertNear(a:mmul(b:potrs(u)), b, typeName, 'potrs U')
    assertNear(a:mmul(tensor.potrs(b, l, 'L')), b, typeName, 'potrs L')
    assertNear(a:mmul(u:potri()), identity(typeName, 4), typeName, 'potri U')
    assertNear(tensor.potri(l, 'L'):mmul(a), identity(typeName, 4), typeName, 'potri L')
    local res = tensor[typeName](4, 4)
    testing.assertTrue(rawequal(tensor.potrf(res, a, 'L'), res))
    testing.assertEqual(res, l)
  end)
end)

-- P^T A P from A and pstrf's pivots: row and column k of the result are
-- row and column piv[k] of A.
local function permuted(a, piv)
  local n = piv:size()
  local out = a:clone()
  for i = 1, n do
    for j = 1, n do out(i, j):val(a(piv(i):val(), piv(j):val()):val()) end
  end
  return out
end

testing.case('pstrf: P^T A P = U^T U (or L L^T), pivots 1-based, semidefinite refused', function()
  forEachCase(function(typeName, layout)
    local r = tensor[typeName](randomTable(4, 4))
    local a = r:transpose(1, 2):mmul(r):cadd(identity(typeName, 4):mul(4))
    a = layouts(typeName, a:val())[layout]
    local u, piv = a:pstrf()
    testing.assertEqual(piv:type(), 'dmlab.system.tensor.Int32Tensor')
    testing.assertEqual(piv:clone():sort():val(), {1, 2, 3, 4}, 'a permutation')
    assertNear(u:transpose(1, 2):mmul(u), permuted(a, piv), typeName, 'U^T U')
    testing.assertEqual(u(2, 1):val(), 0)
    local l, lpiv = tensor.pstrf(a, 'L')
    assertNear(l:mmul(l:transpose(1, 2)), permuted(a, lpiv), typeName, 'L L^T')
    testing.assertEqual(l(1, 2):val(), 0)
  end)
  -- The largest diagonal element leads.
  local _, piv = tensor.DoubleTensor{{1, 0}, {0, 9}}:pstrf()
  testing.assertEqual(piv:val(), {2, 1})
  expectError(function() tensor.DoubleTensor{{1, 1}, {1, 1}}:pstrf() end,
              "'pstrf'", 'not positive definite (its rank is 1, not 2)')
  expectError(function() tensor.DoubleTensor(2, 3):pstrf() end, "'pstrf'")
  expectError(function() tensor.DoubleTensor{{1}}:pstrf('X') end, "'pstrf'")
end)

testing.case('symeig: A V = V diag(e), ascending, one triangle', function()
  forEachCase(function(typeName, layout)
    local r = tensor[typeName](randomTable(4, 4))
    local a = r:transpose(1, 2):mmul(r)
    local e = a:symeig()
    testing.assertEqual(e:shape(), {4})
    local e2, v = tensor.symeig(layouts(typeName, a:val())[layout], 'V')
    assertNear(e2:reshape{1, 4}, e:reshape{1, 4}, typeName, 'same values')
    local values = e2:val()
    for i = 2, 4 do testing.assertTrue(values[i - 1] <= values[i], 'ascending') end
    assertNear(a:mmul(v), scaleColumns(v, values), typeName, 'A V = V diag(e)')
    assertNear(v:transpose(1, 2):mmul(v), identity(typeName, 4), typeName, 'orthogonal')
    local lowerOnly = a:clone()
    for i = 1, 3 do lowerOnly:narrow(1, i, 1):narrow(2, i + 1, 4 - i):fill(1e30) end
    local e3 = lowerOnly:symeig('N', 'L')
    assertNear(e3:reshape{1, 4}, e:reshape{1, 4}, typeName, 'lower triangle only')
  end)
end)

testing.case('eig: real and complex eigenvalues', function()
  forEachCase(function(typeName, layout)
    local r = tensor[typeName](randomTable(3, 3))
    local a = layouts(typeName, r:transpose(1, 2):mmul(r):val())[layout]
    local e, v = a:eig('V')
    testing.assertEqual(e:shape(), {3, 2})
    local real = {}
    for i = 1, 3 do
      real[i] = e(i, 1):val()
      testing.assertEqual(e(i, 2):val(), 0)
    end
    assertNear(a:mmul(v), scaleColumns(v, real), typeName, 'A V = V diag(e)')
    local rotation = layouts(typeName, {{0, -1}, {1, 0}})[layout]
    local pair = tensor.eig(rotation)
    assertNear(pair, tensor[typeName]{{0, 1}, {0, -1}}, typeName, '+-i')
  end)
end)

testing.case('svd: U diag(S) V^T = A, reduced and full', function()
  forEachCase(function(typeName, layout)
    for _, size in ipairs({{5, 3}, {3, 4}}) do
      local a = layouts(typeName, randomTable(size[1], size[2]))[layout]
      local p = math.min(size[1], size[2])
      local u, s, v = a:svd()
      testing.assertEqual({u:shape(), s:shape(), v:shape()},
                          {{size[1], p}, {p}, {size[2], p}})
      assertNear(scaleColumns(u, s:val()):mmul(v:transpose(1, 2)), a, typeName, 'U S V^T')
      local uAll, sAll, vAll = tensor.svd(a, 'A')
      testing.assertEqual({uAll:shape(), vAll:shape()}, {{size[1], size[1]}, {size[2], size[2]}})
      assertNear(uAll:transpose(1, 2):mmul(uAll), identity(typeName, size[1]), typeName, 'U')
      assertNear(vAll:transpose(1, 2):mmul(vAll), identity(typeName, size[2]), typeName, 'V')
      assertNear(sAll:reshape{1, p}, s:reshape{1, p}, typeName, 'S')
    end
  end)
end)

testing.case('qr: Q R = A, Q orthonormal, R upper triangular', function()
  forEachCase(function(typeName, layout)
    for _, size in ipairs({{5, 3}, {3, 5}}) do
      local a = layouts(typeName, randomTable(size[1], size[2]))[layout]
      local q, r = a:qr()
      local k = math.min(size[1], size[2])
      testing.assertEqual({q:shape(), r:shape()}, {{size[1], k}, {k, size[2]}})
      assertNear(q:mmul(r), a, typeName, 'Q R')
      assertNear(q:transpose(1, 2):mmul(q), identity(typeName, k), typeName, 'Q^T Q')
      testing.assertEqual(r(2, 1):val(), 0)
      local q2, r2 = tensor.qr(a)
      testing.assertEqual({q2, r2}, {q, r})
    end
  end)
end)

-- Every function, called as a method on `self` with `args`.
local function calls(square, b)
  return {
    gesv = function() return b:gesv(square) end,
    trtrs = function() return b:trtrs(square) end,
    gels = function() return b:gels(square) end,
    inverse = function() return square:inverse() end,
    potrf = function() return square:potrf() end,
    potrs = function() return b:potrs(square) end,
    potri = function() return square:potri() end,
    symeig = function() return square:symeig() end,
    eig = function() return square:eig() end,
    svd = function() return square:svd() end,
    qr = function() return square:qr() end,
  }
end

testing.case('integer types are errors naming the type', function()
  for _, typeName in ipairs(INTEGER) do
    for name, call in pairs(calls(tensor[typeName]{{1, 0}, {0, 1}}, tensor[typeName]{{1}, {1}})) do
      expectError(call, "'" .. name .. "'", 'not defined for ' .. typeName)
    end
  end
  expectError(function() tensor.inverse(tensor.Int64Tensor{{1}}) end,
              "'inverse': not defined for Int64Tensor")
end)

testing.case('shapes: rank, square, rows, empty', function()
  local square = tensor.DoubleTensor{{2, 1}, {1, 2}}
  local wide = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  for _, name in ipairs({'inverse', 'potrf', 'potri', 'symeig', 'eig'}) do
    expectError(function() wide[name](wide) end, "'" .. name .. "'", 'must be square, got shape [2, 3]')
  end
  expectError(function() tensor.DoubleTensor{{1}, {2}, {3}}:gesv(square) end,
              "'gesv': B has 3 rows and A has 2")
  expectError(function() tensor.DoubleTensor{1, 2, 3}:gels(square) end, "'gels': B has 3 rows")
  expectError(function() tensor.DoubleTensor(2, 2, 2):svd() end,
              "'svd': A must be a matrix, got shape [2, 2, 2]")
  expectError(function() tensor.DoubleTensor{1, 2}:qr() end, "'qr': A must be a matrix")
  expectError(function() tensor.DoubleTensor(2, 2, 2):potrs(square) end,
              "'potrs': B must be a vector or a matrix")
  expectError(function() tensor.DoubleTensor(2, 2):resize(0, 2):qr() end,
              "'qr': A is empty (shape [0, 2])")
  expectError(function() tensor.DoubleTensor(2, 2):resize(2, 0):gesv(square) end,
              "'gesv': B is empty")
  local noElements = tensor.DoubleTensor(2):maskedSelect(tensor.ByteTensor(2))
  expectError(function() noElements:gesv(square) end, "'gesv': B is empty")
  expectError(function() tensor.DoubleTensor():inverse() end, "'inverse'", 'must be a matrix')
  expectError(function() tensor.FloatTensor{1, 2}:gesv(square) end,
              "'gesv': B is FloatTensor and A is DoubleTensor")
end)

testing.case('numeric failures: singular, not positive definite, NaN', function()
  local singular = tensor.DoubleTensor{{1, 2}, {2, 4}}
  local b = tensor.DoubleTensor{1, 1}
  expectError(function() b:gesv(singular) end,
              "'gesv': the matrix is singular (U(2,2) is exactly zero)")
  expectError(function() singular:inverse() end, "'inverse': the matrix is singular (U(2,2)")
  expectError(function() b:trtrs(tensor.DoubleTensor{{1, 1}, {0, 0}}) end,
              "'trtrs': the matrix is singular (A(2,2) is exactly zero)")
  expectError(function() tensor.DoubleTensor{{1, 2}, {2, 1}}:potrf() end,
              "'potrf': the matrix is not positive definite (its leading minor of order 2")
  expectError(function() b:potrs(tensor.DoubleTensor{{1, 0}, {0, 0}}) end,
              "'potrs': the matrix is singular (chol(2,2) is exactly zero)")
  expectError(function() tensor.DoubleTensor{{1, 0}, {0, 0}}:potri() end,
              "'potri': the matrix is singular (chol(2,2)")
  expectError(function() tensor.DoubleTensor{1, 1, 1}:gels(tensor.DoubleTensor{{1, 0}, {1, 0}, {1, 0}}) end,
              "'gels': A does not have full rank")
  expectError(function() tensor.DoubleTensor{{0 / 0, 1}, {1, 1}}:svd() end,
              "'svd': A has an element that is NaN or infinite")
  expectError(function() tensor.FloatTensor{{1, 1 / 0}, {1, 1}}:eig() end,
              "'eig': A has an element that is NaN or infinite")
  expectError(function() tensor.DoubleTensor{{1, 0 / 0}, {0 / 0, 1}}:symeig() end,
              "'symeig': A has an element that is NaN or infinite")
end)

testing.case('arguments: tensors, options, result tensors', function()
  local a = tensor.DoubleTensor{{2, 1}, {1, 2}}
  local b = tensor.DoubleTensor{{1}, {1}}
  expectError(function() b:gesv() end, "bad argument #1 to 'gesv' (tensor expected, got no value)")
  expectError(function() b:gesv(3) end, "bad argument #1 to 'gesv' (tensor expected, got number")
  expectError(function() tensor.gesv(b, 'x') end, "bad argument #2 to 'gesv' (tensor expected")
  expectError(function() tensor.gesv(b, b, a, a) end, "bad argument #3 to 'gesv' (no value expected")
  expectError(function() a:inverse(a) end, "bad argument #1 to 'inverse' (no value expected")
  expectError(function() a:symeig('X') end, "bad argument #1 to 'symeig' ('N' or 'V' expected, got 'X')")
  expectError(function() tensor.symeig(a, 'V', 'X') end,
              "bad argument #3 to 'symeig' ('U' or 'L' expected, got 'X')")
  expectError(function() a:eig(1) end, "bad argument #1 to 'eig' ('N' or 'V' expected, got number 1)")
  expectError(function() a:svd('s') end, "bad argument #1 to 'svd' ('S' or 'A' expected, got 's')")
  expectError(function() a:potrf('u') end, "bad argument #1 to 'potrf' ('U' or 'L' expected")
  expectError(function() b:potrs(a, 'N') end, "bad argument #2 to 'potrs' ('U' or 'L' expected")
  expectError(function() b:trtrs(a, 'U', 'X') end, "bad argument #3 to 'trtrs' ('N' or 'T' expected")
  expectError(function() b:trtrs(a, 'U', 'N', 'T') end,
              "bad argument #4 to 'trtrs' ('N' or 'U' expected")
  expectError(function() b:trtrs(a, 'U', 'N', 'N', 1) end, "bad argument #5 to 'trtrs' (no value expected")
  expectError(function() a:qr(a) end, "bad argument #1 to 'qr' (no value expected")
  expectError(function() a.qr(3) end, 'qr')
  testing.assertEqual(select('#', a:symeig()), 1, "'N' gives e only")
  testing.assertEqual(select('#', a:symeig('V')), 2)
  testing.assertEqual(select('#', a:eig()), 1)
  testing.assertEqual(select('#', a:svd()), 3)
end)

testing.case('invalid tensors, as self and as argument', function()
  local stash
  host_test.lend('DoubleTensor', {2, 2}, 0, function(t) stash = t end)
  local square = tensor.DoubleTensor{{2, 1}, {1, 2}}
  for name, call in pairs(calls(stash, square)) do
    expectError(call, 'invalid', 'DoubleTensor', name)
  end
  for name, call in pairs(calls(square, stash)) do
    if name == 'gesv' or name == 'trtrs' or name == 'gels' or name == 'potrs' then
      expectError(call, 'invalid', 'DoubleTensor', name)
    end
  end
  expectError(function() tensor.inverse(stash) end, 'invalid', 'inverse')
  expectError(function() tensor.gesv(square, stash) end, 'invalid', 'gesv')
end)

testing.run()
