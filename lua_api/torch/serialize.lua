-- Torch7's serialisation: torch.serialize/deserialize and torch.save/load,
-- in its binary and ascii formats. Objects are written as Torch7's
-- File:writeObject writes them (type tags, a reference index per table or
-- Torch object so that shared objects stay shared, tensors as sizes,
-- strides, offset and their storage, storages as their size and
-- elements), so .t7 files pass between the two. Functions are refused
-- (Torch7 writes their bytecode, which no sandbox may load).
local torch, internal = ...
local argumentError = internal.argumentError

local NIL, NUMBER, STRING, TABLE, TORCH, BOOLEAN = 0, 1, 2, 3, 4, 5
local VERSION = 'V 1'

local storageOf = internal.storageTensor

-- How each format lays out numbers, lists of longs, raw chars and a
-- storage's elements. binary: little-endian, ints 4 bytes, longs 8, chars
-- and elements raw. ascii: Torch7's DiskFile in ascii mode: each number as
-- text and a newline, a list as texts separated by spaces and a newline,
-- chars (and byte or char elements) raw and a newline (none when empty);
-- reading skips white space before a number and one newline after.
local function asciiRaw(s, position, n)
  local text = s:sub(position, position + n - 1)
  position = position + n
  if n > 0 and s:byte(position) == 10 then position = position + 1 end
  return text, position
end

local formats = {
  binary = {
    number = internal.pack,
    longs = function(list)
      local parts = {}
      for i = 1, #list do parts[i] = internal.pack('l', list[i]) end
      return table.concat(parts)
    end,
    raw = function(s) return s end,
    elements = internal.elementBytes,
    read = internal.unpack,
    readRaw = function(s, position, n) return s:sub(position, position + n - 1), position + n end,
    readElements = internal.readElements,
    -- The fewest bytes that n elements of `width` bytes can take.
    leastBytes = function(n, width) return n * width end,
  },
  ascii = {
    number = function(kind, x) return internal.format(kind, x) .. '\n' end,
    longs = function(list)
      if #list == 0 then return '' end
      local parts = {}
      for i = 1, #list do parts[i] = internal.format('l', list[i]) end
      return table.concat(parts, ' ') .. '\n'
    end,
    raw = function(s) return #s > 0 and s .. '\n' or '' end,
    elements = internal.elementText,
    read = internal.scan,
    readRaw = asciiRaw,
    readElements = internal.readElementText,
    leastBytes = function(n, width) return width == 1 and n or 2 * n - 1 end,
  },
}

-- Writer in `format`: appends to `out`, a table of strings; `refs` maps
-- each written table or object to its index.
local function writer(format)
  local out, refs, count = {}, {}, 0
  local self = {}
  local function int(n) out[#out + 1] = format.number('i', n) end
  local function long(n) out[#out + 1] = format.number('l', n) end
  local function chars(s)
    int(#s)
    out[#out + 1] = format.raw(s)
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
      out[#out + 1] = format.number('d', x)
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
        local sizes, strides = {}, {}
        for d = 1, dims do sizes[d], strides[d] = x:size(d), x:stride(d) end
        out[#out + 1] = format.longs(sizes)
        out[#out + 1] = format.longs(strides)
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
        out[#out + 1] = format.elements(t)
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

-- Reader over the string s in `format`.
local function reader(s, format)
  local position, objects = 1, {}
  local self = {}
  local function number(kind)
    local value
    value, position = format.read(kind, s, position)
    return value
  end
  local function chars()
    local n = number('i')
    if n < 0 or n > #s - position + 1 then error('the data ends early (a string of ' .. n .. ' bytes)', 0) end
    local text
    text, position = format.readRaw(s, position, n)
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
    if n < 0 or format.leastBytes(n, class.__elementSize) > #s - position + 1 then
      error(('the data ends early (a storage of %d elements)'):format(n), 0)
    end
    local t = n > 0 and class(n) or class()
    if n > 0 then position = format.readElements(t, s, position) end
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

-- The format named by argument n of fn ('binary' when nil).
local function formatOf(fn, mode, n)
  local format = mode == nil and formats.binary or formats[mode]
  if format == nil then
    argumentError(fn, n, "'binary' or 'ascii' expected")
  end
  return format
end

-- torch.serialize(object [, format]): a string; format 'binary' (the
-- default) or 'ascii'.
function torch.serialize(object, mode)
  local w = writer(formatOf('serialize', mode, 2))
  w.object(object)
  return w.result()
end

-- torch.deserialize(s [, format]): the object.
function torch.deserialize(s, mode)
  if type(s) ~= 'string' then argumentError('deserialize', 1, 'string expected') end
  return reader(s, formatOf('deserialize', mode, 2)).object()
end

-- torch.save(filename, object [, format]) and torch.load(filename [, format]).
function torch.save(filename, object, mode)
  if type(filename) ~= 'string' then argumentError('save', 1, 'file name expected') end
  formatOf('save', mode, 3)
  local data = torch.serialize(object, mode)
  local file, why = io.open(filename, 'wb')
  if not file then error(why, 0) end
  file:write(data)
  file:close()
end

function torch.load(filename, mode)
  if type(filename) ~= 'string' then argumentError('load', 1, 'file name expected') end
  formatOf('load', mode, 2)
  local file, why = io.open(filename, 'rb')
  if not file then error(why, 0) end
  local data = file:read('*a')
  file:close()
  return torch.deserialize(data, mode)
end

-- torch.serializeToStorage(object [, format]): the bytes in a CharStorage;
-- torch.deserializeFromStorage(storage [, format]) reads them back.
function torch.serializeToStorage(object, mode)
  formatOf('serializeToStorage', mode, 2)
  local data = torch.serialize(object, mode)
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
  formatOf('deserializeFromStorage', mode, 2)
  local bytes = storage:totable()
  for i = 1, #bytes do bytes[i] = string.char(bytes[i] % 256) end
  return torch.deserialize(table.concat(bytes), mode)
end
