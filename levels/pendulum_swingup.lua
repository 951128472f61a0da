-- host: mujoco
-- Pendulum swingup, after the DeepMind Control Suite's published task:
-- the pendulum starts at a uniformly random angle; the torque (at most 1,
-- too weak to lift it directly) must swing it up. The reward is 1 while
-- the pole is within 30 degrees of upright, else 0: tolerance(cos(angle),
-- bounds {cos 30 degrees, 1}). 1000 control steps (20 s).
local mujoco = require 'dmlab.system.mujoco'
local rewards = require 'dmlab.system.mujoco.rewards'

local kEpisodeSteps = 1000
local kCosineBound = math.cos(math.rad(30))
local upright = rewards.makeTolerance{bounds = {kCosineBound, 1}}

local api = {}
local steps = 0
local pole

function api:model()
  return {file = 'models/pendulum.xml', camera = 'fixed'}
end

function api:reset(state)
  pole = mujoco:body('pole')
  steps = 0
  state.qpos(1):uniform(-math.pi, math.pi)
end

function api:afterStep(state)
  steps = steps + 1
  local cosine = state.xmat(pole)(9):val()
  local reward = upright(cosine)
  return reward, steps >= kEpisodeSteps and 'truncated' or nil
end

return api
