-- Type names, constructors, conversions and the default tensor type.
local torch, internal = ...
local classes, isTensor, argumentError = internal.classes, internal.isTensor, internal.argumentError
local dmlab = internal.dmlab
local unpack = unpack or table.unpack

-- torch.typename(x): 'torch.DoubleTensor' for a tensor, the class name of
-- a Storage or torch.class object, 'torch.Generator' for a generator, nil
-- for anything else.
function torch.typename(x)
  if isTensor(x) then return x.__typename end
  if torch.isStorage(x) then return getmetatable(x) end
  if internal.isGenerator(x) then return 'torch.Generator' end
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

-- torch.pointer(x): a number naming x while it lives, as Torch7's: for a
-- Torch object, table, thread, function or string. A storage is named by
-- the memory it holds, so that x:storage() twice gives one pointer.
function torch.pointer(x)
  if torch.isStorage(x) then
    return internal.address(internal.storageKey(internal.storageTensor(x)) or x)
  end
  local kind = type(x)
  if kind == 'userdata' and torch.typename(x) == nil then
    argumentError('pointer', 1, 'Torch object expected')
  elseif kind ~= 'userdata' and kind ~= 'table' and kind ~= 'thread' and kind ~= 'function' and
         kind ~= 'string' then
    argumentError('pointer', 1, 'Torch object, table, thread or function expected')
  end
  return internal.address(x)
end

-- torch.isTypeOf(x, spec): spec is a type name or a class table; a
-- torch.class object is also of its parents' types.
-- A string spec is a Lua pattern: a literal name must match whole, a
-- pattern may match part ('torch.*Tensor'), as in Torch7.
function torch.isTypeOf(x, spec)
  if type(spec) == 'table' then spec = spec.__typename end
  if type(spec) ~= 'string' then argumentError('isTypeOf', 2, 'type name or class expected') end
  local name = torch.typename(x)
  while name do
    local match = name:match(spec)
    if match and (match ~= spec or match == name) then return true end
    local class = internal.classOf(name)
    name = class and rawget(class, '__parentname')
  end
  return false
end

local defaultName

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

-- Constructors: torch.DoubleTensor(...), the class tables called.
--   ()                      empty, no dimension
--   (n1, ..., nk)           zero-filled (Torch7 leaves it uninitialised)
--   (table)                 nested table of numbers
--   (LongStorage sizes [, LongStorage strides])  zero-filled, over the fewest
--                           elements the strides reach
--   (tensor)                a new tensor object over the same elements
--   (storage [, offset [, sizes [, strides]]])   a view of the storage
for _, kind in ipairs(internal.kinds) do
  local short = kind.name .. 'Tensor'
  local class = classes[short]
  local name = 'torch.' .. short
  local function make(...)
    local t = dmlab[kind.dmlab](...):torch()
    if kind.name == 'Half' then return internal.convert(t, short) end
    return t
  end
  local storageName = 'torch.' .. kind.name .. 'Storage'
  -- A zero-filled tensor of these sizes and strides, over the fewest
  -- elements they reach.
  local function withStrides(sizes, strides)
    if #strides ~= #sizes then
      argumentError(short, 2, #sizes .. ' strides expected, got ' .. #strides)
    end
    local extent = 1
    for d = 1, #sizes do
      if sizes[d] == 0 then extent = 0 break end
      extent = extent + (sizes[d] - 1) * strides[d]
    end
    local storage = torch[kind.name .. 'Storage'](math.max(extent, 0))
    return make():set(storage, 1, torch.LongStorage(sizes), torch.LongStorage(strides))
  end
  class.__elementSize = kind.size
  -- Another type's tensor converted to this one.
  class.__convert = function(t)
    if t:nElement() == 0 then return make() end
    return internal.convert(t, short)
  end
  setmetatable(class, {
    __call = function(_, first, ...)
      if first == nil then return make() end
      if type(first) == 'number' then return make(first, ...) end
      if torch.isStorage(first) then
        -- Torch7's order: the tensor's own storage type is a view of it,
        -- else a LongStorage gives the sizes (and a second the strides).
        if torch.typename(first) == storageName then return make():set(first, ...) end
        if torch.typename(first) ~= 'torch.LongStorage' then
          argumentError(short, 1, storageName .. ' or LongStorage of sizes expected, got ' ..
                        torch.typename(first))
        end
        local sizes, strides = first:totable(), ...
        if strides == nil then
          if #sizes == 0 then return make() end
          return make(unpack(sizes))
        end
        if torch.typename(strides) ~= 'torch.LongStorage' then
          argumentError(short, 2, 'LongStorage of strides expected, got ' .. torch.type(strides))
        end
        return withStrides(sizes, strides:totable())
      end
      if isTensor(first) then
        if first.__typename ~= name then
          argumentError(short, 1, name .. ' expected, got ' .. first.__typename)
        end
        return first:dmlab():torch()
      end
      if type(first) == 'table' then return make(first) end
      argumentError(short, 1, 'sizes, table, LongStorage or tensor expected, got ' .. type(first))
    end,
    __metatable = name,
  })
  torch[short] = class
end

-- x:byte() ... x:double(), and x:real() for the default type: self if x
-- is of that type already, as x:type(name).
for _, kind in ipairs(internal.kinds) do
  local class = classes[kind.name .. 'Tensor']
  for _, to in ipairs(internal.kinds) do
    local name = 'torch.' .. to.name .. 'Tensor'
    class[to.name:lower()] = function(self) return self:type(name) end
  end
  class.real = function(self) return self:type(defaultName) end
end
