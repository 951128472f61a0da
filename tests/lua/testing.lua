--[[ testing: the tiny test harness of the Lua suites (tests/lua/*_test.lua).

Each suite registers cases and ends with testing.run():

  local testing = require 'testing'
  local tensor = require 'dmlab.system.tensor'

  testing.case('fill sets every element', function()
    local t = tensor.DoubleTensor(2, 2):fill(7)
    testing.assertEqual(t, tensor.DoubleTensor{{7, 7}, {7, 7}})
    testing.assertEqual(t:shape(), {2, 2}, 'shape')
  end)

  testing.case('narrow checks its range', function()
    testing.assertError(function() tensor.DoubleTensor(2):narrow(1, 2, 5) end,
                        'narrow')
  end)

  testing.run()

API:
  testing.case(name, fn)        registers a case; names must be unique.
  testing.skip(name, why)       registers a case that is not run, reported as
                                skipped with `why` (a non-empty string): in
                                the output, the XML and ./lab test's count,
                                never as a pass.
  testing.assertEqual(actual, expected[, message])
                                tables are compared deeply (keys and values,
                                raw, cycles allowed); anything else with ==,
                                so tensors compare with their __eq. Two NaNs
                                count as equal. The error names the first
                                difference, e.g. "at [2][1]: expected 3, got 4".
  testing.assertTrue(value[, message])
                                passes for any value but false and nil.
  testing.assertError(fn, substring[, message])
                                fn() must raise an error whose tostring
                                contains substring (a plain find, not a
                                pattern; nil accepts any error). Returns the
                                error value.
  testing.run([suiteName])      runs every case in order, each in xpcall with
                                a traceback; prints "PASS name",
                                "FAIL name: message" or "SKIP name: why" per
                                case, then "N passed, M failed[, K skipped]". Writes JUnit XML to
                                $XML_OUTPUT_FILE when set (Bazel sets it, and
                                ./lab test counts the <testcase>s), and calls
                                os.exit(1) if any case failed. suiteName
                                defaults to the script's base name.

Failures are plain Lua errors raised at the caller's line (level 2), so an
assertion stops its case and the message says where.
]]

local testing = {}

local cases = {}
local caseNames = {}

function testing.case(name, fn)
  if type(name) ~= 'string' then
    error('testing.case: the name must be a string, got ' .. type(name), 2)
  end
  if type(fn) ~= 'function' then
    error('testing.case(' .. name .. '): expected a function, got ' .. type(fn), 2)
  end
  if caseNames[name] then
    error('testing.case: duplicate case name ' .. string.format('%q', name), 2)
  end
  caseNames[name] = true
  cases[#cases + 1] = {name = name, fn = fn}
end

function testing.skip(name, why)
  if type(why) ~= 'string' or why == '' then
    error('testing.skip(' .. tostring(name) .. '): say why, as a non-empty string', 2)
  end
  testing.case(name, function() end)
  cases[#cases].skip = why
end

-- ---- Describing values in failure messages. ----

local describe

local function describeKey(key)
  if type(key) == 'string' and key:match('^[%a_][%w_]*$') then return key end
  return '[' .. describe(key, 0, {}) .. ']'
end

-- Keys in a stable order: the array part first, then the rest by type and
-- text, so messages do not change between runs.
local function sortedKeys(t)
  local n = #t
  local rest = {}
  for key in pairs(t) do
    if not (type(key) == 'number' and key >= 1 and key <= n and key % 1 == 0) then
      rest[#rest + 1] = key
    end
  end
  table.sort(rest, function(a, b)
    if type(a) ~= type(b) then return type(a) < type(b) end
    if type(a) == 'number' then return a < b end
    return tostring(a) < tostring(b)
  end)
  return n, rest
end

function describe(value, depth, seen)
  if type(value) == 'string' then return string.format('%q', value) end
  if type(value) ~= 'table' then return tostring(value) end
  if seen[value] then return '<cycle>' end
  if depth > 3 then return '{...}' end
  seen[value] = true
  local parts = {}
  local n, rest = sortedKeys(value)
  for i = 1, n do parts[#parts + 1] = describe(value[i], depth + 1, seen) end
  for _, key in ipairs(rest) do
    parts[#parts + 1] = describeKey(key) .. ' = ' .. describe(value[key], depth + 1, seen)
  end
  seen[value] = nil
  return '{' .. table.concat(parts, ', ') .. '}'
end

local function show(value)
  return describe(value, 0, {})
end

-- Raises "<message>: <what>" (or just <what>) at the assertion's caller.
local function fail(message, what)
  if message ~= nil then what = tostring(message) .. ': ' .. what end
  error(what, 3)
end

-- ---- Assertions. ----

local function isNaN(x)
  return type(x) == 'number' and x ~= x
end

-- nil if a and b are equal; otherwise the path to their first difference
-- ('' at the top) and the two values there.
local function difference(a, b, path, seen)
  if type(a) ~= 'table' or type(b) ~= 'table' then
    if a == b or (isNaN(a) and isNaN(b)) then return nil end
    return path, a, b
  end
  if rawequal(a, b) then return nil end
  -- A pair already being compared further up is assumed equal (cycles).
  seen[a] = seen[a] or {}
  if seen[a][b] then return nil end
  seen[a][b] = true
  local n, rest = sortedKeys(a)
  local function compareKey(key)
    return difference(rawget(a, key), rawget(b, key), path .. '[' .. show(key) .. ']', seen)
  end
  for i = 1, n do
    local where, x, y = compareKey(i)
    if where then return where, x, y end
  end
  for _, key in ipairs(rest) do
    local where, x, y = compareKey(key)
    if where then return where, x, y end
  end
  for key, value in pairs(b) do
    if rawget(a, key) == nil then
      return path .. '[' .. show(key) .. ']', nil, value
    end
  end
  return nil
end

function testing.assertEqual(actual, expected, message)
  local where, x, y = difference(actual, expected, '', {})
  if where == nil then return end
  local what = 'expected ' .. show(y) .. ', got ' .. show(x)
  if where ~= '' then
    what = 'at ' .. where .. ': ' .. what .. '\n  (whole value: expected ' .. show(expected) ..
        ', got ' .. show(actual) .. ')'
  end
  fail(message, what)
end

function testing.assertTrue(value, message)
  if value == nil or value == false then
    fail(message, 'expected a true value, got ' .. show(value))
  end
end

function testing.assertError(fn, substring, message)
  if type(fn) ~= 'function' then
    error('testing.assertError: expected a function, got ' .. type(fn), 2)
  end
  if substring ~= nil and type(substring) ~= 'string' then
    error('testing.assertError: the substring must be a string, got ' .. type(substring), 2)
  end
  local ok, err = pcall(fn)
  local wanted = substring and ('an error containing ' .. show(substring)) or 'an error'
  if ok then
    fail(message, 'expected ' .. wanted .. ', but the function returned normally')
  end
  if substring ~= nil and not string.find(tostring(err), substring, 1, true) then
    fail(message, 'expected ' .. wanted .. ', got: ' .. tostring(err))
  end
  return err
end

-- fn must raise an error whose message contains every one of the given
-- substrings (plain find). Returns the message.
function testing.assertErrorContains(fn, ...)
  local ok, err = pcall(fn)
  if ok then fail(nil, 'expected an error, but the function returned normally') end
  err = tostring(err)
  for i = 1, select('#', ...) do
    local wanted = select(i, ...)
    if not string.find(err, wanted, 1, true) then
      fail(nil, 'error ' .. show(err) .. ' does not contain ' .. show(wanted))
    end
  end
  return err
end

-- ---- JUnit XML. ----

-- Whether s[i..i+len-1] is one well-formed UTF-8 sequence (no overlongs,
-- no surrogates, nothing above U+10FFFF).
local function utf8Sequence(s, i)
  local c = s:byte(i)
  if c < 0x80 then return 1 end
  local len, low, high = 0, 0x80, 0xBF
  if c >= 0xC2 and c <= 0xDF then len = 2
  elseif c == 0xE0 then len, low = 3, 0xA0
  elseif c == 0xED then len, high = 3, 0x9F
  elseif c >= 0xE1 and c <= 0xEF then len = 3
  elseif c == 0xF0 then len, low = 4, 0x90
  elseif c >= 0xF1 and c <= 0xF3 then len = 4
  elseif c == 0xF4 then len, high = 4, 0x8F
  else return nil end
  for j = 1, len - 1 do
    local d = s:byte(i + j)
    if d == nil then return nil end
    if j == 1 then
      if d < low or d > high then return nil end
    elseif d < 0x80 or d > 0xBF then
      return nil
    end
  end
  return len
end

-- XML 1.0 allows neither invalid UTF-8, nor most control characters, nor
-- U+FFFE/U+FFFF, even escaped; each becomes '?'.
local function xmlSafe(s)
  if s:find('[\128-\255]') then
    local out, i = {}, 1
    while i <= #s do
      local len = utf8Sequence(s, i)
      out[#out + 1] = len and s:sub(i, i + len - 1) or '?'
      i = i + (len or 1)
    end
    s = table.concat(out):gsub('\239\191[\190\191]', '?')
  end
  return (s:gsub('[%z\1-\8\11\12\14-\31]', '?'))
end

local xmlEntities = {
  ['&'] = '&amp;', ['<'] = '&lt;', ['>'] = '&gt;', ['"'] = '&quot;', ["'"] = '&apos;',
  -- Only matter in attributes, where a parser would turn them into spaces.
  ['\n'] = '&#10;', ['\r'] = '&#13;', ['\t'] = '&#9;',
}

local function xmlText(s)
  return (xmlSafe(s):gsub('[&<>"\']', xmlEntities))
end

local function xmlAttribute(s)
  return (xmlSafe(s):gsub('[&<>"\'\n\r\t]', xmlEntities))
end

local function junitXml(suite, results, failed, skipped, totalTime)
  local lines = {
    '<?xml version="1.0" encoding="UTF-8"?>',
    string.format('<testsuites name="%s" tests="%d" failures="%d" errors="0" time="%.3f">',
                  xmlAttribute(suite), #results, failed, totalTime),
    string.format('  <testsuite name="%s" tests="%d" failures="%d" errors="0" skipped="%d" ' ..
                  'time="%.3f">', xmlAttribute(suite), #results, failed, skipped, totalTime),
  }
  for _, r in ipairs(results) do
    local open = string.format(
        '    <testcase name="%s" classname="%s" status="%s" result="%s" time="%.3f"',
        xmlAttribute(r.name), xmlAttribute(suite), r.skip and 'notrun' or 'run',
        r.skip and 'skipped' or 'completed', r.time)
    if r.skip then
      lines[#lines + 1] = open .. '>'
      lines[#lines + 1] = string.format('      <skipped message="%s"/>', xmlAttribute(r.skip))
      lines[#lines + 1] = '    </testcase>'
    elseif r.error then
      lines[#lines + 1] = open .. '>'
      lines[#lines + 1] = string.format('      <failure message="%s" type="">%s</failure>',
                                        xmlAttribute(r.error:match('^[^\n]*')),
                                        xmlText(r.error))
      lines[#lines + 1] = '    </testcase>'
    else
      lines[#lines + 1] = open .. '/>'
    end
  end
  lines[#lines + 1] = '  </testsuite>'
  lines[#lines + 1] = '</testsuites>'
  return table.concat(lines, '\n') .. '\n'
end

-- ---- Running. ----

-- The message handler: any error value as text, plus the traceback.
local function traceback(err)
  local text = type(err) == 'string' and err or
      '(error object is a ' .. type(err) .. ' value: ' .. tostring(err) .. ')'
  return debug.traceback(text, 2)
end

local function defaultSuiteName()
  local script = arg and arg[0]
  if type(script) ~= 'string' then return 'lua' end
  return (script:match('([^/]*)$'):gsub('%.lua$', ''))
end

function testing.run(suiteName)
  local suite = suiteName or defaultSuiteName()
  if #cases == 0 then
    print('FAIL ' .. suite .. ': no test cases were registered')
    io.stdout:flush()
    os.exit(1)
  end
  local results, failed, skipped = {}, 0, 0
  local suiteStart = os.clock()
  for _, case in ipairs(cases) do
    local start = os.clock()
    local ok, err = xpcall(case.fn, traceback)
    local result = {name = case.name, time = os.clock() - start, skip = case.skip}
    if case.skip then
      skipped = skipped + 1
      print('SKIP ' .. case.name .. ': ' .. case.skip)
    elseif ok then
      print('PASS ' .. case.name)
    else
      failed = failed + 1
      result.error = tostring(err)
      -- First line on the FAIL line, the rest (traceback) indented below.
      print('FAIL ' .. case.name .. ': ' .. result.error:gsub('\n', '\n    '))
    end
    results[#results + 1] = result
  end
  print(string.format('%d passed, %d failed', #results - failed - skipped, failed) ..
        (skipped > 0 and string.format(', %d skipped', skipped) or ''))

  local xmlPath = os.getenv('XML_OUTPUT_FILE')
  if xmlPath and xmlPath ~= '' then
    local file, why = io.open(xmlPath, 'w')
    local written = file and file:write(junitXml(suite, results, failed, skipped, os.clock() - suiteStart))
    if file then file:close() end
    if not written then
      io.stderr:write('testing: cannot write ' .. xmlPath .. ': ' .. tostring(why) .. '\n')
      failed = failed + 1
    end
  end
  io.stdout:flush()
  if failed > 0 then os.exit(1) end
end

return testing
