-- dmlab.system.torch: Torch7's `torch` over dmlab.system.tensor's core.
--
-- The C++ half (torch_flavour.h) made the class tables (torch.DoubleTensor
-- ...), filled with dmlab.system.tensor's methods wrapped to keep the Torch
-- flavour, and Torch7's indexing. This file adds what Torch7 names or
-- means differently: constructors, types and conversions, size() as a
-- LongStorage, operators, printing, Storages. See docs/torch.md.
local dmlab, internal = ...
local classes = internal.classes
local isTensor = internal.isTensor

local torch = {}
local unpack = unpack or table.unpack

local elementSizes = {Byte = 1, Char = 1, Short = 2, Int = 4, Long = 8, Float = 4, Double = 8}

-- Torch7's types and the dmlab.system.tensor constructors behind them.
local kinds = {
  {name = 'Byte', dmlab = 'ByteTensor'},
  {name = 'Char', dmlab = 'CharTensor'},
  {name = 'Short', dmlab = 'Int16Tensor'},
  {name = 'Int', dmlab = 'Int32Tensor'},
  {name = 'Long', dmlab = 'Int64Tensor'},
  {name = 'Float', dmlab = 'FloatTensor'},
  {name = 'Double', dmlab = 'DoubleTensor'},
}

local function argumentError(fn, n, why)
  error(("bad argument #%d to '%s' (%s)"):format(n, fn, why), 3)
end

--------------------------------------------------------------------------
-- Types.

-- torch.typename(x): 'torch.DoubleTensor' for a tensor, the class name of
-- a Storage or torch.class object, nil for anything else.
function torch.typename(x)
  if isTensor(x) then return x.__typename end
  if torch.isStorage(x) then return getmetatable(x) end
  if type(x) == 'table' then
    local mt = getmetatable(x)
    if type(mt) == 'table' then return rawget(mt, '__typename') end
  end
  return nil
end

-- torch.type(x): typename for Torch objects, type(x) otherwise.
function torch.type(x)
  return torch.typename(x) or type(x)
end

function torch.isTensor(x)
  return isTensor(x)
end

-- torch.isTypeOf(x, spec): spec is a type name or a class table; a
-- torch.class object is also of its parents' types.
function torch.isTypeOf(x, spec)
  if type(spec) == 'table' then spec = rawget(spec, '__typename') end
  if type(spec) ~= 'string' then argumentError('isTypeOf', 2, 'type name or class expected') end
  local name = torch.typename(x)
  while name do
    if name == spec then return true end
    local class = torch.classes and torch.classes[name]
    name = class and class.__parentname
  end
  return false
end

local defaultName = 'torch.DoubleTensor'

function torch.getdefaulttensortype()
  return defaultName
end

-- Only torch.Tensor (and torch.Storage) follow it; torch.DoubleTensor is
-- always double.
function torch.setdefaulttensortype(name)
  local kind = type(name) == 'string' and name:match('^torch%.(%a+)Tensor$')
  if not kind or not classes[kind .. 'Tensor'] then
    argumentError('setdefaulttensortype', 1, 'a tensor type name expected, as torch.FloatTensor')
  end
  defaultName = name
  torch.Tensor = torch[kind .. 'Tensor']
  torch.Storage = torch[kind .. 'Storage']
end

--------------------------------------------------------------------------
-- Methods shared by every tensor class, where Torch7 differs from
-- dmlab.system.tensor.
local methods = {}

-- x:type() is the type's name; x:type(name) converts (self if it is that
-- type already).
function methods:type(name)
  if name == nil then return self.__typename end
  if name == self.__typename then return self end
  local kind = type(name) == 'string' and name:match('^torch%.(%a+)Tensor$')
  local class = kind and torch[kind .. 'Tensor']
  if not class then argumentError('type', 1, 'a tensor type name expected, got ' .. tostring(name)) end
  return class.__convert(self)
end

function methods:typeAs(other)
  return self:type(other:type())
end

function methods:size(dim)
  local shape = self:shape()
  if dim == nil then return torch.LongStorage(shape) end
  if type(dim) ~= 'number' or dim ~= math.floor(dim) or dim < 1 or dim > #shape then
    argumentError('size', 1, ('dimension %s out of range [1, %d]'):format(tostring(dim), #shape))
  end
  return shape[dim]
end
methods.__len = function(self) return self:size() end

function methods:numel()
  return self:nElement()
end

function methods:elementSize()
  return self.__elementSize
end

-- x:new(): an empty tensor of x's type.
function methods:new()
  return torch[self.__typename:match('^torch%.(.*)$')]()
end

--------------------------------------------------------------------------
-- Operators: a new tensor of the left tensor's shape, as in Torch7.
local function value(t, x, fn)
  return internal.value(t, x, fn)
end

function methods.__add(a, b)
  if type(a) == 'number' then return b:clone():add(value(b, a, '__add')) end
  if type(b) == 'number' then return a:clone():add(value(a, b, '__add')) end
  return a:clone():add(b)
end

function methods.__sub(a, b)
  if type(a) == 'number' then return b:clone():mul(-1):add(value(b, a, '__sub')) end
  if type(b) == 'number' then return a:clone():add(-value(a, b, '__sub')) end
  return a:clone():add(-1, b)
end

function methods.__mul(a, b)
  if type(a) == 'number' then return b:clone():mul(value(b, a, '__mul')) end
  if type(b) == 'number' then return a:clone():mul(value(a, b, '__mul')) end
  local da, db = a:dim(), b:dim()
  if da == 1 and db == 1 then return a:dot(b) end
  if da == 2 and db == 1 then return torch.mv(a, b) end
  if da == 2 and db == 2 then return torch.mm(a, b) end
  error(('__mul: multiplication between %dD and %dD tensors is not supported'):format(da, db), 2)
end

function methods.__div(a, b)
  if type(b) ~= 'number' then argumentError('__div', 2, 'number expected') end
  return a:clone():div(value(a, b, '__div'))
end

function methods.__mod(a, b)
  if type(b) ~= 'number' then argumentError('__mod', 2, 'number expected') end
  return a:clone():remainder(value(a, b, '__mod'))
end

function methods.__unm(a)
  return a:clone():mul(-1)
end

--------------------------------------------------------------------------
-- Printing, in Torch7's layout: a column of numbers for rank 1, rows of at
-- most 80 characters for rank 2, "(i,j,.,.) = " matrices above, then
-- "[torch.DoubleTensor of size 2x3]".

-- The format, scale and width Torch7 chooses for the values of `t` (a
-- DoubleTensor).
local function numberFormat(t)
  local whole = t:clone():floor():eq(t):all()
  local magnitude = t:clone():abs()
  local function exponent(x)
    if x == 0 then return 1 end
    return math.floor(math.log10(x)) + 1
  end
  local low, high = exponent(magnitude:min()), exponent(magnitude:max())
  if whole then
    if high > 9 then return '%11.4e', nil, 11 end
    return '%' .. (high + 1) .. 'd', nil, high + 1
  end
  if high - low > 4 then
    local width = (math.abs(high) > 99 or math.abs(low) > 99) and 12 or 11
    return '%' .. width .. '.4e', nil, width
  end
  if high > 5 or high < 0 then
    local scale = 10 ^ (high - 1)
    return '%7.4f', scale ~= 1 and scale or nil, 7
  end
  local width = high == 0 and 7 or high + 6
  return '%' .. width .. '.4f', nil, width
end

local function formatValue(format, x)
  if x ~= x or x == math.huge or x == -math.huge then
    return (format:gsub('%.?%d*[def]$', 's')):format(tostring(x))
  end
  if format:sub(-1) == 'd' then return format:format(x) end
  return format:format(x)
end

local function printMatrix(m, format, scale, width, indent, out)
  local rows, columns = m:size(1), m:size(2)
  local perLine = math.floor((80 - #indent) / (width + 1))
  local first = 1
  out[#out + 1] = indent
  while first <= columns do
    local last = math.min(first + perLine - 1, columns)
    if perLine < columns then
      if first ~= 1 then out[#out + 1] = '\n' end
      out[#out + 1] = ('Columns %d to %d\n%s'):format(first, last, indent)
    end
    if scale then out[#out + 1] = ('%g *\n %s'):format(scale, indent) end
    for r = 1, rows do
      local row = m[r]
      for c = first, last do
        out[#out + 1] = formatValue(format, row[c] / (scale or 1))
        if c == last then
          out[#out + 1] = '\n'
          if r ~= rows then out[#out + 1] = scale and indent .. ' ' or indent end
        else
          out[#out + 1] = ' '
        end
      end
    end
    first = last + 1
  end
end

function methods.__tostring(self)
  local name = self.__typename
  local rank = self:dim()
  if rank == 0 then return '[' .. name .. ' with no dimension]\n' end
  local t = self:double()
  local format, scale, width = numberFormat(t)
  local out = {}
  local shape = self:shape()
  if rank == 1 then
    if scale then out[#out + 1] = ('%g *\n'):format(scale) end
    for i = 1, shape[1] do
      out[#out + 1] = formatValue(format, t[i] / (scale or 1)) .. '\n'
    end
  elseif rank == 2 then
    printMatrix(t, format, scale, width, '', out)
  else
    -- Every index of the leading rank - 2 dimensions, the first fastest.
    local counter = {}
    for i = 1, rank - 2 do counter[i] = 1 end
    while true do
      if #out > 0 then out[#out + 1] = '\n' end
      local m = t
      local label = {}
      for i = 1, rank - 2 do
        m = m:select(1, counter[i])
        label[i] = counter[i] .. ','
      end
      out[#out + 1] = '(' .. table.concat(label) .. '.,.) = \n'
      printMatrix(m, format, scale, width, ' ', out)
      local i = 1
      while i <= rank - 2 do
        counter[i] = counter[i] + 1
        if counter[i] <= shape[i] then break end
        counter[i] = 1
        i = i + 1
      end
      if i > rank - 2 then break end
    end
  end
  out[#out + 1] = '[' .. name .. ' of size ' .. table.concat(shape, 'x') .. ']\n'
  return table.concat(out)
end

--------------------------------------------------------------------------
-- Storages: Torch7's flat arrays, userdata (so that # works in Lua 5.1)
-- over a rank-1 tensor of their type.
local storageMethods = {}
local storageNames = {}  -- class or metatable name -> true
local tensorOf = setmetatable({}, {__mode = 'k'})

function storageMethods:size()
  return tensorOf[self]:nElement()
end

function storageMethods:totable()
  local t = tensorOf[self]
  if t:nElement() == 0 then return {} end
  return t:val()
end

function storageMethods:fill(x)
  local t = tensorOf[self]
  if t:nElement() > 0 then t:fill(value(t, x, 'fill')) end
  return self
end

function storageMethods:copy(other)
  tensorOf[self]:copy(tensorOf[other] or other)
  return self
end

function storageMethods:resize(n)
  local t = tensorOf[self]
  tensorOf[self] = n == 0 and t:new() or t:resize(n)
  return self
end

for _, kind in ipairs(kinds) do
  local name = 'torch.' .. kind.name .. 'Storage'
  local tensorClass = classes[kind.name .. 'Tensor']
  local meta = {__metatable = name}
  function meta.__index(self, key)
    if type(key) == 'number' then return tensorOf[self][key] end
    return storageMethods[key]
  end
  function meta.__newindex(self, key, x)
    if type(key) ~= 'number' then error(name .. ': a storage has no field ' .. tostring(key), 2) end
    tensorOf[self][key] = x
  end
  function meta.__len(self)
    return tensorOf[self]:nElement()
  end
  function meta.__tostring(self)
    local t = tensorOf[self]
    if t:nElement() == 0 then return '[' .. name .. ' of size 0]\n' end
    return (tostring(t):gsub('%[torch%.%a+Tensor of size (%d+)%]', '[' .. name .. ' of size %1]'))
  end
  local class = {__typename = name}
  setmetatable(class, {
    __call = function(_, n)
      local t
      if n == nil or n == 0 then
        t = tensorClass()
      elseif type(n) == 'number' then
        t = tensorClass(n)
      elseif type(n) == 'table' then
        t = #n == 0 and tensorClass() or tensorClass(n)
      else
        argumentError(kind.name .. 'Storage', 1, 'size, table or nothing expected, got ' .. torch.type(n))
      end
      local storage = internal.newUserdata(meta)
      tensorOf[storage] = t
      return storage
    end,
    __metatable = name,
  })
  storageNames[name] = true
  torch[kind.name .. 'Storage'] = class
end

function torch.isStorage(x)
  return tensorOf[x] ~= nil
end

--------------------------------------------------------------------------
-- Constructors: torch.DoubleTensor(...), the class tables called.
--   ()                      empty, no dimension
--   (n1, ..., nk)           zero-filled (Torch7 leaves it uninitialised)
--   (table)                 nested table of numbers
--   (LongStorage sizes)     the sizes as a storage
--   (tensor)                a new tensor object over the same elements

for _, kind in ipairs(kinds) do
  local short = kind.name .. 'Tensor'
  local class = classes[short]
  local make = dmlab[kind.dmlab]
  local name = 'torch.' .. short
  for method, f in pairs(methods) do class[method] = f end
  class.__elementSize = elementSizes[kind.name]
  local convert = ({Byte = 'byte', Char = 'char', Short = 'int16', Int = 'int32', Long = 'int64',
                    Float = 'float', Double = 'double'})[kind.name]
  -- Another type's tensor converted to this one, by the dmlab method.
  class.__convert = function(t)
    if t:nElement() == 0 then return make():torch() end
    return t:dmlab()[convert](t:dmlab()):torch()
  end
  setmetatable(class, {
    __call = function(_, first, ...)
      if first == nil then return make():torch() end
      if type(first) == 'number' then return make(first, ...):torch() end
      if torch.isStorage(first) then
        local sizes = first:totable()
        if #sizes == 0 then return make():torch() end
        return make(unpack(sizes)):torch()
      end
      if isTensor(first) then
        if first.__typename ~= name then
          argumentError(short, 1, name .. ' expected, got ' .. first.__typename)
        end
        return first:dmlab():torch()
      end
      if type(first) == 'table' then return make(first):torch() end
      argumentError(short, 1, 'sizes, table, LongStorage or tensor expected, got ' .. type(first))
    end,
    __metatable = name,
  })
  torch[short] = class
end
-- x:byte() ... x:double(), and x:real() for the default type: self if x
-- is of that type already, as x:type(name).
for _, kind in ipairs(kinds) do
  local class = classes[kind.name .. 'Tensor']
  for _, to in ipairs(kinds) do
    local name = 'torch.' .. to.name .. 'Tensor'
    class[to.name:lower()] = function(self) return self:type(name) end
  end
  class.real = function(self) return self:type(defaultName) end
end
torch.setdefaulttensortype('torch.DoubleTensor')

--------------------------------------------------------------------------
-- Module functions: dmlab.system.tensor's, giving torch-flavoured results.
local function torchFlavoured(...)
  local results = {n = select('#', ...), ...}
  for i = 1, results.n do
    local r = results[i]
    if type(r) == 'userdata' and internal.isDmlabTensor(r) then results[i] = r:torch() end
  end
  return unpack(results, 1, results.n)
end

for name, f in pairs(dmlab) do
  if type(f) == 'function' and torch[name] == nil and not name:match('Tensor$') then
    torch[name] = function(...)
      return torchFlavoured(f(...))
    end
  end
end

-- torch.fromDmlab(t): t:torch().
function torch.fromDmlab(t)
  return t:torch()
end

return torch
