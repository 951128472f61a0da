-- Every method of the torch-flavoured tensors and every function of
-- dmlab.system.torch, called many times with arguments drawn at random from
-- odd values (as random_calls_test does for dmlab.system.tensor). Any
-- outcome but a crash or a hang is allowed, and each error must name the
-- function it came from.
local testing = require 'testing'
local torch = require 'dmlab.system.torch'
local host_test = require 'dmlab.system.host_test'

local CALLS_PER_SEED = 3000

local invalid
host_test.lend('DoubleTensor', {2, 2}, 0, function(t) invalid = t:torch() end)

-- New each call, since the call may change them.
local function objects()
  return {
    torch.DoubleTensor(3, 4):fill(1.5), torch.FloatTensor(4):fill(-2), torch.LongTensor({1, 2, 3}),
    torch.ByteTensor({{1, 0}, {0, 1}}), torch.DoubleTensor(), torch.IntTensor(2, 3):fill(7),
    torch.DoubleTensor(3, 4):t(), torch.HalfTensor(2), torch.CharTensor(1):fill(-128),
    torch.DoubleTensor(1):expand(4), torch.DoubleTensor(2, 2, 2), invalid,
    torch.LongStorage({2, 2}), torch.DoubleStorage(3), torch.Generator(),
  }
end

local values = {0, 1, -1, 2, 3, 1e300, -1e300, 0 / 0, 1 / 0, 0.5, 2 ^ 53, -2 ^ 63, 'V', 'F', 'U',
                'L', 'N', 'x', 'ascii', '1\n2\n', 'torch.FloatTensor', {}, {1, 2}, {-1}, {{}}, function() return 1 end,
                true, false}

-- Functions left out: they change the module for every later call
-- (setdefaulttensortype), define classes, are a test framework, or write
-- files (save, load: tests/lua/torch_serialize_test.lua has them).
local SKIPPED = {setdefaulttensortype = true, class = true, newmetatable = true, Tester = true,
                 TestSuite = true, setmetatable = true, save = true, load = true}

local function functionNames()
  local methods, functions = {}, {}
  for name, value in pairs(torch.DoubleTensor) do
    if type(value) == 'function' then methods[#methods + 1] = name end
  end
  for name, value in pairs(torch) do
    if type(value) == 'function' and not SKIPPED[name] then functions[#functions + 1] = name end
  end
  table.sort(methods)
  table.sort(functions)
  return methods, functions
end

local methods, functions = functionNames()

-- Whether `err` names `name` as 'name' or as 'Type:name'.
local function namesFunction(err, name)
  return type(err) == 'string' and
         (err:find("'" .. name .. "'", 1, true) or err:find(':' .. name .. "'", 1, true)) ~= nil
end

local function callAtRandom(seed)
  math.randomseed(seed)
  local calls, failures, unnamed = 0, 0, {}
  for _ = 1, CALLS_PER_SEED do
    local pool = objects()
    local function pick()
      if math.random() < 0.5 then return pool[math.random(#pool)] end
      return values[math.random(#values + 1)]  -- one past the end: nil
    end
    local args = {}
    local n = math.random(0, 5)
    for i = 1, n do args[i] = pick() end
    local self = pool[math.random(12)]
    local name, call
    if math.random() < 0.5 then
      name = methods[math.random(#methods)]
      call = function() return self[name](self, unpack(args, 1, n)) end
    else
      name = functions[math.random(#functions)]
      call = function() return torch[name](self, unpack(args, 1, n)) end
    end
    calls = calls + 1
    local ok, err = pcall(call)
    if not ok then
      failures = failures + 1
      if not namesFunction(err, name) then unnamed[#unnamed + 1] = name .. ': ' .. tostring(err) end
    end
  end
  return calls, failures, unnamed
end

for seed = 1, 4 do
  testing.case('random calls, seed ' .. seed .. ': no crash, every error names its function',
               function()
    local calls, failures, unnamed = callAtRandom(seed)
    testing.assertEqual(calls, CALLS_PER_SEED)
    testing.assertTrue(failures < calls, 'every call failed')
    testing.assertTrue(#unnamed == 0, #unnamed .. ' errors do not name their function, as:\n' ..
                       table.concat(unnamed, '\n', 1, math.min(#unnamed, 15)))
  end)
end

testing.run()
