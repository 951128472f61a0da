-- Element-wise functions: abs ... frac, pow, fmod, remainder, cpow, cfmod,
-- cremainder, atan2, cmax, cmin, lerp, addcmul, addcdiv and add(value, y),
-- as methods (in place, returning self) and as module functions.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local expectError = testing.assertErrorContains

local function near(a, b)
  if a ~= a then return b ~= b end
  if a == b then return true end
  return math.abs(a - b) <= 1e-6 * math.max(1, math.abs(a), math.abs(b))
end

-- Every element of the tensor t, row-major, as a flat table.
local function flat(t)
  local out = {}
  t:clone():apply(function(v) out[#out + 1] = v end)
  return out
end

local function assertNear(actual, expected, what)
  testing.assertEqual(#actual, #expected, what)
  for i = 1, #expected do
    if not near(actual[i], expected[i]) then
      error((what or '') .. ': element ' .. i .. ' is ' .. tostring(actual[i]) ..
            ', expected ' .. tostring(expected[i]), 2)
    end
  end
end

local function map(values, fn)
  local out = {}
  for i, v in ipairs(values) do out[i] = fn(v) end
  return out
end

-- Views of a fresh 3x4 DoubleTensor (or `typeName`) holding `values`
-- (row-major): each view with the base it writes through.
local function views(values, typeName)
  local make = function()
    local t = tensor[typeName or 'DoubleTensor'](3, 4)
    local i = 0
    return t:apply(function() i = i + 1 return values[i] end)
  end
  local result = {}
  local function add(name, fn)
    local base = make()
    result[#result + 1] = {name = name, base = base, view = fn(base)}
  end
  add('contiguous', function(t) return t end)
  add('transposed', function(t) return t:transpose(1, 2) end)
  add('narrowed', function(t) return t:narrow(2, 2, 2) end)
  add('reversed', function(t) return t:reverse(1):reverse(2) end)
  add('column', function(t) return t:select(2, 3) end)
  return result
end

local log1p = function(x) return math.log(1 + x) end
local UNARY = {
  abs = math.abs,
  sign = function(x) return x > 0 and 1 or (x < 0 and -1 or 0) end,
  neg = function(x) return -x end,
  cinv = function(x) return 1 / x end,
  acos = math.acos, asin = math.asin, atan = math.atan,
  cos = math.cos, cosh = math.cosh, sin = math.sin, sinh = math.sinh,
  tan = math.tan, tanh = math.tanh,
  exp = math.exp, log = math.log, log1p = log1p, sqrt = math.sqrt,
  rsqrt = function(x) return 1 / math.sqrt(x) end,
  sigmoid = function(x) return 1 / (1 + math.exp(-x)) end,
  trunc = function(x) return x >= 0 and math.floor(x) or math.ceil(x) end,
  frac = function(x) return x - (x >= 0 and math.floor(x) or math.ceil(x)) end,
}
local VALUES = {0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6}

testing.case('unary methods work in place on every view and return self', function()
  for name, fn in pairs(UNARY) do
    for _, case in ipairs(views(VALUES)) do
      local before = flat(case.view)
      local result = case.view[name](case.view)
      testing.assertTrue(rawequal(result, case.view), name .. ' returns self')
      assertNear(flat(case.view), map(before, fn), name .. ' on ' .. case.name)
    end
    -- Float tensors too.
    local f = tensor.FloatTensor{0.25, 0.75}
    f[name](f)
    assertNear(flat(f), {fn(0.25), fn(0.75)}, name .. ' on FloatTensor')
  end
end)

testing.case('unary module functions leave x alone, or write into res', function()
  for name, fn in pairs(UNARY) do
    for _, case in ipairs(views(VALUES)) do
      local before = flat(case.view)
      local y = tensor[name](case.view)
      assertNear(flat(y), map(before, fn), 'tensor.' .. name .. ' on ' .. case.name)
      testing.assertEqual(y:shape(), case.view:shape())
      testing.assertEqual(flat(case.view), before, 'x is unchanged')
      local res = tensor.DoubleTensor(case.view:shape())
      testing.assertTrue(rawequal(tensor[name](res, case.view), res))
      assertNear(flat(res), map(before, fn), 'res of ' .. name)
    end
  end
  -- An owning res of another shape is resized; one of another type is an error.
  local res = tensor.DoubleTensor(7)
  tensor.exp(res, tensor.DoubleTensor{{0, 0}})
  testing.assertEqual(res:val(), {{1, 1}})
  expectError(function() tensor.exp(tensor.FloatTensor(1, 2), tensor.DoubleTensor{{0, 0}}) end,
              "bad argument #1 to 'exp'", 'DoubleTensor')
  expectError(function() tensor.exp('x') end, "bad argument #1 to 'exp'", 'tensor expected')
end)

testing.case('integer tensors: abs, sign, neg, trunc, frac follow Torch; the rest are errors', function()
  local t = tensor.Int32Tensor{-3, 0, 5}
  testing.assertEqual(t:clone():abs():val(), {3, 0, 5})
  testing.assertEqual(t:clone():sign():val(), {-1, 0, 1})
  testing.assertEqual(t:clone():neg():val(), {3, 0, -5})
  testing.assertEqual(t:clone():trunc():val(), {-3, 0, 5})
  testing.assertEqual(t:clone():frac():val(), {0, 0, 0})
  testing.assertEqual(flat(tensor.CharTensor{-128}:abs()), {-128})  -- wraps to itself
  testing.assertEqual(tensor.ByteTensor{0, 9}:sign():val(), {0, 1})
  for name in pairs(UNARY) do
    if not ({abs = 1, sign = 1, neg = 1, trunc = 1, frac = 1})[name] then
      for _, typeName in ipairs{'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
                                'Int64Tensor'} do
        local x = tensor[typeName]{1, 2}
        expectError(function() x[name](x) end, "'" .. name .. "': not defined for " .. typeName)
        testing.assertEqual(x:val(), {1, 2}, 'unchanged')
      end
    end
  end
  expectError(function() tensor.ByteTensor{1}:neg() end, "'neg': not defined for ByteTensor")
  expectError(function() tensor.neg(tensor.ByteTensor{1}) end, "'neg': not defined for ByteTensor")
end)

testing.case('unary methods take no argument: Torch\'s y:exp(x) form is an error', function()
  local x = tensor.DoubleTensor{1}
  expectError(function() x:exp(x) end, "bad argument #1 to 'exp'", 'no argument expected')
  testing.assertEqual(flat(x), {1})
end)

testing.case('pow, fmod, remainder with a number', function()
  for _, case in ipairs(views({-3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8})) do
    local before = flat(case.view)
    testing.assertTrue(rawequal(case.view:pow(2), case.view))
    testing.assertEqual(flat(case.view), map(before, function(x) return x * x end), case.name)
  end
  local x = tensor.DoubleTensor{-3, 3}
  testing.assertEqual(tensor.fmod(x, 2):val(), {-1, 1})
  testing.assertEqual(tensor.fmod(x, -2):val(), {-1, 1})
  testing.assertEqual(tensor.remainder(x, 2):val(), {1, 1})
  testing.assertEqual(tensor.remainder(x, -2):val(), {-1, -1})
  testing.assertEqual(x:val(), {-3, 3})
  testing.assertEqual(tensor.Int32Tensor{-3, 3}:remainder(2):val(), {1, 1})
  testing.assertEqual(tensor.Int32Tensor{-3, 3}:fmod(2):val(), {-1, 1})
  testing.assertEqual(tensor.ByteTensor{2, 16}:pow(2):val(), {4, 0})  -- wraps
  testing.assertEqual(tensor.DoubleTensor{4, 9}:pow(0.5):val(), {2, 3})
  local res = tensor.DoubleTensor(2)
  tensor.pow(res, tensor.DoubleTensor{2, 3}, 3)
  testing.assertEqual(res:val(), {8, 27})
end)

testing.case('errors of the number forms name the argument and change nothing', function()
  local x = tensor.Int32Tensor{5, 7}
  expectError(function() x:pow('a') end, "bad argument #1 to 'pow' (number expected, got string)")
  expectError(function() tensor.pow(x, 'a') end, "bad argument #2 to 'pow'")
  expectError(function() tensor.pow(x, x, 'a') end, "bad argument #3 to 'pow'")
  expectError(function() x:pow(-1) end, "'pow':", 'whole number >= 0')
  expectError(function() x:pow(0.5) end, "'pow':", 'whole number >= 0')
  expectError(function() x:fmod(0) end, "'fmod':", 'division by zero')
  expectError(function() x:remainder(0) end, "'remainder':", 'division by zero')
  expectError(function() x:fmod(0.5) end, "'fmod':", '0.5 is not a value of int32')
  expectError(function() x:fmod() end, "bad argument #1 to 'fmod' (number expected, got no value)")
  testing.assertEqual(x:val(), {5, 7})
end)

testing.case('cpow, cfmod, cremainder, atan2 pair elements in layout order', function()
  local x = tensor.DoubleTensor{{2, 2}, {2, 2}}
  testing.assertTrue(rawequal(x:cpow(tensor.DoubleTensor{1, 2, 3, 4}), x))
  testing.assertEqual(x:val(), {{2, 4}, {8, 16}})
  local a = tensor.DoubleTensor{{3, 3}, {-3, -3}}
  local b = tensor.DoubleTensor{{2, -2}, {2, -2}}
  testing.assertEqual(tensor.cfmod(a, b):val(), {{1, 1}, {-1, -1}})
  testing.assertEqual(tensor.cremainder(a, b):val(), {{1, -1}, {1, -1}})
  -- A transposed operand pairs by layout order; an overlapping one is read first.
  local m = tensor.DoubleTensor{{1, 2}, {3, 4}}
  m:cmax(m:transpose(1, 2))
  testing.assertEqual(m:val(), {{1, 3}, {3, 4}})
  local v = tensor.DoubleTensor{1, 5, 2, 7}
  v:cmax(v:reverse(1))
  testing.assertEqual(v:val(), {7, 5, 5, 7})
  local y = tensor.DoubleTensor{1, -1}
  assertNear(flat(tensor.atan2(y, tensor.DoubleTensor{1, 1})), {math.atan2(1, 1), math.atan2(-1, 1)})
  local n = tensor.Int16Tensor{5, -5}
  testing.assertEqual(n:clone():cremainder(tensor.Int16Tensor{3, 3}):val(), {2, 1})
  testing.assertEqual(n:clone():cpow(tensor.Int16Tensor{2, 3}):val(), {25, -125})
  expectError(function() n:cfmod(tensor.Int16Tensor{1, 0}) end, "'cfmod':", 'division by zero')
  expectError(function() n:cpow(tensor.Int16Tensor{1, -1}) end, "'cpow':", '>= 0')
  expectError(function() n:atan2(n) end, "'atan2': not defined for Int16Tensor")
  testing.assertEqual(n:val(), {5, -5})
  local res = tensor.DoubleTensor(2, 2)
  testing.assertTrue(rawequal(tensor.cpow(res, tensor.DoubleTensor{{2, 2}, {2, 2}}, b), res))
  testing.assertEqual(res:val(), {{4, 0.25}, {4, 0.25}})
end)

testing.case('errors of the tensor forms name the argument and change nothing', function()
  local x = tensor.DoubleTensor{1, 2}
  expectError(function() x:cpow(2) end, "bad argument #1 to 'cpow' (tensor expected, got number 2)")
  expectError(function() tensor.cpow(x, 2) end, "bad argument #2 to 'cpow'")
  expectError(function() x:atan2(tensor.FloatTensor{1, 2}) end, "'atan2':", 'same type')
  expectError(function() x:cfmod(tensor.DoubleTensor{1, 2, 3}) end, "'cfmod':", 'same number')
  expectError(function() x:cmax('a') end,
              "bad argument #1 to 'cmax' (number or tensor expected, got string)")
  expectError(function() x:cmin() end, "bad argument #1 to 'cmin'")
  testing.assertEqual(x:val(), {1, 2})
end)

testing.case('cmax and cmin take a number or a tensor', function()
  local x = tensor.Int64Tensor{1, 5, 3}
  testing.assertEqual(x:clone():cmax(3):val(), {3, 5, 3})
  testing.assertEqual(x:clone():cmin(3):val(), {1, 3, 3})
  testing.assertEqual(tensor.cmax(x, tensor.Int64Tensor{2, 2, 4}):val(), {2, 5, 4})
  testing.assertEqual(tensor.cmin(x, tensor.Int64Tensor{2, 2, 4}):val(), {1, 2, 3})
  local res = tensor.Int64Tensor(3)
  tensor.cmax(res, x, 4)
  testing.assertEqual(res:val(), {4, 5, 4})
  testing.assertEqual(x:val(), {1, 5, 3})
  expectError(function() x:cmax(0.5) end, "'cmax':", '0.5 is not a value of int64')
  local nan = tensor.DoubleTensor{0 / 0, 1}:cmax(0)
  testing.assertTrue(nan:val()[1] ~= nan:val()[1], 'NaN propagates')
end)

testing.case('lerp, addcmul and addcdiv', function()
  local x = tensor.DoubleTensor(2, 2):fill(2)
  local y = tensor.DoubleTensor(4):fill(3)
  local z = tensor.DoubleTensor(2, 2):fill(5)
  testing.assertTrue(rawequal(x:addcmul(2, y, z), x))
  testing.assertEqual(x:val(), {{32, 32}, {32, 32}})
  x:fill(2):addcmul(y, z)
  testing.assertEqual(x:val(), {{17, 17}, {17, 17}})
  local ones = tensor.DoubleTensor(2, 2):fill(1)
  ones:addcdiv(2, tensor.DoubleTensor{1, 2, 3, 4}, z)
  assertNear(flat(ones), {1.4, 1.8, 2.2, 2.6})
  testing.assertEqual(flat(tensor.addcdiv(tensor.DoubleTensor{1}, tensor.DoubleTensor{3},
                                          tensor.DoubleTensor{2})), {2.5})
  local res = tensor.DoubleTensor(1)
  tensor.addcmul(res, tensor.DoubleTensor{1}, 0.5, tensor.DoubleTensor{2}, tensor.DoubleTensor{3})
  testing.assertEqual(flat(res), {4})
  local a = tensor.FloatTensor{0, 10}
  testing.assertTrue(rawequal(a:lerp(tensor.FloatTensor{10, 20}, 0.25), a))
  testing.assertEqual(a:val(), {2.5, 12.5})
  testing.assertEqual(flat(tensor.lerp(tensor.DoubleTensor{0}, tensor.DoubleTensor{4}, 0.5)), {2})
  -- Non-contiguous operands, overlapping the destination.
  local m = tensor.DoubleTensor{{1, 2}, {3, 4}}
  m:addcmul(1, m:transpose(1, 2), m:reverse(1))
  testing.assertEqual(m:val(), {{1 + 1 * 3, 2 + 3 * 4}, {3 + 2 * 1, 4 + 4 * 2}})
  -- Integer forms wrap and check divisors.
  testing.assertEqual(flat(tensor.ByteTensor{250}:addcmul(2, tensor.ByteTensor{2}, tensor.ByteTensor{2})), {2})
  testing.assertEqual(flat(tensor.Int32Tensor{0}:addcdiv(3, tensor.Int32Tensor{7}, tensor.Int32Tensor{2})), {10})
  -- 8- and 16-bit types divide v * a before it wraps, as C's int does in Torch7.
  testing.assertEqual(flat(tensor.CharTensor{-9}:addcdiv(-3, tensor.CharTensor{-117}, tensor.CharTensor{8})), {34})
  testing.assertEqual(flat(tensor.ByteTensor{1}:addcdiv(200, tensor.ByteTensor{200}, tensor.ByteTensor{250})), {161})
  local n = tensor.Int32Tensor{1}
  expectError(function() n:addcdiv(n, tensor.Int32Tensor{0}) end, "'addcdiv':", 'division by zero')
  expectError(function() n:lerp(n, 0.5) end, "'lerp': not defined for Int32Tensor")
  expectError(function() n:addcmul(0.5, n, n) end, "'addcmul':", 'not a value of int32')
  testing.assertEqual(flat(n), {1})
end)

testing.case('errors of lerp, addcmul, addcdiv name the argument', function()
  local x = tensor.DoubleTensor{1}
  expectError(function() x:addcmul('a', x, x) end,
              "bad argument #1 to 'addcmul' (number or tensor expected, got string)")
  expectError(function() x:addcmul(2, x) end, "bad argument #3 to 'addcmul' (tensor expected, got no value)")
  expectError(function() x:addcdiv(x, 2) end, "bad argument #2 to 'addcdiv' (tensor expected, got number 2)")
  expectError(function() tensor.addcmul(x, 2, x, 'b') end, "bad argument #4 to 'addcmul'")
  expectError(function() x:lerp(2, 0.5) end, "bad argument #1 to 'lerp' (tensor expected, got number 2)")
  expectError(function() x:lerp(x) end, "bad argument #2 to 'lerp' (number expected, got no value)")
  expectError(function() tensor.lerp(x, x, 'w') end, "bad argument #3 to 'lerp'")
  expectError(function() x:addcmul(x, tensor.DoubleTensor{1, 2}) end, "'addcmul':", 'same number')
  testing.assertEqual(flat(x), {1})
end)

testing.case('add(y) and add(value, y) add a tensor; add(x) of a number is unchanged', function()
  local x = tensor.DoubleTensor(2, 2):fill(2)
  local y = tensor.DoubleTensor(4):fill(3)
  testing.assertTrue(rawequal(x:add(2, y), x))
  testing.assertEqual(x:val(), {{8, 8}, {8, 8}})
  testing.assertEqual(x:add(1):val(), {{9, 9}, {9, 9}})
  testing.assertEqual(x:add{1, 2}:val(), {{10, 11}, {10, 11}})
  testing.assertEqual(tensor.add(tensor.DoubleTensor{1, 2}, -1, tensor.DoubleTensor{1, 1}):val(), {0, 1})
  testing.assertEqual(tensor.add(tensor.DoubleTensor{1, 2}, 10):val(), {11, 12})
  local res = tensor.DoubleTensor(2)
  tensor.add(res, tensor.DoubleTensor{1, 2}, 2, tensor.DoubleTensor{1, 1})
  testing.assertEqual(res:val(), {3, 4})
  local t = tensor.Int16Tensor{1, 2}
  t:add(-1, t:reverse(1))
  testing.assertEqual(t:val(), {-1, 1})
  expectError(function() t:add(0.5, t) end, "'add':", 'not a value of int16')
  expectError(function() t:add('a', t) end, "bad argument #1 to 'add' (number expected, got string)")
  expectError(function() t:add(1, 'b') end, "bad argument #2 to 'add' (tensor expected, got string)")
  expectError(function() t:add(1, tensor.DoubleTensor{1, 2}) end, "'add':", 'same type')
  expectError(function() t:add(tensor.DoubleTensor{1, 2}) end, "'add':", 'same type')
  expectError(function() t:add(tensor.Int16Tensor(3)) end, "'add':")
  testing.assertEqual(t:val(), {-1, 1})
  testing.assertTrue(rawequal(t:add(t), t))
  testing.assertEqual(t:val(), {-2, 2})
  testing.assertEqual(tensor.add(tensor.DoubleTensor{1, 2}, tensor.DoubleTensor{3, 4}):val(), {4, 6})
  local sum = tensor.DoubleTensor(2)
  tensor.add(sum, tensor.DoubleTensor{1, 2}, tensor.DoubleTensor{3, 4})
  testing.assertEqual(sum:val(), {4, 6})
end)

testing.case('empty tensors', function()
  local e = tensor.DoubleTensor()
  testing.assertTrue(rawequal(e:exp(), e))
  testing.assertEqual(tensor.sqrt(e):size(), 0)
  testing.assertEqual(e:cmax(e):size(), 0)
  testing.assertEqual(e:addcmul(e, e):size(), 0)
end)

testing.case('an invalid tensor is an error as self and as an argument', function()
  local stash
  host_test.lend('DoubleTensor', {2, 2}, 0, function(t) stash = t end)
  local good = tensor.DoubleTensor(2, 2):fill(1)
  for _, call in ipairs{
    {'exp', function() stash:exp() end},
    {'abs', function() tensor.abs(stash) end},
    {'pow', function() stash:pow(2) end},
    {'cmax', function() stash:cmax(1) end},
    {'cmin', function() stash:cmin(good) end},
    {'cpow', function() stash:cpow(good) end},
    {'lerp', function() stash:lerp(good, 0.5) end},
    {'addcmul', function() stash:addcmul(good, good) end},
    {'add', function() stash:add(2, good) end},
  } do
    expectError(call[2], 'invalid', 'DoubleTensor', call[1], 'host_test.lend')
  end
  for _, call in ipairs{
    {'cpow', function() good:cpow(stash) end},
    {'cmax', function() good:cmax(stash) end},
    {'atan2', function() good:atan2(stash) end},
    {'lerp', function() good:lerp(stash, 0.5) end},
    {'addcdiv', function() good:addcdiv(2, good, stash) end},
    {'add', function() good:add(2, stash) end},
  } do
    expectError(call[2], "bad argument", call[1], 'invalid', 'host_test.lend')
  end
  expectError(function() tensor.exp(good, stash) end, "bad argument #2 to 'exp'", 'invalid')
  testing.assertEqual(good:val(), {{1, 1}, {1, 1}})
end)

testing.run()
