-- Torch7's maths that dmlab.system.tensor lacks, over its functions:
-- conv3 and xcorr3 (by 2-D slices), cross, histc and bhistc.
local torch, internal = ...
local argumentError = internal.argumentError
local isTensor = torch.isTensor

-- The optional result tensor first: res or nil, and the other arguments.
local function result(first, ...)
  if isTensor(first) and isTensor((...)) and isTensor((select(2, ...))) then return first, ... end
  return nil, first, ...
end

local function store(res, value)
  if res == nil then return value end
  res:resize(value:size()):copy(value)
  return res
end

-- 3-D convolution and cross-correlation of a D x H x W input with a kD x
-- kH x kW kernel: 'V' (valid, the default) or 'F' (full), as sums of the
-- 2-D ones over the depth, taken in ascending input planes (so that conv3
-- with k equals xcorr3 with k reversed, bit for bit). A 4-D input and
-- kernel pair their first dimensions: out[i] = conv3(x[i], k[i]).
local function volumetric(name, flip)
  local planar = torch[name == 'conv3' and 'conv2' or 'xcorr2']
  local function single(x, k, mode)
    local depth, kernelDepth = x:size(1), k:size(1)
    local full = mode == 'F'
    local outDepth = full and depth + kernelDepth - 1 or depth - kernelDepth + 1
    if outDepth < 1 then argumentError(name, 2, 'the kernel is deeper than the input') end
    local out
    for i = 1, outDepth do
      -- The input planes that output plane i meets, ascending.
      local first = full and math.max(1, i - kernelDepth + 1) or i
      local last = full and math.min(depth, i) or i + kernelDepth - 1
      for plane = first, last do
        -- The kernel plane that meets it.
        local offset = full and plane - i + kernelDepth or plane - i + 1
        local j = flip and kernelDepth - offset + 1 or offset
        local slice = planar(x[plane], k[j], mode)
        if out == nil then
          out = torch.Tensor():typeAs(x):resize(outDepth, slice:size(1), slice:size(2)):zero()
        end
        out[i]:add(slice)
      end
    end
    return out
  end
  torch[name] = function(...)
    local res, x, k, mode = result(...)
    mode = mode or 'V'
    if not isTensor(x) or (x:dim() ~= 3 and x:dim() ~= 4) then
      argumentError(name, 1, '3D or 4D input tensor expected')
    end
    if not isTensor(k) or k:dim() ~= x:dim() then
      argumentError(name, 2, 'a kernel of the input\'s dimension expected')
    end
    if mode ~= 'V' and mode ~= 'F' then argumentError(name, 3, "'V' or 'F' expected") end
    if x:dim() == 3 then return store(res, single(x, k, mode)) end
    if x:size(1) ~= k:size(1) then argumentError(name, 2, 'as many kernels as input planes expected') end
    local outs = {}
    for i = 1, x:size(1) do outs[i] = single(x[i], k[i], mode) end
    local out = torch.Tensor():typeAs(x):resize(x:size(1), outs[1]:size(1), outs[1]:size(2),
                                                 outs[1]:size(3))
    for i = 1, #outs do out[i]:copy(outs[i]) end
    return store(res, out)
  end
end
volumetric('conv3', true)
volumetric('xcorr3', false)

-- torch.cross([res,] a, b [, dim]): the cross product along dim (default:
-- the first dimension of size 3).
function torch.cross(...)
  local res, a, b, dim = result(...)
  if not a:isSameSizeAs(b) then argumentError('cross', 2, 'the tensors differ in size') end
  if dim == nil then
    for d = 1, a:dim() do
      if a:size(d) == 3 then dim = d break end
    end
    if dim == nil then argumentError('cross', 1, 'no dimension of size 3') end
  end
  if a:size(dim) ~= 3 then argumentError('cross', 3, 'dimension ' .. dim .. ' is not of size 3') end
  local function c(t, i) return t:narrow(dim, i, 1) end
  local out = a:clone()
  c(out, 1):copy(c(a, 2):clone():cmul(c(b, 3)):add(-1, c(a, 3):clone():cmul(c(b, 2))))
  c(out, 2):copy(c(a, 3):clone():cmul(c(b, 1)):add(-1, c(a, 1):clone():cmul(c(b, 3))))
  c(out, 3):copy(c(a, 1):clone():cmul(c(b, 2)):add(-1, c(a, 2):clone():cmul(c(b, 1))))
  return store(res, out)
end

-- Counts of the values in [lo, hi] in `bins` equal bins, into the vector
-- `counts` (made first, so that the tensor budget bounds it); lo == hi
-- takes the values' own range.
local function histogram(values, counts, lo, hi)
  local bins = counts:size(1)
  if lo == hi then
    lo, hi = math.huge, -math.huge
    for _, v in ipairs(values) do
      lo, hi = math.min(lo, v), math.max(hi, v)
    end
    if #values == 0 then lo, hi = 0, 0 end
  end
  if lo == hi then lo, hi = lo - 1, hi + 1 end
  local hits = {}
  for _, v in ipairs(values) do
    if v >= lo and v <= hi then
      local bin = math.min(math.floor((v - lo) / (hi - lo) * bins) + 1, bins)
      hits[bin] = (hits[bin] or 0) + 1
    end
  end
  counts:zero()
  for bin, count in pairs(hits) do counts[bin] = count end
  return counts
end

local function histogramArguments(name, bins, lo, hi)
  bins, lo, hi = bins or 100, lo or 0, hi or 0
  if type(bins) ~= 'number' or bins < 1 or bins ~= math.floor(bins) then
    argumentError(name, 2, 'a number of bins >= 1 expected')
  end
  if lo > hi then argumentError(name, 3, 'min must not exceed max') end
  return bins, lo, hi
end

-- torch.histc([res,] x [, bins = 100 [, min = 0 [, max = 0]]])
function torch.histc(first, ...)
  local res, x = nil, first
  if isTensor(first) and isTensor((...)) then res, x = first, ... end
  local bins, lo, hi = histogramArguments('histc', select(res and 2 or 1, ...))
  local counts = torch.Tensor(bins)
  local values = x:nElement() > 0 and x:contiguous():view(x:nElement()):totable() or {}
  return store(res, histogram(values, counts, lo, hi):typeAs(x))
end

-- torch.bhistc([res,] x [, bins [, min [, max]]]): histc of each row of a
-- matrix (or of a vector, as one row).
function torch.bhistc(first, ...)
  local res, x = nil, first
  if isTensor(first) and isTensor((...)) then res, x = first, ... end
  local bins, lo, hi = histogramArguments('bhistc', select(res and 2 or 1, ...))
  local rows = x:dim() == 1 and x:view(1, x:size(1)) or x
  local out = torch.Tensor(rows:size(1), bins)
  for r = 1, rows:size(1) do histogram(rows[r]:totable(), out[r], lo, hi) end
  local value = out:typeAs(x)
  if x:dim() == 1 then value = value[1] end
  return store(res, value)
end

local methods = {}
function methods:cross(b, dim) return torch.cross(self, b, dim) end
function methods:histc(...) return torch.histc(self, ...) end
function methods:bhistc(...) return torch.bhistc(self, ...) end
for _, kind in ipairs(internal.kinds) do
  local class = internal.classes[kind.name .. 'Tensor']
  for name, f in pairs(methods) do class[name] = f end
end
