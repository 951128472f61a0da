-- Module functions in Torch7's forms: result tensors first, where Torch7
-- takes them (torch.sort(values, indices, x), torch.gesv(resb, resa, b, a)),
-- results of LAPACK in Torch7's column-major layout, and the methods
-- whose self is a result (x:range(1, 5), dst:maskedSelect(src, mask)).
local torch, internal = ...
local dmlab = internal.dmlab
local isTensor = torch.isTensor
local argumentError = internal.argumentError
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

-- Each value into its result tensor: copied, or for LAPACK's matrices
-- (`lapack`) copied where the result is already a column-major matrix of
-- that size, else the result is set to a column-major copy, as Torch7
-- leaves them.
local function into(results, values, lapack)
  for i = 1, #results do
    local res, value = results[i], values[i]
    if isTensor(value) then
      if lapack and value:dim() == 2 then
        if res:dim() == 2 and res:isSameSizeAs(value) and res:stride(1) == 1 then
          res:copy(value)
        else
          res:set(columnMajor(value))
        end
      else
        res:resize(value:size()):copy(value)
      end
    end
  end
  return unpack(results)
end

-- torch.name([r1, ..., rk,] ...): with k result tensors before the
-- `inputs` input tensors, the results go into them. `lapack`: results are
-- column-major.
local function withResults(name, k, inputs, lapack)
  local plain = torch[name]
  torch[name] = function(...)
    local results = {}
    if leadingTensors(k + inputs, ...) then
      for i = 1, k do results[i] = (select(i, ...)) end
      return into(results, {plain(select(k + 1, ...))}, lapack)
    end
    local values = {plain(...)}
    if lapack then
      for i = 1, #values do values[i] = columnMajor(values[i]) end
    end
    return unpack(values)
  end
end

for name, k in pairs({sort = 2, kthvalue = 2, median = 2, mode = 2, topk = 2}) do
  withResults(name, k, 1, false)
end
-- Torch7's gels keeps the first n rows (n: a's columns) of an
-- overdetermined system's solution.
local gels = torch.gels
function torch.gels(b, a)
  local x, qr = gels(b, a)
  if x:size(1) > a:size(2) then x = x:narrow(1, 1, a:size(2)) end
  return x, qr
end

-- name = {results, input tensors}
for name, counts in pairs({gesv = {2, 2}, gels = {2, 2}, trtrs = {2, 2}, potrs = {1, 2},
                           symeig = {2, 1}, eig = {2, 1}, svd = {3, 1}, inverse = {1, 1},
                           potrf = {1, 1}, potri = {1, 1}, qr = {2, 1}, pstrf = {2, 1}}) do
  withResults(name, counts[1], counts[2], true)
end

-- torch.cat([res,] a, b [, dim]) and torch.cat([res,] {a, b, ...} [, dim]):
-- with three tensors, or a tensor before the table, the first is the result.
-- Tensors without dimensions are left out, as Torch7 leaves them.
local cat = torch.cat
local function catNonEmpty(inputs, dim)
  local kept = {}
  for _, t in ipairs(inputs) do
    if t:dim() > 0 then kept[#kept + 1] = t end
  end
  if #kept == 0 then return internal.empty(inputs[1]) end
  if #kept == 1 then return kept[1]:clone() end
  return cat(kept, dim)
end

function torch.cat(first, second, ...)
  if isTensor(first) and type(second) == 'table' and not isTensor(second) then
    return into({first}, {catNonEmpty(second, ...)})
  end
  if isTensor(first) and isTensor(second) and isTensor((...)) then
    return into({first}, {catNonEmpty({second, (...)}, select(2, ...))})
  end
  if isTensor(first) then return catNonEmpty({first, second}, ...) end
  return catNonEmpty(first, second, ...)
end

-- torch.lerp(a, b, weight) of numbers too.
local lerp = torch.lerp
function torch.lerp(a, b, weight, ...)
  if type(a) == 'number' and type(b) == 'number' then return a + weight * (b - a) end
  return lerp(a, b, weight, ...)
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

-- torch.bitand([res,] x, n) ... torch.crshift([res,] x, y): x op n (or y)
-- as a new tensor, or into res.
for _, name in ipairs({'bitand', 'bitor', 'bitxor', 'lshift', 'rshift', 'cbitand', 'cbitor',
                       'cbitxor', 'clshift', 'crshift'}) do
  torch[name] = function(...)
    if select('#', ...) >= 3 and leadingTensors(2, ...) then
      local res, x, operand = ...
      local value = x:clone()
      return into({res}, {value[name](value, operand)})
    end
    local x, operand = ...
    local value = x:clone()
    return value[name](value, operand)
  end
end

-- torch.equal(a, b) and a:equal(b): same size and elements.
function torch.equal(a, b)
  if not a:isSameSizeAs(b) then return false end
  if a:nElement() == 0 then return true end
  return a:eq(b):all()
end

-- torch.repeatTensor([result,] x, sizes), torch.totable(x) and
-- torch.numel(x): the methods, as Torch7 also offers them.
function torch.repeatTensor(first, ...)
  if not isTensor(first) then argumentError('repeatTensor', 1, 'tensor expected') end
  return first:repeatTensor(...)
end

function torch.totable(x)
  if not isTensor(x) and not torch.isStorage(x) then
    argumentError('totable', 1, 'tensor or storage expected')
  end
  return x:totable()
end

function torch.numel(x)
  if not isTensor(x) then argumentError('numel', 1, 'tensor expected') end
  return x:nElement()
end

local methods = {equal = torch.equal}

-- x:range(...), x:linspace(...), ...: x is the result, written in place
-- (whatever its strides) when it has the result's element count, else
-- resized.
for _, name in ipairs({'range', 'linspace', 'logspace', 'rand', 'randn', 'zeros', 'ones', 'eye',
                       'randperm'}) do
  local f = torch[name]
  methods[name] = function(self, ...)
    local value = f(...)
    if self:nElement() == value:nElement() and self:dim() > 0 then
      if self:dim() == value:dim() or value:dim() == 1 then return self:copy(value) end
    end
    return self:resize(value:size()):copy(value)
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

-- res:index(x, dim, indices): res receives x's selected entries;
-- x:index(dim, indices) as dmlab's.
local index = internal.classes.DoubleTensor.index
function methods:index(first, ...)
  if isTensor(first) then return into({self}, {index(first, ...)}) end
  return index(self, first, ...)
end

-- res:nonzero(x): res receives x's indices; x:nonzero() as dmlab's.
local nonzero = internal.classes.DoubleTensor.nonzero
function methods:nonzero(x)
  if isTensor(x) then return into({self}, {nonzero(x)}) end
  return nonzero(self)
end

for _, kind in ipairs(internal.kinds) do
  local class = internal.classes[kind.name .. 'Tensor']
  for name, f in pairs(methods) do class[name] = f end
end
