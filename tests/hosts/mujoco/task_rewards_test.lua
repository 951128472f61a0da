-- The MuJoCo task levels' rewards against the Control Suite's published
-- formulas, computed here by hand, and tolerance() (its native measure
-- included) against its definition. The levels run outside the
-- simulator: dmlab.system.mujoco is a stand-in that names ids, and each
-- state is a table of plain tensors shaped like mjData's arrays.
local testing = require 'testing'
local tensor = require 'dmlab.system.tensor'

local levelsPath = ... or 'levels'

-- dmlab.system.mujoco.rewards and .tasks.cartpole are the host's, as it
-- loads them (tests/hosts/mujoco/mujoco_lua_run.cc); the simulator's
-- module is a stand-in.
local ids = {pole = 2, finger = 4, target = 5, pointmass = 2, ball = 3, cup_z = 2, ball_x = 3,
             ball_z = 4}
package.preload['dmlab.system.mujoco'] = function()
  local function id(_, name) return assert(ids[name], name) end
  return {body = id, geom = id, site = function() return 1 end, qposIndex = id, qvelIndex = id}
end
local rewards = require 'dmlab.system.mujoco.rewards'

local function level(name) return dofile(levelsPath .. '/' .. name .. '.lua') end

-- A state of plain tensors: nbody bodies, nq coordinates, nu actuators.
local function state(nq, nbody, nu)
  return {
    qpos = tensor.DoubleTensor(nq), qvel = tensor.DoubleTensor(nq),
    ctrl = tensor.DoubleTensor(nu), xmat = tensor.DoubleTensor(nbody, 9),
    xpos = tensor.DoubleTensor(nbody, 3), geom_xpos = tensor.DoubleTensor(nbody, 3),
    site_xpos = tensor.DoubleTensor(1, 3), mocap_pos = tensor.DoubleTensor(1, 3),
    qfrc_applied = tensor.DoubleTensor(nq),
  }
end

local function near(actual, expected, message)
  testing.assertTrue(math.abs(actual - expected) < 1e-12,
                     (message or '') .. ': expected ' .. expected .. ', got ' .. actual)
end

-- The published sigmoids at distance d (in margins), f(1) = v, by hand.
local function gaussian(d, v) return math.exp(-0.5 * (d * math.sqrt(-2 * math.log(v))) ^ 2) end
local function quadraticZero(d) return d < 1 and 1 - d * d or 0 end

testing.case('tolerance is 1 inside the bounds and valueAtMargin one margin out', function()
  for _, sigmoid in ipairs{'gaussian', 'hyperbolic', 'long_tail', 'reciprocal', 'cosine',
                           'linear', 'quadratic', 'tanh_squared'} do
    local options = {bounds = {-1, 2}, margin = 0.5, sigmoid = sigmoid, valueAtMargin = 0.3}
    near(rewards.tolerance(0.5, options), 1, sigmoid .. ' inside')
    near(rewards.tolerance(2, options), 1, sigmoid .. ' at the bound')
    near(rewards.tolerance(2.5, options), 0.3, sigmoid .. ' one margin above')
    near(rewards.tolerance(-1.5, options), 0.3, sigmoid .. ' one margin below')
    testing.assertTrue(rewards.tolerance(2.25, options) > 0.3, sigmoid .. ' half a margin')
  end
  near(rewards.tolerance(3, {margin = 0}), 0, 'no margin: outside is 0')
  near(rewards.tolerance(0.5, {margin = 1, sigmoid = 'quadratic', valueAtMargin = 0}), 0.75)
  near(rewards.tolerance(1.5, {margin = 1, sigmoid = 'linear', valueAtMargin = 0}), 0)
end)

-- Every sigmoid by its published formula, f(1) = v, at distances d (in
-- margins) within and past the margin: the native measure's arithmetic.
local function acosh(y) return math.log(y + math.sqrt(y * y - 1)) end
local function atanh(y) return 0.5 * math.log((1 + y) / (1 - y)) end
local function within(x, value) return math.abs(x) < 1 and value or 0 end
local published = {
  gaussian = gaussian,
  hyperbolic = function(d, v) return 1 / math.cosh(d * acosh(1 / v)) end,
  long_tail = function(d, v) return 1 / ((d * math.sqrt(1 / v - 1)) ^ 2 + 1) end,
  reciprocal = function(d, v) return 1 / (math.abs(d) * (1 / v - 1) + 1) end,
  cosine = function(d, v)
    local x = d * math.acos(2 * v - 1) / math.pi
    return within(x, (1 + math.cos(math.pi * x)) / 2)
  end,
  linear = function(d, v) local x = d * (1 - v) return within(x, 1 - x) end,
  quadratic = function(d, v) local x = d * math.sqrt(1 - v) return within(x, 1 - x * x) end,
  tanh_squared = function(d, v) return 1 - math.tanh(d * atanh(math.sqrt(1 - v))) ^ 2 end,
}

testing.case('each sigmoid follows its published formula', function()
  for sigmoid, formula in pairs(published) do
    for _, v in ipairs{0.1, 0.3, 0.75} do
      local measure = rewards.makeTolerance{bounds = {-1, 2}, margin = 0.5, sigmoid = sigmoid,
                                            valueAtMargin = v}
      for _, d in ipairs{0.25, 0.5, 1, 1.7, 3} do
        near(measure(2 + d * 0.5), formula(d, v), sigmoid .. ' above, d = ' .. d)
        near(measure(-1 - d * 0.5), formula(d, v), sigmoid .. ' below, d = ' .. d)
      end
    end
  end
end)

testing.case('tolerance reads an options table afresh whenever it changes', function()
  local options = {margin = 1}
  near(rewards.tolerance(2, options), gaussian(2, 0.1))
  options.margin = 2
  near(rewards.tolerance(2, options), gaussian(1, 0.1), 'a new margin')
  options.bounds = {0, 3}
  near(rewards.tolerance(2, options), 1, 'new bounds')
  options.bounds[2] = 1
  near(rewards.tolerance(2, options), gaussian(0.5, 0.1), 'a bound changed in place')
  options.valueAtMargin = 0.5
  near(rewards.tolerance(2, options), gaussian(0.5, 0.5), 'a new valueAtMargin')
  options.sigmoid = 'linear'
  near(rewards.tolerance(2, options), 1 - 0.5 * 0.5, 'a new sigmoid')
  options.margin = -1
  testing.assertError(function() rewards.tolerance(2, options) end, 'margin')
  options.margin = 0 / 0
  testing.assertError(function() rewards.tolerance(2, options) end, 'margin')
end)

testing.case('tolerance maps a tensor elementwise', function()
  local values = rewards.tolerance(tensor.DoubleTensor{0, 1, 2}, {margin = 1})
  testing.assertEqual(values:size(), 3)
  near(values(1):val(), 1)
  near(values(2):val(), 0.1)
  near(values(3):val(), gaussian(2, 0.1))
end)

testing.case('tolerance names its bad arguments', function()
  testing.assertError(function() rewards.tolerance('x') end, "'tolerance': argument #1")
  testing.assertError(function() rewards.tolerance(1, {bounds = {2, 1}}) end, 'lower <= upper')
  testing.assertError(function() rewards.tolerance(1, {margin = -1}) end, 'margin')
  testing.assertError(function() rewards.tolerance(1, {sigmoid = 'cubic'}) end, "'cubic'")
  testing.assertError(function() rewards.tolerance(1, {valueAtMargin = 0}) end, 'valueAtMargin')
  testing.assertError(function() rewards.tolerance(1, 5) end, 'table of options')
end)

testing.case("tolerance's errors point at its caller's line", function()
  local line = debug.getinfo(1, 'l').currentline
  local ok, message = pcall(function() rewards.tolerance(1, {margin = -1}) end)
  testing.assertTrue(message:find('task_rewards_test.lua:' .. line + 1 .. ':', 1, true) ~= nil,
                     message)
  local options = {margin = 1}
  rewards.tolerance(1, options)
  options.sigmoid = 'cubic'
  ok, message = pcall(function() rewards.tolerance(1, options) end)
  testing.assertTrue(message:find('task_rewards_test.lua:' .. line + 7 .. ':', 1, true) ~= nil,
                     'a changed table: ' .. message)
end)

testing.case('makeTolerance(options)(x) is tolerance(x, options), options checked once', function()
  local random = require 'dmlab.system.random'
  random:seed(7)
  for _, sigmoid in ipairs{'gaussian', 'hyperbolic', 'long_tail', 'reciprocal', 'cosine',
                           'linear', 'quadratic', 'tanh_squared'} do
    for _, options in ipairs{
      {bounds = {-1, 2}, margin = 0.5, sigmoid = sigmoid, valueAtMargin = 0.3},
      {margin = 2, sigmoid = sigmoid},
      {bounds = {0.5, 0.5}, sigmoid = sigmoid},
    } do
      local measure = rewards.makeTolerance(options)
      for _ = 1, 50 do
        local x = random:uniformReal(-5, 5)
        testing.assertEqual(measure(x), rewards.tolerance(x, options), sigmoid .. ' at ' .. x)
      end
      local xs = tensor.DoubleTensor{-3, -1, 0, 0.5, 2, 2.25, 4}
      testing.assertTrue(measure(xs) == rewards.tolerance(xs, options), sigmoid .. ' a tensor')
    end
  end
  local options = {margin = 1}
  local measure = rewards.makeTolerance(options)
  options.margin = 2
  near(measure(2), gaussian(2, 0.1), 'read when made: a later change is not seen')
  testing.assertError(function() measure('x') end, "'makeTolerance function': argument #1")
end)

testing.case("docs/mujoco.md's makeTolerance example runs", function()
  local doc = assert(io.open('docs/mujoco.md')):read('*a')
  local ran = 0
  for block in doc:gmatch('```lua\n(.-)```') do
    if block:find('makeTolerance', 1, true) then
      assert(loadstring(block, 'docs/mujoco.md'))()
      ran = ran + 1
    end
  end
  testing.assertEqual(ran, 1)
end)

testing.case('makeTolerance names its bad options at its caller', function()
  for _, bad in ipairs{
    {options = {bounds = {2, 1}}, says = 'lower <= upper'},
    {options = {margin = -1}, says = 'margin'},
    {options = {margin = 0 / 0}, says = 'margin'},
    {options = {sigmoid = 'cubic'}, says = "'cubic'"},
    {options = {valueAtMargin = 0}, says = 'valueAtMargin'},
    {options = 5, says = 'table of options'},
  } do
    local line = debug.getinfo(1, 'l').currentline
    local ok, message = pcall(function() rewards.makeTolerance(bad.options) end)
    testing.assertTrue(not ok and message:find("'makeTolerance': ", 1, true) ~= nil, message)
    testing.assertTrue(message:find(bad.says, 1, true) ~= nil, message)
    testing.assertTrue(message:find('task_rewards_test.lua:' .. line + 1 .. ':', 1, true) ~= nil,
                       message)
  end
end)

testing.case('cartpole: upright * centred * small control * small velocity', function()
  for _, name in ipairs{'cartpole_balance', 'cartpole_swingup'} do
    local api = level(name)
    local s = state(2, 2, 1)
    api:reset(s)
    for _, case in ipairs{
      {cart = 0, angle = 0, omega = 0, u = 0},
      {cart = 0.5, angle = 0.3, omega = 2, u = 0.5},
      {cart = -1.7, angle = math.pi, omega = -7, u = -1},
      {cart = 3, angle = 1, omega = 10, u = 0.9},
    } do
      s.qpos:val{case.cart, case.angle}
      s.qvel:val{0, case.omega}
      s.ctrl:val{case.u}
      s.xmat(2)(9):val(math.cos(case.angle))
      local upright = (math.cos(case.angle) + 1) / 2
      local centred = (1 + gaussian(math.abs(case.cart) / 2, 0.1)) / 2
      local smallControl = (4 + quadraticZero(math.abs(case.u))) / 5
      local smallVelocity = (1 + gaussian(math.abs(case.omega) / 5, 0.1)) / 2
      local reward, ended = api:afterStep(s)
      near(reward, upright * centred * smallControl * smallVelocity, name)
      testing.assertTrue(reward >= 0 and reward <= 1, 'in [0, 1]')
      testing.assertEqual(ended, nil)
    end
  end
end)

testing.case('cartpole: the episode is truncated after 1000 steps', function()
  local api = level('cartpole_balance')
  local s = state(2, 2, 1)
  api:reset(s)
  for _ = 1, 999 do testing.assertEqual(select(2, api:afterStep(s)), nil) end
  testing.assertEqual(select(2, api:afterStep(s)), 'truncated')
  api:reset(s)
  testing.assertEqual(select(2, api:afterStep(s)), nil, 'reset starts the count again')
end)

testing.case('cartpole: reset draws the published initial states', function()
  local balance, swingup = level('cartpole_balance'), level('cartpole_swingup')
  local s = state(2, 2, 1)
  for _ = 1, 50 do
    balance:reset(s)
    testing.assertTrue(math.abs(s.qpos(1):val()) <= 0.1, 'cart in [-0.1, 0.1]')
    testing.assertTrue(math.abs(s.qpos(2):val()) <= 0.034, 'pole within 0.034 of upright')
    swingup:reset(s)
    testing.assertTrue(math.abs(s.qpos(2):val() - math.pi) < 0.1, 'pole down')
  end
end)

testing.case('pendulum: 1 within 30 degrees of upright, else 0', function()
  local api = level('pendulum_swingup')
  local s = state(1, 2, 1)
  api:reset(s)
  for _, case in ipairs{{0, 1}, {29.9, 1}, {-29.9, 1}, {30.1, 0}, {90, 0}, {180, 0}} do
    s.xmat(2)(9):val(math.cos(math.rad(case[1])))
    near(api:afterStep(s), case[2], case[1] .. ' degrees')
  end
end)

testing.case('point mass: near target * small control', function()
  local api = level('point_mass_easy')
  local s = state(2, 2, 2)
  api:reset(s)
  for _, case in ipairs{
    {x = 0, y = 0, u = {0, 0}},
    {x = 0.01, y = 0.01, u = {1, 0}},
    {x = 0.02, y = -0.015, u = {0.5, -0.5}},
    {x = 0.2, y = 0.1, u = {-1, 1}},
  } do
    s.geom_xpos(2):val{case.x, case.y, 0.01}
    s.site_xpos(1):val{0, 0, 0.01}
    s.ctrl:val(case.u)
    local distance = math.sqrt(case.x ^ 2 + case.y ^ 2)
    local near_ = distance <= 0.015 and 1 or gaussian((distance - 0.015) / 0.015, 0.1)
    local control = (quadraticZero(math.abs(case.u[1])) + quadraticZero(math.abs(case.u[2]))) / 2
    near(api:afterStep(s), near_ * (4 + control) / 5, 'at ' .. case.x .. ', ' .. case.y)
  end
end)

testing.case('reacher: 1 while the finger is within 0.06 m of the target in the plane', function()
  local api = level('reacher_easy')
  local s = state(2, 5, 2)
  api:reset(s)
  local target = s.mocap_pos(1):val()
  local radius = math.sqrt(target[1] ^ 2 + target[2] ^ 2)
  testing.assertTrue(radius >= 0.05 and radius <= 0.20, 'the target is 0.05 to 0.20 m out')
  for _, case in ipairs{{0.05, 0, 5, 1}, {0.059, 0, 0, 1}, {0.061, 0, 0, 0}, {0, 0.3, 0, 0}} do
    s.xpos(5):val{0.1, 0.1, 0.01}
    s.xpos(4):val{0.1 + case[1], 0.1 + case[2], case[3]}  -- height does not count
    near(api:afterStep(s), case[4], 'offset ' .. case[1] .. ', ' .. case[2])
  end
end)

testing.case('ball in cup: 1 while the ball is inside the target box', function()
  local api = level('ball_in_cup_catch')
  local s = state(4, 3, 2)
  api:reset(s)
  local x, z = s.qpos(3):val(), s.qpos(4):val()
  testing.assertTrue(math.abs(x) >= 0.1 and math.abs(x) <= 0.2, 'the ball starts to one side')
  testing.assertTrue(z >= 0.15 and z <= 0.3, 'and above')
  near(s.qfrc_applied(2):val(), 0.1 * 9.81, "the cup's weight is carried")
  s.site_xpos(1):val{0.2, 0, 0.6}
  for _, case in ipairs{{0, 0, 1}, {0.049, 0.034, 1}, {-0.049, -0.034, 1}, {0.051, 0, 0},
                        {0, 0.036, 0}, {0, 0.5, 0}} do
    s.xpos(3):val{0.2 + case[1], 0.3, 0.6 + case[2]}  -- y does not count
    near(api:afterStep(s), case[3], 'offset ' .. case[1] .. ', ' .. case[2])
  end
  for _ = 7, 499 do api:afterStep(s) end
  testing.assertEqual(select(2, api:afterStep(s)), 'truncated', 'after 500 steps')
end)

testing.run()
