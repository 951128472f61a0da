-- torch.*Storage: Torch7's flat arrays. A Storage here is a userdata (so
-- that # works in Lua 5.1) over a rank-1 tensor of its type.
local torch, internal = ...
local argumentError = internal.argumentError

local storageMethods = {}
local tensorOf = setmetatable({}, {__mode = 'k'})

-- The tensor behind a storage, for the other files.
function internal.storageTensor(storage)
  return tensorOf[storage]
end

function torch.isStorage(x)
  return tensorOf[x] ~= nil
end

function storageMethods:size()
  return tensorOf[self]:nElement()
end

function storageMethods:totable()
  return tensorOf[self]:totable()
end

function storageMethods:fill(x)
  local t = tensorOf[self]
  if t:nElement() > 0 then t:fill(internal.value(t, x, 'fill')) end
  return self
end

function storageMethods:copy(other)
  tensorOf[self]:copy(tensorOf[other] or other)
  return self
end

function storageMethods:elementSize()
  return tensorOf[self].__elementSize
end

function storageMethods:resize(n)
  local t = tensorOf[self]
  tensorOf[self] = n == 0 and internal.empty(t) or t:resize(n)
  return self
end

local metatables = {}  -- storage type name -> metatable
internal.storageMethods = {}  -- storage type name -> its methods

-- A storage over the rank-1 tensor t.
function internal.newStorage(t)
  local storage = internal.newUserdata(metatables[t.__typename:gsub('Tensor$', 'Storage')])
  tensorOf[storage] = t
  return storage
end

for name, f in pairs(storageMethods) do storageMethods[name] = internal.named(name, f) end

for _, kind in ipairs(internal.kinds) do
  local name = 'torch.' .. kind.name .. 'Storage'
  local tensorClass = internal.classes[kind.name .. 'Tensor']
  local meta = {__metatable = name}
  metatables[name] = meta
  -- The type's own methods (torch.getmetatable(name) hands them out, and
  -- a method added there is this type's, as in Torch7).
  local methods = {}
  for key, f in pairs(storageMethods) do methods[key] = f end
  internal.storageMethods[name] = methods
  function meta.__index(self, key)
    if type(key) == 'number' then return tensorOf[self][key] end
    return methods[key]
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
    -- (), (n) zero-filled, (table of numbers), (storage) its copy, or
    -- (storage, offset [, size]) a view of part of it.
    __call = function(_, n, offset, size)
      local t
      if n == nil or n == 0 then
        t = tensorClass()
      elseif type(n) == 'number' then
        t = tensorClass(n)
      elseif type(n) == 'table' then
        t = #n == 0 and tensorClass() or tensorClass(n)
      elseif tensorOf[n] and offset ~= nil then
        local whole = tensorOf[n]
        t = whole:narrow(1, offset, size or whole:nElement() - offset + 1)
      elseif tensorOf[n] then
        t = tensorOf[n]:type('torch.' .. kind.name .. 'Tensor'):clone()
      else
        argumentError(kind.name .. 'Storage', 1,
                      'size, table or nothing expected, got ' .. torch.type(n))
      end
      return internal.newStorage(t)
    end,
    __metatable = name,
  })
  torch[kind.name .. 'Storage'] = class
end
