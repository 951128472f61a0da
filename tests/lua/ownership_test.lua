-- Ownership and validity: tensors lent by a host (dmlab.system.host_test)
-- become invalid when the loan ends, and every use of them is then a clean
-- Lua error that says "invalid", names the type, the method and the lender.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local random = require 'dmlab.system.random'
local host_test = require 'dmlab.system.host_test'

local LENDER = 'host_test.lend buffer'
local DOUBLE = 'dmlab.system.tensor.DoubleTensor'

-- fn must raise an error containing every given substring.
local expectError = testing.assertErrorContains

-- The error for using an invalid tensor in `method`.
local function expectInvalid(fn, method, typeName)
  return expectError(fn, 'invalid', typeName or DOUBLE, method, LENDER)
end

-- A DoubleTensor of shape {2, 2}, lent and already revoked, plus views of it
-- made during the loan.
local function invalidTensor(typeName, fill)
  local kept, views
  host_test.lend(typeName or 'DoubleTensor', {2, 2}, fill or 3, function(t)
    kept = t
    views = {t:select(1, 1), t:transpose(1, 2), t:narrow(2, 1, 1), t:reverse(1), t:reshape{4}, t(2)}
  end)
  return kept, views
end

testing.case('a lent tensor does not own its storage; its views neither', function()
  host_test.lend('DoubleTensor', {2, 3}, 7, function(t)
    testing.assertEqual(t:ownsStorage(), false)
    testing.assertEqual(t:type(), DOUBLE)
    testing.assertEqual(t:shape(), {2, 3})
    testing.assertEqual(t:val(), {{7, 7, 7}, {7, 7, 7}})
    testing.assertEqual(t:select(1, 1):ownsStorage(), false)
    testing.assertEqual(t:transpose(1, 2):ownsStorage(), false)
    testing.assertEqual(t:clone():ownsStorage(), true)
    testing.assertEqual(t:float():ownsStorage(), true)
  end)
end)

testing.case('a lent tensor is fully usable during the loan', function()
  local sum = host_test.lend('Int32Tensor', {2, 2}, 1, function(t, extra)
    t:select(2, 1):fill(5)
    testing.assertEqual(t:val(), {{5, 1}, {5, 1}})
    t:cadd(tensor.Int32Tensor{1, 1, 1, 1})
    t:apply(function(v) return v * 2 end)
    testing.assertEqual(tostring(t),
                        '[dmlab.system.tensor.Int32Tensor]\nShape: [2, 2]\n[[12,  4],\n [12,  4]]')
    testing.assertTrue(t == tensor.Int32Tensor{{12, 4}, {12, 4}})
    return t:sum() + extra
  end, 100)
  testing.assertEqual(sum, 132, 'lend returns fn\'s results')
end)

-- Found by the lua_program fuzzer: a lent [3, 0, 2^62] had strides that
-- overflowed reverse's offset (caught under UBSan in ./lab test --full).
-- Such a shape is refused; one whose extents fit may have 2^62 entries in a
-- dimension, and views, tril and split must neither overflow nor walk them.
testing.case('a lent shape without elements must still have extents that multiply within 64 bits', function()
  expectError(function() host_test.lend('Int16Tensor', {3, 0, 2^62}, 1, function() end) end,
              'multiply past 64 bits')
  host_test.lend('Int16Tensor', {2^62, 0}, 1, function(t)
    for _, view in ipairs{t:reverse(1), t:select(1, 3), t:narrow(1, 3, 1), t:tril(), t:triu(1)} do
      testing.assertEqual(view:size(), 0)
    end
    expectError(function() t:split(1) end, "bad argument #1 to 'split'", 'more than a table holds')
    -- chunk divided by a piece size of 0 here; an empty dimension has no pieces.
    testing.assertEqual(#t:split(1, 2), 0)
    testing.assertEqual(#t:chunk(2, 2), 0)
  end)
end)

testing.case('every method of an invalid tensor is an error naming it', function()
  local t = invalidTensor()
  local owned = tensor.DoubleTensor{{1, 2}, {3, 4}}
  local calls = {
    type = function() return t:type() end,
    size = function() return t:size() end,
    shape = function() return t:shape() end,
    ownsStorage = function() return t:ownsStorage() end,
    val = function() return t:val() end,
    select = function() return t:select(1, 1) end,
    narrow = function() return t:narrow(1, 1, 1) end,
    transpose = function() return t:transpose(1, 2) end,
    reverse = function() return t:reverse(1) end,
    reshape = function() return t:reshape{4} end,
    clone = function() return t:clone() end,
    byte = function() return t:byte() end,
    char = function() return t:char() end,
    int16 = function() return t:int16() end,
    int32 = function() return t:int32() end,
    int64 = function() return t:int64() end,
    float = function() return t:float() end,
    double = function() return t:double() end,
    tostring = function() return t:tostring() end,
    fill = function() return t:fill(1) end,
    add = function() return t:add(1) end,
    sub = function() return t:sub{1, 2} end,
    mul = function() return t:mul(1) end,
    div = function() return t:div(1) end,
    copy = function() return t:copy(owned) end,
    cadd = function() return t:cadd(owned) end,
    csub = function() return t:csub(owned) end,
    cmul = function() return t:cmul(owned) end,
    cdiv = function() return t:cdiv(owned) end,
    floor = function() return t:floor() end,
    ceil = function() return t:ceil() end,
    round = function() return t:round() end,
    clamp = function() return t:clamp(0, 1) end,
    sum = function() return t:sum() end,
    product = function() return t:product() end,
    lengthSquared = function() return t:lengthSquared() end,
    dot = function() return t:dot(owned) end,
    mmul = function() return t:mmul(owned) end,
    apply = function() return t:apply(function() end) end,
    applyIndexed = function() return t:applyIndexed(function() end) end,
  }
  local count = 0
  for method, call in pairs(calls) do
    expectInvalid(call, method)
    count = count + 1
  end
  testing.assertEqual(count, 40)
  testing.assertEqual(owned:val(), {{1, 2}, {3, 4}}, 'the valid operand is untouched')
end)

testing.case('val(x) and val(table) on an invalid tensor', function()
  local t = invalidTensor()
  expectInvalid(function() t:val{{1, 2}, {3, 4}} end, 'val')
  local one
  host_test.lend('DoubleTensor', {1}, 0, function(x) one = x end)
  expectInvalid(function() one:val(5) end, 'val')
end)

testing.case('shuffle on an invalid tensor', function()
  local v
  host_test.lend('DoubleTensor', {4}, 1, function(t) v = t end)
  expectInvalid(function() v:shuffle(random) end, 'shuffle')
end)

testing.case('tostring(t) and t(i) of an invalid tensor', function()
  local t = invalidTensor()
  expectInvalid(function() return tostring(t) end, 'tostring')
  expectInvalid(function() return t(1) end, 'call')
  expectInvalid(function() return t(1, 2) end, 'call')
  expectInvalid(function() return print(t) end, 'tostring')
end)

testing.case('other types name their own type', function()
  for _, name in ipairs({'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
                         'Int64Tensor', 'FloatTensor', 'DoubleTensor'}) do
    local t = invalidTensor(name, 1)
    expectInvalid(function() return t:sum() end, 'sum', 'dmlab.system.tensor.' .. name)
    expectInvalid(function() return tostring(t) end, 'tostring', 'dmlab.system.tensor.' .. name)
  end
end)

testing.case('an invalid tensor as an argument is a clean error', function()
  local t = invalidTensor()
  local owned = tensor.DoubleTensor{{1, 2}, {3, 4}}
  for _, method in ipairs({'copy', 'cadd', 'csub', 'cmul', 'cdiv', 'dot', 'mmul'}) do
    local err = expectInvalid(function() return owned[method](owned, t) end, method)
    testing.assertTrue(err:find("bad argument #1 to '" .. method .. "'", 1, true) ~= nil, err)
  end
  -- copy converts types, so any type of invalid source is checked.
  local b = invalidTensor('ByteTensor', 1)
  expectInvalid(function() return owned:copy(b) end, 'copy', 'dmlab.system.tensor.ByteTensor')
  testing.assertEqual(owned:val(), {{1, 2}, {3, 4}}, 'nothing changed')
end)

testing.case('== with an invalid tensor is an error', function()
  local t = invalidTensor()
  local owned = tensor.DoubleTensor{{3, 3}, {3, 3}}
  -- The method is named as Lua calls it: '__eq'.
  expectError(function() return owned == t end, 'invalid', DOUBLE, LENDER, '__eq')
  expectError(function() return t == owned end, 'invalid', DOUBLE, LENDER, '__eq')
  expectError(function() return t ~= owned end, 'invalid', DOUBLE, LENDER, '__eq')
  local views = select(2, invalidTensor())
  expectError(function() return views[1] == views[2] end, 'invalid', DOUBLE, LENDER, '__eq')
  -- Another type on the other side: still an error, not a quiet false.
  expectError(function() return tensor.ByteTensor(4) == t end, 'invalid', DOUBLE, LENDER)
end)

testing.case('views made during the loan become invalid with it', function()
  local _, views = invalidTensor()
  testing.assertEqual(#views, 6)
  for i, view in ipairs(views) do
    expectInvalid(function() return view:sum() end, 'sum')
    expectInvalid(function() return view:val() end, 'val')
    expectInvalid(function() return view:select(1, 1) end, 'select')
    expectInvalid(function() return tostring(view) end, 'tostring')
    expectInvalid(function() return view:clone() end, 'clone')
  end
end)

testing.case('clones and conversions made during the loan stay valid', function()
  local clone, float, mmul, view
  host_test.lend('DoubleTensor', {2, 2}, 2, function(t)
    clone = t:clone()
    float = t:transpose(1, 2):float()
    mmul = t:mmul(t)
    view = clone:select(1, 1)
  end)
  testing.assertEqual(clone:val(), {{2, 2}, {2, 2}})
  testing.assertTrue(clone:ownsStorage())
  testing.assertEqual(float:type(), 'dmlab.system.tensor.FloatTensor')
  testing.assertEqual(float:val(), {{2, 2}, {2, 2}})
  testing.assertEqual(mmul:val(), {{8, 8}, {8, 8}})
  testing.assertTrue(mmul:ownsStorage())
  testing.assertEqual(view:val(), {2, 2})
  clone:add(1)
  testing.assertEqual(tostring(clone),
                      '[dmlab.system.tensor.DoubleTensor]\nShape: [2, 2]\n[[3, 3],\n [3, 3]]')
end)

testing.case('an owned copy of lent data: copy into an owned tensor', function()
  local owned = tensor.DoubleTensor(2, 2)
  host_test.lend('ByteTensor', {4}, 9, function(t) owned:copy(t) end)
  testing.assertEqual(owned:val(), {{9, 9}, {9, 9}})
end)

testing.case('lend frees and revokes even when fn errors', function()
  local kept
  local ok, err = pcall(host_test.lend, 'DoubleTensor', {3}, 1, function(t)
    kept = t
    error('fn failed')
  end)
  testing.assertEqual(ok, false)
  testing.assertTrue(tostring(err):find('fn failed', 1, true) ~= nil, tostring(err))
  expectInvalid(function() return kept:sum() end, 'sum')
  -- The error value is raised unchanged.
  local marker = {}
  local ok2, err2 = pcall(host_test.lend, 'DoubleTensor', {3}, 1, function(t)
    kept = t
    error(marker)
  end)
  testing.assertEqual(ok2, false)
  testing.assertTrue(rawequal(err2, marker))
  expectInvalid(function() return kept:size() end, 'size')
  -- An error from a tensor method inside fn, too.
  local ok3 = pcall(host_test.lend, 'DoubleTensor', {2}, 1, function(t)
    kept = t
    t:select(5, 1)
  end)
  testing.assertEqual(ok3, false)
  expectInvalid(function() return kept:val() end, 'val')
end)

testing.case('loans are independent; nested loans end innermost first', function()
  local outer, inner
  host_test.lend('DoubleTensor', {2}, 1, function(a)
    outer = a
    host_test.lend('DoubleTensor', {2}, 2, function(b)
      inner = b
      a:cadd(b)
    end)
    expectInvalid(function() return inner:sum() end, 'sum')
    testing.assertEqual(a:val(), {3, 3}, 'the outer loan is still valid')
  end)
  expectInvalid(function() return outer:sum() end, 'sum')
  local first
  host_test.lend('DoubleTensor', {1}, 5, function(t) first = t end)
  host_test.lend('DoubleTensor', {1}, 6, function(t)
    testing.assertEqual(t:val(), 6)
    expectInvalid(function() return first:val() end, 'val')
  end)
end)

testing.case('there is deliberately no isValid()', function()
  local t = tensor.DoubleTensor(1)
  testing.assertEqual(t.isValid, nil)
end)

testing.case('pcall detects validity (for debugging)', function()
  local t = invalidTensor()
  testing.assertEqual(pcall(function() return t:type() end), false)
  testing.assertEqual(pcall(function() return tensor.DoubleTensor(1):type() end), true)
end)

testing.case('garbage collection of invalid tensors and views is harmless', function()
  for _ = 1, 20 do invalidTensor() end
  collectgarbage()
  collectgarbage()
  testing.assertEqual(tensor.DoubleTensor{1}:val(), 1)
end)

testing.run()
