-- host: mujoco
-- Point mass (easy), after the DeepMind Control Suite's published task:
-- the mass starts anywhere in the arena (each slide joint uniform in its
-- range); bring it to the target at the centre. The reward, in [0, 1], is
--   near target * small control:
--   near target = tolerance(distance, bounds {0, 0.015}, margin 0.015),
--   small control = (4 + mean over actuators of tolerance(ctrl, margin 1,
--                   value 0 at it, quadratic)) / 5.
-- 1000 control steps (20 s).
local mujoco = require 'dmlab.system.mujoco'
local rewards = require 'dmlab.system.mujoco.rewards'

local kEpisodeSteps = 1000
local kTargetSize = 0.015
local near = rewards.makeTolerance{bounds = {0, kTargetSize}, margin = kTargetSize}
local small = rewards.makeTolerance{margin = 1, valueAtMargin = 0, sigmoid = 'quadratic'}

local api = {}
local steps = 0
local mass, target

function api:model()
  return {file = 'models/point_mass.xml', camera = 'fixed'}
end

function api:reset(state)
  mass, target = mujoco:geom('pointmass'), mujoco:site('target')
  steps = 0
  state.qpos:uniform(-0.29, 0.29)
end

function api:afterStep(state)
  steps = steps + 1
  local offset = state.geom_xpos(mass):clone():csub(state.site_xpos(target))
  local distance = math.sqrt(offset:clone():cmul(offset):sum())
  local nearTarget = near(distance)
  local control = small(state.ctrl)
  local smallControl = (4 + control:sum() / control:size()) / 5
  return nearTarget * smallControl, steps >= kEpisodeSteps and 'truncated' or nil
end

return api
