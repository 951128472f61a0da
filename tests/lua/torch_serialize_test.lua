-- dmlab.system.torch: torch.serialize/deserialize and torch.save/load in
-- Torch7's binary and ascii formats. The expected ascii texts are what
-- Torch7 (814ea4a) writes for the same objects.
local testing = require 'testing'
local torch = require 'dmlab.system.torch'

local expectError = testing.assertErrorContains

-- Little-endian, for n < 2^16.
local function int(n) return string.char(n % 256, math.floor(n / 256) % 256, 0, 0) end
local function long(n) return int(n) .. '\0\0\0\0' end
local function chars(s) return int(#s) .. s end
local ONE, TWO = '\0\0\0\0\0\0\240\63', '\0\0\0\0\0\0\0\64'  -- doubles, little-endian

testing.case('the bytes are Torch7\'s', function()
  testing.assertEqual(torch.serialize(1), int(1) .. ONE)
  testing.assertEqual(torch.serialize('ab'), int(2) .. chars('ab'))
  testing.assertEqual(torch.serialize(true), int(5) .. int(1))
  testing.assertEqual(torch.serialize(nil), int(0))
  testing.assertEqual(torch.serialize({2}), int(3) .. int(1) .. int(1) .. int(1) .. ONE .. int(1) .. TWO)
  local expected = int(4) .. int(1) .. chars('V 1') .. chars('torch.DoubleTensor') ..
      int(1) .. long(2) .. long(1) .. long(1) ..
      int(4) .. int(2) .. chars('V 1') .. chars('torch.DoubleStorage') .. long(2) .. ONE .. TWO
  testing.assertEqual(torch.serialize(torch.DoubleTensor({1, 2})), expected)
  testing.assertEqual(torch.deserialize(expected):totable(), {1, 2})
end)

testing.case('round trips keep values, types, layouts and sharing', function()
  for _, name in ipairs({'Byte', 'Char', 'Short', 'Int', 'Long', 'Half', 'Float', 'Double'}) do
    local t = torch[name .. 'Tensor']({{1, 2, 3}, {4, 5, 6}})
    local back = torch.deserialize(torch.serialize(t))
    testing.assertEqual(back:type(), t:type())
    testing.assertEqual(back:totable(), t:totable())
  end
  local base = torch.Tensor({{1, 2, 3}, {4, 5, 6}})
  local column = base:select(2, 2)
  local back = torch.deserialize(torch.serialize({base = base, column = column, base:t()}))
  testing.assertEqual(back.column:totable(), {2, 5})
  testing.assertEqual(back[1]:stride(1), 1, 'the transpose keeps its strides')
  back.base[1][2] = 20
  testing.assertEqual(back.column[1], 20, 'one storage, still shared')
  local cycle = {name = 'x'}
  cycle.self = cycle
  local again = torch.deserialize(torch.serialize(cycle))
  testing.assertEqual(again.self == again, true)
  testing.assertEqual(torch.deserialize(torch.serialize(torch.Tensor())):dim(), 0)
  local s = torch.FloatStorage({1.5, 2.5})
  testing.assertEqual(torch.deserialize(torch.serialize(s)):totable(), {1.5, 2.5})
end)

testing.case('classes, generators and files', function()
  local Point = torch.class('torch.SerializedPoint')
  function Point:__init(x) self.x = x end
  function Point:double() return 2 * self.x end
  local p = torch.deserialize(torch.serialize(torch.SerializedPoint(21)))
  testing.assertEqual(torch.type(p), 'torch.SerializedPoint')
  testing.assertEqual(p:double(), 42)
  local gen = torch.Generator()
  torch.manualSeed(gen, 5)
  local copy = torch.deserialize(torch.serialize(gen))
  testing.assertEqual(torch.random(copy), torch.random(gen))
  local inStorage = torch.serializeToStorage({a = torch.ByteTensor({200, 1})})
  testing.assertEqual(torch.type(inStorage), 'torch.CharStorage')
  testing.assertEqual(torch.deserializeFromStorage(inStorage).a:totable(), {200, 1})
  local name = os.tmpname()
  torch.save(name, {w = torch.Tensor({7})})
  testing.assertEqual(torch.load(name).w[1], 7)
  os.remove(name)
end)

testing.case('bad data and unwritable objects are errors', function()
  local good = torch.serialize(torch.Tensor({1, 2}))
  expectError(function() torch.deserialize(good:sub(1, #good - 3)) end, 'ends early')
  expectError(function() torch.deserialize(int(9)) end, 'unknown object type 9')
  expectError(function() torch.deserialize(int(2) .. int(100) .. 'x') end, 'ends early')
  local huge = int(4) .. int(1) .. chars('V 1') .. chars('torch.DoubleStorage') ..
      '\0\0\0\0\0\1\0\0'  -- 2^40 elements
  expectError(function() torch.deserialize(huge) end, 'ends early')
  local wild = int(4) .. int(1) .. chars('V 1') .. chars('torch.DoubleTensor') .. int(1) ..
      long(5) .. long(1) .. long(1) ..
      int(4) .. int(2) .. chars('V 1') .. chars('torch.DoubleStorage') .. long(2) .. ONE .. TWO
  expectError(function() torch.deserialize(wild) end, "'deserialize'")
  expectError(function() torch.deserialize(int(4) .. int(1) .. chars('V 1') .. chars('torch.Nope')) end,
              'unknown Torch class <torch.Nope>')
  expectError(function() torch.serialize(print) end, "'serialize': cannot serialize a function")
  expectError(function() torch.serialize(1, 'text') end,
              "bad argument #2 to 'serialize' ('binary' or 'ascii' expected)")
  expectError(function() torch.load('x', 7) end, "bad argument #2 to 'load'")
  expectError(function() torch.deserialize(5) end, "bad argument #1 to 'deserialize'")
end)

testing.case('the ascii text is Torch7\'s', function()
  local function ascii(x) return torch.serialize(x, 'ascii') end
  testing.assertEqual(ascii(1.5), '1\n1.5\n')
  testing.assertEqual(ascii(3), '1\n3\n')
  testing.assertEqual(ascii('ab'), '2\n2\nab\n')
  testing.assertEqual(ascii(''), '2\n0\n', 'no newline after no chars')
  testing.assertEqual(ascii(true), '5\n1\n')
  testing.assertEqual(ascii(nil), '0\n')
  testing.assertEqual(ascii(torch.DoubleTensor({{1, 2.5, 3}, {4, 5, 6}})),
      '4\n1\n3\nV 1\n18\ntorch.DoubleTensor\n2\n2 3\n3 1\n1\n' ..
      '4\n2\n3\nV 1\n19\ntorch.DoubleStorage\n6\n1 2.5 3 4 5 6\n')
  local zero = 0
  testing.assertEqual(ascii(torch.DoubleStorage({math.huge, -math.huge, 1e300, 5e-324, -zero, 1 / 3})),
      '4\n1\n3\nV 1\n19\ntorch.DoubleStorage\n6\n' ..
      'inf -inf 1.0000000000000001e+300 4.9406564584124654e-324 -0 0.33333333333333331\n')
  testing.assertEqual(ascii(torch.FloatStorage({0.1, 2})),
      '4\n1\n3\nV 1\n18\ntorch.FloatStorage\n2\n0.100000001 2\n')
  testing.assertEqual(ascii(torch.ByteStorage({65, 10, 0, 255})),
      '4\n1\n3\nV 1\n17\ntorch.ByteStorage\n4\nA\n\0\255\n', 'bytes are raw')
  testing.assertEqual(ascii(torch.LongStorage({-3, 2^40})),
      '4\n1\n3\nV 1\n17\ntorch.LongStorage\n2\n-3 1099511627776\n')
  testing.assertEqual(ascii(torch.DoubleTensor()),
      '4\n1\n3\nV 1\n18\ntorch.DoubleTensor\n0\n1\n0\n', 'no sizes, no storage')
  local t = torch.Tensor({1, 2})
  testing.assertEqual(ascii({t, t}),
      '3\n1\n2\n1\n1\n4\n2\n3\nV 1\n18\ntorch.DoubleTensor\n1\n2\n1\n1\n' ..
      '4\n3\n3\nV 1\n19\ntorch.DoubleStorage\n2\n1 2\n1\n2\n4\n2\n', 'a reference')
end)

testing.case('ascii round trips keep values, types, layouts and sharing', function()
  local function again(x) return torch.deserialize(torch.serialize(x, 'ascii'), 'ascii') end
  for _, name in ipairs({'Byte', 'Char', 'Short', 'Int', 'Long', 'Half', 'Float', 'Double'}) do
    local t = torch[name .. 'Tensor']({{1, 2, 3}, {4, 5, 10}})
    local back = again(t)
    testing.assertEqual(back:type(), t:type())
    testing.assertEqual(back:totable(), t:totable())
  end
  testing.assertEqual(again(torch.LongTensor({2^53, -2^62})):totable(), {2^53, -2^62})
  testing.assertEqual(again(torch.FloatTensor({0.1}))[1], torch.FloatTensor({0.1})[1])
  local reals = {1 / 3, -1e-310, 1.7976931348623157e308, math.huge, -math.huge}
  testing.assertEqual(again(torch.DoubleTensor(reals)):totable(), reals)
  local nan = again(0 / 0)
  testing.assertTrue(nan ~= nan, 'NaN')
  testing.assertEqual(again('a\nb\n \0'), 'a\nb\n \0', 'strings are raw')
  local base = torch.Tensor({{1, 2, 3}, {4, 5, 6}})
  local back = again({base = base, column = base:select(2, 2), base:t(), 'x', false})
  testing.assertEqual(back.column:totable(), {2, 5})
  testing.assertEqual(back[1]:stride(1), 1, 'the transpose keeps its strides')
  testing.assertEqual(back[2], 'x')
  testing.assertEqual(back[3], false)
  back.base[1][2] = 20
  testing.assertEqual(back.column[1], 20, 'one storage, still shared')
  local p = again(torch.SerializedPoint(21))
  testing.assertEqual(p:double(), 42)
  local name = os.tmpname()
  torch.save(name, {w = torch.Tensor({7})}, 'ascii')
  local file = io.open(name, 'rb')
  testing.assertEqual(file:read('*l'), '3', 'a text file')
  file:close()
  testing.assertEqual(torch.load(name, 'ascii').w[1], 7)
  os.remove(name)
  local stored = torch.serializeToStorage(base, 'ascii')
  testing.assertEqual(torch.deserializeFromStorage(stored, 'ascii'):totable(), base:totable())
end)

testing.case('bad ascii data is an error', function()
  local function from(s) return function() torch.deserialize(s, 'ascii') end end
  local storage = '4\n1\n3\nV 1\n19\ntorch.DoubleStorage\n'
  expectError(from(''), 'ends early')
  expectError(from('x'), 'a number expected at byte 1')
  expectError(from('1\n'), 'ends early')
  expectError(from('1\nabc\n'), 'a number expected at byte 3')
  expectError(from('1\n1e999\n'), "out of double's range")
  expectError(from('99999999999\n'), "out of int32's range")
  expectError(from('2\n5\nab'), 'ends early')
  expectError(from(storage .. '3\n1 2\n'), 'ends early')
  expectError(from(storage .. '1000000000\n1 2\n'), 'ends early (a storage of 1000000000 elements)')
  expectError(from(storage .. '2\n1 x\n'), 'a number expected')
  expectError(from('4\n1\n3\nV 1\n18\ntorch.ShortStorage\n1\n40000\n'), 'out of the storage')
  expectError(from('4\n1\n3\nV 1\n18\ntorch.FloatStorage\n1\n1e39\n'), "out of float's range")
  expectError(from('4\n1\n3\nV 1\n17\ntorch.ByteStorage\n5\nab\n'), 'ends early')
end)

testing.case('damaged ascii data is an error naming deserialize, or a value', function()
  local t = torch.FloatTensor({{1.5, -2}, {3, 4}})
  local good = torch.serialize({t, t:t(), 'name', {x = 7, y = torch.ByteStorage({1, 2})}}, 'ascii')
  local alphabet = {'0', '9', '-', ' ', '\n', 'e', '.', 'x', '\0', '4'}
  math.randomseed(7)
  local errors = 0
  for _ = 1, 2000 do
    local s = good
    for _ = 1, math.random(3) do
      local at = math.random(#s)
      if math.random() < 0.2 then
        s = s:sub(1, at)
      else
        s = s:sub(1, at - 1) .. alphabet[math.random(#alphabet)] .. s:sub(at + 1)
      end
    end
    local ok, err = pcall(torch.deserialize, s, 'ascii')
    if not ok then
      errors = errors + 1
      testing.assertTrue(type(err) == 'string' and err:find('deserialize', 1, true) ~= nil,
                         tostring(err))
    end
  end
  testing.assertTrue(errors > 500, errors .. ' errors')
end)

testing.run()
