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

local abs, cos, cosh, exp, log = math.abs, math.cos, math.cosh, math.exp, math.log
local pi, sqrt, tanh, type = math.pi, math.sqrt, math.tanh, type

local function acosh(y) return log(y + sqrt(y * y - 1)) end
local function atanh(y) return 0.5 * log((1 + y) / (1 - y)) end

-- Each sigmoid maps the distance d >= 0 (in margins) to (0, 1], with
-- f(1) = v: `scale` makes the constant from v (once per options table),
-- `at` the value from d and that constant (every call).
local sigmoids = {
  gaussian = {
    scale = function(v) return sqrt(-2 * log(v)) end,
    at = function(d, scale)
      local scaled = d * scale
      return exp(-0.5 * scaled * scaled)
    end,
  },
  hyperbolic = {
    scale = function(v) return acosh(1 / v) end,
    at = function(d, scale) return 1 / cosh(d * scale) end,
  },
  long_tail = {
    scale = function(v) return sqrt(1 / v - 1) end,
    at = function(d, scale)
      local scaled = d * scale
      return 1 / (scaled * scaled + 1)
    end,
  },
  reciprocal = {
    scale = function(v) return 1 / v - 1 end,
    at = function(d, scale) return 1 / (abs(d) * scale + 1) end,
  },
  cosine = {
    scale = function(v) return math.acos(2 * v - 1) / pi end,
    at = function(d, scale)
      local scaled = d * scale
      if abs(scaled) < 1 then return (1 + cos(pi * scaled)) / 2 end
      return 0
    end,
  },
  linear = {
    scale = function(v) return 1 - v end,
    at = function(d, scale)
      local scaled = d * scale
      if abs(scaled) < 1 then return 1 - scaled end
      return 0
    end,
  },
  quadratic = {
    scale = function(v) return sqrt(1 - v) end,
    at = function(d, scale)
      local scaled = d * scale
      if abs(scaled) < 1 then return 1 - scaled * scaled end
      return 0
    end,
  },
  tanh_squared = {
    scale = function(v) return atanh(sqrt(1 - v)) end,
    at = function(d, scale)
      local t = tanh(d * scale)
      return 1 - t * t
    end,
  },
}

-- Sigmoids that may reach 0 at the margin.
local reachesZero = {linear = true, quadratic = true, cosine = true}

-- The options' values, checked: lower, upper, margin, at, scale; or nil
-- and what is wrong with them.
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
  local sigmoid = sigmoids[name]
  if sigmoid == nil then return nil, "unknown sigmoid '" .. tostring(name) .. "'" end
  if type(v) ~= 'number' or not (v < 1 and (v > 0 or (v == 0 and reachesZero[name]))) then
    return nil, 'valueAtMargin must be in (0, 1) (or 0 for linear, quadratic and cosine)'
  end
  return lower, upper, margin, sigmoid.at, sigmoid.scale(v)
end

-- The tolerance of x under checked options: a closure, so that each call
-- reads upvalues rather than tables (this runs every control step, and in
-- Lua 5.1 each table read costs about as much as the arithmetic).
local function compile(name, lower, upper, margin, at, scale)
  local function measure(x)
    if type(x) == 'number' then
      if x >= lower and x <= upper then return 1 end
      if margin == 0 then return 0 end
      return at((x < lower and lower - x or x - upper) / margin, scale)
    end
    if type(x) == 'userdata' and x.clone then return x:clone():apply(measure) end
    error("'" .. name .. "': argument #1 must be a number or a tensor, not " .. type(x), 2)
  end
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
local measureWithDefaults = compile('tolerance', 0, 0, 0, sigmoids.gaussian.at, 0)

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
