-- host: mujoco
-- Reacher (easy), after the DeepMind Control Suite's published task: a
-- two-link arm starts at random joint angles and the target (0.05 m) at a
-- random angle and a distance uniform in [0.05, 0.20] m from the
-- shoulder; touch it with the finger. The reward is 1 while the finger
-- is within 0.06 m (target and finger sizes) of the target in the plane,
-- else 0: tolerance(distance, bounds {0, 0.06}). 1000 control steps
-- (20 s). The target's position is the custom observation TARGET
-- (float64 {x, y}), as the Control Suite offers it to agents.
local mujoco = require 'dmlab.system.mujoco'
local random = require 'dmlab.system.random'
local tensor = require 'dmlab.system.tensor'
local rewards = require 'dmlab.system.mujoco.rewards'

local kEpisodeSteps = 1000
local kRadii = 0.05 + 0.01
local touching = rewards.makeTolerance{bounds = {0, kRadii}}

local api = {}
local steps = 0
local finger, target
local targetPosition = tensor.DoubleTensor(2)

function api:model()
  return {file = 'models/reacher.xml', camera = 'fixed'}
end

function api:reset(state)
  finger, target = mujoco:body('finger'), mujoco:body('target')
  steps = 0
  state.qpos(1):uniform(-math.pi, math.pi)
  state.qpos(2):uniform(-math.rad(160), math.rad(160))
  local angle = random:uniformReal(0, 2 * math.pi)
  local radius = random:uniformReal(0.05, 0.20)
  targetPosition:val{radius * math.sin(angle), radius * math.cos(angle)}
  state.mocap_pos(1):narrow(1, 1, 2):copy(targetPosition)
end

function api:customObservationSpec()
  return {{name = 'TARGET', type = 'Doubles', shape = {2}}}
end

function api:customObservation(name)
  return targetPosition
end

function api:afterStep(state)
  steps = steps + 1
  local offset = state.xpos(target):narrow(1, 1, 2):clone():csub(state.xpos(finger):narrow(1, 1, 2))
  local distance = math.sqrt(offset:clone():cmul(offset):sum())
  local reward = touching(distance)
  return reward, steps >= kEpisodeSteps and 'truncated' or nil
end

return api
