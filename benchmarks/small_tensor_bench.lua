-- Small tensors against Lua tables: what a level callback does with the
-- few numbers of a lent array (MuJoCo's qpos, a sensor), as a tensor
-- operation and as the same operation on a Lua table of the same numbers,
-- in one run. For 4, 16 and 64 elements:
--   val       t:val()                    a new table of the numbers:
--                                        {unpack(a)} or a copying loop,
--                                        whichever is faster
--   clone     t:clone()                  the same copy
--   narrow    t:narrow(1, 2, n / 2)      the slice {unpack(a, 2, n / 2 + 1)}
--   select    m:select(1, 2) of n x 4    the row m[2] copied ({unpack(r)});
--                                        reading m[2] alone is one table
--                                        read, which no view can match
--   sum, max  t:sum(), t:max()           a loop over a
-- Each figure is the best of seven runs in ns per operation, and the ratio
-- tensor / table (goal: at most 1.5, issue 49). Garbage is part of the
-- cost: both sides make their results and leave them to the collector.
--
--   bazel run -c opt //lua_api:lua_run -- $PWD/benchmarks/small_tensor_bench.lua
--   bazel run -c opt //lua_api:lua_run_luajit -- $PWD/benchmarks/small_tensor_bench.lua
local tensor = require 'dmlab.system.tensor'

local unpack = unpack or table.unpack
local clock = os.clock

local CALLS = 100000
local function best(f)
  local fastest = math.huge
  for _ = 1, 7 do
    local start = clock()
    f()
    fastest = math.min(fastest, clock() - start)
  end
  return fastest / CALLS * 1e9
end

local function copyLoop(a)
  local r = {}
  for i = 1, #a do r[i] = a[i] end
  return r
end

local function sumLoop(a)
  local s = 0
  for i = 1, #a do s = s + a[i] end
  return s
end

local function maxLoop(a)
  local m = a[1]
  for i = 2, #a do
    local x = a[i]
    if x > m then m = x end
  end
  return m
end

local function row(name, n, tensorNs, tableNs)
  io.write(string.format('%-8s %3d %10.1f %10.1f %7.2f\n', name, n, tensorNs, tableNs,
                         tensorNs / tableNs))
end

io.write(string.format('%-8s %3s %10s %10s %7s\n', 'op', 'n', 'tensor ns', 'table ns',
                       'ratio'))
for _, n in ipairs{4, 16, 64} do
  local a = {}
  for i = 1, n do a[i] = i * 0.5 end
  local t = tensor.DoubleTensor(a)
  local rows = {}
  for r = 1, n do rows[r] = {a[r], a[r], a[r], a[r]} end
  local m = tensor.DoubleTensor(rows)
  local half = n / 2

  local copy = math.min(
      best(function() for _ = 1, CALLS do local _ = {unpack(a)} end end),
      best(function() for _ = 1, CALLS do local _ = copyLoop(a) end end))
  row('val', n, best(function() for _ = 1, CALLS do local _ = t:val() end end), copy)
  row('clone', n, best(function() for _ = 1, CALLS do local _ = t:clone() end end), copy)
  row('narrow', n, best(function() for _ = 1, CALLS do local _ = t:narrow(1, 2, half) end end),
      best(function() for _ = 1, CALLS do local _ = {unpack(a, 2, half + 1)} end end))
  row('select', n, best(function() for _ = 1, CALLS do local _ = m:select(1, 2) end end),
      best(function() for _ = 1, CALLS do local _ = {unpack(rows[2])} end end))
  row('sum', n, best(function() for _ = 1, CALLS do local _ = t:sum() end end),
      best(function() for _ = 1, CALLS do local _ = sumLoop(a) end end))
  row('max', n, best(function() for _ = 1, CALLS do local _ = t:max() end end),
      best(function() for _ = 1, CALLS do local _ = maxLoop(a) end end))
end
