-- Printing in Torch7's layout: a column of numbers for rank 1, rows of at
-- most 80 characters for rank 2, "(i,j,.,.) = " matrices above, then
-- "[torch.DoubleTensor of size 2x3]". Written in Lua, so a level's
-- printing runs under its instruction and memory limits.
local torch, internal = ...

local function exponent(x)
  if x == 0 then return 1 end
  return math.floor(math.log10(x)) + 1
end

-- The format, scale and width Torch7 chooses for the values of `t` (a
-- DoubleTensor).
local function numberFormat(t)
  local magnitude = t:clone():abs()
  local low, high = exponent(magnitude:min()), exponent(magnitude:max())
  if t:clone():floor():eq(t):all() then
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
  return '%' .. (high == 0 and 7 or high + 6) .. '.4f', nil, high == 0 and 7 or high + 6
end

local function formatValue(format, x)
  if x ~= x or x == math.huge or x == -math.huge then
    return (format:gsub('%.?%d*[def]$', 's')):format(tostring(x))
  end
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

-- Each matrix of a tensor of rank 3 or more, the first index fastest.
local function printSlices(t, shape, format, scale, width, out)
  local rank = #shape
  local counter = {}
  for i = 1, rank - 2 do counter[i] = 1 end
  while true do
    if #out > 0 then out[#out + 1] = '\n' end
    local m = t
    for i = 1, rank - 2 do m = m:select(1, counter[i]) end
    out[#out + 1] = '(' .. table.concat(counter, ',') .. ',.,.) = \n'
    printMatrix(m, format, scale, width, ' ', out)
    local i = 1
    while i <= rank - 2 do
      counter[i] = counter[i] + 1
      if counter[i] <= shape[i] then break end
      counter[i] = 1
      i = i + 1
    end
    if i > rank - 2 then return end
  end
end

local function tostringTensor(self)
  local name = self.__typename
  if self:dim() == 0 then return '[' .. name .. ' with no dimension]\n' end
  local t = self:double()
  local format, scale, width = numberFormat(t)
  local out = {}
  local shape = self:shape()
  if #shape == 1 then
    if scale then out[#out + 1] = ('%g *\n'):format(scale) end
    for i = 1, shape[1] do
      out[#out + 1] = formatValue(format, t[i] / (scale or 1)) .. '\n'
    end
  elseif #shape == 2 then
    printMatrix(t, format, scale, width, '', out)
  else
    printSlices(t, shape, format, scale, width, out)
  end
  out[#out + 1] = '[' .. name .. ' of size ' .. table.concat(shape, 'x') .. ']\n'
  return table.concat(out)
end

for _, kind in ipairs(internal.kinds) do
  internal.classes[kind.name .. 'Tensor'].__tostring = tostringTensor
end
