-- LuaJIT's compiled fast path for fill, add, sub, mul and div with one
-- number (lua_api/tensor/tensor_methods_ffi.cc). Every case runs its calls in
-- loops long enough for LuaJIT to compile them, and expects exactly what
-- the classic methods give: under Lua 5.1, which has no fast path, the
-- same cases pin the classic methods.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local random = require 'dmlab.system.random'
local host_test = require 'dmlab.system.host_test'

local DOUBLE = 'dmlab.system.tensor.DoubleTensor'
local LENDER = 'host_test.lend buffer'
-- More than LuaJIT's hot-loop threshold (56), so loops are compiled.
local HOT = 300

-- The kind of function that `method` of a new DoubleTensor is.
local function methodKind(method)
  return debug.getinfo(tensor.DoubleTensor(1)[method], 'S').what
end

-- Opens the module again (as a second require in a fresh state would)
-- after `prepare`, and returns the kind of `add`; then `restore` and
-- reopens, so later cases see the module as lua_run opens it.
local function reopenedKind(prepare, restore)
  prepare()
  package.loaded['dmlab.system.tensor'] = nil
  require 'dmlab.system.tensor'
  local kind = methodKind('add')
  restore()
  package.loaded['dmlab.system.tensor'] = nil
  require 'dmlab.system.tensor'
  return kind
end

-- Calls t[method](t, value) `times` times, as a level script's loop would.
local function repeatOp(t, method, value, times)
  for _ = 1, times do t[method](t, value) end
  return t
end

-- repeatOp, stopping at the first error: how many calls worked, and it.
local function repeatUntilError(t, method, values)
  for i, value in ipairs(values) do
    local ok, err = pcall(t[method], t, value)
    if not ok then return i - 1, err end
  end
  return #values
end

local function listOf(value, count)
  local list = {}
  for i = 1, count do list[i] = value end
  return list
end

testing.case('under LuaJIT, which lua_run opens with every library, the fast path is there', function()
  local kind = jit and 'Lua' or 'C'
  for _, method in ipairs{'fill', 'add', 'sub', 'mul', 'div'} do
    testing.assertEqual(methodKind(method), kind, method)
  end
  testing.assertEqual(debug.getinfo(tensor.CharTensor(1).add, 'S').what, kind)
  testing.assertEqual(methodKind('cadd'), 'C')
end)

testing.case('compiled loops give the classic results for every type and op', function()
  for _, typeName in ipairs{'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
                            'Int64Tensor', 'FloatTensor', 'DoubleTensor'} do
    local t = tensor[typeName](2, 2)
    testing.assertEqual(repeatOp(t, 'fill', 7, HOT):val(), {{7, 7}, {7, 7}}, typeName)
    testing.assertEqual(repeatOp(t, 'add', 1, 100):val(), {{107, 107}, {107, 107}}, typeName)
    testing.assertEqual(repeatOp(t, 'sub', 1, 100):val(), {{7, 7}, {7, 7}}, typeName)
    testing.assertEqual(repeatOp(t, 'mul', 1, HOT):val(), {{7, 7}, {7, 7}}, typeName)
    testing.assertEqual(repeatOp(t, 'div', 1, HOT):val(), {{7, 7}, {7, 7}}, typeName)
  end
  testing.assertEqual(repeatOp(tensor.DoubleTensor{1024, 3}, 'div', 2, 10):val(), {1, 3 / 1024})
  testing.assertEqual(repeatOp(tensor.Int32Tensor{-7, 7}, 'div', 2, 1):val(), {-3, 3})
end)

testing.case('compiled loops on views write only the view', function()
  local t = tensor.DoubleTensor(3, 3)
  repeatOp(t:select(2, 2), 'add', 1, HOT)
  repeatOp(t:narrow(1, 3, 1), 'mul', 2, HOT)
  testing.assertEqual(t:val(), {{0, HOT, 0}, {0, HOT, 0}, {0, 2 ^ HOT * HOT, 0}})
  local d = tensor.Int64Tensor(2, 4)
  repeatOp(d:transpose(1, 2):narrow(1, 2, 2), 'fill', 5, HOT)
  testing.assertEqual(d:val(), {{0, 5, 5, 0}, {0, 5, 5, 0}})
end)

testing.case('a failing call in a compiled loop raises the classic error and writes nothing', function()
  local bytes = tensor.ByteTensor(3)
  -- method, the value of most calls, the failing call's index and value,
  -- its message, and the elements after it.
  for _, c in ipairs{
    {'add', 1, HOT - 50, 300, "'add': 249 + 300 gives 549, which uint8 cannot hold; nothing was changed",
     HOT - 51},
    {'div', 1, HOT, 0, "'div': integer division by zero; nothing was changed", HOT - 51},
    {'fill', 0, HOT, 256, "'fill': uint8 cannot hold 256; nothing was changed", 0},
  } do
    local method, value, at, bad, message, after = unpack(c)
    local values = listOf(value, HOT)
    values[at] = bad
    local done, err = repeatUntilError(bytes, method, values)
    testing.assertEqual(done, at - 1, method)
    testing.assertEqual(err, message)
    testing.assertEqual(bytes:val(), listOf(after, 3), method)
  end
end)

testing.case('a tensor whose loan ended is invalid in the loop that ran during the loan', function()
  local kept
  host_test.lend('DoubleTensor', {2}, 0, function(t)
    kept = t
    testing.assertEqual(repeatOp(t, 'add', 1, HOT):val(), {HOT, HOT})
  end)
  for _, method in ipairs{'fill', 'add', 'sub', 'mul', 'div'} do
    local done, err = repeatUntilError(kept, method, listOf(1, HOT))
    testing.assertEqual(done, 0, method)
    for _, part in ipairs{'invalid', DOUBLE, method, LENDER} do
      testing.assertTrue(err:find(part, 1, true), ('%q in %q'):format(part, err))
    end
  end
end)

testing.case('a view of a lent tensor is invalid after the loan, in a compiled loop', function()
  local view
  host_test.lend('Int32Tensor', {2, 2}, 1, function(t)
    view = t:select(1, 2)
    repeatOp(view, 'mul', 1, HOT)
  end)
  local done, err = repeatUntilError(view, 'mul', listOf(1, HOT))
  testing.assertEqual(done, 0)
  testing.assertTrue(err:find('invalid', 1, true), err)
end)

testing.case('a value that is not a tensor as self gets the classic bad-self error', function()
  local t = tensor.DoubleTensor(2)
  local forged = newproxy(true)
  getmetatable(forged).__metatable = DOUBLE
  local selves = {
    1, 'text', {}, io.stdout, random.Generator(), newproxy(), forged,
    setmetatable({}, debug.getmetatable(t)),
  }
  for _, self in ipairs(selves) do
    for _ = 1, HOT / 10 do
      testing.assertError(function() t.add(self, 1) end, "calling 'add' on bad self")
    end
  end
  testing.assertEqual(t:val(), {0, 0})
end)

testing.case('a tensor destroyed through its __gc is not used again', function()
  local t = tensor.DoubleTensor(2)
  repeatOp(t, 'add', 1, HOT)
  debug.getmetatable(t).__gc(t)
  for _ = 1, HOT / 10 do
    testing.assertError(function() t:add(1) end, "calling 'add' on bad self (dmlab.system.tensor tensor expected, got " .. DOUBLE)
  end
end)

testing.case('other arguments go to the classic method', function()
  local t = tensor.DoubleTensor(3, 2)
  for _ = 1, HOT do
    t:add(1, nil)                   -- a nil scale is no scale
    t:add(2, tensor.DoubleTensor(3, 2):fill(0.5))
    testing.assertEqual(t:sub(2, 3):shape(), {2, 2})  -- a view by index ranges
  end
  testing.assertEqual(t:val(), listOf({2 * HOT, 2 * HOT}, 3))
  repeatOp(t, 'mul', {1, 0.5}, HOT)
  testing.assertEqual(t:val(), listOf({2 * HOT, 2 * HOT * 0.5 ^ HOT}, 3))
  testing.assertError(function() t:add('1') end, "bad argument #1 to 'add'")
end)

if jit then
  testing.case('a host that offers no ffi keeps the classic methods', function()
    local loaded, preload = package.loaded.ffi, package.preload.ffi
    local kind = reopenedKind(function()
      package.loaded.ffi, package.preload.ffi = nil, nil
    end, function()
      package.loaded.ffi, package.preload.ffi = loaded, preload
    end)
    testing.assertEqual(kind, 'C')
    testing.assertEqual(methodKind('add'), 'Lua')
  end)

  testing.case('with the compiler off when the module opens, the classic methods stay', function()
    testing.assertEqual(reopenedKind(jit.off, jit.on), 'C')
    testing.assertEqual(methodKind('add'), 'Lua')
    testing.assertEqual(repeatOp(tensor.DoubleTensor(2), 'add', 2, HOT):val(), {2 * HOT, 2 * HOT})
  end)
end

testing.run()
