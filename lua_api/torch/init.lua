-- dmlab.system.torch: Torch7's `torch` over dmlab.system.tensor's core.
--
-- The C++ half (torch_flavour.h) made the class tables (torch.DoubleTensor
-- ...), filled with dmlab.system.tensor's methods wrapped to keep the Torch
-- flavour, and Torch7's indexing. These files add what Torch7 names or
-- means differently (docs/torch.md):
--   types.lua     constructors, type names, conversions, the default type
--   storage.lua   torch.*Storage
--   tensor.lua    methods that differ from dmlab.system.tensor's; operators
--   print.lua     Torch7's printing
--   random.lua    the random functions, over dmlab.system.random's generators
--   functions.lua Torch7's result-tensor forms of the module functions
--   maths.lua     conv3, xcorr3, cross, histc, bhistc
--   serialize.lua torch.serialize/deserialize, torch.save/load (Torch7's format)
--   cmdline.lua   torch.CmdLine
-- (paths.lua is the `paths` module's, lua_api/torch/paths_module.h.)
--   class.lua     torch.class and the metatable functions
--   tester.lua    torch.Tester and torch.TestSuite
local dmlab, internal = ...
local torch = {}

internal.dmlab = dmlab
-- Torch7's types and the dmlab.system.tensor constructors behind them.
internal.kinds = {
-- (HalfTensor has none: it is made as a FloatTensor and converted.)
  {name = 'Byte', dmlab = 'ByteTensor', size = 1},
  {name = 'Char', dmlab = 'CharTensor', size = 1},
  {name = 'Short', dmlab = 'Int16Tensor', size = 2},
  {name = 'Int', dmlab = 'Int32Tensor', size = 4},
  {name = 'Long', dmlab = 'Int64Tensor', size = 8},
  {name = 'Half', dmlab = 'FloatTensor', size = 2},
  {name = 'Float', dmlab = 'FloatTensor', size = 4},
  {name = 'Double', dmlab = 'DoubleTensor', size = 8},
}

-- Raises "bad argument #n to 'fn' (why)" at the caller of the function
-- that calls this.
function internal.argumentError(fn, n, why)
  error(("bad argument #%d to '%s' (%s)"):format(n, fn, why), 3)
end

-- f, whose errors name `name`: a message that does not already name it
-- becomes "'name': message" (without the position in these files).
local function finish(name, ok, ...)
  if ok then return ... end
  local message = ...
  if type(message) == 'string' and not message:find("'" .. name .. "'", 1, true) and
      not message:find(':' .. name .. "'", 1, true) then
    message = "'" .. name .. "': " .. message:gsub('^dmlab%.system%.torch/[%w_]+%.lua:%d+: ', '')
  end
  error(message, 0)
end

function internal.named(name, f)
  return function(...)
    return finish(name, pcall(f, ...))
  end
end

for _, file in ipairs({'types.lua', 'storage.lua', 'tensor.lua', 'print.lua', 'random.lua',
                       'class.lua', 'tester.lua'}) do
  internal.source(file)(torch, internal)
end
torch.setdefaulttensortype('torch.DoubleTensor')

-- Module functions: dmlab.system.tensor's, with torch-flavoured results.
local unpack = unpack or table.unpack
local function torchFlavoured(...)
  local results = {n = select('#', ...), ...}
  for i = 1, results.n do results[i] = internal.toTorch(results[i]) end
  return unpack(results, 1, results.n)
end

for name, f in pairs(dmlab) do
  if type(f) == 'function' and torch[name] == nil and not name:match('Tensor$') then
    torch[name] = function(...)
      return torchFlavoured(f(...))
    end
  end
end

internal.source('functions.lua')(torch, internal)
internal.source('maths.lua')(torch, internal)
internal.source('serialize.lua')(torch, internal)
internal.source('cmdline.lua')(torch, internal)

-- Torch7 lets the Lua collector see tensor memory when heap tracking is
-- on. Here it always does: tensors are charged to the state's tensor
-- budget, whose refusal runs a collection (docs/torch.md). The setting is
-- kept in torch._heaptracking, as Torch7 keeps it, and changes nothing.
function torch.setheaptracking(enabled)
  if type(enabled) ~= 'boolean' then internal.argumentError('setheaptracking', 1, 'boolean expected') end
  torch._heaptracking = enabled
end

-- torch.fromDmlab(t): t:torch(), a torch-flavoured tensor over t's elements.
function torch.fromDmlab(t)
  return t:torch()
end

-- Errors name their function for everything written in Lua here, but for
-- the class machinery and the test framework, which run callers' code, and
-- the methods that check their own arguments.
local UNNAMED = {class = true, Tester = true, TestSuite = true, CmdLine = true, type = true,
                 size = true}
for name, f in pairs(torch) do
  if type(f) == 'function' and not UNNAMED[name] and not internal.isCFunction(f) then
    torch[name] = internal.named(name, f)
  end
end
local wrapped = {}  -- one wrapper per function, shared by the classes
for _, kind in ipairs(internal.kinds) do
  local class = internal.classes[kind.name .. 'Tensor']
  for name, f in pairs(class) do
    if type(f) == 'function' and not UNNAMED[name] and not internal.isCFunction(f) then
      wrapped[f] = wrapped[f] or internal.named(name, f)
      class[name] = wrapped[f]
    end
  end
end

return torch
