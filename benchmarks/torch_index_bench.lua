-- Torch7's indexing against the methods it stands for, in dmlab.system.torch:
-- x[i] against x:select(1, i) (a matrix row, and a vector's number) and
-- x[{i, j}] against x:select(1, i):select(1, j). Each figure is the best of
-- five runs, in ns per call, with the same loop's cost over a Lua table as
-- the baseline of the run.
--
--   bazel run -c opt //lua_api:lua_run -- $PWD/benchmarks/torch_index_bench.lua
--   bazel run -c opt //lua_api:lua_run_luajit -- $PWD/benchmarks/torch_index_bench.lua
local torch = require 'dmlab.system.torch'

local CALLS = 200000
local function best(f)
  local fastest = math.huge
  for _ = 1, 5 do
    local start = os.clock()
    f()
    fastest = math.min(fastest, os.clock() - start)
  end
  return fastest / CALLS * 1e9
end

local m = torch.Tensor(100, 100):fill(1)
local v = torch.Tensor(100):fill(1)
local plain = {}
for i = 1, 100 do plain[i] = 1 end

local rows = {
  {'lua table t[i] (baseline)', function() for i = 1, CALLS do local _ = plain[(i % 100) + 1] end end},
  {'matrix x[i]', function() for i = 1, CALLS do local _ = m[(i % 100) + 1] end end},
  {'matrix x:select(1, i)', function() for i = 1, CALLS do local _ = m:select(1, (i % 100) + 1) end end},
  {'vector x[i]', function() for i = 1, CALLS do local _ = v[(i % 100) + 1] end end},
  {'vector x:select(1, i)', function() for i = 1, CALLS do local _ = v:select(1, (i % 100) + 1) end end},
  {'matrix x[{i, j}]', function() for i = 1, CALLS do local _ = m[{(i % 100) + 1, 7}] end end},
  {'matrix x:select():select()', function()
    for i = 1, CALLS do local _ = m:select(1, (i % 100) + 1):select(1, 7) end
  end},
}
for _, row in ipairs(rows) do
  io.write(string.format('%-30s %10.1f ns/call\n', row[1], best(row[2])))
end
