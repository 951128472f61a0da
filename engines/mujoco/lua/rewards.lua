-- dmlab.system.mujoco.rewards: shaped rewards for MuJoCo levels.
--
-- tolerance(x, options) is the DeepMind Control Suite's building block,
-- from its published definition: 1 when x lies within options.bounds
-- ({lower, upper}, default {0, 0}), falling off outside them as
-- options.sigmoid says, to options.valueAtMargin (default 0.1) at
-- options.margin (default 0: then 0 outside the bounds) from the nearer
-- bound. x is a number or a DoubleTensor (elementwise, a new tensor).
--
--   local rewards = require 'dmlab.system.mujoco.rewards'
--   local upright = rewards.tolerance(cosine, {bounds = {0.95, 1}})
--   local still = rewards.tolerance(speed, {margin = 5})
--   local small = rewards.tolerance(ctrl, {margin = 1, valueAtMargin = 0,
--                                          sigmoid = 'quadratic'})
local rewards = {}

local function acosh(y) return math.log(y + math.sqrt(y * y - 1)) end
local function atanh(y) return 0.5 * math.log((1 + y) / (1 - y)) end

-- Each maps the distance d >= 0 (in margins) to (0, 1], with f(1) = v.
local sigmoids = {
  gaussian = function(d, v)
    local scale = math.sqrt(-2 * math.log(v))
    return math.exp(-0.5 * (d * scale) ^ 2)
  end,
  hyperbolic = function(d, v)
    return 1 / math.cosh(d * acosh(1 / v))
  end,
  long_tail = function(d, v)
    local scale = math.sqrt(1 / v - 1)
    return 1 / ((d * scale) ^ 2 + 1)
  end,
  reciprocal = function(d, v)
    return 1 / (math.abs(d) * (1 / v - 1) + 1)
  end,
  cosine = function(d, v)
    local scaled = d * math.acos(2 * v - 1) / math.pi
    if math.abs(scaled) < 1 then return (1 + math.cos(math.pi * scaled)) / 2 end
    return 0
  end,
  linear = function(d, v)
    local scaled = d * (1 - v)
    if math.abs(scaled) < 1 then return 1 - scaled end
    return 0
  end,
  quadratic = function(d, v)
    local scaled = d * math.sqrt(1 - v)
    if math.abs(scaled) < 1 then return 1 - scaled * scaled end
    return 0
  end,
  tanh_squared = function(d, v)
    return 1 - math.tanh(d * atanh(math.sqrt(1 - v))) ^ 2
  end,
}

-- Sigmoids that may reach 0 at the margin.
local reachesZero = {linear = true, quadratic = true, cosine = true}

local function checkOptions(options)
  if options ~= nil and type(options) ~= 'table' then
    error("'tolerance': argument #2 must be a table of options, not " .. type(options), 3)
  end
  options = options or {}
  local bounds = options.bounds or {0, 0}
  local lower, upper = bounds[1], bounds[2]
  if type(lower) ~= 'number' or type(upper) ~= 'number' or lower > upper then
    error("'tolerance': bounds must be {lower, upper} with lower <= upper", 3)
  end
  local margin = options.margin or 0
  if type(margin) ~= 'number' or margin < 0 then
    error("'tolerance': margin must be a number >= 0", 3)
  end
  local name = options.sigmoid or 'gaussian'
  local sigmoid = sigmoids[name]
  if sigmoid == nil then
    error("'tolerance': unknown sigmoid '" .. tostring(name) .. "'", 3)
  end
  local v = options.valueAtMargin or 0.1
  if type(v) ~= 'number' or not (v < 1 and (v > 0 or (v == 0 and reachesZero[name]))) then
    error("'tolerance': valueAtMargin must be in (0, 1) (or 0 for linear, quadratic and " ..
          "cosine)", 3)
  end
  return lower, upper, margin, sigmoid, v
end

local function scalar(x, lower, upper, margin, sigmoid, v)
  if x >= lower and x <= upper then return 1 end
  if margin == 0 then return 0 end
  local d = (x < lower and lower - x or x - upper) / margin
  return sigmoid(d, v)
end

function rewards.tolerance(x, options)
  local lower, upper, margin, sigmoid, v = checkOptions(options)
  if type(x) == 'number' then return scalar(x, lower, upper, margin, sigmoid, v) end
  if type(x) == 'userdata' and x.clone then
    return x:clone():apply(function(value)
      return scalar(value, lower, upper, margin, sigmoid, v)
    end)
  end
  error("'tolerance': argument #1 must be a number or a tensor, not " .. type(x), 2)
end

return rewards
