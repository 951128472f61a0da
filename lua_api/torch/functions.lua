-- Module functions in Torch7's forms: result tensors first, where Torch7
-- takes them (torch.sort(values, indices, x), torch.gesv(resb, resa, b, a)),
-- results of LAPACK in Torch7's column-major layout, and the methods
-- whose self is a result (x:range(1, 5), dst:maskedSelect(src, mask)).
local torch, internal = ...
local dmlab = internal.dmlab
local isTensor = torch.isTensor
local unpack = unpack or table.unpack

-- Whether the first n arguments are all tensors.
local function leadingTensors(n, ...)
  if select('#', ...) < n then return false end
  for i = 1, n do
    if not isTensor((select(i, ...))) then return false end
  end
  return true
end

-- A matrix with Torch7's LAPACK layout: column-major.
local function columnMajor(m)
  if not isTensor(m) or m:dim() ~= 2 then return m end
  return m:t():clone():t()
end

-- res:resize(r's size):copy(r), for each result tensor given.
local function into(results, values)
  for i = 1, #results do
    local value = values[i]
    if isTensor(value) then
      results[i]:resize(value:size()):copy(value)
    end
  end
  return unpack(results)
end

-- torch.name([r1, ..., rk,] ...): with k leading result tensors before the
-- first input tensor, the results go into them. `lapack`: results are
-- column-major.
local function withResults(name, k, lapack)
  local plain = torch[name]
  torch[name] = function(...)
    local results = {}
    if leadingTensors(k + 1, ...) then
      for i = 1, k do results[i] = (select(i, ...)) end
      local values = {plain(select(k + 1, ...))}
      if lapack then
        for i = 1, #values do values[i] = columnMajor(values[i]) end
      end
      return into(results, values)
    end
    local values = {plain(...)}
    if lapack then
      for i = 1, #values do values[i] = columnMajor(values[i]) end
    end
    return unpack(values)
  end
end

for name, k in pairs({sort = 2, kthvalue = 2, median = 2, mode = 2, topk = 2}) do
  withResults(name, k, false)
end
for name, k in pairs({gesv = 2, gels = 2, trtrs = 2, symeig = 2, eig = 2, svd = 3}) do
  withResults(name, k, true)
end

-- max and min: torch.max(x) is a number; torch.max([values, indices,] x, d).
for _, name in ipairs({'max', 'min'}) do
  local plain = torch[name]
  torch[name] = function(...)
    if leadingTensors(3, ...) and select('#', ...) >= 4 then
      local values, indices = ...
      return into({values, indices}, {plain(select(3, ...))})
    end
    return plain(...)
  end
end

-- torch.reshape([res,] x, m, n, ...) or (x, sizes).
function torch.reshape(...)
  if leadingTensors(2, ...) then
    local res = ...
    return into({res}, {torch.reshape(select(2, ...))})
  end
  local x = ...
  return x:reshape(select(2, ...))
end

-- Sizes may be a LongStorage for the constructors.
for _, name in ipairs({'rand', 'randn', 'zeros', 'ones'}) do
  local plain = torch[name]
  torch[name] = function(...)
    if isTensor((...)) then
      local res = ...
      return plain(res, internal.sizes(select(2, ...)))
    end
    return plain(internal.sizes(...))
  end
end

-- torch.pow(value, x): value ^ x element-wise; otherwise as dmlab's.
local pow = torch.pow
function torch.pow(...)
  local a, b = ...
  if type(a) == 'number' and isTensor(b) then
    return b:clone():fill(a):cpow(b)
  end
  return pow(...)
end

-- torch.split([result,] x, size [, dim]) and chunk: with a result table,
-- the pieces go into it.
for _, name in ipairs({'split', 'chunk'}) do
  local plain = torch[name]
  torch[name] = function(first, ...)
    if type(first) == 'table' and not isTensor(first) then
      local pieces = plain(...)
      for i = #first, 1, -1 do first[i] = nil end
      for i, piece in ipairs(pieces) do first[i] = piece end
      return first
    end
    return plain(first, ...)
  end
end

-- torch.equal(a, b) and a:equal(b): same size and elements.
function torch.equal(a, b)
  if not a:isSameSizeAs(b) then return false end
  if a:nElement() == 0 then return true end
  return a:eq(b):all()
end

local methods = {equal = torch.equal}

-- x:range(...), x:linspace(...), ...: x is the result.
for _, name in ipairs({'range', 'linspace', 'logspace', 'rand', 'randn', 'zeros', 'ones', 'eye',
                       'randperm'}) do
  local f = torch[name]
  methods[name] = function(self, ...)
    return f(self, ...)
  end
end

-- x:csub(value) subtracts a number; x:csub(y) as dmlab's.
local csub = internal.classes.DoubleTensor.csub
function methods:csub(value, ...)
  if type(value) == 'number' then return self:add(-internal.value(self, value, 'csub')) end
  return csub(self, value, ...)
end

-- dst:maskedSelect(src, mask): dst receives; x:maskedSelect(mask) as dmlab's.
local maskedSelect = internal.classes.DoubleTensor.maskedSelect
function methods:maskedSelect(a, b)
  if b ~= nil then return into({self}, {maskedSelect(a, b)}) end
  return maskedSelect(self, a)
end

for _, kind in ipairs(internal.kinds) do
  local class = internal.classes[kind.name .. 'Tensor']
  for name, f in pairs(methods) do class[name] = f end
end
