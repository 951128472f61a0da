-- Torch7's random functions. Torch's default generator is
-- dmlab.system.random's (the value of require 'dmlab.system.random'), which
-- the engine seeds per episode, so Torch code in a level is deterministic
-- too; torch.Generator() makes an independent one.
local torch, internal = ...
local argumentError = internal.argumentError

local function defaultGenerator()
  return require('dmlab.system.random')
end

local function isGenerator(x)
  return type(x) == 'userdata' and not torch.isTensor(x) and not torch.isStorage(x)
      and pcall(function() return x.uniformInt end) and x.uniformInt ~= nil
end
internal.isGenerator = isGenerator

-- The generator (given first, or the default) and the remaining arguments.
local function withGenerator(...)
  local first = ...
  if isGenerator(first) then return ... end
  return defaultGenerator(), ...
end

local seeds = setmetatable({}, {__mode = 'k'})  -- generator -> its last seed

function torch.Generator()
  return defaultGenerator():Generator(0)
end

-- torch.manualSeed([gen,] seed)
function torch.manualSeed(...)
  local gen, seed = withGenerator(...)
  if type(seed) ~= 'number' then argumentError('manualSeed', 1, 'number expected') end
  gen:seed(seed)
  seeds[gen] = seed
end

-- torch.seed([gen]): seeds from the generator's own next draw (not the
-- clock, so that levels stay reproducible); returns the seed.
function torch.seed(...)
  local gen = withGenerator(...)
  local seed = gen:uniformInt(0, 2 ^ 53)
  gen:seed(seed)
  seeds[gen] = seed
  return seed
end

function torch.initialSeed(...)
  local gen = withGenerator(...)
  return seeds[gen] or 0
end

-- torch.random([gen,] [a,] [b]): an integer in [a, b], [1, b], or
-- [1, 2^32] with no bounds.
function torch.random(...)
  local gen, a, b = withGenerator(...)
  if a == nil then return gen:uniformInt(1, 2 ^ 32) end
  if b == nil then return gen:uniformInt(1, a) end
  return gen:uniformInt(a, b)
end

function torch.uniform(...)
  local gen, a, b = withGenerator(...)
  return gen:uniformReal(a or 0, b or 1)
end

function torch.normal(...)
  local gen, mean, stdv = withGenerator(...)
  return gen:normalDistribution(mean or 0, stdv or 1)
end

-- The scalar forms of the other distributions, by the tensor fills, with
-- their parameters' defaults (none: required).
for name, defaults in pairs({exponential = {1}, cauchy = {0, 1}, logNormal = {1, 2},
                             geometric = {false}, bernoulli = {0.5}}) do
  torch[name] = function(...)
    local gen, p1, p2 = withGenerator(...)
    local t = torch.DoubleTensor(1)
    if #defaults == 1 then
      t[name](t, gen, p1 or defaults[1] or nil)
    else
      t[name](t, gen, p1 or defaults[1], p2 or defaults[2])
    end
    return t[1]
  end
end

-- torch.getRNGState([gen]): a ByteTensor holding the generator's state;
-- torch.setRNGState([gen,] state) goes back to it.
function torch.getRNGState(...)
  local gen = withGenerator(...)
  local text = internal.rngState(gen)
  return torch.ByteTensor({text:byte(1, -1)})
end

function torch.setRNGState(...)
  local gen, state = withGenerator(...)
  if not torch.isTensor(state) or state:type() ~= 'torch.ByteTensor' then
    argumentError('setRNGState', 1, 'a ByteTensor from getRNGState expected')
  end
  local bytes = state:totable()
  local characters = {}
  for i = 1, #bytes do characters[i] = string.char(bytes[i]) end
  internal.setRngState(gen, table.concat(characters))
  return state
end

-- torch.multinomial([res,] prob, n [, replacement = false]): n draws of an
-- index (1-based) per row of prob (a vector or a matrix of weights). Without
-- replacement each index is drawn at most once.
function torch.multinomial(...)
  local res, prob, n, replacement
  local first, second = ...
  if torch.isTensor(first) and torch.isTensor(second) then
    res, prob, n, replacement = ...
  else
    prob, n, replacement = ...
  end
  if not torch.isTensor(prob) or prob:dim() < 1 or prob:dim() > 2 then
    argumentError('multinomial', 1, 'a vector or matrix of probabilities expected')
  end
  if type(n) ~= 'number' or n < 1 then argumentError('multinomial', 2, 'a number of samples >= 1 expected') end
  local gen = defaultGenerator()
  local rows = prob:dim() == 1 and prob:view(1, prob:size(1)) or prob
  if not replacement and n > rows:size(2) then
    argumentError('multinomial', 2, ('%d draws without replacement from %d categories'):format(
        n, rows:size(2)))
  end
  -- Made first, so that the tensor budget bounds n.
  local result = torch.LongTensor(rows:size(1), n)
  for r = 1, rows:size(1) do
    local weights = rows[r]:double():totable()
    local drawn = result[r]
    for s = 1, n do
      local i = gen:discreteDistribution(weights)
      drawn[s] = i
      if not replacement then weights[i] = 0 end
    end
  end
  if prob:dim() == 1 then result = result[1] end
  if res then
    res:resize(result:size()):copy(result)
    return res
  end
  return result
end

-- torch.multinomialAliasSetup(probs [, state]): {J, q}, the alias method's
-- tables (Walker's method), for torch.multinomialAlias(output, state).
function torch.multinomialAliasSetup(probs, state)
  if not torch.isTensor(probs) or probs:dim() ~= 1 then
    argumentError('multinomialAliasSetup', 1, 'a vector of probabilities expected')
  end
  local k = probs:size(1)
  local q = probs:double():div(probs:sum()):mul(k):totable()
  local alias = {}
  local small, large = {}, {}
  for i = 1, k do
    alias[i] = i
    if q[i] < 1 then small[#small + 1] = i else large[#large + 1] = i end
  end
  while #small > 0 and #large > 0 do
    local s, l = table.remove(small), large[#large]
    alias[s] = l
    q[l] = q[l] + q[s] - 1
    if q[l] < 1 then
      table.remove(large)
      small[#small + 1] = l
    end
  end
  for _, i in ipairs(large) do q[i] = 1 end
  for _, i in ipairs(small) do q[i] = 1 end
  local J, Q = torch.LongTensor(alias), torch.DoubleTensor(q)
  if state then
    state[1]:resize(k):copy(J)
    state[2]:resize(k):copy(Q)
    return state
  end
  return {J, Q}
end

function torch.multinomialAlias(output, state)
  local J, q = state[1], state[2]:double()
  local n = output:nElement()
  if n == 0 then return output end
  local bucket = torch.LongTensor(n):random(1, J:size(1))
  local draw = torch.DoubleTensor(n):uniform()
  local picked = bucket:clone()
  local useAlias = draw:ge(q:index(1, bucket))
  picked[useAlias] = J:index(1, bucket)[useAlias]
  output:copy(picked)
  return output
end
