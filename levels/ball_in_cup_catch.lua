-- host: mujoco
-- Ball in cup (catch), after the DeepMind Control Suite's published task:
-- the ball starts at rest above the cup and to one side of it (x
-- uniform in [0.1, 0.2] m from the cup's centre, left or right, z in
-- [0.15, 0.3] m), so that it falls beside the cup unless the cup moves
-- under it; catch it and keep it in the cup. The reward is 1 while the ball's centre
-- is inside the cup's target box (0.05 by 0.035 m half-sizes in x and z),
-- else 0. The cup's weight is carried by a constant applied force, set
-- once per episode in reset. 500 control steps of 0.02 s (10 s).
local mujoco = require 'dmlab.system.mujoco'
local random = require 'dmlab.system.random'
local tensor = require 'dmlab.system.tensor'

local kEpisodeSteps = 500
local kCupMass = 0.1
local kGravity = 9.81

local api = {}
local steps = 0
local ball, target, cupZ, ballX, ballZ
-- The ball's offset from the target, reused every step (no allocation);
-- and the ball's and the target's rows of the lent positions, views made
-- once an episode: the host lends the same arrays again every step, so
-- the views read each step's positions once state.xpos and
-- state.site_xpos are read (docs/mujoco.md, The state).
local offset = tensor.DoubleTensor(3)
local ballPosition, targetPosition

function api:model()
  return {file = 'models/ball_in_cup.xml', frameSkip = 2, camera = 'fixed'}
end

function api:reset(state)
  ball, target = mujoco:body('ball'), mujoco:site('target')
  cupZ, ballX, ballZ = mujoco:qvelIndex('cup_z'), mujoco:qposIndex('ball_x'),
                       mujoco:qposIndex('ball_z')
  steps = 0
  local side = random:uniformInt(0, 1) == 0 and -1 or 1
  state.qpos(ballX):val(side * random:uniformReal(0.1, 0.2))
  state.qpos(ballZ):uniform(0.15, 0.3)
  state.qfrc_applied(cupZ):val(kCupMass * kGravity)
  ballPosition, targetPosition = nil, nil
end

function api:afterStep(state)
  steps = steps + 1
  local xpos, siteXpos = state.xpos, state.site_xpos
  if ballPosition == nil then ballPosition, targetPosition = xpos(ball), siteXpos(target) end
  local d = offset:copy(ballPosition):csub(targetPosition):val()
  local inside = math.abs(d[1]) < 0.05 and math.abs(d[3]) < 0.035
  return inside and 1 or 0, steps >= kEpisodeSteps and 'truncated' or nil
end

return api
