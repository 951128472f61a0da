-- The Lua half of torch_diff_test.py: runs every case of a case file
-- through dmlab.system.tensor and writes what each returned.
--
--   lua_run torch_diff_driver.lua OPS CASES INPUTS OUTPUT
--
-- OPS is a Lua chunk returning a table of functions, fn(T, a, b, c, d),
-- T being the tensor module and a, b, ... the case's inputs. CASES has
-- one line per case, tab-separated:
--   id  op-index  input  input ...
-- and each input is "Type:byteOffset:numElements:baseShape:views": the
-- elements are read from INPUTS, reshaped to baseShape ("3,4") and then
-- viewed by views ("transpose/1/2;narrow/1/2/3", applied left to right).
--
-- OUTPUT gets one line per case: the id, then "ok" and each result, or
-- "error" and the message, tab-separated. A result is "T Type shape values"
-- (row-major, comma-separated), "N value", "B true|false" or "nil"; numbers
-- are written with %.17g, so every double round-trips.
local tensor = require 'dmlab.system.tensor'

local opsFile, casesFile, inputsFile, outputFile = ...

local ops = assert(dofile(opsFile))

local function split(text, separator)
  local parts = {}
  for part in (text .. separator):gmatch('(.-)' .. separator) do
    parts[#parts + 1] = part
  end
  return parts
end

local function numbers(text)
  local list = {}
  if text ~= '' then
    for i, part in ipairs(split(text, ',')) do list[i] = assert(tonumber(part)) end
  end
  return list
end

local function readInput(spec)
  local fields = split(spec, ':')
  local t = tensor[fields[1]]{file = {
      name = inputsFile,
      byteOffset = tonumber(fields[2]),
      numElements = tonumber(fields[3])}}
  t = t:reshape(numbers(fields[4]))
  if fields[5] ~= '' then
    for _, view in ipairs(split(fields[5], ';')) do
      local words = split(view, '/')
      local args = {}
      for i = 2, #words do args[i - 1] = assert(tonumber(words[i])) end
      t = t[words[1]](t, unpack(args))
    end
  end
  return t
end

local function formatNumber(x)
  return string.format('%.17g', x)
end

local function formatResult(value)
  local kind = type(value)
  if kind == 'number' then return 'N ' .. formatNumber(value) end
  if kind == 'boolean' then return 'B ' .. tostring(value) end
  if kind == 'nil' then return 'nil' end
  local name = value:type():match('[^.]+$')
  local n = value:size()
  local shape = value:shape()
  local values = {}
  if n > 0 then
    local flat = value:clone():reshape{n}:val()
    if type(flat) == 'number' then flat = {flat} end
    for i = 1, n do values[i] = formatNumber(flat[i]) end
  end
  return 'T ' .. name .. ' ' .. table.concat(shape, ',') .. ' ' ..
      table.concat(values, ',')
end

local function pack(...)
  return {n = select('#', ...), ...}
end

local function oneLine(message)
  return (tostring(message):gsub('[\t\n]', ' '))
end

local function runCase(line)
  local fields = split(line, '\t')
  local inputs = {}
  for i = 3, #fields do inputs[#inputs + 1] = readInput(fields[i]) end
  local fn = ops[tonumber(fields[2])]
  local results = pack(pcall(fn, tensor, unpack(inputs, 1, #fields - 2)))
  if not results[1] then return fields[1] .. '\terror\t' .. oneLine(results[2]) end
  local out = {fields[1], 'ok'}
  for i = 2, results.n do out[#out + 1] = formatResult(results[i]) end
  return table.concat(out, '\t')
end

local output = assert(io.open(outputFile, 'w'))
-- Line by line, so that after a crash the first case with no result is the
-- one that crashed.
output:setvbuf('line')
for line in io.lines(casesFile) do
  -- An input that cannot be read is reported as the case's error too.
  local ok, result = pcall(runCase, line)
  if not ok then
    result = line:match('^[^\t]*') .. '\terror\t' .. oneLine(result)
  end
  output:write(result, '\n')
end
output:close()
