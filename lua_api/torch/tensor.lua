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
  if not class then argumentError('type', 1, 'a tensor type name expected, got ' .. tostring(name)) end
  return class.__convert(self)
end

function methods:typeAs(other)
  return self:type(other:type())
end

-- x:size() is a LongStorage; x:size(d) the extent of dimension d.
function methods:size(dim)
  local shape = self:shape()
  if dim == nil then return torch.LongStorage(shape) end
  if type(dim) ~= 'number' or dim ~= math.floor(dim) or dim < 1 or dim > #shape then
    argumentError('size', 1, ('dimension %s out of range [1, %d]'):format(tostring(dim), #shape))
  end
  return shape[dim]
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

-- x:new(): an empty tensor of x's type.
function methods:new()
  return torch[self.__typename:match('^torch%.(.*)$')]()
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
