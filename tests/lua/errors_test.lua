-- Every error case: each is a Lua error with a useful message, never a
-- crash, and a failed call leaves its tensor as it was.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local random = require 'dmlab.system.random'

-- fn must raise an error containing every given substring.
local expectError = testing.assertErrorContains

local NAN, INF = 0 / 0, 1 / 0
-- Values that are not integers, for arguments that must be.
-- Fractions are integers truncated toward zero (DeepMind Lab reads them
-- with lua_tointeger); these are not.
local NON_INTEGERS = {NAN, INF, -INF, 'x', true, {}}

local function m23()
  return tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
end

testing.case('select: bad dim or index', function()
  local z = m23()
  expectError(function() return z:select(0, 1) end, "bad argument #1 to 'select'")
  expectError(function() return z:select(3, 1) end, 'select')
  expectError(function() return z:select(-1, 1) end, 'select')
  expectError(function() return z:select(1, 0) end, 'select')
  expectError(function() return z:select(1, 3) end, 'select')
  expectError(function() return z:select(2, 4) end, 'select')
  expectError(function() return z:select(1, -1) end, 'select')
  for _, bad in ipairs(NON_INTEGERS) do
    expectError(function() return z:select(bad, 1) end, "bad argument #1 to 'select'")
    expectError(function() return z:select(1, bad) end, "bad argument #2 to 'select'")
  end
  expectError(function() return z:select(1) end, "bad argument #2 to 'select'")
  expectError(function() return z:select() end, "bad argument #1 to 'select'")
end)

testing.case('fractional dims, indices and sizes truncate toward zero', function()
  local z = m23()
  testing.assertEqual(z:select(1.9, 2.2):val(), {4, 5, 6})
  testing.assertEqual(z:narrow(2, 1.5, 2.7):val(), {{1, 2}, {4, 5}})
  testing.assertEqual(z(2.99, 3.01):val(), 6)
  testing.assertEqual(z:transpose(1.5, 2.5):shape(), {3, 2})
  -- Truncated to 0, which is out of range: the usual error.
  expectError(function() return z:select(0.9, 1) end, "bad argument #1 to 'select'")
end)

testing.case('__call: bad or too many indices', function()
  local z = m23()
  expectError(function() return z(0) end)
  expectError(function() return z(3) end)
  expectError(function() return z(1, 4) end)
  expectError(function() return z(1/0) end)
  expectError(function() return z('x') end)
  expectError(function() return z(1, 1, 1) end)
  expectError(function() return z(1, NAN) end)
end)

testing.case('narrow: bad dim, index or size', function()
  local z = m23()
  expectError(function() return z:narrow(0, 1, 1) end, "bad argument #1 to 'narrow'")
  expectError(function() return z:narrow(3, 1, 1) end, 'narrow')
  expectError(function() return z:narrow(2, 0, 1) end, 'narrow')
  expectError(function() return z:narrow(2, 4, 1) end, 'narrow')
  expectError(function() return z:narrow(2, 2, 3) end, 'narrow')
  expectError(function() return z:narrow(2, 1, 4) end, 'narrow')
  expectError(function() return z:narrow(2, 1, -1) end, 'narrow')
  for _, bad in ipairs(NON_INTEGERS) do
    expectError(function() return z:narrow(bad, 1, 1) end, "bad argument #1 to 'narrow'")
    expectError(function() return z:narrow(1, bad, 1) end, "bad argument #2 to 'narrow'")
    expectError(function() return z:narrow(1, 1, bad) end, "bad argument #3 to 'narrow'")
  end
  expectError(function() return z:narrow(1, 1) end, "bad argument #3 to 'narrow'")
end)

testing.case('transpose and reverse: bad dims', function()
  local z = m23()
  expectError(function() return z:transpose(0, 1) end, "bad argument #1 to 'transpose'")
  expectError(function() return z:transpose(1, 3) end, 'transpose')
  expectError(function() return z:transpose(1) end, "bad argument #2 to 'transpose'")
  expectError(function() return z:reverse(0) end, "bad argument #1 to 'reverse'")
  expectError(function() return z:reverse(3) end, 'reverse')
  expectError(function() return z:reverse() end, "bad argument #1 to 'reverse'")
  for _, bad in ipairs(NON_INTEGERS) do
    expectError(function() return z:transpose(bad, 1) end, "bad argument #1 to 'transpose'")
    expectError(function() return z:transpose(1, bad) end, "bad argument #2 to 'transpose'")
    expectError(function() return z:reverse(bad) end, "bad argument #1 to 'reverse'")
  end
end)

testing.case('reshape: bad shapes', function()
  local z = m23()
  expectError(function() return z:reshape{4} end, 'reshape')
  expectError(function() return z:reshape{7} end, 'reshape')
  expectError(function() return z:reshape{2, 2} end, 'reshape')
  expectError(function() return z:reshape{} end, 'reshape')
  expectError(function() return z:reshape{-6} end, 'reshape')
  expectError(function() return z:reshape{3, 'x'} end, 'reshape')
  expectError(function() return z:reshape{3, 1/0} end, 'reshape')
  expectError(function() return z:reshape(6) end, "bad argument #1 to 'reshape'")
  expectError(function() return z:reshape() end, "bad argument #1 to 'reshape'")
  expectError(function() return z:transpose(1, 2):reshape{6} end, 'reshape')
end)

testing.case('val: bad values', function()
  expectError(function() tensor.DoubleTensor{1, 2}:val(5) end, 'val')
  expectError(function() tensor.DoubleTensor{1}:val('x') end, 'val')
  expectError(function() tensor.DoubleTensor{1}:val(true) end, 'val')
  expectError(function() tensor.Int32Tensor{1}:val(0.5) end, 'val')
  expectError(function() tensor.ByteTensor{1}:val(256) end, 'val')
  expectError(function() tensor.ByteTensor{1}:val(-1) end, 'val')
  expectError(function() tensor.Int32Tensor{1}:val(NAN) end, 'val')
  expectError(function() tensor.Int16Tensor{1, 2}:val{1, 40000} end, 'val')
  local b = tensor.ByteTensor{1, 2}
  expectError(function() b:val{3, 300} end, 'val')
  testing.assertEqual(b:val(), {1, 2})
end)

testing.case('constructors: values the type cannot hold', function()
  expectError(function() return tensor.ByteTensor{256} end)
  expectError(function() return tensor.ByteTensor{-1} end)
  expectError(function() return tensor.CharTensor{128} end)
  expectError(function() return tensor.Int32Tensor{0.5} end)
  expectError(function() return tensor.Int64Tensor{NAN} end)
  expectError(function() return tensor.Int16Tensor{{1, 2}, {3, 1e6}} end)
end)

testing.case('int64: 2^63 is out of range everywhere', function()
  local big = 2 ^ 63
  expectError(function() return tensor.Int64Tensor{big} end, 'Int64Tensor')
  expectError(function() tensor.Int64Tensor{1}:fill(big) end, 'fill')
  expectError(function() tensor.Int64Tensor{1}:add(big) end, 'add')
  expectError(function() tensor.Int64Tensor{1}:val(big) end, 'val')
  expectError(function() tensor.Int64Tensor{1}:apply(function() return big end) end, 'apply')
  expectError(function() tensor.Int64Tensor(1):copy(tensor.DoubleTensor{big}) end, 'copy')
  expectError(function() return tensor.DoubleTensor{big}:int64() end, 'int64')
  expectError(function() return tensor.DoubleTensor{-big * 2}:int64() end, 'int64')
end)

testing.case('conversions: values the target cannot hold', function()
  expectError(function() return tensor.DoubleTensor{300}:byte() end, 'byte')
  expectError(function() return tensor.DoubleTensor{-1}:byte() end, 'byte')
  expectError(function() return tensor.Int32Tensor{200}:char() end, 'char')
  expectError(function() return tensor.DoubleTensor{NAN}:int32() end, 'int32')
  expectError(function() return tensor.DoubleTensor{INF}:int16() end, 'int16')
end)

testing.case('the empty tensor has no dimensions to view', function()
  local e = tensor.DoubleTensor()
  expectError(function() return e:select(1, 1) end, 'select')
  expectError(function() return e:narrow(1, 1, 1) end, 'narrow')
  expectError(function() return e:transpose(1, 1) end, 'transpose')
  expectError(function() return e:reverse(1) end, 'reverse')
  expectError(function() return e(1) end)
  expectError(function() return e:shuffle(random) end, 'shuffle')
  expectError(function() return e:mmul(e) end, 'mmul')
end)

testing.case('scalar ops: bad values', function()
  for _, op in ipairs({'fill', 'add', 'sub', 'mul', 'div'}) do
    local z = m23()
    expectError(function() z[op](z, 'x') end, "bad argument #1 to '" .. op .. "'")
    expectError(function() z[op](z) end, "bad argument #1 to '" .. op .. "'")
    expectError(function() z[op](z, true) end, "bad argument #1 to '" .. op .. "'")
    -- A table must have one value per entry of the last dimension.
    expectError(function() z[op](z, {1, 2}) end, op)
    expectError(function() z[op](z, {1, 2, 3, 4}) end, op)
    expectError(function() z[op](z, {}) end, op)
    expectError(function() z[op](z, {1, 'x', 3}) end, op)
    testing.assertEqual(z:val(), m23():val(), op .. ': nothing changed')
    -- Integer types compute in double, as DeepMind Lab: a result the type
    -- cannot hold is an error.
    local i = tensor.Int32Tensor{1, 2, 3}
    expectError(function() i[op](i, NAN) end, op)
    -- x / inf is 0, which fits; x / 0 does not.
    expectError(function() i[op](i, op == 'div' and 0 or INF) end, op)
    local big = op == 'div' and 2 ^ -33 or 2 ^ 33  -- a result past int32's range
    expectError(function() i[op](i, big) end, op)
    expectError(function() i[op](i, {1, big, 1}) end, op)
    local b = tensor.ByteTensor{1, 2, 3}
    local past = {fill = 256, add = 300, sub = 300, mul = 300, div = 0.001}
    expectError(function() b[op](b, past[op]) end, op)
    expectError(function() b[op](b, {1, past[op], 1}) end, op)
    testing.assertEqual(i:val(), {1, 2, 3}, op .. ': nothing changed')
    testing.assertEqual(b:val(), {1, 2, 3}, op .. ': nothing changed')
  end
end)

testing.case('integer division by zero is a Lua error (div)', function()
  for _, name in ipairs({'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
                         'Int64Tensor'}) do
    local t = tensor[name]{{1, 2}, {3, 4}}
    expectError(function() t:div(0) end, 'div', 'zero')
    expectError(function() t:div{1, 0} end, 'div', 'zero')
    testing.assertEqual(t:val(), {{1, 2}, {3, 4}}, name .. ': nothing changed')
  end
end)

testing.case('integer division by zero is a Lua error (cdiv)', function()
  for _, name in ipairs({'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
                         'Int64Tensor'}) do
    local t = tensor[name]{{1, 2}, {3, 4}}
    expectError(function() t:cdiv(tensor[name]{1, 1, 0, 1}) end, 'cdiv', 'zero')
    expectError(function() t:cdiv(tensor[name](4)) end, 'cdiv', 'zero')
    testing.assertEqual(t:val(), {{1, 2}, {3, 4}}, name .. ': nothing changed')
  end
  -- A zero outside the view does not count.
  local d = tensor.Int32Tensor{{0, 2}, {0, 3}}
  local t = tensor.Int32Tensor{6, 6}
  t:cdiv(d:select(2, 2))
  testing.assertEqual(t:val(), {3, 2})
end)

testing.case('component ops: bad arguments', function()
  for _, op in ipairs({'copy', 'cadd', 'csub', 'cmul', 'cdiv'}) do
    local z = m23()
    expectError(function() z[op](z, 1) end,
                "bad argument #1 to '" .. op .. "'", 'tensor expected')
    expectError(function() z[op](z) end, "bad argument #1 to '" .. op .. "'")
    expectError(function() z[op](z, {1, 2, 3, 4, 5, 6}) end, "bad argument #1 to '" .. op .. "'")
    expectError(function() z[op](z, random) end, "bad argument #1 to '" .. op .. "'")
    expectError(function() z[op](z, tensor.DoubleTensor(5)) end, op)
    expectError(function() z[op](z, tensor.DoubleTensor(7)) end, op)
    expectError(function() z[op](z, tensor.DoubleTensor()) end, op)
    if op ~= 'copy' then
      expectError(function() z[op](z, tensor.FloatTensor(2, 3):fill(1)) end, op)
      expectError(function() z[op](z, tensor.Int32Tensor(6):fill(1)) end, op)
    end
    testing.assertEqual(z:val(), m23():val(), op .. ': nothing changed')
  end
end)

testing.case('clamp: bad bounds', function()
  local z = m23()
  expectError(function() z:clamp(2, 1) end, 'clamp')
  expectError(function() z:clamp(NAN) end, 'clamp')
  expectError(function() z:clamp(nil, NAN) end, 'clamp')
  expectError(function() z:clamp('x') end, "bad argument #1 to 'clamp'")
  expectError(function() z:clamp(1, 'x') end, "bad argument #2 to 'clamp'")
  expectError(function() z:clamp({}) end, "bad argument #1 to 'clamp'")
  -- No whole number lies between the bounds of an integer tensor.
  expectError(function() tensor.Int32Tensor{1}:clamp(0.2, 0.8) end, 'clamp')
  expectError(function() tensor.ByteTensor{1}:clamp(nil, -1) end, 'clamp')
  testing.assertEqual(z:val(), m23():val())
end)

testing.case('reductions: bad arguments to dot', function()
  local z = m23()
  expectError(function() return z:dot(tensor.DoubleTensor(5)) end, 'dot')
  expectError(function() return z:dot(tensor.FloatTensor(6)) end, 'dot')
  expectError(function() return z:dot(1) end, "bad argument #1 to 'dot'", 'tensor expected')
  expectError(function() return z:dot() end, "bad argument #1 to 'dot'")
end)

testing.case('mmul: errors name the side or the dimensions', function()
  local m = m23()
  expectError(function() return tensor.DoubleTensor{1, 2, 3}:mmul(m:transpose(1, 2)) end,
              'mmul', 'left')
  expectError(function() return tensor.DoubleTensor(1, 2, 3):mmul(m:transpose(1, 2)) end,
              'mmul', 'left')
  expectError(function() return m:mmul(tensor.DoubleTensor{1, 2, 3}) end, 'mmul', 'right')
  expectError(function() return m:mmul(tensor.DoubleTensor(3, 1, 1)) end, 'mmul', 'right')
  expectError(function() return m:mmul(m) end, 'mmul', 'incompatible')
  expectError(function() return m:mmul(tensor.DoubleTensor(2, 2)) end, 'mmul', 'incompatible')
  expectError(function() return m:mmul(tensor.FloatTensor(3, 2)) end, 'mmul')
  expectError(function() return m:mmul(5) end, "bad argument #1 to 'mmul'")
  expectError(function() return m:mmul() end, "bad argument #1 to 'mmul'")
end)

testing.case('apply and applyIndexed: fn must be a function', function()
  local z = m23()
  for _, method in ipairs({'apply', 'applyIndexed'}) do
    expectError(function() z[method](z) end, "bad argument #1 to '" .. method .. "'")
    expectError(function() z[method](z, 5) end, "bad argument #1 to '" .. method .. "'")
    expectError(function() z[method](z, {}) end, "bad argument #1 to '" .. method .. "'")
  end
end)

testing.case('shuffle: rank 1 and a generator only', function()
  expectError(function() tensor.DoubleTensor(2, 2):shuffle(random) end, 'shuffle')
  local v = tensor.DoubleTensor{1, 2, 3}
  expectError(function() v:shuffle() end, "bad argument #1 to 'shuffle'")
  expectError(function() v:shuffle(5) end, "bad argument #1 to 'shuffle'")
  expectError(function() v:shuffle({}) end, "bad argument #1 to 'shuffle'")
  expectError(function() v:shuffle(tensor.DoubleTensor(3)) end, "bad argument #1 to 'shuffle'")
  testing.assertEqual(v:val(), {1, 2, 3})
end)

testing.case('tostring(maxElements): an integer', function()
  local z = m23()
  expectError(function() return z:tostring('x') end, "bad argument #1 to 'tostring'")
  expectError(function() return z:tostring(1/0) end, "bad argument #1 to 'tostring'")
end)

testing.case("calling a method with '.' instead of ':'", function()
  local z = m23()
  expectError(function() return z.narrow(1, 1, 1) end,
              "calling 'narrow' on bad self", "call methods with ':'")
  expectError(function() return z.size() end, "calling 'size' on bad self")
  expectError(function() return z.fill(5) end, "calling 'fill' on bad self")
  expectError(function() return z.apply(function() end) end, "calling 'apply' on bad self")
  expectError(function() return z.val() end, "calling 'val' on bad self")
  expectError(function() return z.shape({}) end, "calling 'shape' on bad self")
  -- Another userdata is not a tensor either.
  expectError(function() return z.fill(random, 1) end, "calling 'fill' on bad self")
  -- The generator's methods check self the same way.
  expectError(function() return random.uniformInt(1, 2) end,
              "calling 'uniformInt' on bad self")
end)

testing.run()
