-- The bad-input table: each case is an input that must fail and a
-- substring its error must contain. Every failure is a Lua error with a
-- message naming the method and the argument, never a crash, an abort or
-- a silent wrong answer. The last cases show the host alive afterwards:
-- tensors still compute correctly and nothing changed the inputs.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local random = require 'dmlab.system.random'
local host_test = require 'dmlab.system.host_test'
local torch = require 'dmlab.system.torch'

local NAN, INF = 0 / 0, 1 / 0

local function m23()
  return tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
end

-- The same in the Torch flavour.
local tz = m23():torch()

-- A tensor whose loan has ended, as an engine frame is after its callback.
local function invalid()
  local kept
  host_test.lend('DoubleTensor', {2, 3}, 1, function(t) kept = t end)
  return kept
end

-- A small file of six bytes, 1..6, for the file constructor.
local fileName = os.tmpname()
do
  local file = assert(io.open(fileName, 'wb'))
  file:write('\1\2\3\4\5\6')
  file:close()
end
local function fromFile(fields)
  fields.name = fields.name or fileName
  return function() return tensor.ByteTensor{file = fields} end
end

local selfReferencing = {}
selfReferencing[1] = selfReferencing
local selfInRow = {1, 2}
selfInRow[3] = selfInRow

local z, lent = m23(), invalid()

-- {name, function that must fail, substring of its error}
local cases = {
  -- Wrong types and nil where integers are required.
  {'extent nil', function() return tensor.DoubleTensor(2, nil) end,
   "bad argument #2 to 'DoubleTensor' (integer expected, got nil)"},
  {'extent string', function() return tensor.DoubleTensor('x') end,
   "bad argument #1 to 'DoubleTensor'"},
  {'extent boolean', function() return tensor.DoubleTensor(true) end,
   'number or table expected, got boolean'},
  {'select dim nil', function() return z:select(nil, 1) end,
   "bad argument #1 to 'select' (integer expected, got nil)"},
  {'select index table', function() return z:select(1, {}) end,
   "bad argument #2 to 'select' (integer expected, got table)"},
  {'narrow size string', function() return z:narrow(1, 1, 'x') end,
   "bad argument #3 to 'narrow'"},
  {'fill nothing', function() return z:fill() end, "bad argument #1 to 'fill'"},
  {'cadd number', function() return z:cadd(5) end, 'tensor expected'},
  {'shuffle without generator', function() return tensor.DoubleTensor(3):shuffle() end,
   "bad argument #1 to 'shuffle'"},
  {'apply a number', function() return z:apply(5) end, "bad argument #1 to 'apply'"},
  {'method called with .', function() return z.sum() end, "calling 'sum' on bad self"},
  -- NaN and infinities where integers are required.
  {'extent NaN', function() return tensor.DoubleTensor(NAN) end,
   "bad argument #1 to 'DoubleTensor' (integer expected"},
  {'extent inf', function() return tensor.DoubleTensor(INF) end, 'integer expected'},
  {'extent -inf', function() return tensor.DoubleTensor(2, -INF) end,
   "bad argument #2 to 'DoubleTensor' (integer expected"},
  {'select index NaN', function() return z:select(1, NAN) end,
   "bad argument #2 to 'select' (integer expected"},
  {'transpose dim inf', function() return z:transpose(INF, 1) end,
   "bad argument #1 to 'transpose' (integer expected"},
  {'tostring maxElements NaN', function() return z:tostring(NAN) end,
   "bad argument #1 to 'tostring' (integer expected"},
  {'Int32Tensor of NaN', function() return tensor.Int32Tensor{NAN} end,
   'Int32Tensor cannot hold'},
  {'Int32Tensor fill NaN', function() return tensor.Int32Tensor(2):fill(NAN) end, "'fill'"},
  {'Int32Tensor add inf', function() return tensor.Int32Tensor(2):add(INF) end, "'add'"},
  {'ByteTensor val -inf', function() return tensor.ByteTensor(1):val(-INF) end, "'val'"},
  {'range to inf', function() return tensor.DoubleTensor{range = {1, INF}} end,
   'range to: finite number expected'},
  {'range to NaN', function() return tensor.DoubleTensor{range = {NAN}} end,
   'range to: finite number expected'},
  {'integer range step NaN', function() return tensor.Int32Tensor{range = {1, 5, NAN}} end,
   'range step: integer expected'},
  -- Zero, negative and huge extents; shape products that overflow.
  {'extent 0', function() return tensor.DoubleTensor(0) end, 'extent must be at least 1, got 0'},
  {'extent -3', function() return tensor.DoubleTensor(2, -3) end,
   "bad argument #2 to 'DoubleTensor' (extent must be at least 1, got -3)"},
  {'extent 2^63', function() return tensor.ByteTensor(2 ^ 63) end, 'integer expected'},
  {'huge extent passes the tensor memory limit', function() return tensor.DoubleTensor(1e5, 1e5) end,
   "'DoubleTensor': a tensor of 80000000000 bytes would exceed the tensor memory limit"},
  {'2^53 bytes', function() return tensor.ByteTensor(2 ^ 53) end, 'tensor memory limit'},
  {'shape product overflows', function() return tensor.DoubleTensor(2 ^ 40, 2 ^ 40) end,
   'has more elements than fit in 64 bits'},
  {'shape product overflows in the last extent', function()
     return tensor.ByteTensor(2 ^ 62, 4) end, 'has more elements than fit in 64 bits'},
  {'reshape product overflows', function() return z:reshape{2 ^ 32, 2 ^ 32} end,
   "bad argument #1 to 'reshape' (shape [4294967296, 4294967296] overflows 64 bits)"},
  {'reshape negative', function() return z:reshape{-2, -3} end, 'extent must be at least 1'},
  {'reshape zero', function() return z:reshape{0, 6} end, 'extent must be at least 1'},
  {'range too long', function() return tensor.DoubleTensor{range = {1e15}} end,
   'tensor memory limit'},
  {'empty range', function() return tensor.DoubleTensor{range = {5, 1}} end, 'is empty'},
  {'zero range step', function() return tensor.DoubleTensor{range = {1, 5, 0}} end,
   'Step size must not be zero'},
  {'range of a ByteTensor past 255', function() return tensor.ByteTensor{range = {300}} end,
   'range: ByteTensor cannot hold 300'},
  {'range with four entries', function() return tensor.Int32Tensor{range = {1, 2, 3, 4}} end,
   'range must be {to}, {from, to} or {from, to, step}'},
  {'lend past 64 bits', function()
     return host_test.lend('DoubleTensor', {2 ^ 40, 2 ^ 40}, 0, function() end) end,
   "bad argument #2 to 'lend'"},
  -- Out-of-range and infinite indices (fractions truncate, as in DeepMind Lab).
  {'select index 0', function() return z:select(1, 0) end, 'index 0 out of range [1, 2]'},
  {'select index past the end', function() return z:select(2, 4) end,
   'index 4 out of range [1, 3]'},
  {'select dim 3 of a matrix', function() return z:select(3, 1) end, 'select'},
  {'select infinite index', function() return z:select(1, 1/0) end,
   "bad argument #2 to 'select' (integer expected, got number inf)"},
  {'narrow start near 2^62', function() return z:narrow(2, 2 ^ 62, 2 ^ 62) end,
   "bad argument #2 to 'narrow'"},
  {'narrow past the end', function() return z:narrow(2, 2, 3) end, 'narrow'},
  {'call index past the end', function() return z(3, 1) end, 'index 3 out of range [1, 2]'},
  {'call infinite index', function() return z(1, -1/0) end,
   "bad argument #2 to '__call' (integer expected, got number -inf)"},
  {'call with too many indices', function() return z(1, 1, 1) end, '__call'},
  {'fractional value into Int32Tensor', function() return tensor.Int32Tensor(2):val{1, 2.5} end,
   'Int32Tensor cannot hold 2.5'},
  -- Ragged and self-referencing tables.
  {'ragged rows', function() return tensor.DoubleTensor{{1, 2}, {3}} end,
   'ragged table: [2] has 1 entry, expected 2'},
  {'ragged depth', function() return tensor.DoubleTensor{{1, 2}, {3, {4}}} end,
   'ragged table: [2][2] is a table, expected a number'},
  {'row then number', function() return tensor.DoubleTensor{{1, 2}, 3} end,
   'ragged table: [2] is a number'},
  {'empty inner table', function() return tensor.DoubleTensor{{}} end, 'is empty'},
  {'extra key', function() return tensor.DoubleTensor{1, x = 2} end, "has the key 'x'"},
  {'a string entry', function() return tensor.DoubleTensor{{1, 2}, {3, 'x'}} end, '[2][2]'},
  {'self-referencing table', function() return tensor.DoubleTensor(selfReferencing) end,
   'a cycle?'},
  {'table that holds itself', function() return tensor.DoubleTensor(selfInRow) end,
   'ragged table: [3] is a table'},
  {'val with a self-referencing table', function() return m23():val(selfReferencing) end,
   "bad argument #1 to 'val'"},
  -- Mismatched sizes and types.
  {'copy of another size', function() return m23():copy(tensor.DoubleTensor(5)) end,
   "'copy': the tensors have 6 and 5 elements"},
  {'cadd of another type', function() return m23():cadd(tensor.FloatTensor(2, 3)) end,
   "'cadd': the tensors are float64 and float32"},
  {'cmul of another size', function() return m23():cmul(tensor.DoubleTensor(7)) end, 'cmul'},
  {'dot of another size', function() return z:dot(tensor.DoubleTensor(5)) end, 'dot'},
  {'mmul of mismatched dimensions', function() return z:mmul(z) end,
   "'mmul': Incorrect matrix dimensions: incompatible shapes [2, 3] x [2, 3]"},
  {'mmul of another type', function() return z:mmul(tensor.FloatTensor(3, 2)) end,
   "Must contain 1 RHS tensor of type dmlab.system.tensor.DoubleTensor"},
  {'mmul of a vector', function() return z:mmul(tensor.DoubleTensor{1, 2, 3}) end, 'right'},
  {'add with a table of the wrong length', function() return m23():add{1, 2} end, 'add'},
  {'apply returning a string', function() return m23():apply(function() return 'x' end) end,
   "'apply': element [1, 1]: the function returned a string"},
  -- A number meets an integer tensor in double (DeepMind Lab's arithmetic):
  -- a result the type cannot hold is an error, where DeepMind Lab's C++ has
  -- undefined behaviour.
  {'ByteTensor add past 255', function() return tensor.ByteTensor{250, 1}:add(10) end,
   "'add': 250 + 10 gives 260, which uint8 cannot hold; nothing was changed"},
  {'ByteTensor mul by a negative', function() return tensor.ByteTensor{0, 2}:mul(-0.5) end,
   "'mul': 2 * -0.5 gives -1, which uint8 cannot hold"},
  {'Int32Tensor mul by inf', function() return tensor.Int32Tensor{1}:mul(math.huge) end,
   'int32 cannot hold'},
  {'Int16Tensor fill NaN', function() return tensor.Int16Tensor{1}:fill(0 / 0) end,
   "'fill': int16 cannot hold nan"},
  {'Int64Tensor sub a table past its range', function()
     return tensor.Int64Tensor{{1, 2}}:sub{0, 2 ^ 64} end, 'int64 cannot hold'},
  -- Integer division by zero.
  {'Int32Tensor div 0', function() return tensor.Int32Tensor{1}:div(0) end,
   "'div': integer division by zero"},
  {'ByteTensor cdiv by a zero element', function()
     return tensor.ByteTensor{1, 2}:cdiv(tensor.ByteTensor{1, 0}) end,
   "'cdiv': integer division by zero"},
  {'Int64Tensor div by a table with a zero', function()
     return tensor.Int64Tensor{{1, 2}}:div{1, 0} end, 'division by zero'},
  -- An invalid tensor in every argument position.
  {'invalid self', function() return lent:sum() end,
   "'dmlab.system.tensor.DoubleTensor:sum': invalid tensor"},
  {'invalid self of a view method', function() return lent:narrow(1, 1, 1) end,
   ":narrow': invalid tensor"},
  {'invalid self of clone', function() return lent:clone() end, ":clone': invalid tensor"},
  {'invalid self of a conversion', function() return lent:byte() end, ":byte': invalid tensor"},
  {'invalid self of tostring', function() return tostring(lent) end, 'invalid tensor'},
  {'invalid self of __call', function() return lent(1) end, 'invalid tensor'},
  {'invalid left of ==', function() return lent == z end, 'invalid tensor'},
  {'invalid right of ==', function() return z == lent end, "bad argument #1 to '__eq'"},
  {'invalid argument of copy', function() return m23():copy(lent) end,
   "bad argument #1 to 'copy' (dmlab.system.tensor.DoubleTensor is an invalid tensor"},
  {'invalid argument of cadd', function() return m23():cadd(lent) end,
   "bad argument #1 to 'cadd'"},
  {'invalid argument of cdiv', function() return m23():cdiv(lent) end,
   "bad argument #1 to 'cdiv'"},
  {'invalid argument of dot', function() return z:dot(lent) end, "bad argument #1 to 'dot'"},
  {'invalid right of mmul', function() return tensor.DoubleTensor(3, 2):mmul(lent) end,
   "bad argument #1 to 'mmul'"},
  {'invalid left of mmul', function() return lent:mmul(tensor.DoubleTensor(3, 2)) end,
   ":mmul': invalid tensor"},
  {'invalid self of shuffle', function() return lent:select(1, 1):shuffle(random) end,
   'invalid tensor'},
  -- Bad file names and offsets.
  {'file that does not exist', fromFile{name = '/nonexistent/dir/x.bin'},
   "file '/nonexistent/dir/x.bin': cannot open"},
  {'file that is a directory', fromFile{name = '/'}, "file '/': not a regular file"},
  {'file that is a device', fromFile{name = '/dev/zero'}, 'not a regular file'},
  {'file name with a NUL', fromFile{name = 'a\0b'}, 'file name: contains a NUL byte'},
  {'file name a number', fromFile{name = 5}, 'file name: string expected, got number'},
  {'file without a name', function() return tensor.ByteTensor{file = {}} end,
   'file name: string expected, got nil'},
  {'file byteOffset negative', fromFile{byteOffset = -1}, 'byteOffset: must be at least 0'},
  {'file byteOffset infinite', fromFile{byteOffset = 1/0}, 'byteOffset: integer expected'},
  {'file byteOffset NaN', fromFile{byteOffset = NAN}, 'byteOffset: integer expected'},
  {'file byteOffset at the end', fromFile{byteOffset = 6},
   'byteOffset 6 is at or past the end of the file (6 bytes)'},
  {'file byteOffset past 2^62', fromFile{byteOffset = 2 ^ 62}, 'at or past the end of the file'},
  {'file numElements 0', fromFile{numElements = 0}, 'numElements: must be at least 1, got 0'},
  {'file numElements past the end', fromFile{byteOffset = 2, numElements = 5},
   'numElements 5 (1 bytes each) needs more than the 4 bytes after byteOffset 2'},
  {'file of partial elements', function()
     return tensor.DoubleTensor{file = {name = fileName}} end,
   'are not a whole number of 8-byte elements; give numElements'},
  {'file field misspelt', fromFile{offset = 1},
   'only the fields name, byteOffset and numElements are known'},
  {'file beside a range', function()
     return tensor.ByteTensor{file = {name = fileName}, range = {1}} end,
   'take no other fields'},

  -- dmlab.system.torch (docs/torch.md).
  {'torch index out of range', function() return tz[3] end,
   "bad argument #1 to '__index' (index 3 out of range for dimension 1 of size 2)"},
  {'torch too many indices', function() return tz[{1, 1, 1}] end,
   'too many indices (3) for a tensor of rank 2'},
  {'torch infinite index', function() return tz[1/0] end, 'integer expected'},
  {'torch mask of doubles', function() return tz[tz:gt(1):double()] end,
   'a mask must be a ByteTensor, not a DoubleTensor'},
  {'torch assign a string', function() tz[1] = 'x' end,
   "bad argument #2 to '__newindex' (number or tensor expected, got string)"},
  {'torch assign a field', function() tz.field = 1 end, 'tensors take no fields'},
  {'torch byte of a negative', function() return torch.Tensor({-1}):byte() end,
   'cannot be held by uint8'},
  {'torch fill a byte with 256', function() return torch.ByteTensor(1):fill(256) end,
   'ByteTensor cannot hold 256'},
  {'torch unknown type name', function() return tz:type('torch.Tensor2') end,
   "bad argument #1 to 'type'"},
  {'torch default type', function() torch.setdefaulttensortype('double') end,
   "bad argument #1 to 'setdefaulttensortype'"},
  {'torch divide by a tensor', function() return tz / tz end,
   "bad argument #2 to '__div' (number expected)"},
  {'torch 1D times 2D', function() return tz[1] * tz end, 'multiplication between 1D and 2D'},
  {'torch lshift overflow', function() return torch.IntTensor({2 ^ 30}):lshift(2) end,
   "'lshift'"},
  {'torch bitand of doubles', function() return tz:bitand(1) end,
   "'bitand': not defined for DoubleTensor"},
  {'torch multinomial past the categories', function()
     return torch.multinomial(torch.Tensor({1, 1}), 3) end,
   '3 draws without replacement from 2 categories'},
  {'torch histc of a huge bin count', function() return torch.histc(tz, 2 ^ 60) end, "'histc'"},
  {'torch geometric without p', function() return torch.Tensor(2):geometric() end,
   "bad argument #1 to 'geometric'"},
  {'torch storage field', function() torch.LongStorage(2).x = 1 end,
   'a storage has no field x'},
  {'torch tensor view past its storage', function()
     return torch.Tensor(torch.DoubleStorage(4), 3, torch.LongStorage({2, 2})) end, "'set'"},
  {'torch class exists', function() torch.class('torch.Tester') end, 'already exists'},
  {'torch lent tensor', function() return invalid():torch() end, 'invalid'},
  {'torch unknown serialisation format', function() return torch.serialize(tz, 'xml') end,
   "'binary' or 'ascii' expected"},
  {'torch ascii text that is not a number', function()
     return torch.deserialize('1\nx', 'ascii') end, "'deserialize': a number expected"},
  {'torch ascii short out of range', function()
     return torch.deserialize('4\n1\n3\nV 1\n18\ntorch.ShortStorage\n1\n-40000\n', 'ascii') end,
   'out of the storage'},
}

for _, case in ipairs(cases) do
  local name, fn, substring = case[1], case[2], case[3]
  testing.case(name, function()
    testing.assertError(fn, substring)
  end)
end

testing.case('the table has at least 60 cases', function()
  testing.assertTrue(#cases >= 60, #cases .. ' cases')
end)

testing.case('the host is alive and computes correctly afterwards', function()
  testing.assertEqual(z:val(), {{1, 2, 3}, {4, 5, 6}}, 'no failed call changed z')
  testing.assertEqual(tz:totable(), {{1, 2, 3}, {4, 5, 6}}, 'nor the Torch tz')
  testing.assertEqual(z:mmul(z:transpose(1, 2)), tensor.DoubleTensor{{14, 32}, {32, 77}})
  testing.assertEqual(tensor.Int32Tensor{7, 9}:div(2), tensor.Int32Tensor{3, 4})
  testing.assertEqual(tensor.ByteTensor{file = {name = fileName, byteOffset = 4}},
                      tensor.ByteTensor{5, 6})
  os.remove(fileName)
end)

testing.run()
