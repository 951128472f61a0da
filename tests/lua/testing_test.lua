-- Tests of the harness itself (tests/lua/testing.lua).
local testing = require 'testing'

testing.case('assertEqual compares numbers and strings with ==', function()
  testing.assertEqual(1 + 1, 2)
  testing.assertEqual('a' .. 'b', 'ab', 'concatenation')
  testing.assertEqual(0 / 0, 0 / 0, 'NaN equals NaN')
end)

testing.case('assertEqual compares tables deeply', function()
  testing.assertEqual({1, {2, 3}, x = {y = 'z'}}, {1, {2, 3}, x = {y = 'z'}})
  local a, b = {1}, {1}
  a.self, b.self = a, b
  testing.assertEqual(a, b, 'cycles terminate')
end)

testing.case('assertEqual names the first difference', function()
  local err = testing.assertError(function()
    testing.assertEqual({1, {2, 3}}, {1, {2, 4}}, 'nested')
  end, 'nested: at [2][2]: expected 4, got 3')
  testing.assertTrue(err:find('^[^:]*testing_test%.lua:%d+: nested') ~= nil,
                     'the error points at the caller: ' .. err)
  testing.assertError(function() testing.assertEqual({1, 2}, {1}) end,
                      'at [2]: expected nil, got 2')
  testing.assertError(function() testing.assertEqual({1}, {1, 2}) end,
                      'at [2]: expected 2, got nil')
  testing.assertError(function() testing.assertEqual(1, '1') end, 'expected "1", got 1')
  testing.assertError(function() testing.assertEqual({}, 1) end, 'expected 1, got {}')
end)

testing.case('assertEqual uses __eq, so userdata compare by value', function()
  local mt = {__eq = function(x, y) return x.v == y.v end}
  local a = setmetatable({v = 1}, mt)
  local b = setmetatable({v = 1}, mt)
  testing.assertTrue(a == b)
  local tensor = require 'dmlab.system.tensor'
  testing.assertEqual(tensor.DoubleTensor{1, 2}, tensor.DoubleTensor{1, 2})
  testing.assertError(function()
    testing.assertEqual(tensor.DoubleTensor{1, 2}, tensor.DoubleTensor{1, 3})
  end, 'expected')
end)

testing.case('assertErrorContains needs every substring and returns the message', function()
  local err = testing.assertErrorContains(function() error('bad argument #2 to narrow') end,
                                          'bad argument', 'narrow')
  testing.assertTrue(err:find('#2', 1, true) ~= nil)
  testing.assertError(function()
    testing.assertErrorContains(function() error('bad argument') end, 'bad', 'missing')
  end, 'does not contain "missing"')
  testing.assertError(function() testing.assertErrorContains(function() end, 'x') end,
                      'returned normally')
end)

testing.case('assertTrue accepts everything but false and nil', function()
  testing.assertTrue(true)
  testing.assertTrue(0)
  testing.assertTrue('')
  testing.assertError(function() testing.assertTrue(false, 'flag') end,
                      'flag: expected a true value, got false')
  testing.assertError(function() testing.assertTrue(nil) end, 'got nil')
end)

testing.case('assertError checks the message with a plain find', function()
  local err = testing.assertError(function() error('a.b(c) failed') end, 'b(c')
  testing.assertTrue(err:find('a.b(c) failed', 1, true) ~= nil)
  testing.assertError(function() error({}) end, nil)
  testing.assertError(function() error('x') end)
end)

testing.case('assertError fails on a function that does not raise', function()
  testing.assertError(function()
    testing.assertError(function() end, 'boom')
  end, 'expected an error containing "boom", but the function returned normally')
end)

testing.case('assertError fails on the wrong message', function()
  testing.assertError(function()
    testing.assertError(function() error('bang', 0) end, 'boom', 'which error')
  end, 'which error: expected an error containing "boom", got: bang')
end)

testing.case('case rejects bad and duplicate registrations', function()
  testing.assertError(function() testing.case(1, function() end) end, 'must be a string')
  testing.assertError(function() testing.case('x') end, 'expected a function')
  testing.assertError(function() testing.case('assertError fails on the wrong message',
                                              function() end) end, 'duplicate')
end)

-- Runs the failing fixture in a child interpreter (arg[-1] is lua_run) and
-- returns its exit status, its stdout and its JUnit XML.
local function runFixture()
  local fixture = arg[0]:gsub('testing_test%.lua$', 'testing_fixture_failing.lua')
  local xml = os.tmpname()
  local command = string.format('XML_OUTPUT_FILE=%q %q %q 2>&1', xml, arg[-1], fixture)
  local pipe = assert(io.popen(command .. '; echo "exit=$?"'))
  local output = pipe:read('*a')
  pipe:close()
  local file = assert(io.open(xml))
  local text = file:read('*a')
  file:close()
  os.remove(xml)
  return tonumber(output:match('exit=(%d+)')), output, text
end

testing.case('skip needs a reason', function()
  testing.assertError(function() testing.skip('no reason', '') end, 'say why')
end)

testing.case('run reports failures, exits 1 and writes escaped JUnit XML', function()
  local status, output, xml = runFixture()
  testing.assertEqual(status, 1, 'exit status; output:\n' .. output)
  testing.assertTrue(output:find('PASS passes\n', 1, true), output)
  testing.assertTrue(output:find('FAIL fails <&> "quoted": ', 1, true), output)
  testing.assertTrue(output:find('error object is a table value', 1, true), output)
  testing.assertTrue(output:find('SKIP is skipped: not run <here> & why\n', 1, true), output)
  testing.assertTrue(output:find('1 passed, 3 failed, 1 skipped', 1, true), output)

  local function has(s) testing.assertTrue(xml:find(s, 1, true), 'missing ' .. s .. ' in\n' .. xml) end
  has('<?xml version="1.0" encoding="UTF-8"?>')
  has('tests="5" failures="3" errors="0" skipped="1"')
  has('<testcase name="is skipped" classname="testing_fixture_failing" status="notrun" ' ..
      'result="skipped"')
  has('<skipped message="not run &lt;here&gt; &amp; why"/>')
  has('<testcase name="passes" classname="testing_fixture_failing"')
  has('<testcase name="fails &lt;&amp;&gt; &quot;quoted&quot;"')
  has('<failure message="')
  has('nested &lt;table&gt; &amp; &quot;stuff&quot;: at [2][2]')
  has('name="control ? chars and bad ? UTF-8"')
  has('bell ? and ? end')
  testing.assertEqual(select(2, xml:gsub('<testcase ', '')), 5, 'one <testcase> per case')
  testing.assertEqual(select(2, xml:gsub('<failure ', '')), 3, 'one <failure> per failing case')
  testing.assertTrue(not xml:find('[%z\1-\8\11\12\14-\31\128-\255]'), 'no raw control bytes')
end)

testing.run()
