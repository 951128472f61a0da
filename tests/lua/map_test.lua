-- map and map2: Lua callbacks over the elements of two or three tensors.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains

local function counting(t)
  local i = 0
  return t:apply(function() i = i + 1 return i end)
end

testing.case('map: x:map(y, fn) stores what fn returns, pairing in row-major order', function()
  local x = counting(tensor.DoubleTensor(3, 3))
  local y = counting(tensor.DoubleTensor(9))
  testing.assertTrue(rawequal(x:map(y, function(xx, yy) return xx * yy end), x))
  testing.assertEqual(x:val(), {{1, 4, 9}, {16, 25, 36}, {49, 64, 81}})
end)

testing.case('map2: x:map2(y, z, fn) over three tensors', function()
  local x = tensor.DoubleTensor(3, 3):fill(0.5)
  local y = counting(tensor.DoubleTensor(9))
  local z = counting(tensor.DoubleTensor(3, 3))
  testing.assertTrue(rawequal(x:map2(y, z, function(xx, yy, zz) return xx + yy * zz end), x))
  testing.assertEqual(x:val(), {{1.5, 4.5, 9.5}, {16.5, 25.5, 36.5}, {49.5, 64.5, 81.5}})
end)

testing.case('nil leaves the element, and fn sees every element once', function()
  local x = tensor.Int32Tensor{{1, 2}, {3, 4}}
  local seen = {}
  x:map(tensor.ByteTensor{5, 6, 7, 8}, function(xx, yy)
    seen[#seen + 1] = {xx, yy}
    if yy % 2 == 0 then return xx * 10 end
  end)
  testing.assertEqual(seen, {{1, 5}, {2, 6}, {3, 7}, {4, 8}})
  testing.assertEqual(x:val(), {{1, 20}, {3, 40}})
end)

testing.case('non-contiguous tensors walk in row-major order of their own shape', function()
  local base = counting(tensor.DoubleTensor(2, 3))        -- {{1, 2, 3}, {4, 5, 6}}
  local x = base:t()                                      -- {{1, 4}, {2, 5}, {3, 6}}
  local y = tensor.FloatTensor{10, 20, 30, 40, 50, 60}:reverse(1)
  local z = tensor.Int16Tensor{{1, 9}, {0, 9}, {4, 9}, {0, 9}, {2, 9}, {5, 9}}:select(2, 1)
  local order = {}
  x:map2(y, z, function(xx, yy, zz)
    order[#order + 1] = xx
    return xx + yy + zz
  end)
  testing.assertEqual(order, {1, 4, 2, 5, 3, 6})
  -- x[i] + y[i] + z[i] in x's row-major order: 1+60+1, 4+50+0, 2+40+4, ...
  testing.assertEqual(x:val(), {{62, 54}, {46, 35}, {25, 21}})
  testing.assertEqual(base:val(), {{62, 46, 25}, {54, 35, 21}})
end)

testing.case('integer types take only values they hold', function()
  local x = tensor.ByteTensor{1, 2, 3}
  x:map(tensor.DoubleTensor{0.5, 1, 1.5}, function(xx, yy) return xx * 2 end)
  testing.assertEqual(x:val(), {2, 4, 6})
  expectError(function() x:map(x, function(xx) return xx + 0.5 end) end,
              "'map': element [1]: ByteTensor cannot hold 2.5")
  expectError(function() x:map2(x, x, function() return -1 end) end,
              "'map2': element [1]: ByteTensor cannot hold -1")
  testing.assertEqual(x:val(), {2, 4, 6})
  local big = tensor.Int64Tensor{1}
  big:map(big, function() return 2 ^ 53 end)
  testing.assertEqual(big:val(), 2 ^ 53)
end)

testing.case('a Lua error in fn stops the walk at once and propagates', function()
  local x = tensor.DoubleTensor{1, 2, 3, 4}
  local err = expectError(function()
    x:map(x, function(xx)
      if xx == 3 then error('no threes') end
      return -xx
    end)
  end, 'no threes')
  testing.assertTrue(err:find('map_test.lua', 1, true) ~= nil, 'fn\'s own message and position')
  testing.assertEqual(x:val(), {-1, -2, 3, 4})
  expectError(function() x:map(x, function() error({}) end) end, 'error object is a table')
  expectError(function() x:map2(x, x, function() error(42) end) end, '42')
  -- The module still works after an error.
  testing.assertEqual(x:map(x, function(a, b) return a + b end):val(), {-2, -4, 6, 8})
end)

testing.case('what fn returns must be a number or nil', function()
  local x = tensor.DoubleTensor{{1, 2}}
  expectError(function() x:map(x, function() return 'one' end) end,
              "'map': element [1, 1]: fn returned a string; expected a number or nil")
  expectError(function() x:map(x, function(a) if a == 2 then return {} end end) end,
              "'map': element [1, 2]: fn returned a table")
  expectError(function() x:map2(x, x, function() return true end) end, "'map2'", 'boolean')
end)

testing.case('a y sharing memory with x sees the elements already written', function()
  local x = tensor.DoubleTensor{1, 2, 3}
  x:map(x, function(a, b) return a + b end)                  -- the same element
  testing.assertEqual(x:val(), {2, 4, 6})
  x:map(x:reverse(1), function(a, b) return b end)           -- x[3] reads the new x[1]
  testing.assertEqual(x:val(), {6, 4, 6})
end)

testing.case('an expanded self can be read but not written', function()
  local row = tensor.DoubleTensor{1, 2}
  local x = row:reshape{1, 2}:expand(3, 2)
  local sum = 0
  x:map(tensor.DoubleTensor(6), function(a) sum = sum + a end)
  testing.assertEqual(sum, 9)
  expectError(function() x:map(tensor.DoubleTensor(6), function(a) return 0 end) end,
              "'map': element [1, 1]", 'share memory')
  testing.assertEqual(row:val(), {1, 2})
end)

testing.case('argument errors name the argument', function()
  local x = tensor.DoubleTensor(2, 2)
  local f = function() end
  expectError(function() x:map(tensor.DoubleTensor(3), f) end,
              "bad argument #1 to 'map' (tensor of 3 elements, but self has 4)")
  expectError(function() x:map2(x, tensor.DoubleTensor(5), f) end, "bad argument #2 to 'map2'")
  expectError(function() x:map(x) end, "bad argument #2 to 'map' (function expected, got no value)")
  expectError(function() x:map2(x, x, 'f') end,
              "bad argument #3 to 'map2' (function expected, got string)")
  expectError(function() x:map(f, f) end,
              "bad argument #1 to 'map' (tensor expected, got function)")
  expectError(function() x.map(5, x, f) end, "calling 'map' on bad self")
  -- Empty tensors call nothing.
  local empty = tensor.DoubleTensor()
  testing.assertEqual(empty:map(tensor.Int32Tensor(), function() error('no') end):size(), 0)
end)

testing.case('an invalid tensor as self or argument is an error naming it', function()
  local bad
  host_test.lend('DoubleTensor', {2, 2}, 1, function(t) bad = t end)
  local x = tensor.DoubleTensor(2, 2)
  local f = function() return 1 end
  expectError(function() bad:map(x, f) end, 'invalid', 'DoubleTensor:map', 'host_test.lend buffer')
  expectError(function() bad:map2(x, x, f) end, 'invalid', 'DoubleTensor:map2')
  expectError(function() x:map(bad, f) end, "bad argument #1 to 'map'", 'invalid')
  expectError(function() x:map2(x, bad, f) end, "bad argument #2 to 'map2'", 'invalid')
  testing.assertEqual(x:sum(), 0)
end)

testing.case('map over a lent tensor during its loan', function()
  local result = host_test.lend('Int32Tensor', {2, 2}, 3, function(t)
    t:map(tensor.Int32Tensor{1, 2, 3, 4}, function(a, b) return a * b end)
    return t:clone()
  end)
  testing.assertEqual(result:val(), {{3, 6}, {9, 12}})
end)

testing.case('fn may call map again, up to a bound', function()
  local x = tensor.DoubleTensor{1, 2}
  x:map(x, function(a)
    local inner = tensor.DoubleTensor{a}
    inner:map(inner, function(b) return b * 10 end)
    return inner:sum()
  end)
  testing.assertEqual(x:val(), {10, 20})
  local function recurse(t) return t:map(t, function() recurse(t) end) end
  -- A clean error, whichever bound comes first: ours, or Lua 5.1's on
  -- nested C calls.
  local err = expectError(function() recurse(tensor.DoubleTensor{1}) end)
  testing.assertTrue(err:find('nested calls of map and map2', 1, true) or
                     err:find('stack overflow', 1, true), err)
end)

testing.run()
