-- dmlab.system.mujoco.rewards: shaped rewards for MuJoCo levels.
--
-- tolerance(x, options) is the DeepMind Control Suite's building block,
-- from its published definition: 1 when x lies within options.bounds
-- ({lower, upper}, default {0, 0}), falling off outside them as
-- options.sigmoid says, to options.valueAtMargin (default 0.1) at
-- options.margin (default 0: then 0 outside the bounds) from the nearer
-- bound. x is a number or a DoubleTensor (elementwise, a new tensor).
-- makeTolerance(options) is the same as a function of x alone, with the
-- options checked once: for options fixed when a level loads.
--
--   local rewards = require 'dmlab.system.mujoco.rewards'
--   local upright = rewards.tolerance(cosine, {bounds = {0.95, 1}})
--   local still = rewards.tolerance(speed, {margin = 5})
--   local small = rewards.tolerance(ctrl, {margin = 1, valueAtMargin = 0,
--                                          sigmoid = 'quadratic'})
--   local smallControl = rewards.makeTolerance{margin = 1, valueAtMargin = 0,
--                                              sigmoid = 'quadratic'}
--   local small = smallControl(ctrl)
local rewards = {}

-- The loader's argument (hosts/mujoco/tolerance.h): makeMeasure(lower,
-- upper, margin, sigmoid, scale, fallback) gives the measure of checked
-- options natively, one C call a number.
local makeMeasure = ...

local log, sqrt, type = math.log, math.sqrt, type

local function acosh(y) return log(y + sqrt(y * y - 1)) end
local function atanh(y) return 0.5 * log((1 + y) / (1 - y)) end

-- Each sigmoid maps the distance d >= 0 (in margins) to (0, 1], with
-- f(1) = v, through a constant made from v once per options table (here);
-- the measure computes it from d and that constant every call:
--   gaussian      exp(-(d * s)^2 / 2)       hyperbolic  1 / cosh(d * s)
--   long_tail     1 / ((d * s)^2 + 1)       reciprocal  1 / (|d| * s + 1)
--   cosine        (1 + cos(pi d s)) / 2, 0 from |d s| = 1
--   linear        1 - d s, 0 from |d s| = 1
--   quadratic     1 - (d s)^2, 0 from |d s| = 1
--   tanh_squared  1 - tanh(d * s)^2
local scales = {
  gaussian = function(v) return sqrt(-2 * log(v)) end,
  hyperbolic = function(v) return acosh(1 / v) end,
  long_tail = function(v) return sqrt(1 / v - 1) end,
  reciprocal = function(v) return 1 / v - 1 end,
  cosine = function(v) return math.acos(2 * v - 1) / math.pi end,
  linear = function(v) return 1 - v end,
  quadratic = function(v) return sqrt(1 - v) end,
  tanh_squared = function(v) return atanh(sqrt(1 - v)) end,
}

-- Sigmoids that may reach 0 at the margin.
local reachesZero = {linear = true, quadratic = true, cosine = true}

-- The options' values, checked: lower, upper, margin, the sigmoid's name,
-- scale; or nil and what is wrong with them.
local function checkOptions(options)
  if type(options) ~= 'table' then
    return nil, 'argument #2 must be a table of options, not ' .. type(options)
  end
  local lower, upper = 0, 0
  local bounds = options.bounds
  if bounds ~= nil then lower, upper = bounds[1], bounds[2] end
  local margin = options.margin or 0
  local name = options.sigmoid or 'gaussian'
  local v = options.valueAtMargin or 0.1
  if type(lower) ~= 'number' or type(upper) ~= 'number' or not (lower <= upper) then
    return nil, 'bounds must be {lower, upper} with lower <= upper'
  end
  if type(margin) ~= 'number' or not (margin >= 0) then
    return nil, 'margin must be a number >= 0'
  end
  local scale = scales[name]
  if scale == nil then return nil, "unknown sigmoid '" .. tostring(name) .. "'" end
  if type(v) ~= 'number' or not (v < 1 and (v > 0 or (v == 0 and reachesZero[name]))) then
    return nil, 'valueAtMargin must be in (0, 1) (or 0 for linear, quadratic and cosine)'
  end
  return lower, upper, margin, name, scale(v)
end

-- The tolerance of x under checked options (function `name`, for its
-- errors): natively for a number, which runs every control step; a
-- tensor elementwise, through the same measure.
local function compile(name, lower, upper, margin, sigmoid, scale)
  local measure
  local function otherwise(x)
    if type(x) == 'userdata' and x.clone then return x:clone():apply(measure) end
    -- Level 3: the measure's caller (level 2 is the measure itself).
    error("'" .. name .. "': argument #1 must be a number or a tensor, not " .. type(x), 3)
  end
  measure = makeMeasure(lower, upper, margin, sigmoid, scale, otherwise)
  return measure
end

-- makeTolerance(options) checks options once and returns tolerance(x,
-- options) as a function of x alone: for options fixed when a level
-- loads, at about half the cost a call of tolerance(x, options).
function rewards.makeTolerance(options)
  local lower, upper, margin, at, scale = checkOptions(options)
  if lower == nil then error("'makeTolerance': " .. upper, 2) end
  return compile('makeTolerance function', lower, upper, margin, at, scale)
end

-- tolerance(x, options) remembers the function made of each options table
-- with the raw fields it was made from, and makes it again when one
-- changes (comparing is cheaper than checking).
local checked = setmetatable({}, {__mode = 'k'})

local function remember(options)
  local lower, upper, margin, at, scale = checkOptions(options)
  if lower == nil then error("'tolerance': " .. upper, 3) end
  local bounds = options.bounds
  local seen = {
    bounds = bounds, lower = bounds and bounds[1], upper = bounds and bounds[2],
    margin = options.margin, sigmoid = options.sigmoid, valueAtMargin = options.valueAtMargin,
    measure = compile('tolerance', lower, upper, margin, at, scale),
  }
  checked[options] = seen
  return seen
end

-- No options: bounds {0, 0}, no margin.
local measureWithDefaults = compile('tolerance', 0, 0, 0, 'gaussian', 0)

function rewards.tolerance(x, options)
  if options == nil then return measureWithDefaults(x) end
  local seen = checked[options]
  if seen == nil then
    seen = remember(options)
  else
    local bounds = options.bounds
    if bounds ~= seen.bounds or options.margin ~= seen.margin or
       options.sigmoid ~= seen.sigmoid or options.valueAtMargin ~= seen.valueAtMargin or
       (bounds ~= nil and (bounds[1] ~= seen.lower or bounds[2] ~= seen.upper)) then
      seen = remember(options)
    end
  end
  return seen.measure(x)
end

return rewards
