-- Every method and module function of dmlab.system.tensor, called many
-- times with arguments drawn at random from odd values (nil, NaN, huge,
-- negative, strings, tables, functions, empty, expanded, transposed and
-- invalid tensors). Any outcome but a crash is allowed, and each error must
-- name the function it came from. Under ./lab test --full this also runs
-- with ASan, LeakSanitizer and UBSan.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'
local host_test = require 'dmlab.system.host_test'

local CALLS_PER_SEED = 5000

local invalid
host_test.lend('DoubleTensor', {2, 2}, 0, function(t) invalid = t end)

-- New each call, since the call may change them.
local function tensors()
  return {
    tensor.DoubleTensor(3, 4):fill(1.5), tensor.FloatTensor(4):fill(-2),
    tensor.Int64Tensor{1, 2, 3}, tensor.ByteTensor{{1, 0}, {0, 1}}, tensor.DoubleTensor(),
    tensor.Int32Tensor(2, 3):fill(7), tensor.DoubleTensor(3, 4):transpose(1, 2),
    tensor.DoubleTensor(5):reverse(1), tensor.CharTensor(1):fill(-128),
    tensor.DoubleTensor(1):expand(4), tensor.DoubleTensor(2, 2, 2), invalid,
  }
end

local values = {0, 1, -1, 2, 3, 1e300, -1e300, 0 / 0, 1 / 0, 0.5, 2 ^ 53, -2 ^ 63, 'V', 'F', 'U',
                'L', 'N', 'x', {}, {1, 2}, {-1}, function() return 1 end, true, false}

-- The names of every method (from the method table) and module function.
local function functionNames()
  local methods, functions = {}, {}
  for name in pairs(debug.getmetatable(tensor.DoubleTensor(1)).__index) do
    methods[#methods + 1] = name
  end
  for name, value in pairs(tensor) do
    if type(value) == 'function' and not name:find('Tensor$') then
      functions[#functions + 1] = name
    end
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
  local calls, failures = 0, 0
  for _ = 1, CALLS_PER_SEED do
    local pool = tensors()
    local function pick()
      if math.random() < 0.5 then return pool[math.random(#pool)] end
      return values[math.random(#values + 1)]  -- one past the end: nil
    end
    local args = {}
    local n = math.random(0, 5)
    for i = 1, n do args[i] = pick() end
    local self = pool[math.random(#pool)]
    local name, call
    if math.random() < 0.5 then
      name = methods[math.random(#methods)]
      call = function() return self[name](self, unpack(args, 1, n)) end
    else
      name = functions[math.random(#functions)]
      call = function() return tensor[name](self, unpack(args, 1, n)) end
    end
    calls = calls + 1
    local ok, err = pcall(call)
    if not ok then
      failures = failures + 1
      testing.assertTrue(namesFunction(err, name),
                         'error of ' .. name .. ' does not name it: ' .. tostring(err))
    end
  end
  return calls, failures
end

testing.case('the method table and the module list every Torch7 group', function()
  local all = {}
  for _, name in ipairs(methods) do all[name] = true end
  for _, name in ipairs({'exp', 'lt', 'sum', 'sort', 'view', 'index', 'maskedFill', 'mm',
                         'conv2', 'gesv', 'uniform', 'resize', 'map'}) do
    testing.assertTrue(all[name] or tensor[name] ~= nil, name .. ' is missing')
  end
end)

for seed = 1, 6 do
  testing.case('random calls, seed ' .. seed .. ': no crash, every error names its function',
               function()
    local calls, failures = callAtRandom(seed)
    testing.assertEqual(calls, CALLS_PER_SEED)
    -- Most random argument lists are wrong; some must succeed, or the
    -- test would only exercise argument checks.
    testing.assertTrue(failures < calls, 'every call failed')
  end)
end

testing.run()
