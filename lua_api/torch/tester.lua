-- torch.Tester and torch.TestSuite: Torch7's unit-test framework, with its
-- assertions, so that Torch7 test files run unchanged.
--
--   local tests = torch.TestSuite()
--   function tests.add() tester:eq(torch.Tensor{1} + 1, torch.Tensor{2}) end
--   tester = torch.Tester(); tester:add(tests); tester:run()
local torch, internal = ...

function torch.TestSuite()
  local tests = {}
  return setmetatable({__tests = tests, __isTestSuite = true}, {
    __index = function(_, key) return tests[key] end,
    __newindex = function(_, key, f)
      if tests[key] ~= nil then error('Test ' .. tostring(key) .. ' is already defined.', 2) end
      if type(f) ~= 'function' then error('Only functions are supported as members of a TestSuite', 2) end
      tests[key] = f
    end,
  })
end

local Tester = torch.class('torch.Tester')

function Tester:__init()
  self.tests, self.errors, self.warnings, self.disabledTests = {}, {}, {}, {}
  self._currentTestName = ''
  self._assertTensorEqIgnoresDims = true
end

function Tester:setEarlyAbort(abort) self.earlyAbort = abort end
function Tester:setRethrowErrors(rethrow) self.rethrow = rethrow end
function Tester:setSummaryOnly(summary) self.summaryOnly = summary end

function Tester:_assert_sub(condition, message)
  local name = self._currentTestName
  if condition then
    self.assertionPass[name] = (self.assertionPass[name] or 0) + 1
    return true
  end
  if self.rethrow then error(message, 3) end
  self.assertionFail[name] = (self.assertionFail[name] or 0) + 1
  local where = ''
  for line in debug.traceback('', 2):gmatch('\n%s*([^\n]+)') do
    if line ~= 'stack traceback:' and not line:find('tester.lua', 1, true)
        and not line:find('(tail call)', 1, true) then
      where = line
      break
    end
  end
  self.errors[#self.errors + 1] = name .. '\n' .. message .. '\n' .. where
  return false
end

-- The optional message, then nothing else.
local function messageOf(message, ...)
  assert(select('#', ...) == 0, 'Unexpected arguments passed to test function')
  assert(message == nil or type(message) == 'string', 'message parameter must be a string')
  return (message and message ~= '') and message .. '\n' or ''
end

-- A tolerance and a message, in either order.
local function toleranceAndMessage(default, ...)
  local tolerance, message
  for i = 1, select('#', ...) do
    local a = select(i, ...)
    if type(a) == 'string' then
      assert(message == nil, 'Unexpected string argument; already have message')
      message = a .. '\n'
    elseif type(a) == 'number' then
      assert(tolerance == nil, 'Unexpected number argument; already have tolerance')
      assert(a >= 0, 'tolerance cannot be negative')
      tolerance = a
    elseif a ~= nil then
      error('Unrecognized argument; should be a tolerance or message', 2)
    end
  end
  return tolerance or default, message or ''
end

-- Deep equality, as Torch7's Tester: numbers within a tolerance, tensors
-- and storages by their largest difference, tables key by key.
local areEqual

local function tensorsEqual(a, b, tolerance, ignoreDims)
  if not ignoreDims and a:dim() ~= b:dim() then return false, 'The tensors have different dimensions' end
  if a:type() ~= b:type() then return false, 'The tensors have different types' end
  if a:dim() == 0 and b:dim() == 0 then return true end
  if ignoreDims and a:nElement() ~= b:nElement() or not ignoreDims and not a:isSameSizeAs(b) then
    return false, 'The tensors have different sizes'
  end
  if a:nElement() == 0 then return true end
  -- On a copy: a:double() of a DoubleTensor is a itself.
  local difference = a:clone():double():add(-1, b:double()):abs():max()
  if difference <= tolerance then return true end
  return false, ('TensorEQ(==) violation: max diff=%s, tolerance=%s'):format(
      tostring(difference), tostring(tolerance))
end

function areEqual(got, expected, tolerance)
  if torch.isTensor(got) and torch.isTensor(expected) then
    return tensorsEqual(got, expected, tolerance, false)
  end
  if torch.isStorage(got) and torch.isStorage(expected) then
    if torch.type(got) ~= torch.type(expected) or got:size() ~= expected:size() then
      return false, 'The storages have different types or sizes'
    end
    if got:size() == 0 then return true end
    return tensorsEqual(internal.storageTensor(got), internal.storageTensor(expected), tolerance)
  end
  if type(got) ~= type(expected) then
    return false, ('EQ failed: values have different types (first: %s, second: %s)'):format(
        type(got), type(expected))
  end
  if type(got) == 'number' then
    if math.abs(got - expected) <= tolerance or got == expected then return true end
    return false, ('EQ failed: %s ~= %s with tolerance=%s'):format(
        tostring(got), tostring(expected), tostring(tolerance))
  end
  if type(got) == 'table' then
    for k, v in pairs(got) do
      local ok, why = areEqual(v, expected[k], tolerance)
      if not ok then return false, 'Table EQ failed at key ' .. tostring(k) .. ': ' .. (why or '') end
    end
    for k in pairs(expected) do
      if got[k] == nil then return false, 'Table EQ failed: missing key ' .. tostring(k) end
    end
    return true
  end
  if got == expected then return true end
  return false, ('EQ failed: %s ~= %s'):format(tostring(got), tostring(expected))
end

function Tester:assert(condition, ...)
  local message = messageOf(...)
  return self:_assert_sub(condition, message .. 'BOOL violation condition=' .. tostring(condition))
end

function Tester:eq(got, expected, ...)
  local tolerance, message = toleranceAndMessage(0, ...)
  local ok, why = areEqual(got, expected, tolerance)
  return self:_assert_sub(ok, message .. (why or ''))
end
Tester.assertGeneralEq = Tester.eq

function Tester:ne(got, unexpected, ...)
  local tolerance, message = toleranceAndMessage(0, ...)
  local ok = areEqual(got, unexpected, tolerance)
  return self:_assert_sub(not ok, message .. 'NE failed: the values are equal')
end
Tester.assertGeneralNe = Tester.ne

local function comparison(name, holds, symbol)
  Tester[name] = function(self, a, b, ...)
    local message = messageOf(...)
    return self:_assert_sub(holds(a, b), ('%s%s violation: %s %s %s'):format(
        message, name:sub(7):upper(), tostring(a), symbol, tostring(b)))
  end
end
comparison('assertlt', function(a, b) return a < b end, '>=')
comparison('assertgt', function(a, b) return a > b end, '<=')
comparison('assertle', function(a, b) return a <= b end, '>')
comparison('assertge', function(a, b) return a >= b end, '<')
comparison('asserteq', function(a, b) return a == b end, '~=')
comparison('assertne', function(a, b) return a ~= b end, '==')

function Tester:assertalmosteq(a, b, ...)
  local tolerance, message = toleranceAndMessage(1e-16, ...)
  return self:_assert_sub(math.abs(a - b) <= tolerance, ('%sALMOST_EQ failed: %s ~= %s with tolerance=%s'):format(
      message, tostring(a), tostring(b), tostring(tolerance)))
end

function Tester:assertTensorEq(a, b, ...)
  assert(torch.isTensor(a), 'First argument should be a Tensor')
  assert(torch.isTensor(b), 'Second argument should be a Tensor')
  local tolerance, message = toleranceAndMessage(0, ...)
  local ok, why = tensorsEqual(a, b, tolerance, self._assertTensorEqIgnoresDims)
  return self:_assert_sub(ok, message .. (why or ''))
end

function Tester:assertTensorNe(a, b, ...)
  assert(torch.isTensor(a), 'First argument should be a Tensor')
  assert(torch.isTensor(b), 'Second argument should be a Tensor')
  local tolerance, message = toleranceAndMessage(0, ...)
  local ok = tensorsEqual(a, b, tolerance, self._assertTensorEqIgnoresDims)
  return self:_assert_sub(not ok, message .. 'TensorNE(==) violation')
end

function Tester:assertTableEq(a, b, ...)
  assert(type(a) == 'table', 'First argument should be a Table')
  assert(type(b) == 'table', 'Second argument should be a Table')
  return self:eq(a, b, ...)
end

function Tester:assertTableNe(a, b, ...)
  assert(type(a) == 'table', 'First argument should be a Table')
  assert(type(b) == 'table', 'Second argument should be a Table')
  return self:ne(a, b, ...)
end

function Tester:assertErrorObj(f, matches, ...)
  local message = messageOf(...)
  local ok, err = pcall(f)
  return self:_assert_sub(not ok and matches(err), message .. 'ERROR violation: err=' .. tostring(err))
end

function Tester:assertError(f, ...)
  return self:assertErrorObj(f, function() return true end, ...)
end

function Tester:assertErrorMsg(f, expected, ...)
  return self:assertErrorObj(f, function(err) return err == expected end, ...)
end

function Tester:assertErrorPattern(f, pattern, ...)
  return self:assertErrorObj(f, function(err) return tostring(err):find(pattern) ~= nil end, ...)
end

function Tester:assertNoError(f, ...)
  local message = messageOf(...)
  local ok, err = pcall(f)
  return self:_assert_sub(ok, message .. 'ERROR violation: err=' .. tostring(err))
end

-- add(suite), add(table of functions) or add(function, name).
function Tester:add(f, name)
  if type(f) == 'table' then
    for testName, test in pairs(f.__isTestSuite and f.__tests or f) do self:add(test, testName) end
    return self
  end
  assert(type(f) == 'function', 'Only tables of functions and functions supported')
  if name == '_setUp' or name == '_tearDown' then
    self[name] = f
    return self
  end
  name = name or 'unknown'
  if self.tests[name] ~= nil then error('Test with name ' .. name .. ' already exists!', 2) end
  self.tests[name] = f
  return self
end

function Tester:disable(names)
  for _, name in ipairs(type(names) == 'string' and {names} or names) do
    assert(self.tests[name], "Unrecognized test '" .. name .. "'")
    self.disabledTests[name] = true
  end
  return self
end

-- run([names]): names are Lua patterns; prints one line per test and a
-- summary, then raises if any test failed.
function Tester:run(names)
  local selected = {}
  if names == nil then
    selected = self.tests
  else
    for _, pattern in ipairs(type(names) == 'string' and {names} or names) do
      local found = false
      for name, f in pairs(self.tests) do
        if name:match(pattern) then selected[name], found = f, true end
      end
      assert(found, "Couldn't find test '" .. pattern .. "'")
    end
  end
  local order = {}
  for name in pairs(selected) do order[#order + 1] = name end
  table.sort(order)
  self.assertionPass, self.assertionFail, self.testError = {}, {}, {}
  local failed, errors, asserts = 0, 0, 0
  io.write(('Running %d tests\n'):format(#order))
  for i, name in ipairs(order) do
    self._currentTestName = name
    self.assertionPass[name], self.assertionFail[name] = 0, 0
    local status = 'PASS'
    if self.disabledTests[name] then
      status = 'SKIP'
    else
      if self._setUp then self._setUp(name) end
      local ok, err
      if self.rethrow then
        ok = true
        selected[name]()
      else
        ok, err = xpcall(selected[name], debug.traceback)
      end
      if self._tearDown then self._tearDown(name) end
      if not ok then
        status = 'ERROR'
        errors = errors + 1
        self.testError[name] = 1
        self.errors[#self.errors + 1] = name .. '\n Function call failed\n' .. tostring(err) .. '\n'
      elseif self.assertionFail[name] > 0 then
        status = 'FAIL'
        failed = failed + 1
      end
    end
    asserts = asserts + self.assertionPass[name] + self.assertionFail[name]
    if not self.summaryOnly then
      io.write(('%d/%d %s %s [%s]\n'):format(i, #order, name,
                                             string.rep('.', math.max(2, 60 - #name)), status))
    end
    if self.earlyAbort and (status == 'ERROR' or status == 'FAIL') then break end
  end
  io.write(('Completed %d asserts in %d tests with %d failures and %d errors\n'):format(
      asserts, #order, failed, errors))
  for _, e in ipairs(self.errors) do io.write(string.rep('-', 80), '\n', e, '\n') end
  assert(failed == 0 and errors == 0, 'An error was found while running tests!')
  return 0
end
