-- Torch7's serialisation, binary format: torch.serialize/deserialize and
-- torch.save/load. Objects are written as Torch7's File:writeObject writes
-- them (type tags, a reference index per table or Torch object so that
-- shared objects stay shared, tensors as sizes, strides, offset and their
-- storage, storages as their size and raw elements; ints 4 bytes, longs 8,
-- little-endian), so .t7 files pass between the two. Functions are refused
-- (Torch7 writes their bytecode, which no sandbox may load).
local torch, internal = ...
local argumentError = internal.argumentError
local pack, unpack = internal.pack, internal.unpack

local NIL, NUMBER, STRING, TABLE, TORCH, BOOLEAN = 0, 1, 2, 3, 4, 5
local VERSION = 'V 1'

local storageOf = internal.storageTensor

-- Writer: appends to `out`, a table of strings; `refs` maps each written
-- table or object to its index.
local function writer()
  local out, refs, count = {}, {}, 0
  local self = {}
  local function int(n) out[#out + 1] = pack('i', n) end
  local function long(n) out[#out + 1] = pack('l', n) end
  local function chars(s)
    int(#s)
    out[#out + 1] = s
  end

  -- The index of `key`, and whether it is new.
  local function reference(key)
    if refs[key] then
      int(refs[key])
      return false
    end
    count = count + 1
    refs[key] = count
    int(count)
    return true
  end

  function self.object(x)
    local kind = type(x)
    if x == nil then
      int(NIL)
    elseif kind == 'number' then
      int(NUMBER)
      out[#out + 1] = pack('d', x)
    elseif kind == 'boolean' then
      int(BOOLEAN)
      int(x and 1 or 0)
    elseif kind == 'string' then
      int(STRING)
      chars(x)
    elseif torch.isTensor(x) then
      int(TORCH)
      if reference(x) then
        chars(VERSION)
        chars(x.__typename)
        local dims = x:dim()
        int(dims)
        for d = 1, dims do long(x:size(d)) end
        for d = 1, dims do long(x:stride(d)) end
        long(x:storageOffset())
        self.object(dims > 0 and x:storage() or nil)
      end
    elseif torch.isStorage(x) then
      int(TORCH)
      local t = storageOf(x)
      -- x:storage() makes a new object each time: a whole storage is
      -- known by the memory it names, a storage view by itself.
      local whole = t:nElement() == 0 or
          (t:storageOffset() == 1 and internal.wholeStorage(t):nElement() == t:nElement())
      if reference(whole and internal.storageKey(t) or x) then
        chars(VERSION)
        chars(torch.typename(x))
        long(t:nElement())
        if t:nElement() > 0 then out[#out + 1] = internal.elementBytes(t) end
      end
    elseif internal.isGenerator(x) then
      -- Not Torch7's layout (its generators are a C struct): this
      -- project's generator state, for this project to read back.
      int(TORCH)
      if reference(x) then
        chars(VERSION)
        chars('torch.Generator')
        chars(internal.rngState(x))
      end
    elseif kind == 'table' and torch.typename(x) and internal.classOf(torch.typename(x)) then
      int(TORCH)
      if reference(x) then
        chars(VERSION)
        chars(torch.typename(x))
        local fields = {}
        for k, v in pairs(x) do fields[k] = v end
        self.object(fields)
      end
    elseif kind == 'table' then
      int(TABLE)
      if reference(x) then
        local size = 0
        for _ in pairs(x) do size = size + 1 end
        int(size)
        for k, v in pairs(x) do
          self.object(k)
          self.object(v)
        end
      end
    else
      error(('cannot serialize a %s'):format(torch.type(x)), 0)
    end
  end

  function self.result()
    return table.concat(out)
  end
  return self
end

-- Reader over the string s.
local function reader(s)
  local position, objects = 1, {}
  local self = {}
  local function number(format)
    local value
    value, position = unpack(format, s, position)
    return value
  end
  local function chars()
    local n = number('i')
    if n < 0 or n > #s - position + 1 then error('the data ends early (a string of ' .. n .. ' bytes)', 0) end
    local text = s:sub(position, position + n - 1)
    position = position + n
    return text
  end

  local function tensor(className)
    local dims = number('i')
    if dims < 0 or dims > 64 then error('a tensor of ' .. dims .. ' dimensions', 0) end
    local sizes, strides = {}, {}
    for d = 1, dims do sizes[d] = number('l') end
    for d = 1, dims do strides[d] = number('l') end
    local offset = number('l')
    local storage = self.object()
    local class = torch[className:match('^torch%.(%a+Tensor)$')]
    if dims == 0 or storage == nil then return class() end
    if not torch.isStorage(storage) then error('a tensor without a storage', 0) end
    return class():set(storage, offset, torch.LongStorage(sizes), torch.LongStorage(strides))
  end

  local function storage(className)
    local n = number('l')
    local kind = className:match('^torch%.(%a+)Storage$')
    local class = torch[kind .. 'Tensor']
    local width = class.__elementSize
    if n < 0 or n * width > #s - position + 1 then
      error(('the data ends early (a storage of %d elements)'):format(n), 0)
    end
    local t = n > 0 and class(n) or class()
    if n > 0 then position = internal.readElements(t, s, position) end
    return internal.newStorage(t)
  end

  function self.object()
    local kind = number('i')
    if kind == NIL then return nil end
    if kind == NUMBER then return number('d') end
    if kind == BOOLEAN then return number('i') == 1 end
    if kind == STRING then return chars() end
    if kind ~= TABLE and kind ~= TORCH then error('unknown object type ' .. kind, 0) end
    local index = number('i')
    if objects[index] ~= nil then return objects[index] end
    if kind == TABLE then
      local object = {}
      objects[index] = object
      local size = number('i')
      for _ = 1, size do
        local k = self.object()
        local v = self.object()
        if k == nil then error('a table key is nil', 0) end
        object[k] = v
      end
      return object
    end
    local version = chars()
    local className = version:match('^V ') and chars() or version
    local object
    if className:match('^torch%.%a+Tensor$') and torch[className:match('^torch%.(.*)$')] then
      object = tensor(className)
    elseif className:match('^torch%.%a+Storage$') and torch[className:match('^torch%.(.*)$')] then
      object = storage(className)
    elseif className == 'torch.Generator' then
      object = torch.Generator()
      internal.setRngState(object, chars())
    else
      local class = internal.classOf(className)
      if class == nil then error('unknown Torch class <' .. className .. '>', 0) end
      object = setmetatable({}, class)
      objects[index] = object
      for k, v in pairs(self.object() or {}) do object[k] = v end
    end
    objects[index] = object
    return object
  end

  function self.finished()
    return position > #s
  end
  return self
end

local function checkMode(fn, mode, n)
  if mode ~= nil and mode ~= 'binary' then
    argumentError(fn, n, "'binary' expected (the ascii format is not written yet)")
  end
end

-- torch.serialize(object [, 'binary']): a string.
function torch.serialize(object, mode)
  checkMode('serialize', mode, 2)
  local w = writer()
  w.object(object)
  return w.result()
end

-- torch.deserialize(s [, 'binary']): the object.
function torch.deserialize(s, mode)
  if type(s) ~= 'string' then argumentError('deserialize', 1, 'string expected') end
  checkMode('deserialize', mode, 2)
  return reader(s).object()
end

-- torch.save(filename, object [, 'binary']) and torch.load(filename [, 'binary']).
function torch.save(filename, object, mode)
  if type(filename) ~= 'string' then argumentError('save', 1, 'file name expected') end
  checkMode('save', mode, 3)
  local data = torch.serialize(object)
  local file, why = io.open(filename, 'wb')
  if not file then error(why, 0) end
  file:write(data)
  file:close()
end

function torch.load(filename, mode)
  if type(filename) ~= 'string' then argumentError('load', 1, 'file name expected') end
  checkMode('load', mode, 2)
  local file, why = io.open(filename, 'rb')
  if not file then error(why, 0) end
  local data = file:read('*a')
  file:close()
  return torch.deserialize(data)
end

-- torch.serializeToStorage(object [, 'binary']): the bytes in a CharStorage;
-- torch.deserializeFromStorage(storage [, 'binary']) reads them back.
function torch.serializeToStorage(object, mode)
  checkMode('serializeToStorage', mode, 2)
  local data = torch.serialize(object)
  local bytes = {data:byte(1, -1)}
  for i = 1, #bytes do
    if bytes[i] > 127 then bytes[i] = bytes[i] - 256 end  -- CharStorage is signed
  end
  return torch.CharStorage(bytes)
end

function torch.deserializeFromStorage(storage, mode)
  if torch.typename(storage) ~= 'torch.CharStorage' then
    argumentError('deserializeFromStorage', 1, 'CharStorage expected')
  end
  checkMode('deserializeFromStorage', mode, 2)
  local bytes = storage:totable()
  for i = 1, #bytes do bytes[i] = string.char(bytes[i] % 256) end
  return torch.deserialize(table.concat(bytes))
end
