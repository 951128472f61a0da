-- The constructors of dmlab.system.tensor: extents, nested tables, ranges,
-- files, the empty tensor and the Tensor alias.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'

local TYPES = {'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
               'Int64Tensor', 'FloatTensor', 'DoubleTensor'}

-- Asserts that fn raises an error whose message contains every string in
-- `...` (plain find); returns the message.
-- fn must raise an error containing every given substring.
local expectError = testing.assertErrorContains

-- Writes `bytes` to a new temporary file and returns its name.
local function tempFile(bytes)
  local name = os.tmpname()
  local f = assert(io.open(name, 'wb'))
  f:write(bytes)
  f:close()
  return name
end

-- Little-endian bytes of 1.0, 2.0, -0.5 and 1e3 as IEEE doubles.
local DOUBLE_1 = '\0\0\0\0\0\0\240\63'
local DOUBLE_2 = '\0\0\0\0\0\0\0\64'
local DOUBLE_MINUS_HALF = '\0\0\0\0\0\0\224\191'
local DOUBLE_1000 = '\0\0\0\0\0\64\143\64'

local function littleEndian()
  -- Int16 {1} read from the bytes 01 00 is 1 on a little-endian machine.
  local name = tempFile('\1\0')
  local t = tensor.Int16Tensor{file = {name = name}}
  os.remove(name)
  return t:val() == 1
end

testing.case('(d1, ..., dk): zero-filled, owning, row-major', function()
  for _, name in ipairs(TYPES) do
    local t = tensor[name](2, 3)
    testing.assertEqual(t:type(), 'dmlab.system.tensor.' .. name)
    testing.assertEqual(t:shape(), {2, 3})
    testing.assertEqual(t:size(), 6)
    testing.assertEqual(t:ownsStorage(), true)
    testing.assertEqual(t:val(), {{0, 0, 0}, {0, 0, 0}})
  end
end)

testing.case('(d1, ..., dk): ranks 1 to 5', function()
  testing.assertEqual(tensor.DoubleTensor(3):shape(), {3})
  testing.assertEqual(tensor.DoubleTensor(1):shape(), {1})
  testing.assertEqual(tensor.DoubleTensor(1, 1):shape(), {1, 1})
  local t = tensor.DoubleTensor(2, 1, 3, 1, 2)
  testing.assertEqual(t:shape(), {2, 1, 3, 1, 2})
  testing.assertEqual(t:size(), 12)
  testing.assertEqual(t:sum(), 0)
end)

testing.case('(d1, ..., dk): fractional extents truncate toward zero', function()
  testing.assertEqual(tensor.ByteTensor(51.2):shape(), {51})
  testing.assertEqual(tensor.DoubleTensor(2.9, 1.1):shape(), {2, 1})
end)

testing.case('(d1, ..., dk): extents must be integers >= 1', function()
  -- Fractions truncate toward zero, as DeepMind Lab reads them: 0.5 is 0.
  for _, bad in ipairs({0, -1, 0.5, -0.5, 0/0, 1/0, -1/0}) do
    expectError(function() return tensor.DoubleTensor(bad) end)
    expectError(function() return tensor.DoubleTensor(2, bad) end)
  end
  expectError(function() return tensor.DoubleTensor(2, 'x') end)
  expectError(function() return tensor.DoubleTensor(2, true) end)
  expectError(function() return tensor.Int32Tensor(2, {}, 3) end)
end)

testing.case('{nested tables}: rank 1, 2 and 3, shape implied', function()
  local v = tensor.DoubleTensor{1, 2, 3}
  testing.assertEqual(v:shape(), {3})
  testing.assertEqual(v:val(), {1, 2, 3})
  local m = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
  testing.assertEqual(m:shape(), {2, 3})
  testing.assertEqual(m:val(), {{1, 2, 3}, {4, 5, 6}})
  testing.assertEqual(m:select(1, 2):select(1, 1):val(), 4, 'row-major')
  local c = tensor.Int32Tensor{{{1}, {2}}, {{3}, {4}}, {{5}, {6}}}
  testing.assertEqual(c:shape(), {3, 2, 1})
  testing.assertEqual(c:val(), {{{1}, {2}}, {{3}, {4}}, {{5}, {6}}})
  testing.assertTrue(c:ownsStorage())
end)

testing.case('{nested tables}: every type, values kept', function()
  testing.assertEqual(tensor.ByteTensor{0, 255}:val(), {0, 255})
  testing.assertEqual(tensor.CharTensor{-128, 127}:val(), {-128, 127})
  testing.assertEqual(tensor.Int16Tensor{-32768, 32767}:val(), {-32768, 32767})
  testing.assertEqual(tensor.Int32Tensor{-2147483648, 2147483647}:val(),
                      {-2147483648, 2147483647})
  testing.assertEqual(tensor.Int64Tensor{-2^53, 2^53}:val(), {-2^53, 2^53})
  testing.assertEqual(tensor.FloatTensor{0.5, -1.25}:val(), {0.5, -1.25})
  testing.assertEqual(tensor.DoubleTensor{0.1, 1e300}:val(), {0.1, 1e300})
end)

testing.case('{nested tables}: ragged nesting is an error', function()
  expectError(function() return tensor.DoubleTensor{{1, 2}, {3}} end)
  expectError(function() return tensor.DoubleTensor{{1, 2}, {3, 4, 5}} end)
  expectError(function() return tensor.DoubleTensor{{1, 2}, 3} end)
  expectError(function() return tensor.DoubleTensor{1, {2, 3}} end)
  expectError(function() return tensor.DoubleTensor{{{1}, {2}}, {{3}, {4, 5}}} end)
  expectError(function() return tensor.DoubleTensor{{1, 2}, {}} end)
end)

testing.case('{nested tables}: a non-number leaf is an error', function()
  expectError(function() return tensor.DoubleTensor{1, 'x'} end)
  expectError(function() return tensor.DoubleTensor{1, true} end)
  expectError(function() return tensor.DoubleTensor{{1, 2}, {3, function() end}} end)
  expectError(function() return tensor.DoubleTensor{{1, 2}, {3, tensor.DoubleTensor(1)}} end)
end)

testing.case('{range = {from, to, step}}', function()
  testing.assertEqual(tensor.DoubleTensor{range = {1, 10, 3}}:val(), {1, 4, 7, 10})
  testing.assertEqual(tensor.DoubleTensor{range = {1, 11, 3}}:val(), {1, 4, 7, 10})
  testing.assertEqual(tensor.DoubleTensor{range = {1, 2, 0.5}}:val(), {1, 1.5, 2})
  testing.assertEqual(tensor.DoubleTensor{range = {0, 1, 0.25}}:val(), {0, 0.25, 0.5, 0.75, 1})
  testing.assertEqual(tensor.DoubleTensor{range = {3, 3, 1}}:val(), 3, 'one element')
  local t = tensor.Int32Tensor{range = {-2, 2, 2}}
  testing.assertEqual(t:type(), 'dmlab.system.tensor.Int32Tensor')
  testing.assertEqual(t:val(), {-2, 0, 2})
  testing.assertTrue(t:ownsStorage())
end)

testing.case('{range = {from, to}}: step defaults to 1', function()
  testing.assertEqual(tensor.DoubleTensor{range = {2, 5}}:val(), {2, 3, 4, 5})
  testing.assertEqual(tensor.DoubleTensor{range = {-1, 1}}:val(), {-1, 0, 1})
  -- floor((2.5 - 1) / 1) + 1 = 2 elements.
  testing.assertEqual(tensor.DoubleTensor{range = {1, 2.5}}:val(), {1, 2})
  testing.assertEqual(tensor.DoubleTensor{range = {0.5, 3}}:val(), {0.5, 1.5, 2.5})
end)

testing.case('{range = {to}}: from defaults to 1', function()
  local t = tensor.DoubleTensor{range = {5}}
  testing.assertEqual(t:shape(), {5})
  testing.assertEqual(t:val(), {1, 2, 3, 4, 5})
  testing.assertEqual(tensor.ByteTensor{range = {3}}:val(), {1, 2, 3})
  testing.assertEqual(tensor.DoubleTensor{range = {1}}:val(), 1)
end)

testing.case('{range}: negative steps count down', function()
  testing.assertEqual(tensor.DoubleTensor{range = {5, 1, -1}}:val(), {5, 4, 3, 2, 1})
  testing.assertEqual(tensor.DoubleTensor{range = {10, 1, -3}}:val(), {10, 7, 4, 1})
  testing.assertEqual(tensor.DoubleTensor{range = {10, 0, -3}}:val(), {10, 7, 4, 1})
  testing.assertEqual(tensor.Int16Tensor{range = {2, -2, -2}}:val(), {2, 0, -2})
  testing.assertEqual(tensor.DoubleTensor{range = {1, 0, -0.5}}:val(), {1, 0.5, 0})
end)

testing.case('{range}: a zero step is an error', function()
  expectError(function() return tensor.DoubleTensor{range = {1, 5, 0}} end,
              'Step size must not be zero')
  expectError(function() return tensor.Int32Tensor{range = {1, 1, 0}} end,
              'Step size must not be zero')
end)

testing.case('{range}: an empty range is an error', function()
  expectError(function() return tensor.DoubleTensor{range = {5, 1}} end)
  expectError(function() return tensor.DoubleTensor{range = {1, 5, -1}} end)
  expectError(function() return tensor.DoubleTensor{range = {0}} end)
  expectError(function() return tensor.DoubleTensor{range = {-3}} end)
end)

testing.case('{range}: malformed ranges are errors', function()
  expectError(function() return tensor.DoubleTensor{range = {}} end)
  expectError(function() return tensor.DoubleTensor{range = {1, 2, 3, 4}} end)
  expectError(function() return tensor.DoubleTensor{range = {'a', 2}} end)
  expectError(function() return tensor.DoubleTensor{range = {1, 0/0}} end)
  expectError(function() return tensor.DoubleTensor{range = {1, 1/0}} end)
  expectError(function() return tensor.DoubleTensor{range = 5} end)
  -- Values the type cannot hold.
  expectError(function() return tensor.ByteTensor{range = {-1, 1}} end)
  expectError(function() return tensor.Int32Tensor{range = {1, 2, 0.5}} end)
end)

testing.case('{file = {name}}: the whole file as raw elements', function()
  local name = tempFile('\1\2\3\4\5')
  local t = tensor.ByteTensor{file = {name = name}}
  os.remove(name)
  testing.assertEqual(t:type(), 'dmlab.system.tensor.ByteTensor')
  testing.assertEqual(t:shape(), {5})
  testing.assertEqual(t:val(), {1, 2, 3, 4, 5})
  testing.assertTrue(t:ownsStorage())
end)

testing.case('{file = {name, byteOffset, numElements}}', function()
  local name = tempFile('\1\2\3\4\5\6')
  testing.assertEqual(tensor.ByteTensor{file = {name = name, byteOffset = 2}}:val(), {3, 4, 5, 6})
  testing.assertEqual(tensor.ByteTensor{file = {name = name, numElements = 2}}:val(), {1, 2})
  testing.assertEqual(tensor.ByteTensor{file = {name = name, byteOffset = 0}}:val(),
                      {1, 2, 3, 4, 5, 6})
  testing.assertEqual(
      tensor.ByteTensor{file = {name = name, byteOffset = 1, numElements = 3}}:val(), {2, 3, 4})
  testing.assertEqual(
      tensor.ByteTensor{file = {name = name, byteOffset = 5, numElements = 1}}:val(), 6)
  testing.assertEqual(tensor.CharTensor{file = {name = name, byteOffset = 4}}:val(), {5, 6})
  os.remove(name)
end)

testing.case('{file}: native-endian multi-byte elements', function()
  if not littleEndian() then return end
  local name = tempFile(DOUBLE_1 .. DOUBLE_2 .. DOUBLE_MINUS_HALF .. DOUBLE_1000)
  testing.assertEqual(tensor.DoubleTensor{file = {name = name}}:val(), {1, 2, -0.5, 1000})
  testing.assertEqual(tensor.DoubleTensor{file = {name = name, byteOffset = 8}}:val(),
                      {2, -0.5, 1000})
  testing.assertEqual(
      tensor.DoubleTensor{file = {name = name, byteOffset = 16, numElements = 1}}:val(), -0.5)
  -- The same bytes as 16-bit integers: 1.0 is 00 00 00 00 00 00 F0 3F.
  testing.assertEqual(tensor.Int16Tensor{file = {name = name, numElements = 4}}:val(),
                      {0, 0, 0, 0x3ff0})
  testing.assertEqual(tensor.Int32Tensor{file = {name = name, byteOffset = 4, numElements = 1}}:val(),
                      0x3ff00000)
  os.remove(name)
  local f = tempFile('\255\255\1\0')
  testing.assertEqual(tensor.Int16Tensor{file = {name = f}}:val(), {-1, 1})
  os.remove(f)
end)

testing.case('{file}: a missing file is an error that names it', function()
  local name = os.tmpname()
  os.remove(name)
  local missing = name .. '.does-not-exist'
  expectError(function() return tensor.DoubleTensor{file = {name = missing}} end, missing)
end)

testing.case('{file}: bad fields are errors that name the field', function()
  local name = tempFile('\1\2\3\4')
  expectError(function() return tensor.ByteTensor{file = {}} end, 'name')
  expectError(function() return tensor.ByteTensor{file = {name = 5}} end, 'name')
  expectError(function() return tensor.ByteTensor{file = {name = name, byteOffset = -1}} end,
              'byteOffset')
  expectError(function() return tensor.ByteTensor{file = {name = name, byteOffset = 0/0}} end,
              'byteOffset')
  expectError(function() return tensor.ByteTensor{file = {name = name, byteOffset = 5}} end,
              'byteOffset')
  expectError(function() return tensor.ByteTensor{file = {name = name, numElements = 5}} end,
              'numElements', name)
  expectError(function()
    return tensor.ByteTensor{file = {name = name, byteOffset = 2, numElements = 3}}
  end, 'numElements', name)
  expectError(function() return tensor.ByteTensor{file = {name = name, numElements = -1}} end,
              'numElements')
  expectError(function() return tensor.ByteTensor{file = {name = name, numElements = 'x'}} end,
              'numElements')
  expectError(function() return tensor.DoubleTensor{file = {name = name, numElements = 1}} end,
              'numElements', name)
  os.remove(name)
end)

testing.case('() and {}: the empty tensor', function()
  for _, name in ipairs(TYPES) do
    for _, t in ipairs({tensor[name](), tensor[name]{}}) do
      testing.assertEqual(t:type(), 'dmlab.system.tensor.' .. name)
      testing.assertEqual(t:shape(), {})
      testing.assertEqual(t:size(), 0)
      testing.assertTrue(t:ownsStorage())
      testing.assertEqual(t:sum(), 0)
      testing.assertEqual(t:product(), 1)
      testing.assertEqual(tostring(t),
                          '[dmlab.system.tensor.' .. name .. ']\nShape: [] Empty')
    end
  end
  testing.assertTrue(tensor.DoubleTensor() == tensor.DoubleTensor{})
end)

testing.case('Tensor is an alias of DoubleTensor', function()
  testing.assertEqual(type(tensor.Tensor), 'function')
  local t = tensor.Tensor(2, 3)
  testing.assertEqual(t:type(), 'dmlab.system.tensor.DoubleTensor')
  testing.assertEqual(t:shape(), {2, 3})
  testing.assertTrue(tensor.Tensor{{1, 2}, {3, 4}} == tensor.DoubleTensor{{1, 2}, {3, 4}})
  testing.assertTrue(tensor.Tensor{range = {3}} == tensor.DoubleTensor{1, 2, 3})
  testing.assertEqual(tensor.Tensor():shape(), {})
end)

testing.case('constructors are independent owning tensors', function()
  local a = tensor.DoubleTensor{1, 2, 3}
  local b = tensor.DoubleTensor{1, 2, 3}
  a:fill(0)
  testing.assertEqual(b:val(), {1, 2, 3})
end)

testing.run()
