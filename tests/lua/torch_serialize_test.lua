-- dmlab.system.torch: torch.serialize/deserialize and torch.save/load in
-- Torch7's binary format.
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
  expectError(function() torch.serialize(1, 'ascii') end, "bad argument #2 to 'serialize'")
  expectError(function() torch.deserialize(5) end, "bad argument #1 to 'deserialize'")
end)

testing.run()
