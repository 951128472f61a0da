-- The tensor methods whose Torch7 meaning differs from dmlab.system.tensor's,
-- and the operators, installed in every class table.
local torch, internal = ...
local argumentError = internal.argumentError
local methods = {}

-- x:type() is the type's name; x:type(name) converts (self if it is that
-- type already).
function methods:type(name)
  if name == nil then return self.__typename end
  if name == self.__typename then return self end
  local kind = type(name) == 'string' and name:match('^torch%.(%a+)Tensor$')
  local class = kind and torch[kind .. 'Tensor']
  if not class then argumentError('type', 1, 'a tensor type name expected, got ' .. torch.type(name)) end
  return class.__convert(self)
end

function methods:typeAs(other)
  return self:type(other:type())
end

-- x:size() is a LongStorage; x:size(d) the extent of dimension d (C++).
local extents = internal.classes.DoubleTensor.size
function methods:size(dim)
  if dim == nil then return torch.LongStorage(extents(self)) end
  return extents(self, dim)
end

-- x:narrow(dim, index, 0) is an error in Torch7 (dmlab.system.tensor's is
-- an empty view, as DeepMind Lab's).
local narrow = internal.classes.DoubleTensor.narrow
function methods:narrow(dim, index, size, ...)
  if size == 0 then
    internal.argumentError('narrow', 3, 'size 0: Torch7 narrows to one entry or more')
  end
  return narrow(self, dim, index, size, ...)
end

-- x:stride() too; x:stride(d) the step of dimension d.
local steps = internal.classes.DoubleTensor.stride
function methods:stride(dim)
  if dim == nil then return torch.LongStorage(steps(self)) end
  return steps(self, dim)
end

function methods:__len()
  return self:size()
end

function methods:numel()
  return self:nElement()
end

function methods:elementSize()
  return self.__elementSize
end

-- x:new(...) is torch.<Type>(...) with x first: x:new() is a new tensor
-- object over x's elements, as in Torch7; x.new() an empty one.
function methods.new(...)
  local first = ...
  local name = torch.typename(first)
  if name == nil then return torch.Tensor(...) end
  return torch[name:match('^torch%.(.*)$')](...)
end

-- An empty tensor of x's type.
function internal.empty(x)
  return torch[x.__typename:match('^torch%.(.*)$')]()
end

-- x:fill(v), x:add(v [, y]), x:mul(v), x:div(v): a number meets an
-- integer tensor truncated toward zero, as Torch7 casts it, and the
-- arithmetic is the tensor's type's (dmlab's methods compute in double).
for _, name in ipairs({'fill', 'add', 'mul', 'div'}) do
  local method = internal.dmlabMethods[name]
  local whole = internal.wholeScalarMethods[name]
  methods[name] = function(self, x, ...)
    if type(x) == 'number' then
      x = internal.value(self, x, name)
      if select('#', ...) == 0 then return whole(self, x) end
    end
    return method(self, x, ...)
  end
end

-- x:bernoulli([gen,] p) with a tensor of probabilities: each element 1
-- with its own probability.
local bernoulli = internal.classes.DoubleTensor.bernoulli
function methods:bernoulli(...)
  local n = select('#', ...)
  local p = n > 0 and select(n, ...) or nil
  if torch.isTensor(p) then
    local draws = torch.DoubleTensor(self:size())
    if n >= 2 then draws:uniform((...)) else draws:uniform() end
    return self:copy(draws:lt(p:double()))
  end
  return bernoulli(self, ...)
end

-- x:totable(): nested tables of numbers ({} without dimensions).
function methods:totable()
  if self:dim() == 0 then return {} end
  if self:dim() == 1 and self:nElement() == 1 then return {self[1]} end
  return self:val()
end

-- torch.Tensor.isTensor(x), Torch7's alias of torch.isTensor.
function methods.isTensor(x)
  return torch.isTensor(x)
end

-- Sizes may be a LongStorage wherever Torch7 takes them.
local function sizes(first, ...)
  if torch.isStorage(first) then return first:totable() end
  return first, ...
end
internal.sizes = sizes
for _, name in ipairs({'resize', 'isSize'}) do
  local method = internal.classes.DoubleTensor[name]
  methods[name] = function(self, ...)
    return method(self, sizes(...))
  end
end

-- res:view(x, sizes), res:viewAs(x, template), res:expand(x, sizes),
-- res:expandAs(x, template), res:repeatTensor(x, sizes): with a tensor
-- first, self becomes the result.
for name, arity in pairs({view = 0, expand = 0, repeatTensor = 0, viewAs = 1, expandAs = 1}) do
  local method = internal.classes.DoubleTensor[name]
  methods[name] = function(self, first, ...)
    if torch.isTensor(first) and (arity == 0 or torch.isTensor((...))) then
      return self:set(method(first, sizes(...)))
    end
    return method(self, sizes(first, ...))
  end
end

-- x:reshape(m, n, ...) or x:reshape(sizes): a reshaped copy.
local reshape = internal.classes.DoubleTensor.reshape
function methods:reshape(...)
  local first = ...
  if type(first) == 'number' then return reshape(self, {...}) end
  return reshape(self, sizes(...))
end

-- x:storage(): the Storage under x, all of it.
function methods:storage()
  return internal.newStorage(internal.wholeStorage(self))
end

-- x:set(storage [, offset = 1 [, sizes [, strides]]]), x:set(tensor) or
-- x:set(): x views those elements instead (or none).
function methods:set(source, offset, sizeArg, strideArg)
  if source == nil then
    internal.reset(self, internal.empty(self))
    return self
  end
  if torch.isTensor(source) then
    internal.reset(self, source)
    return self
  end
  if not torch.isStorage(source) then argumentError('set', 1, 'tensor or storage expected') end
  local whole = internal.storageTensor(source)
  offset = offset or 1
  local shape = sizeArg and {sizes(sizeArg)} or {whole:nElement() - offset + 1}
  if torch.isStorage(sizeArg) then shape = sizeArg:totable() end
  local strides = strideArg and (torch.isStorage(strideArg) and strideArg:totable() or strideArg)
  if strides == nil then
    strides, shape = {}, type(shape[1]) == 'table' and shape[1] or shape
    local step = 1
    for d = #shape, 1, -1 do
      strides[d] = step
      step = step * shape[d]
    end
  end
  if type(shape[1]) == 'table' then shape = shape[1] end
  internal.reset(self, internal.withLayout(whole, offset - 1, shape, strides))
  return self
end

-- x:isSetTo(y): whether x and y view the same elements the same way.
function methods:isSetTo(other)
  if not internal.sameStorage(self, other) or self:storageOffset() ~= other:storageOffset() then
    return false
  end
  if self:dim() ~= other:dim() then return false end
  for d = 1, self:dim() do
    if self:size(d) ~= other:size(d) or self:stride(d) ~= other:stride(d) then return false end
  end
  return true
end

-- Operators: a new tensor of the left tensor's shape, as in Torch7. A
-- number meets an integer tensor truncated toward zero, as Torch7 casts it.
local value = internal.value

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

-- tensor * tensor: dot (1D.1D), mv (2D.1D) or mm (2D.2D).
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

for _, kind in ipairs(internal.kinds) do
  local class = internal.classes[kind.name .. 'Tensor']
  for name, f in pairs(methods) do class[name] = f end
end
