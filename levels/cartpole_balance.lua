-- host: mujoco
-- Cartpole balance, after the DeepMind Control Suite's published task:
-- the pole starts near upright and the cart near the centre; keep it so
-- for 1000 control steps (10 s). The smooth reward, in [0, 1], is
--   upright * centred * small control * small velocity:
--   upright = (cos(pole angle) + 1) / 2,
--   centred = (1 + tolerance(cart position, margin 2)) / 2,
--   small control = (4 + tolerance(ctrl, margin 1, value 0 at it,
--                   quadratic)) / 5,
--   small velocity = (1 + tolerance(pole angular velocity, margin 5)) / 2.
-- cartpole_swingup is the same with the pole starting down.
local rewards = require 'dmlab.system.mujoco.rewards'

local kEpisodeSteps = 1000

local api = {}
local steps = 0

function api:model()
  return {file = 'models/cartpole.xml', camera = 'fixed'}
end

function api:reset(state)
  steps = 0
  state.qpos(1):uniform(-0.1, 0.1)
  state.qpos(2):uniform(-0.034, 0.034)
  state.qvel:normal(0, 0.01)
end

local kCentred = {margin = 2}
local kSmallControl = {margin = 1, valueAtMargin = 0, sigmoid = 'quadratic'}
local kSmallVelocity = {margin = 5}

-- The Control Suite's smooth cartpole reward. The pole's angle cosine is
-- its xmat's zz, which for a pole hinged on a sliding cart is cos(qpos[2]).
function api:reward(state)
  local qpos, qvel = state.qpos:val(), state.qvel:val()
  local upright = (math.cos(qpos[2]) + 1) / 2
  local centred = (1 + rewards.tolerance(qpos[1], kCentred)) / 2
  local smallControl = (4 + rewards.tolerance(state.ctrl:val(), kSmallControl)) / 5
  local smallVelocity = (1 + rewards.tolerance(qvel[2], kSmallVelocity)) / 2
  return upright * centred * smallControl * smallVelocity
end

function api:afterStep(state)
  steps = steps + 1
  return self:reward(state), steps >= kEpisodeSteps and 'truncated' or nil
end

return api
