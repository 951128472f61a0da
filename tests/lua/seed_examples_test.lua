-- Every example of the seed document (/work/shared/spec/seed-dmlab-tensor.md),
-- in document order, with its printed output compared exactly.
--
-- The corrections of the specification (tensor.md, "Corrections to the seed
-- document's examples") are applied:
--   * `z:narrow:narrow(1, 3, 2)` means `z:narrow(1, 3, 2)`;
--   * in the ByteTensor component-ops examples `bt2` has shape [2, 3];
--   * `tensor.IntTensor` means `tensor.Int32Tensor`;
--   * the pcall validity example reads `pcall(function() return t:type() end)`.
--
-- The seed's narrow transcript prints columns 2..4 for `z:narrow(2, 1, 3)`,
-- which contradicts the seed's own text ("narrowed from index to
-- index + size - 1") and 1-based indexing. We pin the text: narrow(2, 1, 3)
-- is columns 1..3, and narrow(2, 2, 3) is what the transcript prints.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local function assertPrints(t, expected, message)
  testing.assertEqual(tostring(t), expected, message)
end

testing.case('intro: zero-initialised DoubleTensor(4, 5)', function()
  local z = tensor.DoubleTensor(4, 5)
  assertPrints(z, [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [4, 5]
[[0, 0, 0, 0, 0],
 [0, 0, 0, 0, 0],
 [0, 0, 0, 0, 0],
 [0, 0, 0, 0, 0]]]=])
end)

testing.case('intro: tensor from a table', function()
  assertPrints(tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}, [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [3, 2]
[[1, 2],
 [3, 4],
 [5, 6]]]=])
end)

testing.case('types: there are 7 types, named dmlab.system.tensor.<Type>', function()
  local names = {'ByteTensor', 'CharTensor', 'Int16Tensor', 'Int32Tensor',
                 'Int64Tensor', 'FloatTensor', 'DoubleTensor'}
  for _, name in ipairs(names) do
    testing.assertEqual(type(tensor[name]), 'function', name)
    local t = tensor[name](2)
    testing.assertEqual(t:type(), 'dmlab.system.tensor.' .. name)
    testing.assertEqual(tostring(t), '[dmlab.system.tensor.' .. name .. ']\n' ..
                        'Shape: [2]\n[0, 0]')
  end
end)

testing.case('creation: construction functions and conversion methods', function()
  local pairs_ = {
    {'ByteTensor', 'byte'}, {'CharTensor', 'char'}, {'Int16Tensor', 'int16'},
    {'Int32Tensor', 'int32'}, {'Int64Tensor', 'int64'}, {'FloatTensor', 'float'},
    {'DoubleTensor', 'double'},
  }
  for _, p in ipairs(pairs_) do
    local constructed = tensor[p[1]]{{1, 2}, {3, 4}}
    testing.assertTrue(constructed:ownsStorage(), p[1] .. ' owns its storage')
    for _, q in ipairs(pairs_) do
      local converted = constructed[q[2]](constructed)
      testing.assertEqual(converted:type(), 'dmlab.system.tensor.' .. q[1])
      testing.assertTrue(converted:ownsStorage(), p[1] .. ':' .. q[2] .. '() owns its storage')
      testing.assertEqual(converted:val(), {{1, 2}, {3, 4}})
    end
  end
end)

testing.case('creation: even a same-type conversion is a compacted, contiguous copy', function()
  local z = tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}
  local t = z:transpose(1, 2)
  local compact = t:double()
  -- A contiguous tensor can be reshaped without a copy; the view cannot.
  testing.assertEqual(compact:reshape{6}:val(), {1, 3, 5, 2, 4, 6})
  compact:fill(0)
  testing.assertEqual(z:val(), {{1, 2}, {3, 4}, {5, 6}})
end)

testing.case('DoubleTensor(dim1, ..., dimK)', function()
  assertPrints(tensor.DoubleTensor(3, 2), [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [3, 2]
[[0, 0],
 [0, 0],
 [0, 0]]]=])
end)

testing.case('DoubleTensor{{...}, ...}: the shape is implied', function()
  assertPrints(tensor.DoubleTensor{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}, [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [2, 2, 2]
[[[1, 2],
  [3, 4]],
 [[5, 6],
  [7, 8]]]]=])
end)

testing.case('conversion', function()
  local z = tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}
  assert(z:byte() == tensor.ByteTensor{{1, 2}, {3, 4}, {5, 6}})
  assert(z:char() == tensor.CharTensor{{1, 2}, {3, 4}, {5, 6}})
  assert(z:int16() == tensor.Int16Tensor{{1, 2}, {3, 4}, {5, 6}})
  assert(z:int32() == tensor.Int32Tensor{{1, 2}, {3, 4}, {5, 6}})
  assert(z:int64() == tensor.Int64Tensor{{1, 2}, {3, 4}, {5, 6}})
  assert(z:float() == tensor.FloatTensor{{1, 2}, {3, 4}, {5, 6}})

  -- This call is equivalent to calling z:clone().
  assert(z:double() == tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}})
end)

testing.case('clone: same as the conversion of the same type', function()
  local z1 = tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}
  local z2 = z1:clone()   -- same as z1:double()
  testing.assertTrue(z2 == z1:double())
  testing.assertTrue(z2:ownsStorage())
  z2:fill(0)
  testing.assertEqual(z1:val(), {{1, 2}, {3, 4}, {5, 6}}, 'the clone has its own storage')
end)

testing.case('layout operations share storage with the source', function()
  local z = tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}
  z:transpose(1, 2):select(1, 2):fill(0)
  testing.assertEqual(z:val(), {{1, 0}, {3, 0}, {5, 0}})
end)

local function z32()
  return tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}
end

local Z32 = [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [3, 2]
[[1, 2],
 [3, 4],
 [5, 6]]]=]

testing.case('transpose(dim1, dim2)', function()
  local z = z32()
  assertPrints(z, Z32)
  assertPrints(z:transpose(1, 2), [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [2, 3]
[[1, 3, 5],
 [2, 4, 6]]]=])
end)

testing.case('select(dim, index)', function()
  local z = z32()
  assertPrints(z, Z32)
  assertPrints(z:select(2, 2), [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [3]
[2, 4, 6]]=])
end)

testing.case('__call(index1, ..., indexN)', function()
  local z = z32()
  assertPrints(z, Z32)
  local row = [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [2]
[3, 4]]=]
  assertPrints(z(2), row)
  assertPrints(z:select(1, 2), row)
  assertPrints(z(3,1), [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [1]
[5]]=])
  testing.assertTrue(z(3, 1) == z:select(1, 3):select(1, 1))
end)

local Z44 = [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [4, 4]
[[ 1,  2,  3,  4],
 [ 5,  6,  7,  8],
 [ 9, 10, 11, 12],
 [13, 14, 15, 16]]]=]

testing.case('narrow(dim, index, size): the seed example', function()
  local v = 0
  local z = tensor.DoubleTensor(4, 4):apply(function() v = v + 1 return v end)
  assertPrints(z, Z44)
  -- "The dimension dim is narrowed from index to index + size - 1": columns
  -- 1..3. (The seed transcript shows columns 2..4 here; see the top.)
  assertPrints(z:narrow(2, 1, 3), [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [4, 3]
[[ 1,  2,  3],
 [ 5,  6,  7],
 [ 9, 10, 11],
 [13, 14, 15]]]=])
  -- The output printed in the seed transcript is columns 2..4.
  assertPrints(z:narrow(2, 2, 3), [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [4, 3]
[[ 2,  3,  4],
 [ 6,  7,  8],
 [10, 11, 12],
 [14, 15, 16]]]=])
  -- Corrected from `z:narrow:narrow(1, 3, 2)`.
  assertPrints(z:narrow(1, 3, 2), [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [2, 4]
[[ 9, 10, 11, 12],
 [13, 14, 15, 16]]]=])
end)

local function filled(value)
  local row = '[' .. table.concat({value, value, value, value}, ', ') .. ']'
  return '[dmlab.system.tensor.DoubleTensor]\nShape: [4, 4]\n[' ..
         table.concat({row, row, row, row}, ',\n ') .. ']'
end

testing.case('fill(value)', function()
  local z = tensor.DoubleTensor(4, 4)
  z:fill(7)
  assertPrints(z, [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [4, 4]
[[7, 7, 7, 7],
 [7, 7, 7, 7],
 [7, 7, 7, 7],
 [7, 7, 7, 7]]]=])
end)

testing.case('add(value)', function()
  local z = tensor.DoubleTensor(4, 4)
  z:fill(5)
  z:add(1)
  assertPrints(z, filled('6'))
end)

testing.case('mul(value)', function()
  local z = tensor.DoubleTensor(4, 4)
  z:fill(0.5)
  z:mul(4)
  assertPrints(z, filled('2'))
end)

testing.case('sub(value)', function()
  local z = tensor.DoubleTensor(4, 4)
  z:fill(2)
  z:sub(4)
  assertPrints(z, [=[
[dmlab.system.tensor.DoubleTensor]
Shape: [4, 4]
[[-2, -2, -2, -2],
 [-2, -2, -2, -2],
 [-2, -2, -2, -2],
 [-2, -2, -2, -2]]]=])
end)

testing.case('div(value)', function()
  local z = tensor.DoubleTensor(4, 4)
  z:fill(-2)
  z:div(2)
  assertPrints(z, filled('-1'))
end)

local BT = [=[
[dmlab.system.tensor.ByteTensor]
Shape: [3, 2]
[[1, 2],
 [3, 4],
 [5, 6]]]=]

testing.case('component operations: the operands', function()
  local bt = tensor.ByteTensor{{1, 2}, {3, 4}, {5, 6}}
  assertPrints(bt, BT)
  local bt2 = tensor.ByteTensor{{1, 2, 3}, {4, 5, 6}}
  -- Corrected: the seed prints "Shape: [3, 2]" here.
  assertPrints(bt2, [=[
[dmlab.system.tensor.ByteTensor]
Shape: [2, 3]
[[1, 2, 3],
 [4, 5, 6]]]=])
end)

testing.case('cmul(value)', function()
  local bt = tensor.ByteTensor{{1, 2}, {3, 4}, {5, 6}}
  local bt2 = tensor.ByteTensor{{1, 2, 3}, {4, 5, 6}}
  bt:cmul(bt2)
  assertPrints(bt, [=[
[dmlab.system.tensor.ByteTensor]
Shape: [3, 2]
[[ 1,  4],
 [ 9, 16],
 [25, 36]]]=])
end)

testing.case('cadd(value)', function()
  local bt = tensor.ByteTensor{{1, 2}, {3, 4}, {5, 6}}
  local bt2 = tensor.ByteTensor{{1, 2, 3}, {4, 5, 6}}
  bt:cadd(bt2)
  assertPrints(bt, [=[
[dmlab.system.tensor.ByteTensor]
Shape: [3, 2]
[[ 2,  4],
 [ 6,  8],
 [10, 12]]]=])
end)

testing.case('cdiv(value)', function()
  local bt = tensor.ByteTensor{{1, 2}, {3, 4}, {5, 6}}
  local bt2 = tensor.ByteTensor{{1, 2, 3}, {4, 5, 6}}
  bt:cdiv(bt2)
  assertPrints(bt, [=[
[dmlab.system.tensor.ByteTensor]
Shape: [3, 2]
[[1, 1],
 [1, 1],
 [1, 1]]]=])
end)

testing.case('csub(value)', function()
  local bt = tensor.ByteTensor{{1, 2}, {3, 4}, {5, 6}}
  local bt2 = tensor.ByteTensor{{1, 2, 3}, {4, 5, 6}}
  bt:csub(bt2)
  assertPrints(bt, [=[
[dmlab.system.tensor.ByteTensor]
Shape: [3, 2]
[[0, 0],
 [0, 0],
 [0, 0]]]=])
end)

testing.case('copy(value)', function()
  local bt = tensor.ByteTensor(3, 2)
  assertPrints(bt, [=[
[dmlab.system.tensor.ByteTensor]
Shape: [3, 2]
[[0, 0],
 [0, 0],
 [0, 0]]]=])
  local bt2 = tensor.ByteTensor{{1, 2, 3}, {4, 5, 6}}
  bt:copy(bt2)
  assertPrints(bt, BT)
end)

testing.case('component operations: different counts or types are errors', function()
  local bt = tensor.ByteTensor{{1, 2}, {3, 4}, {5, 6}}
  testing.assertError(function() bt:cadd(tensor.ByteTensor(5)) end, 'cadd')
  testing.assertError(function() bt:cadd(tensor.Int32Tensor(3, 2)) end, 'cadd')
  testing.assertEqual(bt:val(), {{1, 2}, {3, 4}, {5, 6}})
end)

testing.case('comparison', function()
  local bt = tensor.ByteTensor{{1, 2}, {3, 4}, {5, 6}}

  -- The same:
  assert(bt == tensor.ByteTensor{{1, 2}, {3, 4}, {5, 6}})

  -- Values are different:
  assert(bt ~= tensor.ByteTensor{{1, 2}, {3, 4}, {7, 8}})

  -- Shape is different:
  assert(bt ~= tensor.ByteTensor{{1, 2, 3}, {4, 5, 6}})

  -- Type is different (corrected from tensor.IntTensor):
  assert(bt ~= tensor.Int32Tensor{{1, 2}, {3, 4}, {5, 6}})
end)

-- The ownership examples, driven by a host that lends memory.
testing.case('ownership: keep a valid tensor by cloning a non-owning one', function()
  local my_api = {}

  function my_api.call_me_with_a_tensor(z)
    my_api._valid_tensor = z:ownsStorage() and z or z:clone()
  end

  function my_api.call_me()
    return my_api._valid_tensor
  end

  host_test.lend('DoubleTensor', {2, 2}, 3, function(z)
    testing.assertEqual(z:ownsStorage(), false)
    my_api.call_me_with_a_tensor(z)
  end)
  local kept = my_api.call_me()
  testing.assertTrue(kept:ownsStorage())
  testing.assertEqual(kept:val(), {{3, 3}, {3, 3}})

  local owned = tensor.DoubleTensor{1, 2}
  my_api.call_me_with_a_tensor(owned)
  testing.assertTrue(rawequal(my_api.call_me(), owned), 'an owning tensor is kept as it is')
end)

testing.case('ownership: check validity with pcall (for debugging)', function()
  local my_api = {}

  -- It is assumed some external code calls this function.
  function my_api.call_me_with_a_tensor(z)
    my_api._maybe_invalid_copy = z
  end

  function my_api.call_me()
    -- Corrected from `pcall(my_api._maybe_invalid_copy:type())`.
    if pcall(function() return my_api._maybe_invalid_copy:type() end) then
      return my_api._maybe_invalid_copy
    end
    return nil
  end

  host_test.lend('DoubleTensor', {3}, 1, function(z)
    my_api.call_me_with_a_tensor(z)
    testing.assertTrue(rawequal(my_api.call_me(), z), 'valid during the loan')
  end)
  testing.assertEqual(my_api.call_me(), nil, 'invalid once the loan has ended')
end)

testing.run()
