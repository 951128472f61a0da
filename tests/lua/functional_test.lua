-- apply, applyIndexed (order, replacement, early stop, stop at an error)
-- and shuffle.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local random = require 'dmlab.system.random'

-- fn must raise an error containing every given substring.
local expectError = testing.assertErrorContains

testing.case('apply visits every element in row-major order', function()
  local seen = {}
  local z = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  testing.assertTrue(rawequal(z:apply(function(v) seen[#seen + 1] = v end), z))
  testing.assertEqual(seen, {1, 2, 3, 4, 5, 6})
  testing.assertEqual(z:val(), {{1, 2, 3}, {4, 5, 6}}, 'nil results change nothing')
end)

testing.case('apply: a non-nil first result replaces the element', function()
  local z = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  z:apply(function(v) return v * v end)
  testing.assertEqual(z:val(), {{1, 4, 9}, {16, 25, 36}})
  z:apply(function(v) if v > 10 then return 0 end end)
  testing.assertEqual(z:val(), {{1, 4, 9}, {0, 0, 0}})
  local i = tensor.Int32Tensor(3):apply(function() return -7 end)
  testing.assertEqual(i:val(), {-7, -7, -7})
end)

testing.case('apply on a view: the view order, only the view', function()
  local z = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  local seen = {}
  z:transpose(1, 2):apply(function(v) seen[#seen + 1] = v end)
  testing.assertEqual(seen, {1, 4, 2, 5, 3, 6})
  seen = {}
  z:reverse(2):apply(function(v) seen[#seen + 1] = v end)
  testing.assertEqual(seen, {3, 2, 1, 6, 5, 4})
  z:select(2, 2):apply(function(v) return -v end)
  testing.assertEqual(z:val(), {{1, -2, 3}, {4, -5, 6}})
end)

testing.case('apply: a second result of false stops the walk early', function()
  local z = tensor.DoubleTensor{1, 2, 3, 4, 5}
  local calls = 0
  z:apply(function(v)
    calls = calls + 1
    if v == 3 then return nil, false end
    return v * 10
  end)
  testing.assertEqual(calls, 3)
  testing.assertEqual(z:val(), {10, 20, 3, 4, 5})
  -- The element that stops the walk still takes its first result.
  z = tensor.DoubleTensor{1, 2, 3, 4, 5}
  calls = 0
  z:apply(function(v)
    calls = calls + 1
    return -v, v < 2
  end)
  testing.assertEqual(calls, 2)
  testing.assertEqual(z:val(), {-1, -2, 3, 4, 5})
  -- Only false stops: nil and true carry on.
  z = tensor.DoubleTensor{1, 2, 3}
  calls = 0
  z:apply(function(v) calls = calls + 1 return v, true end)
  z:apply(function(v) calls = calls + 1 return v, nil end)
  testing.assertEqual(calls, 6)
end)

testing.case('apply: a Lua error in fn stops at once and propagates', function()
  local z = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  local calls = 0
  local ok, err = pcall(function()
    z:apply(function(v)
      calls = calls + 1
      if v == 3 then error('boom at three') end
      return v * 10
    end)
  end)
  testing.assertEqual(ok, false)
  testing.assertTrue(tostring(err):find('boom at three', 1, true) ~= nil, tostring(err))
  testing.assertEqual(calls, 3, 'no element after the error is visited')
  testing.assertEqual(z:val(), {{10, 20, 3}, {4, 5, 6}}, 'later elements are unchanged')
  -- Non-string errors propagate too.
  local marker = {}
  local ok2, err2 = pcall(function() z:apply(function() error(marker) end) end)
  testing.assertEqual(ok2, false)
  testing.assertTrue(rawequal(err2, marker) or tostring(err2):find('table', 1, true) ~= nil,
                     'the error value propagates')
  -- The tensor stays usable after an error.
  testing.assertEqual(z:apply(function(v) return v + 1 end):val(), {{11, 21, 4}, {5, 6, 7}})
end)

testing.case('apply: a result that is not a number is an error', function()
  local z = tensor.DoubleTensor{1, 2, 3}
  expectError(function() z:apply(function(v) if v == 2 then return 'x' end end) end, 'apply')
  testing.assertEqual(z:val(), {1, 2, 3})
  expectError(function() z:apply(function() return {} end) end, 'apply')
  -- A value the type cannot hold.
  local b = tensor.ByteTensor{1, 2}
  expectError(function() b:apply(function() return 256 end) end, 'apply')
  expectError(function() b:apply(function() return -1 end) end, 'apply')
  expectError(function() tensor.Int32Tensor{1}:apply(function() return 0.5 end) end, 'apply')
  testing.assertEqual(b:val(), {1, 2})
end)

testing.case('applyIndexed: the value and a 1-based index table', function()
  local z = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  local seen = {}
  z:applyIndexed(function(v, index)
    seen[#seen + 1] = {v, index[1], index[2], #index}
  end)
  testing.assertEqual(seen, {{1, 1, 1, 2}, {2, 1, 2, 2}, {3, 1, 3, 2},
                             {4, 2, 1, 2}, {5, 2, 2, 2}, {6, 2, 3, 2}})
  z:applyIndexed(function(_, index) return 10 * index[1] + index[2] end)
  testing.assertEqual(z:val(), {{11, 12, 13}, {21, 22, 23}})
end)

testing.case('applyIndexed: rank 1 and rank 3; index tables may be kept', function()
  local indices = {}
  tensor.DoubleTensor(3):applyIndexed(function(_, index) indices[#indices + 1] = index end)
  testing.assertEqual(indices, {{1}, {2}, {3}})
  indices = {}
  local c = tensor.Int16Tensor(2, 1, 2)
  c:applyIndexed(function(_, index)
    indices[#indices + 1] = index
    return index[1] * 100 + index[2] * 10 + index[3]
  end)
  testing.assertEqual(indices, {{1, 1, 1}, {1, 1, 2}, {2, 1, 1}, {2, 1, 2}})
  testing.assertEqual(c:val(), {{{111, 112}}, {{211, 212}}})
end)

testing.case('applyIndexed on a view: indices are the view\'s', function()
  local z = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  local seen = {}
  z:transpose(1, 2):narrow(1, 2, 2):applyIndexed(function(v, index)
    seen[#seen + 1] = {v, index[1], index[2]}
  end)
  testing.assertEqual(seen, {{2, 1, 1}, {5, 1, 2}, {3, 2, 1}, {6, 2, 2}})
end)

testing.case('applyIndexed: early stop and stop at an error', function()
  local z = tensor.DoubleTensor(3, 3)
  z:applyIndexed(function(_, index)
    return 1, not (index[1] == 2 and index[2] == 1)
  end)
  testing.assertEqual(z:val(), {{1, 1, 1}, {1, 0, 0}, {0, 0, 0}})
  z:fill(0)
  local ok, err = pcall(function()
    z:applyIndexed(function(_, index)
      if index[1] == 2 and index[2] == 2 then error('stop here') end
      return 5
    end)
  end)
  testing.assertEqual(ok, false)
  testing.assertTrue(tostring(err):find('stop here', 1, true) ~= nil, tostring(err))
  testing.assertEqual(z:val(), {{5, 5, 5}, {5, 0, 0}, {0, 0, 0}})
end)

testing.case('long walks leave the Lua stack balanced', function()
  local t = tensor.DoubleTensor(300, 300)
  t:apply(function() return 1 end)
  t:applyIndexed(function(v, index) return v + index[2] end)
  testing.assertEqual(t:sum(), 300 * 300 + 300 * (300 * 301 / 2))
  -- Early stops and errors, many times over.
  for i = 1, 2000 do
    t:apply(function() return nil, false end)
    pcall(t.apply, t, function() error('x') end)
  end
  testing.assertEqual(t(300, 300):val(), 301)
end)

testing.case('apply on the empty tensor calls nothing', function()
  local calls = 0
  tensor.DoubleTensor():apply(function() calls = calls + 1 end)
  tensor.DoubleTensor():applyIndexed(function() calls = calls + 1 end)
  testing.assertEqual(calls, 0)
end)

local function sorted(t)
  local copy = {}
  for i, v in ipairs(t) do copy[i] = v end
  table.sort(copy)
  return copy
end

testing.case('shuffle(gen) permutes a rank-1 tensor in place', function()
  local t = tensor.DoubleTensor{range = {20}}
  random:seed(1)
  testing.assertTrue(rawequal(t:shuffle(random), t))
  local values = t:val()
  testing.assertEqual(sorted(values), tensor.DoubleTensor{range = {20}}:val())
  testing.assertTrue(t ~= tensor.DoubleTensor{range = {20}}, '20 elements are very unlikely to stay put')
end)

testing.case('shuffle: the same seed gives the same permutation', function()
  random:seed(42)
  local a = tensor.Int32Tensor{range = {50}}:shuffle(random)
  random:seed(42)
  local b = tensor.Int32Tensor{range = {50}}:shuffle(random)
  testing.assertTrue(a == b)
  random:seed(43)
  local c = tensor.Int32Tensor{range = {50}}:shuffle(random)
  testing.assertTrue(a ~= c)
end)

testing.case('shuffle of a strided view touches only the view', function()
  local m = tensor.DoubleTensor(10, 2)
  m:select(2, 1):apply(function() end)
  local n = 0
  m:select(2, 1):apply(function() n = n + 1 return n end)
  random:seed(7)
  m:select(2, 1):shuffle(random)
  testing.assertEqual(sorted(m:select(2, 1):val()), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  testing.assertEqual(m:select(2, 2):sum(), 0)
end)

testing.case('shuffle of one element and of every type', function()
  testing.assertEqual(tensor.DoubleTensor{5}:shuffle(random):val(), 5)
  for _, name in ipairs({'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
                         'Int64Tensor', 'FloatTensor'}) do
    local t = tensor[name]{range = {10}}:shuffle(random)
    testing.assertEqual(sorted(t:val()), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, name)
  end
end)

testing.case('shuffle draws every permutation equally often', function()
  -- 6000 shuffles of {1, 2, 3}: each of the 6 permutations about 1000
  -- times. An off-by-one Fisher-Yates (Sattolo's algorithm) never gives
  -- the identity; a naive swap-with-any is visibly biased.
  local gen = random.Generator(11)
  local counts = {}
  for _ = 1, 6000 do
    local key = table.concat(tensor.DoubleTensor{1, 2, 3}:shuffle(gen):val(), ',')
    counts[key] = (counts[key] or 0) + 1
  end
  local permutations = 0
  for key, count in pairs(counts) do
    permutations = permutations + 1
    testing.assertTrue(count > 800 and count < 1200, key .. ' drawn ' .. count .. ' times')
  end
  testing.assertEqual(permutations, 6)
end)

testing.case('shuffle uses the generator it is given', function()
  local a = tensor.Int32Tensor{range = {30}}:shuffle(random.Generator(5))
  local b = tensor.Int32Tensor{range = {30}}:shuffle(random.Generator(5))
  testing.assertTrue(a == b)
  random:seed(5)
  local c = tensor.Int32Tensor{range = {30}}:shuffle(random)
  testing.assertTrue(a == c, 'the module generator seeded with 5 draws the same')
end)

testing.run()
